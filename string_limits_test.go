package avro

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Strings shorter than 64 bytes take readString's one-byte-length path;
// it must apply every limit the general path does, at its boundaries.
func TestShortStringLimits(t *testing.T) {
	type pair struct {
		A string `avro:"a"`
		B string `avro:"b"`
	}
	s := propParse(t, `{"type":"record","name":"P","fields":[{"name":"a","type":"string"},{"name":"b","type":"string"}]}`)
	data := propCat(propStr("abc"), propStr("xyz"))

	// The budget is spent string by string: the second string is the one
	// past it, so the error names b.
	ae := errAs(t, DecodeOptions{MaxAlloc: 5}.Unmarshal(s, data, new(pair)), ErrLimit, "MaxAlloc 5, two 3-byte strings")
	if ae.Path != "b" {
		t.Errorf("MaxAlloc 5: path %q, want %q", ae.Path, "b")
	}
	// A string that takes the whole budget fits; one byte more does not.
	var got pair
	if err := (DecodeOptions{MaxAlloc: 6}).Unmarshal(s, data, &got); err != nil {
		t.Fatalf("MaxAlloc 6: %v", err)
	}
	if diff := cmp.Diff(pair{"abc", "xyz"}, got); diff != "" {
		t.Errorf("MaxAlloc 6 (-want +got):\n%s", diff)
	}
	sStr := propParse(t, `"string"`)
	errAs(t, DecodeOptions{MaxAlloc: 3}.Unmarshal(sStr, propStr("abcd"), new(string)), ErrLimit, "MaxAlloc 3, a 4-byte string")

	// MaxLength: equal passes, one over fails.
	var str string
	if err := (DecodeOptions{MaxLength: 4}).Unmarshal(sStr, propStr("abcd"), &str); err != nil || str != "abcd" {
		t.Errorf("MaxLength 4: %q, %v; want \"abcd\", nil", str, err)
	}
	errAs(t, DecodeOptions{MaxLength: 3}.Unmarshal(sStr, propStr("abcd"), new(string)), ErrLimit, "MaxLength 3")

	// A length one past the input is truncated; exactly the input is not.
	errAs(t, Unmarshal(sStr, propStr("abcd")[:4], new(string)), ErrTruncated, "4-byte length, 3 bytes")
	// A negative length (an odd one-byte varint) is invalid.
	errAs(t, Unmarshal(sStr, []byte{0x03, 'a'}, new(string)), ErrInvalid, "length -2")
	// ValidateUTF8 checks short strings too.
	errAs(t, DecodeOptions{ValidateUTF8: true}.Unmarshal(sStr, propStr("a\xffb"), new(string)), ErrInvalid, "invalid UTF-8")
	if err := Unmarshal(sStr, propStr("a\xffb"), &str); err != nil || str != "a\xffb" {
		t.Errorf("without ValidateUTF8: %q, %v; want the bytes as they are", str, err)
	}
	// The empty string.
	str = "old"
	if err := Unmarshal(sStr, propStr(""), &str); err != nil || str != "" {
		t.Errorf("empty: %q, %v", str, err)
	}
}
