package avro_test

import (
	"errors"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// A value.Value is checked against its logical type as the Go types of
// the underlying type are: a decimal's unscaled bytes beyond the
// precision and a uuid's text that is not RFC 4122 are ErrRange, with the
// path, in binary and in every JSON flavour; decoding keeps them.
func TestValueLogicalChecked(t *testing.T) {
	dec := `{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`
	fix := `{"type":"fixed","name":"F","size":8,"logicalType":"decimal","precision":3,"scale":0}`
	uuid := `{"type":"string","logicalType":"uuid"}`
	for _, c := range []struct {
		typ string
		v   value.Value
		ok  bool
	}{
		{dec, value.Bytes([]byte{0x00, 0xbc, 0x61, 0x4e}), false}, // 123456.78
		{dec, value.Bytes([]byte{0xd8, 0xf0}), false},             // -100.00
		{dec, value.Bytes([]byte{0x27, 0x0f}), true},              // 99.99
		{dec, value.String("\x27\x10"), false},                    // 100.00, as a string
		{fix, value.Fixed([]byte{0, 0, 0, 0, 0, 0, 3, 0xe8}), false},
		{fix, value.Bytes([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfc, 0x19}), true}, // -999
		{uuid, value.String("not-a-uuid"), false},
		{uuid, value.Bytes([]byte("123e4567-e89b-12d3-a456-42661417400g")), false},
		{uuid, value.String("123E4567-E89B-12D3-A456-426614174000"), true},
	} {
		s := schema.MustParse(c.typ)
		_, err := avro.Marshal(s, c.v)
		checkValueLogical(t, c.typ+" bare", err, c.ok, "")
		// In a record and a union, with the path.
		rec := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"f","type":["null",` + c.typ + `]}]}`)
		r := value.RecordOf(value.NewRecord(rec, []value.Value{c.v}))
		bin, err := avro.Marshal(rec, r)
		checkValueLogical(t, c.typ+" in a record", err, c.ok, "f")
		for _, o := range []avrojson.Options{{}, avrojson.Plain()} {
			_, err := o.Marshal(rec, r)
			checkValueLogical(t, c.typ+" avrojson", err, c.ok, "f")
		}
		if c.ok {
			var back value.Value
			if err := avro.Unmarshal(rec, bin, &back); err != nil {
				t.Errorf("%s: decoding what was written: %v", c.typ, err)
			}
		}
	}
}

func checkValueLogical(t *testing.T, what string, err error, ok bool, path string) {
	t.Helper()
	var e *avro.Error
	switch {
	case ok && err != nil:
		t.Errorf("%s: %v, want accepted", what, err)
	case !ok && (!errors.Is(err, avro.ErrRange) || !errors.As(err, &e) || path != "" && e.Path != path):
		t.Errorf("%s: %v, want ErrRange at %q", what, err, path)
	}
}
