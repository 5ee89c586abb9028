package jsontext

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestSpecialEveryByte: the eight-byte test agrees with the byte table
// for every byte value at every position, beside plain and high bytes.
func TestSpecialEveryByte(t *testing.T) {
	for _, fill := range []byte{'a', 0x7f, 0x80, 0xff, ' '} {
		for pos := range 8 {
			for c := range 256 {
				var b [8]byte
				for i := range b {
					b[i] = fill
				}
				b[pos] = byte(c)
				x := load8(b[:], 0)
				if got, want := special(x), !safe[c]; got != want {
					t.Fatalf("byte %#x at %d among %#x: special = %v, want %v", c, pos, fill, got, want)
				}
				high := byte(c) >= 0x80 || fill >= 0x80
				if got := asciiPlainRun(b[:], 0) == 0; got != (high || !safe[c]) {
					t.Fatalf("byte %#x at %d among %#x: asciiPlainRun stops = %v", c, pos, fill, got)
				}
			}
		}
	}
}

// TestPlain checks the whole-string test against the byte-wise rule for
// every length up to three blocks and a special byte at every position,
// where the overlapping blocks of short and odd lengths could miss one.
func TestPlain(t *testing.T) {
	for n := 0; n <= 24; n++ {
		s := make([]byte, n)
		for i := range s {
			s[i] = 'a' + byte(i)
		}
		if !plain(s) || !plain(string(s)) {
			t.Fatalf("length %d: plain text not plain", n)
		}
		for pos := range n {
			for _, c := range []byte{'"', '\\', 0, 0x1f, 0x7f, 0x80, 0xff} {
				b := append([]byte(nil), s...)
				b[pos] = c
				if got, want := plain(b), safe[c]; got != want {
					t.Fatalf("length %d, byte %#x at %d: plain = %v, want %v", n, c, pos, got, want)
				}
			}
		}
	}
}

// TestAppendStringEscapes checks the writer against the reader for every
// byte, alone and inside runs long enough for the eight-byte scan.
func TestAppendStringEscapes(t *testing.T) {
	for c := range 256 {
		for _, pad := range []int{0, 7, 8, 15, 16} {
			s := make([]byte, 0, 2*pad+1)
			for range pad {
				s = append(s, 'x')
			}
			s = append(s, byte(c))
			for range pad {
				s = append(s, 'y')
			}
			text := AppendString(nil, s)
			r := Reader{Buf: text}
			raw, esc := r.ReadString()
			if r.Failed() || r.Pos != len(text) {
				t.Fatalf("%q: read %q, %s", s, text, r.ErrMsg)
			}
			got := raw
			if esc {
				got = r.Unquote(nil, raw, 1)
			}
			if string(got) != string(s) {
				t.Fatalf("%q written %q read back %q", s, text, got)
			}
			cp := AppendCodePoints(nil, s)
			r = Reader{Buf: cp}
			raw, _ = r.ReadString()
			back, ok := r.CodePoints(nil, raw, 1)
			if r.Failed() || !ok || string(back) != string(s) {
				t.Fatalf("%q as code points %q read back %q", s, cp, back)
			}
			// The same text with every character escaped.
			var escaped []byte
			for _, b := range s {
				escaped = append(escaped, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			back, ok = r.CodePoints(nil, escaped, 1)
			if r.Failed() || !ok || string(back) != string(s) {
				t.Fatalf("%q escaped as %q read back %q", s, escaped, back)
			}
		}
	}
}

// TestAppendCodePointsMixed compares AppendCodePoints with the text of
// each byte alone (its code point's UTF-8, or the string writer's text of
// an ASCII byte) on random bytes of every mix of ASCII and binary runs.
func TestAppendCodePointsMixed(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		b := make([]byte, r.IntN(100))
		mix := r.IntN(4) // how often a byte is any byte rather than a letter
		for i := range b {
			if r.IntN(4) < mix {
				b[i] = byte(r.Uint32())
			} else {
				b[i] = 'a' + byte(r.IntN(26))
			}
		}
		want := []byte{'"'}
		for _, c := range b {
			if c >= 0x80 {
				want = utf8.AppendRune(want, rune(c))
			} else {
				s := AppendString(nil, []byte{c})
				want = append(want, s[1:len(s)-1]...)
			}
		}
		want = append(want, '"')
		if got := AppendCodePoints([]byte("x"), b); string(got[1:]) != string(want) || got[0] != 'x' {
			t.Fatalf("% x: got %q, want %q", b, got, want)
		}
	}
}
