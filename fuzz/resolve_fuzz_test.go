package fuzz

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/structgen"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// resolveSchemas are versions of a few schemas that evolve into each
// other in every way resolution knows (promotions, added and removed
// fields, reordering, aliases, enum defaults, unions on either side,
// recursion), plus unrelated ones that must fail cleanly.
var resolveSchemas = []string{
	`{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"},{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y","Z"]}}]}`,
	`{"type":"record","name":"R","fields":[{"name":"b","type":"bytes"},{"name":"a","type":"double"},{"name":"c","type":["null","long"],"default":null},{"name":"e","type":{"type":"enum","name":"E","symbols":["Z","X","U"],"default":"U"}}]}`,
	`{"type":"record","name":"R2","aliases":["R"],"fields":[{"name":"aa","aliases":["a"],"type":"long"},{"name":"m","type":{"type":"map","values":"float"},"default":{"k":1.5}}]}`,
	`{"type":"record","name":"R","fields":[{"name":"a","type":["null","int","string"]},{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"]}}]}`,
	`{"type":"record","name":"R","fields":[{"name":"a","type":"float"},{"name":"list","type":{"type":"array","items":{"type":"record","name":"I","fields":[{"name":"v","type":"int"},{"name":"w","type":"string"}]}},"default":[]}]}`,
	`{"type":"record","name":"R","fields":[{"name":"list","type":{"type":"array","items":{"type":"record","name":"I","fields":[{"name":"w","type":"bytes"},{"name":"x","type":"boolean","default":false}]}}},{"name":"a","type":"double"}]}`,
	`{"type":"record","name":"L","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","L"]}]}`,
	`{"type":"record","name":"L","fields":[{"name":"next","type":["null","L"]},{"name":"v","type":"long"},{"name":"t","type":"string","default":"t"}]}`,
	`["null","int","string",{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}]`,
	`["string","long","null"]`,
	`"int"`, `"long"`, `"double"`, `"string"`, `"bytes"`,
	`{"type":"map","values":["null",{"type":"fixed","name":"F","size":3}]}`,
	`{"type":"map","values":{"type":"fixed","name":"F","size":3}}`,
	`{"type":"array","items":{"type":"record","name":"Z","fields":[]}}`,
	`{"type":"array","items":{"type":"record","name":"Z","fields":[{"name":"p","type":"string","default":"pad"}]}}`,
}

func FuzzResolve(f *testing.F) {
	f.Add(uint8(0), uint8(1), uint64(1), []byte{2, 2, 'a', 0})
	f.Add(uint8(6), uint8(7), uint64(2), []byte{2, 2, 2, 4, 0})
	f.Add(uint8(17), uint8(18), uint64(3), []byte{0x80, 0x80, 0x40, 0})
	f.Add(uint8(8), uint8(9), uint64(4), []byte{6, 2})
	f.Add(uint8(4), uint8(5), uint64(5), []byte{0, 0, 0, 0, 1, 2, 2, 'x'})
	f.Add(uint8(2), uint8(0), uint64(6), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	var parsed []*schema.Schema
	for _, text := range resolveSchemas {
		parsed = append(parsed, schema.MustParse(text))
	}
	hostileDatums, _ := hostileCorpus(f, 512)
	for k, d := range hostileDatums {
		for _, pair := range [][2]uint8{{0, 1}, {6, 7}, {17, 18}, {8, 9}, {15, 16}, {4, 5}, {10, 11}} {
			f.Add(pair[0], pair[1], uint64(k), d)
		}
	}
	f.Fuzz(func(t *testing.T, wi, ri uint8, seed uint64, data []byte) {
		w := parsed[int(wi)%len(parsed)]
		r := parsed[int(ri)%len(parsed)]
		rs, err := schema.Resolve(w, r)
		compatErr := schema.CheckCompatibility(r, w)
		if err != nil {
			var ce *schema.CompatibilityError
			if !errors.As(err, &ce) || compatErr == nil {
				t.Fatalf("Resolve failed (%v) but CheckCompatibility says %v", err, compatErr)
			}
			return
		}
		// Random bytes: errors are fine, panics and untyped errors are not.
		var out any
		opts := avro.DecodeOptions{MaxAlloc: 1 << 20}
		if err := opts.Unmarshal(rs, data, &out); err != nil {
			var e *avro.Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
		} else {
			// What reads through the resolution is valid writer data:
			// resolution must not accept bytes the writer cannot have
			// written (a union or enum index beyond the writer's, read
			// as the reader's).
			var direct value.Value
			if err := opts.Unmarshal(w, data, &direct); err != nil && !errors.Is(err, avro.ErrLimit) {
				t.Fatalf("% x reads through the resolution but not as the writer: %v", data, err)
			}
		}
		var v value.Value
		_ = opts.Unmarshal(rs, data, &v)
		// A struct of the reader's shape reads the writer's bytes
		// directly (no transcoder): it must accept exactly the bytes the
		// transcoder accepts, limits aside. Half the time the struct
		// lacks some of the reader's fields, which must still be
		// validated: a skipped array or map block with a wrong byte size
		// is as bad as a decoded one.
		errAny := opts.Unmarshal(rs, data, new(any))
		typ := structgen.TypeOf(r)
		if seed&1 == 1 {
			typ = structgen.TypeOfSome(r, seed>>1)
		}
		st := reflect.New(typ)
		errStruct := opts.Unmarshal(rs, data, st.Interface())
		if errStruct != nil {
			var e *avro.Error
			if !errors.As(errStruct, &e) {
				t.Fatalf("untyped struct error %T: %v", errStruct, errStruct)
			}
		}
		if (errAny == nil) != (errStruct == nil) && !errors.Is(errAny, avro.ErrLimit) && !errors.Is(errStruct, avro.ErrLimit) {
			t.Fatalf("% x: any %v, struct %v", data, errAny, errStruct)
		}
		// A random datum of the writer reads with the reader; it may
		// fail only where CheckCompatibility saw a problem.
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		datum := randomDatum(w, rng, 0)
		enc, err := avro.Marshal(w, &datum)
		if err != nil {
			t.Fatalf("Marshal of a random datum: %v (%#v)", err, datum)
		}
		out = nil
		err = avro.Unmarshal(rs, enc, &out)
		if err != nil {
			if compatErr == nil || !errors.Is(err, avro.ErrInvalid) {
				t.Fatalf("decode of writer data: %v (compatibility: %v)", err, compatErr)
			}
			return
		}
		if err := avro.Unmarshal(rs, enc, &v); err != nil {
			t.Fatalf("value.Value decode failed where any succeeded: %v", err)
		}
		// Reading through the identity resolution is reading directly.
		if wi == ri {
			var direct any
			if err := avro.Unmarshal(w, enc, &direct); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(direct, out) {
				t.Fatalf("identity resolution changed the datum: %#v vs %#v", direct, out)
			}
		}
	})
}

// randomDatum builds a value of s in the generic model, with union values
// wrapped by branch name so that the branch is the one chosen here.
func randomDatum(s *schema.Schema, rng *rand.Rand, depth int) any {
	switch s.Kind() {
	case schema.Null:
		return nil
	case schema.Boolean:
		return rng.IntN(2) == 1
	case schema.Int:
		return int32(rng.Uint32())
	case schema.Long:
		return int64(rng.Uint64()) >> rng.IntN(64)
	case schema.Float:
		return float32(rng.NormFloat64())
	case schema.Double:
		return rng.NormFloat64()
	case schema.String:
		return string(randomBytes(rng))
	case schema.Bytes:
		return randomBytes(rng)
	case schema.Enum:
		return s.Symbols()[rng.IntN(len(s.Symbols()))]
	case schema.Fixed:
		b := make([]byte, s.Size())
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	case schema.Array:
		n := rng.IntN(4)
		if depth > 4 {
			n = 0
		}
		out := make([]any, n)
		for i := range out {
			out[i] = randomDatum(s.Items(), rng, depth+1)
		}
		return out
	case schema.Map:
		n := rng.IntN(4)
		if depth > 4 {
			n = 0
		}
		out := map[string]any{}
		for i := 0; i < n; i++ {
			out[string(randomBytes(rng))] = randomDatum(s.Values(), rng, depth+1)
		}
		return out
	case schema.Record:
		out := map[string]any{}
		for _, f := range s.Fields() {
			out[f.Name()] = randomDatum(f.Type(), rng, depth+1)
		}
		return out
	case schema.Union:
		bs := s.Branches()
		i := rng.IntN(len(bs))
		if depth > 4 {
			for j, b := range bs {
				if b.Kind() == schema.Null {
					i = j
				}
			}
		}
		if bs[i].Kind() == schema.Null {
			return nil
		}
		return map[string]any{bs[i].FullName(): randomDatum(bs[i], rng, depth+1)}
	}
	return nil
}

func randomBytes(rng *rand.Rand) []byte {
	b := make([]byte, rng.IntN(6))
	for i := range b {
		b[i] = 'a' + byte(rng.IntN(26))
	}
	return b
}
