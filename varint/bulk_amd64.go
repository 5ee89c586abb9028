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

// mixedLongsBMI2 is a mixedLongs kernel (see bulk.go): the ends of a
// 32-byte block's values from its stop bits (AVX2's VPMOVMSKB, then
// BMI1's TZCNT and BLSR), each value's 7-bit groups packed by BMI2's PEXT,
// words of 8 one-byte values sign-extended by AVX2.
//
//go:noescape
func mixedLongsBMI2(dst []int64, src []byte) (n, p int)

// cpuid executes the CPUID instruction.
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

func init() {
	// AVX2 for the 256-bit byte operations and sign extensions; the
	// operating system must save the YMM registers (HasAVX2 checks both).
	if cpu.X86.HasAVX2 {
		oneByteRuns = oneByteRunsAVX2
		oneByteRunsInts = oneByteRunsIntsAVX2
	}
	if hasMixedLongsKernelISA() && !slowPEXT() {
		mixedLongs = mixedLongsBMI2
	}
}

// hasMixedLongsKernelISA reports whether the CPU runs mixedLongsBMI2's
// instructions: ANDN, BLSMSK and TZCNT are BMI1, PEXT is BMI2, the
// sign extensions AVX2. Real CPUs with BMI2 have BMI1, but a virtual
// machine's CPU model may not.
func hasMixedLongsKernelISA() bool {
	return cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2
}

// slowPEXT reports whether PEXT is microcoded on this CPU.
func slowPEXT() bool {
	_, b, c, d := cpuid(0, 0)
	a, _, _, _ := cpuid(1, 0)
	return pextMicrocoded(b, c, d, a)
}

// pextMicrocoded reports, from the vendor string (CPUID leaf 0: EBX, ECX,
// EDX) and the version (leaf 1: EAX), whether PEXT is microcoded: AMD
// and Hygon before Zen 3 (family 0x19) take 18 to 300 cycles for it,
// against 3 on Intel since Haswell and on Zen 3 and later. Other vendors
// are taken to have a fast PEXT: we have no figures for them.
func pextMicrocoded(b, c, d, version uint32) bool {
	amd := b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163   // "AuthenticAMD"
	hygon := b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975 // "HygonGenuine"
	if !amd && !hygon {
		return false
	}
	family := version >> 8 & 0xf
	if family == 0xf {
		family += version >> 20 & 0xff
	}
	return family < 0x19
}
