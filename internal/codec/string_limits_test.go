package codec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Strings and bytes shorter than 64 take readShort's one-byte-length path;
// it must apply every limit the general path does, at its boundaries.
func TestShortStringLimits(t *testing.T) {
	testShortLimits(t, "string", func(s string) string { return s })
}

func TestShortBytesLimits(t *testing.T) {
	testShortLimits(t, "bytes", func(s string) []byte { return []byte(s) })

	// Empty bytes are not nil, which would read as null in ["null","bytes"].
	var b []byte
	if err := Unmarshal(propParse(t, `"bytes"`), propStr(""), &b); err != nil || b == nil || len(b) != 0 {
		t.Errorf("empty bytes: %#v, %v; want []byte{}, nil", b, err)
	}
	// ZeroCopy returns the input's bytes, even for a short value.
	data := propStr("abc")
	if err := (DecodeOptions{ZeroCopy: true}).Unmarshal(propParse(t, `"bytes"`), data, &b); err != nil {
		t.Fatalf("ZeroCopy: %v", err)
	}
	if &b[0] != &data[1] {
		t.Errorf("ZeroCopy: a short bytes value was copied")
	}
	// Without it the value is a copy with no spare capacity, so an append
	// to it cannot write over a neighbour in the shared chunk.
	if err := Unmarshal(propParse(t, `"bytes"`), data, &b); err != nil {
		t.Fatalf("copy: %v", err)
	}
	if &b[0] == &data[1] || cap(b) != 3 {
		t.Errorf("copy: aliases the input %v, cap %d; want a copy of cap 3", &b[0] == &data[1], cap(b))
	}
}

func testShortLimits[T string | []byte](t *testing.T, typ string, mk func(string) T) {
	type pair struct {
		A T `avro:"a"`
		B T `avro:"b"`
	}
	s := propParse(t, `{"type":"record","name":"P","fields":[{"name":"a","type":"`+typ+`"},{"name":"b","type":"`+typ+`"}]}`)
	data := propCat(propStr("abc"), propStr("xyz"))

	// The budget is spent value by value: the second one is past it, so
	// the error names b.
	ae := errAs(t, DecodeOptions{MaxAlloc: 5}.Unmarshal(s, data, new(pair)), ErrLimit, "MaxAlloc 5, two 3-byte values")
	if ae.Path != "b" {
		t.Errorf("MaxAlloc 5: path %q, want %q", ae.Path, "b")
	}
	// Values that take the whole budget fit; one byte more does not.
	var got pair
	if err := (DecodeOptions{MaxAlloc: 6}).Unmarshal(s, data, &got); err != nil {
		t.Fatalf("MaxAlloc 6: %v", err)
	}
	if diff := cmp.Diff(pair{mk("abc"), mk("xyz")}, got); diff != "" {
		t.Errorf("MaxAlloc 6 (-want +got):\n%s", diff)
	}
	single := propParse(t, `"`+typ+`"`)
	wantErr(t, DecodeOptions{MaxAlloc: 3}.Unmarshal(single, propStr("abcd"), new(T)), ErrLimit, "MaxAlloc 3, a 4-byte value")

	// MaxLength: equal passes, one over fails.
	var v T
	if err := (DecodeOptions{MaxLength: 4}).Unmarshal(single, propStr("abcd"), &v); err != nil || string(v) != "abcd" {
		t.Errorf("MaxLength 4: %q, %v; want \"abcd\", nil", v, err)
	}
	wantErr(t, DecodeOptions{MaxLength: 3}.Unmarshal(single, propStr("abcd"), new(T)), ErrLimit, "MaxLength 3")

	// A length one past the input is truncated; the longest short value
	// that the input holds exactly is not.
	wantErr(t, Unmarshal(single, propStr("abcd")[:4], new(T)), ErrTruncated, "4-byte length, 3 bytes")
	long := string(make([]byte, 63))
	if err := Unmarshal(single, propStr(long), &v); err != nil || string(v) != long {
		t.Errorf("63 bytes: %d bytes, %v", len(v), err)
	}
	// A negative length (an odd one-byte varint) is invalid.
	wantErr(t, Unmarshal(single, []byte{0x03, 'a'}, new(T)), ErrInvalid, "length -2")
	// The empty value.
	v = mk("old")
	if err := Unmarshal(single, propStr(""), &v); err != nil || len(v) != 0 {
		t.Errorf("empty: %q, %v", v, err)
	}
	if typ != "string" {
		return
	}
	// ValidateUTF8 checks short strings too.
	wantErr(t, DecodeOptions{ValidateUTF8: true}.Unmarshal(single, propStr("a\xffb"), new(T)), ErrInvalid, "invalid UTF-8")
	if err := Unmarshal(single, propStr("a\xffb"), &v); err != nil || string(v) != "a\xffb" {
		t.Errorf("without ValidateUTF8: %q, %v; want the bytes as they are", v, err)
	}
}
