package schema

import (
	"math/rand/v2"
	"testing"
)

// TestRabinWordsMatchBytes checks the 8-bytes-at-a-time CRC against the
// byte-at-a-time one of the specification, for every length up to 200 at
// every offset from an 8-byte boundary, and for a long input.
func TestRabinWordsMatchBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1<<16)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	for off := 0; off < 8; off++ {
		for n := 0; n <= 200; n++ {
			data := buf[off : off+n]
			if got, want := Rabin(data), rabinBytes(rabinEmpty, data); got != want {
				t.Fatalf("offset %d, %d bytes: Rabin %#x, byte at a time %#x", off, n, got, want)
			}
		}
	}
	if got, want := Rabin(buf), rabinBytes(rabinEmpty, buf); got != want {
		t.Fatalf("%d bytes: Rabin %#x, byte at a time %#x", len(buf), got, want)
	}
	// The specification's example: the fingerprint of "int".
	if got := Rabin([]byte(`"int"`)); got != 0x7275d51a3f395c8f {
		t.Fatalf(`Rabin("int") = %#x`, got)
	}
}
