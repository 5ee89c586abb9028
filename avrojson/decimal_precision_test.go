package avrojson_test

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// Reading JSON writes a datum, so it refuses a decimal with more digits
// than its precision, or more after the point than its scale, as
// avro.Marshal does, in every flavour and into every target.
func TestReadDecimalPrecision(t *testing.T) {
	cases := []struct {
		name, schema string
		text         string // readable text of the value
		bytes        string // the underlying value, as Avro JSON code points
		ok           bool
	}{
		{"bytes over precision", `{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`, `123456.78`, `"\u0000\u00bc\u0061\u004e"`, false},
		{"bytes at precision", `{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`, `99.99`, `"\u0027\u000f"`, true},
		{"bytes one past", `{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`, `-100.00`, `"\u00d8\u00f0"`, false},
		{"fixed over precision", `{"type":"fixed","name":"F","size":8,"logicalType":"decimal","precision":3,"scale":0}`, `1000`, `"\u0000\u0000\u0000\u0000\u0000\u0000\u0003\u00e8"`, false},
		{"fixed at precision", `{"type":"fixed","name":"F","size":8,"logicalType":"decimal","precision":3,"scale":0}`, `-999`, `"\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00fc\u0019"`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := schema.MustParse(c.schema)
			r, _ := new(big.Rat).SetString(c.text)
			_, merr := avro.Marshal(s, r)
			if (merr == nil) != c.ok {
				t.Fatalf("avro.Marshal(%s) = %v, want ok %v", c.text, merr, c.ok)
			}
			for _, f := range []struct {
				name string
				o    avrojson.Options
				text string
			}{
				{"plain", avrojson.Plain(), c.text},
				{"plain string", avrojson.Plain(), `"` + c.text + `"`},
				{"avro", avrojson.Options{}, c.bytes},
			} {
				var rat big.Rat
				var v any
				var raw []byte
				errs := map[string]error{
					"rat":          f.o.Unmarshal(s, []byte(f.text), &rat),
					"any":          f.o.Unmarshal(s, []byte(f.text), &v),
					"bytes target": f.o.Unmarshal(s, []byte(f.text), &raw),
				}
				_, errs["JSONToBinary"] = f.o.JSONToBinary(nil, s, []byte(f.text))
				for path, err := range errs {
					checkAgrees(t, f.name+" "+path, err, c.ok)
				}
			}
		})
	}
}

func checkAgrees(t *testing.T, what string, err error, ok bool) {
	t.Helper()
	if ok {
		if err != nil {
			t.Errorf("%s: %v, want accepted as avro.Marshal accepts it", what, err)
		}
		return
	}
	if !errors.Is(err, avro.ErrRange) {
		t.Errorf("%s: %v, want ErrRange as avro.Marshal refuses it", what, err)
	}
}

// The error of a decimal read in a record names its field and offset.
func TestReadDecimalPrecisionPath(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}}]}`)
	type R struct {
		Amount big.Rat `avro:"amount"`
	}
	for _, text := range []string{`{"amount":123456.78}`, `{"amount":"-12345"}`} {
		err := avrojson.Plain().Unmarshal(s, []byte(text), new(R))
		var e *avro.Error
		if !errors.As(err, &e) || !errors.Is(err, avro.ErrRange) || e.Path != "amount" || e.Offset != int64(strings.IndexByte(text, ':')+1) {
			t.Errorf("Unmarshal(%s) = %#v, want ErrRange at amount, offset %d", text, err, strings.IndexByte(text, ':')+1)
		}
	}
	// A scale past the schema's, on the same path.
	err := avrojson.Plain().Unmarshal(s, []byte(`{"amount":1.234}`), new(R))
	if !errors.Is(err, avro.ErrRange) {
		t.Errorf("scale: %v, want ErrRange", err)
	}
}
