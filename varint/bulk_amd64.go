//go:build amd64 && !purego

package varint

import "golang.org/x/sys/cpu"

// oneByteRunsAVX2 decodes one-byte longs from the start of src into dst,
// 32 at a time while a 32-byte block of src has no continuation bit and
// dst has room for 32 more values, and returns how many it decoded (a
// multiple of 32, bytes and values alike). It stops at the first block
// holding a longer varint, leaving it to the caller.
//
//go:noescape
func oneByteRunsAVX2(dst []int64, src []byte) int

// oneByteRunsIntsAVX2 is oneByteRunsAVX2 for ints.
//
//go:noescape
func oneByteRunsIntsAVX2(dst []int32, src []byte) int

func init() {
	// AVX2 for the 256-bit byte operations and sign extensions; the
	// operating system must save the YMM registers (HasAVX2 checks both).
	if cpu.X86.HasAVX2 {
		oneByteRuns = oneByteRunsAVX2
		oneByteRunsInts = oneByteRunsIntsAVX2
	}
}
