//go:build amd64 && !purego

package varint

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

// allOneByte reports whether every byte of b is a one-byte varint.
func allOneByte(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// wantOneByteRuns is the specification of oneByteRunsAVX2: whole 32-byte
// blocks free of continuation bits, while dst and src have room for one.
func wantOneByteRuns(dst int, src []byte) int {
	n := 0
	for n+32 <= dst && n+32 <= len(src) && allOneByte(src[n:n+32]) {
		n += 32
	}
	return n
}

// TestOneByteRunsAVX2 checks the assembly kernel against its
// specification and the pure-Go decoding on random and adversarial input:
// continuation bits in every position of a block, every byte value,
// lengths around the block sizes; and that it writes no value past the
// ones it reports.
func TestOneByteRunsAVX2(t *testing.T) {
	if !cpu.X86.HasAVX2 {
		if oneByteRuns != nil || oneByteRunsInts != nil {
			t.Fatal("kernel selected on a CPU without AVX2")
		}
		t.Log("no AVX2 on this CPU: the pure-Go loop decodes runs (tested by the other tests)")
		return
	}
	if oneByteRuns == nil || oneByteRunsInts == nil {
		t.Fatal("AVX2 present but the kernels are not selected")
	}
	r := rand.New(rand.NewPCG(21, 22))
	const sentinel = int64(-0x5555555555555555)
	const sentinel32 = int32(-0x55555555)
	for iter := 0; iter < 20000; iter++ {
		src := make([]byte, r.IntN(140))
		for i := range src {
			src[i] = byte(r.IntN(0x80)) // every one-byte value, 0x00 to 0x7f
		}
		switch iter % 4 {
		case 1: // one continuation bit, anywhere
			if len(src) > 0 {
				src[r.IntN(len(src))] |= 0x80
			}
		case 2: // a few
			for k := r.IntN(4); k > 0 && len(src) > 0; k-- {
				src[r.IntN(len(src))] = 0x80 | byte(r.IntN(0x80))
			}
		case 3: // just past a block boundary
			if b := 8 * (1 + r.IntN(16)); b < len(src) {
				src[b] = 0xff
			}
		}
		dstLen := r.IntN(150)
		dst := make([]int64, dstLen)
		for i := range dst {
			dst[i] = sentinel
		}
		got := oneByteRunsAVX2(dst, src)
		if want := wantOneByteRuns(dstLen, src); got != want {
			t.Fatalf("src % x, dst %d: decoded %d, want %d", src, dstLen, got, want)
		}
		for i := 0; i < got; i++ {
			if want := Unzigzag64(uint64(src[i])); dst[i] != want {
				t.Fatalf("src % x: dst[%d] = %d, want %d", src, i, dst[i], want)
			}
		}
		for i := got; i < dstLen; i++ {
			if dst[i] != sentinel {
				t.Fatalf("src % x: dst[%d] written past the %d decoded values", src, i, got)
			}
		}
		// The int kernel: the same blocks, int32 results.
		dst32 := make([]int32, dstLen)
		for i := range dst32 {
			dst32[i] = sentinel32
		}
		if got32 := oneByteRunsIntsAVX2(dst32, src); got32 != got {
			t.Fatalf("src % x, dst %d: ints kernel decoded %d, want %d", src, dstLen, got32, got)
		}
		for i := 0; i < got; i++ {
			if want := Unzigzag32(uint32(src[i])); dst32[i] != want {
				t.Fatalf("src % x: ints dst[%d] = %d, want %d", src, i, dst32[i], want)
			}
		}
		for i := got; i < dstLen; i++ {
			if dst32[i] != sentinel32 {
				t.Fatalf("src % x: ints dst[%d] written past the %d decoded values", src, i, got)
			}
		}
	}
}

// TestDecodeLongsRunsMixed decodes streams of one-byte runs of every
// length broken by longer values, with the kernels, and compares with the
// pure-Go loop.
func TestDecodeLongsRunsMixed(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for iter := 0; iter < 3000; iter++ {
		var vals []int64
		for len(vals) < 400 {
			for k := r.IntN(70); k > 0; k-- {
				vals = append(vals, int64(r.IntN(128))-64)
			}
			vals = append(vals, int64(r.Uint64())>>r.IntN(64))
		}
		enc := AppendLongs(nil, vals)
		got := make([]int64, len(vals))
		n, err := DecodeLongs(got, enc)
		if err != nil || n != len(enc) {
			t.Fatalf("DecodeLongs: %d of %d, %v", n, len(enc), err)
		}
		saved, savedMixed := oneByteRuns, mixedLongs
		oneByteRuns, mixedLongs = nil, nil
		ref := make([]int64, len(vals))
		_, refErr := DecodeLongs(ref, enc)
		oneByteRuns, mixedLongs = saved, savedMixed
		if refErr != nil {
			t.Fatal(refErr)
		}
		for i := range vals {
			if got[i] != vals[i] || ref[i] != vals[i] {
				t.Fatalf("value %d: kernel %d, pure Go %d, want %d", i, got[i], ref[i], vals[i])
			}
		}
		// The same stream as ints (the large values cut to 32 bits).
		v32 := make([]int32, len(vals))
		for i, v := range vals {
			v32[i] = int32(v)
		}
		enc32 := AppendInts(nil, v32)
		got32 := make([]int32, len(v32))
		if n, err := DecodeInts(got32, enc32); err != nil || n != len(enc32) {
			t.Fatalf("DecodeInts: %d of %d, %v", n, len(enc32), err)
		}
		savedInts := oneByteRunsInts
		oneByteRunsInts = nil
		ref32 := make([]int32, len(v32))
		_, refErr = DecodeInts(ref32, enc32)
		oneByteRunsInts = savedInts
		if refErr != nil {
			t.Fatal(refErr)
		}
		for i := range v32 {
			if got32[i] != v32[i] || ref32[i] != v32[i] {
				t.Fatalf("int %d: kernel %d, pure Go %d, want %d", i, got32[i], ref32[i], v32[i])
			}
		}
	}
}

// TestMixedLongsBMI2 checks the kernel against its contract on random and
// adversarial input (checkMixedBlocks): it decodes the values Long
// decodes, from the start, and stops only where dst is full, fewer than
// 16 bytes of src are left, the next value is invalid, or a block of 32
// one-byte values starts that dst has room for, and where blockModel
// says; it writes nothing past its count.
func TestMixedLongsBMI2(t *testing.T) {
	want := hasMixedLongsKernelISA() && !slowPEXT()
	if got := mixedLongs != nil; got != want {
		t.Fatalf("kernel selected: %v; want %v (AVX2 %v, BMI1 %v, BMI2 %v, slow PEXT %v)",
			got, want, cpu.X86.HasAVX2, cpu.X86.HasBMI1, cpu.X86.HasBMI2, slowPEXT())
	}
	if !hasMixedLongsKernelISA() {
		t.Log("no BMI2 on this CPU: the pure-Go loop decodes (tested by the other tests)")
		return
	}
	// Where PEXT is slow the kernel is not selected, but it runs: test it
	// all the same.
	r := rand.New(rand.NewPCG(25, 26))
	for iter := 0; iter < 30000; iter++ {
		var vals []int64
		for n := r.IntN(40); n > 0; n-- {
			switch r.IntN(4) {
			case 0: // runs of one-byte values, some of 32 and more
				for k := r.IntN(50); k > 0; k-- {
					vals = append(vals, int64(r.IntN(128))-64)
				}
			default: // any length from 1 to 10 bytes
				vals = append(vals, int64(r.Uint64())>>r.IntN(64))
			}
		}
		src := AppendLongs(nil, vals)
		switch iter % 5 {
		case 1: // an invalid 10th byte, or an overlong varint, somewhere
			if len(src) > 0 {
				at := r.IntN(len(src))
				bad := [][]byte{
					append(bytes.Repeat([]byte{0xff}, 9), 0x02),       // a 10th byte above 1
					bytes.Repeat([]byte{0x80}, 11),                    // no end in 11 bytes
					append(bytes.Repeat([]byte{0x80}, 10), 0x00),      // an 11th byte
					append(bytes.Repeat([]byte{0xff}, 9), 0x81, 0x01), // a 10th byte that goes on
					// No end in a whole 32-byte block and more (the
					// kernel went on past it).
					bytes.Repeat([]byte{0xdb}, 33+r.IntN(40)),
				}[r.IntN(5)]
				src = append(src[:at:at], append(bad, src[at:]...)...)
			}
		case 2: // random bytes
			for i := range src {
				src[i] = byte(r.Uint32())
			}
		case 3: // cut anywhere
			src = src[:r.IntN(len(src)+1)]
		}
		dstLen := r.IntN(len(vals) + 2)
		// Room past dst's length, to catch a write beyond it.
		buf := make([]int64, dstLen+8)
		for i := range buf {
			buf[i] = blockSentinel
		}
		n, p := mixedLongsBMI2(buf[:dstLen], src)
		checkMixedBlocks(t, src, dstLen, buf, n, p)
	}
}

// TestPEXTMicrocoded: the vendor and family test that keeps the kernel
// off the CPUs that microcode PEXT.
func TestPEXTMicrocoded(t *testing.T) {
	const (
		amdB, amdC, amdD       = 0x68747541, 0x444d4163, 0x69746e65
		hygonB, hygonC, hygonD = 0x6f677948, 0x656e6975, 0x6e65476e
		intelB, intelC, intelD = 0x756e6547, 0x6c65746e, 0x49656e69
	)
	for _, c := range []struct {
		name       string
		b, c, d, a uint32
		want       bool
	}{
		{"Zen 2 (family 0x17)", amdB, amdC, amdD, 0x00830f10, true},
		{"Zen 1 (family 0x17)", amdB, amdC, amdD, 0x00800f11, true},
		{"Excavator (family 0x15)", amdB, amdC, amdD, 0x00660f01, true},
		{"Hygon Dhyana (family 0x18)", hygonB, hygonC, hygonD, 0x00900f01, true},
		{"Zen 3 (family 0x19)", amdB, amdC, amdD, 0x00a20f10, false},
		{"Zen 4 (family 0x19)", amdB, amdC, amdD, 0x00a10f11, false},
		{"Zen 5 (family 0x1a)", amdB, amdC, amdD, 0x00b40f40, false},
		{"Intel Haswell", intelB, intelC, intelD, 0x000306c3, false},
		{"Intel Sapphire Rapids", intelB, intelC, intelD, 0x000806f8, false},
	} {
		if got := pextMicrocoded(c.b, c.c, c.d, c.a); got != c.want {
			t.Errorf("%s: microcoded %v, want %v", c.name, got, c.want)
		}
	}
}
