//go:build amd64 && linux && !purego

package varint

import (
	"bytes"
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"
)

// TestKernelsStayInsideSrc runs the bulk decoders, and through them the
// CPU kernels, on inputs that end at an unreadable page: every load must
// stay inside src. The inputs mix value lengths (the block loop of
// mixedLongsBMI2 finds them from 32-byte masks and loads a word at each
// value's start), runs of one-byte values (the run kernels) and end with
// every length of value, cut or whole.
func TestKernelsStayInsideSrc(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	_, guarded := guardedPages(t, 16<<10) // more than the longest input
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
		src := guarded[len(guarded)-cut:]
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
		} else if err == nil {
			t.Fatalf("input cut at %d of %d bytes decoded without error", cut, len(enc))
		}
		if hasMixedLongsKernelISA() && len(src) > 0 {
			// The kernel alone (selected or not), from every kind of start.
			mixedLongsBMI2(dst, src)
			mixedLongsBMI2(dst, src[r.IntN(len(src)):])
		}
	}
}

// guardedPages returns n bytes between two unreadable pages: the first
// starts right after one (head), the second ends right where one begins.
func guardedPages(t *testing.T, n int) (head, tail []byte) {
	t.Helper()
	page := syscall.Getpagesize()
	size := (n/page + 3) * page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Munmap(mem); err != nil {
			t.Error(err)
		}
	})
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(mem[size-page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	return mem[page : page+n : page+n], mem[size-page-n : size-page : size-page]
}

// TestMixedLongsBMI2Guarded runs the kernel with src starting after and
// ending at an unreadable page, and dst ending at one, for src lengths 0
// to 120 of streams with long invalid values and every 10th byte.
func TestMixedLongsBMI2Guarded(t *testing.T) {
	if !hasMixedLongsKernelISA() {
		t.Skip("no BMI2")
	}
	r := rand.New(rand.NewPCG(35, 36))
	srcHead, srcTail := guardedPages(t, 4096)
	_, dstMem := guardedPages(t, 8*200)
	dstAll := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(dstMem))), 200)
	for iter := 0; iter < 300; iter++ {
		var full []byte
		for len(full) < 120 {
			switch r.IntN(5) {
			case 0:
				full = append(full, validFill(r, 0, r.IntN(70))...)
			case 1:
				full = append(full, bytes.Repeat([]byte{0x80 | byte(r.IntN(128))}, 9+r.IntN(40))...)
			case 2:
				full = append(full, append(bytes.Repeat([]byte{0xff}, 9), byte(r.IntN(256)))...)
			default:
				full = AppendLong(full, int64(r.Uint64())>>r.IntN(64))
			}
		}
		for cut := 0; cut <= 120; cut++ {
			head := srcHead[:cut:cut]
			tail := srcTail[len(srcTail)-cut:]
			copy(head, full)
			copy(tail, full)
			for _, d := range dstLensFor(full[:cut]) {
				if d < 0 || d > 200 {
					continue
				}
				dst := dstAll[200-d:]
				for i := range dst {
					dst[i] = blockSentinel
				}
				n, p := mixedLongsBMI2(dst, tail)
				buf := append(append([]int64(nil), dst...), make([]int64, 8)...)
				for i := d; i < len(buf); i++ {
					buf[i] = blockSentinel
				}
				checkMixedBlocks(t, full[:cut:cut], d, buf, n, p)
				if n2, p2 := mixedLongsBMI2(dst, head); n2 != n || p2 != p {
					t.Fatalf("src % x: %d, %d at a page start, %d, %d at a page end", full[:cut], n2, p2, n, p)
				}
			}
		}
	}
}
