package fuzz

import (
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

var numberFuzzSchema = schema.MustParse(`{"type":"record","name":"N","fields":[
 {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":30,"scale":4}},
 {"name":"fix","type":{"type":"fixed","name":"F","size":6,"logicalType":"decimal","precision":12,"scale":2}},
 {"name":"big","type":{"type":"bytes","logicalType":"big-decimal"}},
 {"name":"u","type":["null","int","double",{"type":"bytes","logicalType":"decimal","precision":9,"scale":1}]},
 {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"}}]}`)

type numberFuzz struct {
	Dec json.Number `avro:"dec"`
	Fix json.Number `avro:"fix"`
	Big json.Number `avro:"big"`
	U   json.Number `avro:"u"`
	TS  json.Number `avro:"ts"`
}

// FuzzJSONNumber writes arbitrary text as json.Number into every kind of
// schema that takes one, from a struct and from a map[string]any: the
// same bytes, or an ErrRange or ErrLimit, never a panic or an unbounded
// computation; the bytes read back as the number the text spells
// (exactly, or as its nearest float64 in the union's double branch).
func FuzzJSONNumber(f *testing.F) {
	for _, seed := range []string{
		"0", "-0", "6.17", "1e3", "-1.5E-2", "12345678901234567890", "1e999999999", "0.00001",
		"NaN", "1/3", "0x10", "01", "1.", "2147483648", "9223372036854775807", strings.Repeat("9", 40),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		n := json.Number(text)
		for k := range 5 {
			fields := [5]json.Number{"0", "0", "0", "0", "0"}
			fields[k] = n
			rec := numberFuzz{Dec: fields[0], Fix: fields[1], Big: fields[2], U: fields[3], TS: fields[4]}
			data, err := avro.Marshal(numberFuzzSchema, &rec)
			m := map[string]any{"dec": rec.Dec, "fix": rec.Fix, "big": rec.Big, "u": rec.U, "ts": rec.TS}
			fromMap, mapErr := avro.Marshal(numberFuzzSchema, m)
			if (err == nil) != (mapErr == nil) || err == nil && string(data) != string(fromMap) {
				t.Fatalf("%q: struct gives % x, %v; map gives % x, %v", text, data, err, fromMap, mapErr)
			}
			if err != nil {
				if !errors.Is(err, avro.ErrRange) && !errors.Is(err, avro.ErrLimit) {
					t.Fatalf("%q: %v, want ErrRange or ErrLimit", text, err)
				}
				continue
			}
			var back numberFuzz
			if err := avro.Unmarshal(numberFuzzSchema, data, &back); err != nil {
				t.Fatalf("%q: reading back % x: %v", text, data, err)
			}
			got := [5]json.Number{back.Dec, back.Fix, back.Big, back.U, back.TS}
			for i, g := range got {
				if i != k {
					if r, ok := new(big.Rat).SetString(string(g)); !ok || r.Sign() != 0 {
						t.Fatalf("%q: field %d, not written, read back %q", text, i, g)
					}
					continue
				}
				// Text a double takes that is no JSON number ("NaN",
				// "0x1p-2") is compared only where it is one.
				want, ok := new(big.Rat).SetString(text)
				if !ok || len(text) > 64 || strings.ContainsAny(text, "xXpP/_") {
					continue
				}
				r, ok := new(big.Rat).SetString(string(g))
				if !ok {
					t.Fatalf("%q: field %d read back %q, not a number", text, i, g)
				}
				if r.Cmp(want) == 0 {
					continue
				}
				// The union's double branch rounds to the nearest float64,
				// read back as the shortest text of that float64.
				wf, _ := want.Float64()
				if gf, err := strconv.ParseFloat(string(g), 64); i == 3 && err == nil && gf == wf {
					continue
				}
				t.Fatalf("%q: field %d read back %q", text, i, g)
			}
		}
	})
}
