package avrojson_test

import (
	"errors"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// Writing a uuid on string refuses text that is not 8-4-4-4-12
// hexadecimal digits (either case), in binary and in every JSON flavour;
// reading binary keeps the string, and into a [16]byte it is ErrInvalid.
func TestUUIDStringChecked(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"id","type":{"type":"string","logicalType":"uuid"}}]}`)
	type R struct {
		ID string `avro:"id"`
	}
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"123e4567-e89b-12d3-a456-426614174000", true},
		{"123E4567-E89B-12D3-A456-426614174000", true},
		{"not-a-uuid", false},
		{"123e4567e89b12d3a456426614174000", false},
		{"{123e4567-e89b-12d3-a456-426614174000}", false},
		{"123e4567-e89b-12d3-a456-42661417400g", false},
	} {
		_, err := avro.Marshal(s, &R{ID: c.id})
		var e *avro.Error
		if c.ok != (err == nil) || !c.ok && (!errors.Is(err, avro.ErrRange) || !errors.As(err, &e) || e.Path != "id") {
			t.Errorf("Marshal(%q) = %v, want ok %v (ErrRange at id)", c.id, err, c.ok)
		}
		var m any = map[string]any{"id": c.id}
		if _, err := avro.Marshal(s, m); c.ok != (err == nil) {
			t.Errorf("Marshal(map %q) = %v, want ok %v", c.id, err, c.ok)
		}
		text := []byte(`{"id":"` + c.id + `"}`)
		for _, o := range []avrojson.Options{{}, avrojson.Plain()} {
			if _, err := o.Marshal(s, &R{ID: c.id}); c.ok != (err == nil) {
				t.Errorf("avrojson Marshal(%q) = %v, want ok %v", c.id, err, c.ok)
			}
			_, err := o.JSONToBinary(nil, s, text)
			if c.ok != (err == nil) || !c.ok && !errors.Is(err, avro.ErrRange) {
				t.Errorf("JSONToBinary(%s) = %v, want ok %v", text, err, c.ok)
			}
			if err := o.Unmarshal(s, text, new(R)); c.ok != (err == nil) {
				t.Errorf("Unmarshal(%s) = %v, want ok %v", text, err, c.ok)
			}
			var v any
			if err := o.Unmarshal(s, text, &v); c.ok != (err == nil) {
				t.Errorf("Unmarshal any(%s) = %v, want ok %v", text, err, c.ok)
			}
		}
		// Binary written by others: a string keeps it, a [16]byte fails.
		bin := append([]byte{byte(2 * len(c.id))}, c.id...)
		var back R
		if err := avro.Unmarshal(s, bin, &back); err != nil || back.ID != c.id {
			t.Errorf("Unmarshal binary %q = %q, %v", c.id, back.ID, err)
		}
		var u struct {
			ID [16]byte `avro:"id"`
		}
		err = avro.Unmarshal(s, bin, &u)
		if c.ok != (err == nil) || !c.ok && (!errors.Is(err, avro.ErrInvalid) || !errors.As(err, &e) || e.Path != "id" || e.Offset < 0) {
			t.Errorf("Unmarshal binary %q into [16]byte = %v", c.id, err)
		}
	}
}
