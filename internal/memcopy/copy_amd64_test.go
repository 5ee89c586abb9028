//go:build amd64 && !purego

package memcopy

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// TestKernelSelected checks the CPU dispatch: the kernel is used exactly
// when the CPU (and the operating system) supports AVX2.
func TestKernelSelected(t *testing.T) {
	if cpu.X86.HasAVX2 != (kernel != nil) {
		t.Fatalf("HasAVX2 = %v but kernel selected = %v", cpu.X86.HasAVX2, kernel != nil)
	}
}

// TestKernelShortLengths calls the kernel directly on every length from
// its minimum of 32 up to past two unrolled loops, where the first and
// last unaligned moves overlap the aligned loop in every way, at every
// offset pair within a 32-byte block.
func TestKernelShortLengths(t *testing.T) {
	if kernel == nil {
		t.Skip("no AVX2 on this CPU: Copy is the builtin copy, tested by the other tests")
	}
	direct := func(dst, src []byte) int {
		kernel(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), len(src))
		return len(src)
	}
	for n := 32; n <= 300; n++ {
		for so := 0; so < 32; so++ {
			for do := 0; do < 32; do++ {
				checkCopy(t, direct, so, do, n)
			}
		}
	}
}
