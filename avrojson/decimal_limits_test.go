package avrojson_test

import (
	"errors"
	"math/big"
	"runtime"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// A decimal's declared precision does not bound the work of reading it:
// a short text with a large exponent would make a power of ten of any
// size. Reading bounds the exponent, less trailing zeros, by
// Decode.MaxDecimalScale (ErrLimit past it), as encoding a json.Number
// does, whatever the precision.
func TestDecimalReadingBoundedWithHugePrecision(t *testing.T) {
	s := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":2147483647,"scale":0}`)
	scaled := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":2147483647,"scale":2048}`)
	for _, o := range []avrojson.Options{avrojson.Plain(), {Logical: avrojson.ReadableLogical, DecimalStrings: true}} {
		for _, c := range []struct {
			s    *schema.Schema
			text string
			want error
		}{
			{s, `1e10000000`, avro.ErrLimit},
			{s, `"-9E+10000000"`, avro.ErrLimit},
			{s, `1e2049`, avro.ErrLimit},
			{s, `10e2048`, avro.ErrLimit},
			{s, `1e2048`, nil},
			{s, `100e2046`, nil},
			// The scale's digits are not the text's exponent.
			{scaled, `1.5`, nil},
			{scaled, `1e2048`, nil},
			{scaled, `1e2049`, avro.ErrLimit},
		} {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := o.JSONToBinary(nil, c.s, []byte(c.text))
			var r big.Rat
			err2 := o.Unmarshal(c.s, []byte(c.text), &r)
			var a any
			err3 := o.Unmarshal(c.s, []byte(c.text), &a)
			runtime.ReadMemStats(&after)
			for _, err := range []error{err, err2, err3} {
				if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
					t.Errorf("%s %s: %v, want %v", c.s, c.text, err, c.want)
				}
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("%s %s: reading allocated %d bytes", c.s, c.text, n)
			}
		}
	}
	// A larger MaxDecimalScale reads more, and what it reads encodes.
	o := avrojson.Plain()
	o.Decode.MaxDecimalScale = 5000
	bin, err := o.JSONToBinary(nil, s, []byte(`1e4000`))
	if err != nil {
		t.Fatal(err)
	}
	var r big.Rat
	if err := avro.Unmarshal(s, bin, &r); err != nil || r.Cmp(new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(4000), nil))) != 0 {
		t.Errorf("1e4000 with MaxDecimalScale 5000: %v", err)
	}
}
