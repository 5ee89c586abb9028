package avrojson_test

import (
	"bytes"
	"errors"
	"math/big"
	"runtime"
	"strconv"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
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

// Writing a decimal as readable text takes more than linear time in its
// digits, so it is bounded by Decode.MaxDecimalScale, not by the
// precision a schema declares: a precision of 2^31-1 does not let a
// datum of a mebibyte be written as 2.5 million digits.
func TestReadableDecimalWriteBoundedWithHugePrecision(t *testing.T) {
	readable := avrojson.Options{Logical: avrojson.ReadableLogical}
	for _, p := range []int{2147483647, 5000} {
		s := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":` + strconv.Itoa(p) + `,"scale":0}`)
		datum := func(n int) []byte {
			return append(varint.AppendLong(nil, int64(n)), bytes.Repeat([]byte{0x7f}, n)...)
		}
		for _, c := range []struct {
			n  int
			ok bool
		}{{849, true}, {851, false}, {1 << 20, false}} {
			text, err := readable.BinaryToJSON(nil, s, datum(c.n))
			if c.ok != (err == nil) || !c.ok && !errors.Is(err, avro.ErrLimit) {
				t.Errorf("precision %d, %d bytes: %d bytes of text, %v; want ok %v", p, c.n, len(text), err, c.ok)
			}
		}
		more := readable
		more.Decode.MaxDecimalScale = 5000
		if _, err := more.BinaryToJSON(nil, s, datum(2000)); err != nil {
			t.Errorf("precision %d, 2000 bytes with MaxDecimalScale 5000: %v", p, err)
		}
	}
}
