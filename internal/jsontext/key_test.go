package jsontext

import (
	"bytes"
	"strings"
	"testing"
)

// TestKeyAppend checks that a Key appends the text Member gives, for
// names around the length that is stored as words, into buffers with and
// without room past their length, leaving what they held.
func TestKeyAppend(t *testing.T) {
	for n := range 40 {
		name := strings.Repeat("k", n)
		if n > 2 {
			name = "é" + name[2:] + `"` // an escape and a rune of two bytes
		}
		for _, first := range []bool{true, false} {
			k := NewKey(name, first)
			want := Member(name, first)
			if !bytes.Equal(k.Text(), want) {
				t.Fatalf("%q: Text %q, want %q", name, k.Text(), want)
			}
			for _, room := range []int{0, 1, keyRoom - 1, keyRoom, 64} {
				dst := make([]byte, 3, 3+room)
				copy(dst, "abc")
				got := k.Append(dst)
				if string(got[:3]) != "abc" || !bytes.Equal(got[3:], want) {
					t.Fatalf("%q (first %v) into room %d: %q, want abc%q", name, first, room, got, want)
				}
			}
		}
	}
}
