package avro_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// A map[string]any passed as itself (not behind a pointer) to Marshal,
// Append or Encoder.Encode, for a union of null and a map or a record:
// the map's interface word was read as the address of a map, so an empty
// map was written as null and a full one crashed.
func TestMarshalGenericMapByValueForUnion(t *testing.T) {
	cases := []struct {
		schema string
		v      map[string]any
		want   []byte
	}{
		{`["null",{"type":"map","values":"string"}]`, map[string]any{}, []byte{2, 0}},
		{`["null",{"type":"map","values":"string"}]`, map[string]any{"a": "b"}, []byte{2, 2, 2, 'a', 2, 'b', 0}},
		{`["null",{"type":"map","values":"string"}]`, nil, []byte{0}},
		{`["null",{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}]`, map[string]any{"a": "b"}, []byte{2, 2, 'b'}},
	}
	for _, c := range cases {
		s := schema.MustParse(c.schema)
		got, err := avro.Marshal(s, c.v)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("Marshal(%s, %v) = %x, %v; want %x", c.schema, c.v, got, err, c.want)
		}
		got, err = avro.Append([]byte{0xff}, s, c.v)
		if err != nil || !bytes.Equal(got, append([]byte{0xff}, c.want...)) {
			t.Errorf("Append(%s, %v) = %x, %v; want ff%x", c.schema, c.v, got, err, c.want)
		}
		var buf bytes.Buffer
		if err := avro.NewEncoder(&buf, s).Encode(c.v); err != nil || !bytes.Equal(buf.Bytes(), c.want) {
			t.Errorf("Encode(%s, %v) = %x, %v; want %x", c.schema, c.v, buf.Bytes(), err, c.want)
		}
		// The same through a pointer, which always worked.
		var v any = c.v
		if c.v == nil {
			v = nil
		}
		if got, err := avro.Marshal(s, &v); err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("Marshal(%s, &%v) = %x, %v; want %x", c.schema, c.v, got, err, c.want)
		}
		var back any
		if err := avro.Unmarshal(s, c.want, &back); err != nil {
			t.Errorf("Unmarshal(%s, %x): %v", c.schema, c.want, err)
		} else if c.v != nil && !cmp.Equal(back, any(c.v)) {
			t.Errorf("Unmarshal(%s, %x) = %v, want %v", c.schema, c.want, back, c.v)
		}
	}
}

// directMeta is a zero-size type that the structs below embed for their
// layout alone: one pointer beside zero-size fields.
type directMeta struct{} //nolint:unused // used for its layout, never accessed

type directBox struct {
	Q *int64 `avro:"q"`
}

// A struct of one pointer and zero-size fields, passed by value, is kept
// in the interface's data word itself by Go 1.26; Marshal took that word
// for a pointer to the struct, since only structs of one field were
// counted as stored so: a null written for a value, or a crash.
func TestMarshalPointerShapedStructByValue(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":{"type":"record","name":"Box","fields":[{"name":"q","type":["null","long"]}]}}]}`)
	zero := int64(0)
	type withMeta struct {
		directMeta            //nolint:unused // layout only
		B          *directBox `avro:"b"`
	}
	type metaAfter struct {
		B    *directBox `avro:"b"`
		Meta struct{}   `avro:"-"`
	}
	type oneField struct {
		B *directBox `avro:"b"`
	}
	for _, v := range []any{
		withMeta{B: &directBox{Q: &zero}},
		metaAfter{B: &directBox{Q: &zero}},
		oneField{B: &directBox{Q: &zero}},
	} {
		want := []byte{2, 0} // branch long, 0
		got, err := avro.Marshal(s, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Marshal(%T by value) = %x, %v; want %x", v, got, err, want)
		}
		if got, err := avro.Append(nil, s, v); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Append(%T by value) = %x, %v; want %x", v, got, err, want)
		}
	}
	ms := schema.MustParse(`{"type":"record","name":"M","fields":[{"name":"m","type":{"type":"map","values":"int"}}]}`)
	type mapMeta struct {
		directMeta                  //nolint:unused // layout only
		M          map[string]int32 `avro:"m"`
	}
	if got, err := avro.Marshal(ms, mapMeta{M: map[string]int32{"a": 1}}); err != nil || !bytes.Equal(got, []byte{2, 2, 'a', 2, 0}) {
		t.Errorf("Marshal(map and zero-size field by value) = %x, %v", got, err)
	}
}
