package codec

import (
	"bytes"
	"errors"
	"testing"

	"github.com/avrogo/avro/schema"
)

// []byte and *string fields (bytes, and a union of null and string in
// either order): the bytes written, the values read, reuse of an existing
// pointee, and errors naming the field.
func TestOptionalStringAndBytesFields(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":["null","string"]},
		{"name":"b","type":["string","null"]},
		{"name":"c","type":"bytes"}]}`)
	type rec struct {
		A *string `avro:"a"`
		B *string `avro:"b"`
		C []byte  `avro:"c"`
	}
	str := func(s string) *string { return &s }
	cases := []struct {
		in   rec
		want []byte
	}{
		{rec{}, []byte{0x00, 0x02, 0x00}},
		{rec{A: str(""), B: str(""), C: []byte{}}, []byte{0x02, 0x00, 0x00, 0x00, 0x00}},
		{rec{A: str("hi"), B: str("yo"), C: []byte{7, 8}}, []byte{0x02, 0x04, 'h', 'i', 0x00, 0x04, 'y', 'o', 0x04, 7, 8}},
		{rec{A: nil, B: str("x"), C: []byte{9}}, []byte{0x00, 0x00, 0x02, 'x', 0x02, 9}},
	}
	for _, c := range cases {
		got, err := Marshal(s, &c.in)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, c.want) {
			t.Fatalf("Marshal(%+v) = % x, want % x", c.in, got, c.want)
		}
		var out rec
		if err := Unmarshal(s, got, &out); err != nil {
			t.Fatal(err)
		}
		same := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
		if !same(out.A, c.in.A) || !same(out.B, c.in.B) || !bytes.Equal(out.C, c.in.C) || out.C == nil {
			t.Fatalf("Unmarshal(% x) = %+v, want %+v", got, out, c.in)
		}
	}

	// Decoding into set pointers writes through them, and null clears them.
	keptA := "old"
	out := rec{A: &keptA, B: str("old b")}
	if err := Unmarshal(s, []byte{0x02, 0x02, 'z', 0x02, 0x00}, &out); err != nil {
		t.Fatal(err)
	}
	if out.A != &keptA || keptA != "z" || out.B != nil {
		t.Fatalf("decoded into set pointers: A=%p (%q), want %p; B=%v", out.A, keptA, &keptA, out.B)
	}

	// A branch index out of range, and input cut inside the string, fail
	// naming the field.
	for _, bad := range []struct {
		data []byte
		path string
		err  error
	}{
		{[]byte{0x04}, "a", ErrInvalid},
		{[]byte{0x01}, "a", ErrInvalid},
		{[]byte{0x00, 0x00, 0x08, 'a'}, "b", ErrTruncated},
		{[]byte{0x00, 0x02, 0x06, 1}, "c", ErrTruncated},
	} {
		var r rec
		err := Unmarshal(s, bad.data, &r)
		var ae *Error
		if !errors.Is(err, bad.err) || !errors.As(err, &ae) || ae.Path != bad.path {
			t.Fatalf("Unmarshal(% x): %v, want %v at %s", bad.data, err, bad.err, bad.path)
		}
	}
}
