//go:build amd64 && !purego

package memcopy

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// copyAVX2 copies n >= 32 bytes from src to dst, which must not overlap.
//
//go:noescape
func copyAVX2(dst, src unsafe.Pointer, n int)

func init() {
	// HasAVX2 also checks that the operating system saves the YMM registers.
	if cpu.X86.HasAVX2 {
		kernel = copyAVX2
	}
}
