package avro_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// point has binary methods that write 2 bytes.
type point struct{ x, y int8 }

func (p point) MarshalBinary() ([]byte, error) { return []byte{byte(p.x), byte(p.y)}, nil }

func (p *point) UnmarshalBinary(b []byte) error {
	if len(b) != 2 {
		return errors.New("a point is 2 bytes")
	}
	p.x, p.y = int8(b[0]), int8(b[1])
	return nil
}

// encoding.BinaryMarshaler and BinaryUnmarshaler serve bytes and fixed
// schemas, as the text methods serve strings.
func TestBinaryMethods(t *testing.T) {
	type rec struct {
		B point  `avro:"b"`
		F point  `avro:"f"`
		P *point `avro:"p"`
	}
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"b","type":"bytes"},
		{"name":"f","type":{"type":"fixed","name":"F2","size":2}},
		{"name":"p","type":["null","bytes"]}]}`)
	in := rec{B: point{1, -1}, F: point{2, 3}, P: &point{4, 5}}
	data, err := avro.Marshal(s, &in)
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{4, 1, 0xff, 2, 3, 2, 4, 4, 5}; !bytes.Equal(data, want) {
		t.Errorf("Marshal = % x, want % x", data, want)
	}
	var out rec
	if err := avro.Unmarshal(s, data, &out); err != nil || out.B != in.B || out.F != in.F || out.P == nil || *out.P != *in.P {
		t.Errorf("Unmarshal = %+v, %v", out, err)
	}
	// UnmarshalBinary's error, and a MarshalBinary of the wrong size for
	// a fixed, are errors at the field.
	var ae *avro.Error
	if err := avro.Unmarshal(s, []byte{2, 1, 2, 3, 0}, &out); !errors.As(err, &ae) || ae.Path != "b" || !errors.Is(err, avro.ErrInvalid) {
		t.Errorf("Unmarshal of a 1-byte point = %v, want ErrInvalid at b", err)
	}
	wide := schema.MustParse(`{"type":"record","name":"W","fields":[{"name":"f","type":{"type":"fixed","name":"F3","size":3}}]}`)
	_, err = avro.Marshal(wide, &struct {
		F point `avro:"f"`
	}{})
	if !errors.As(err, &ae) || ae.Path != "f" || !errors.Is(err, avro.ErrRange) || !strings.Contains(err.Error(), "size 3") {
		t.Errorf("Marshal of 2 bytes to a fixed of 3 = %v, want ErrRange at f", err)
	}
}
