package memcopy

import (
	"bytes"
	"fmt"
	"testing"
)

// pattern fills b with bytes that differ from their neighbours and from
// the guard value, so a shifted, short or long copy shows.
func pattern(b []byte, seed int) {
	for i := range b {
		b[i] = byte(i*7+seed)%251 + 1
	}
}

// checkCopy copies n bytes from src[so:] to a fresh dst at offset do and
// checks the result against the builtin copy, and that no byte outside
// dst[do:do+n] changed.
func checkCopy(t *testing.T, copyFn func(dst, src []byte) int, so, do, n int) {
	t.Helper()
	src := make([]byte, so+n+64)
	pattern(src, so+n)
	dst := make([]byte, do+n+64) // zero guard bytes around the target
	got := copyFn(dst[do:do+n], src[so:so+n])
	if got != n {
		t.Fatalf("src+%d dst+%d n=%d: copied %d", so, do, n, got)
	}
	if !bytes.Equal(dst[do:do+n], src[so:so+n]) {
		t.Fatalf("src+%d dst+%d n=%d: bytes differ", so, do, n)
	}
	if bytes.ContainsFunc(dst[:do], func(r rune) bool { return r != 0 }) ||
		bytes.ContainsFunc(dst[do+n:], func(r rune) bool { return r != 0 }) {
		t.Fatalf("src+%d dst+%d n=%d: wrote outside the destination", so, do, n)
	}
}

// TestCopyAlignments covers every source and destination offset within a
// 64-byte line, on lengths around the kernel threshold and the loop sizes.
func TestCopyAlignments(t *testing.T) {
	lengths := []int{0, 1, 31, 32, 100, minKernelLen - 1, minKernelLen, minKernelLen + 1,
		minKernelLen + 31, minKernelLen + 127, 4096, 8000, 65536 + 13}
	for so := 0; so < 64; so++ {
		for do := 0; do < 64; do += 1 + so%3 {
			for _, n := range lengths {
				checkCopy(t, Copy, so, do, n)
			}
		}
	}
}

// TestCopyLengths checks that Copy copies the shorter of the two lengths,
// as the builtin does.
func TestCopyLengths(t *testing.T) {
	src := make([]byte, 5001)
	pattern(src, 3)
	for _, c := range []struct{ dst, src int }{{5000, 3001}, {3001, 5000}, {4999, 4998}, {0, 5000}} {
		dst := make([]byte, c.dst)
		want := make([]byte, c.dst)
		if got, wantN := Copy(dst, src[1:1+c.src]), copy(want, src[1:1+c.src]); got != wantN {
			t.Fatalf("%+v: copied %d, builtin %d", c, got, wantN)
		}
		if !bytes.Equal(dst, want) {
			t.Fatalf("%+v: bytes differ from the builtin copy", c)
		}
	}
}

// TestCopyOverlap checks that overlapping ranges, in either direction,
// give what the builtin copy (memmove) gives.
func TestCopyOverlap(t *testing.T) {
	for _, shift := range []int{-4097, -33, -3, -1, 1, 3, 33, 4097} {
		for _, n := range []int{minKernelLen + 5, 8000} {
			buf := make([]byte, n+10000)
			pattern(buf, shift)
			want := bytes.Clone(buf)
			base := 5000 + 1 // misaligned, so only the overlap check stops the kernel
			copy(want[base+shift:base+shift+n], want[base:base+n])
			Copy(buf[base+shift:base+shift+n], buf[base:base+n])
			if !bytes.Equal(buf, want) {
				t.Fatalf("shift %d, n=%d: differs from memmove", shift, n)
			}
		}
	}
}

// BenchmarkCopy compares Copy with the builtin copy for 8,000 bytes (an
// array of 1,000 doubles) at source offsets 0-7 into an aligned
// destination, each op taking the next of 128 sources (1 MB) so the data
// comes from cache as in a decoder, not from L1.
func BenchmarkCopy(b *testing.B) {
	const n, pool = 8000, 128
	srcs := make([][]byte, pool)
	for i := range srcs {
		srcs[i] = make([]byte, n+64)
		pattern(srcs[i], i)
	}
	dst := make([]byte, n+64)
	for so := range 8 {
		for _, impl := range []struct {
			name string
			fn   func(dst, src []byte) int
		}{{"builtin", func(d, s []byte) int { return copy(d, s) }}, {"memcopy", Copy}} {
			b.Run(fmt.Sprintf("src=%d/impl=%s", so, impl.name), func(b *testing.B) {
				b.SetBytes(n)
				for i := 0; i < b.N; i++ {
					impl.fn(dst[:n], srcs[i%pool][so:so+n])
				}
			})
		}
	}
}
