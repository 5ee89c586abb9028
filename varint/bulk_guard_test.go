//go:build amd64 && linux && !purego

package varint

import (
	"math/rand/v2"
	"testing"
)

// TestKernelsStayInsideSrc runs the bulk decoders, and through them the
// CPU kernels, on inputs that end at an unreadable page: every load must
// stay inside src. The inputs mix value lengths (the block loop of
// mixedLongsBMI2 finds them from 32-byte masks and loads a word at each
// value's start), runs of one-byte values (the run kernels) and end with
// every length of value, cut or whole.
func TestKernelsStayInsideSrc(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for iter := 0; iter < 3000; iter++ {
		var vals []int64
		for n := 1 + r.IntN(120); n > 0; n-- {
			switch r.IntN(5) {
			case 0:
				for k := r.IntN(70); k > 0; k-- {
					vals = append(vals, int64(r.IntN(128))-64)
				}
			default:
				vals = append(vals, int64(r.Uint64())>>r.IntN(64))
			}
		}
		enc := AppendLongs(nil, vals)
		cut := len(enc)
		if iter%3 == 1 {
			cut = r.IntN(len(enc) + 1) // a truncated last value
		}
		_, src := guardedPages(t, cut)
		copy(src, enc[:cut])
		dst := make([]int64, len(vals))
		p, err := DecodeLongs(dst, src)
		if cut == len(enc) {
			if err != nil || p != len(enc) {
				t.Fatalf("whole input of %d values: %d bytes, %v", len(vals), p, err)
			}
			for i := range vals {
				if dst[i] != vals[i] {
					t.Fatalf("value %d: %d, want %d", i, dst[i], vals[i])
				}
			}
		} else if err == nil && cut < len(enc) {
			t.Fatalf("input cut at %d of %d bytes decoded without error", cut, len(enc))
		}
		if hasMixedLongsKernelISA() && len(src) > 0 {
			// The kernel alone (selected or not), from every kind of start.
			mixedLongsBMI2(dst, src)
			mixedLongsBMI2(dst, src[r.IntN(len(src)):])
		}
	}
}
