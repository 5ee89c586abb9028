//go:build amd64 && !purego

package varint

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// blockModel is the (n, p) mixedLongsBMI2 returns, as designed: 32-byte
// blocks while 40 bytes are left from the block (stopping at a block with
// no stop bit, at an aligned block of 32 one-byte values that dst has room
// for, at a value longer than 10 bytes or with a 10th byte above 1, at a
// full dst), then one value a step while 16 bytes are left.
func blockModel(dstLen int, src []byte) (n, p int) {
	bx := 0
	for bx+40 <= len(src) {
		var m uint32
		for i := 0; i < 32; i++ {
			if src[bx+i] < 0x80 {
				m |= 1 << i
			}
		}
		if m == 0 || m == ^uint32(0) && p == bx && n+32 <= dstLen {
			return n, p
		}
		for n < dstLen && m != 0 {
			if off := p - bx; off >= 0 && off <= 24 && m>>off&0xff == 0xff && n+8 <= dstLen {
				n, p, m = n+8, p+8, m&^(0xff<<off)
				continue
			}
			end := bx + bits.TrailingZeros32(m)
			m &= m - 1
			if l := end - p + 1; l > 10 || l == 10 && src[p+9] > 1 {
				return n, p
			}
			n, p = n+1, end+1
		}
		if n >= dstLen {
			return n, p
		}
		bx += 32
	}
	for n < dstLen && p+16 <= len(src) {
		if n+8 <= dstLen && allOneByte(src[p:p+8]) {
			if n+32 <= dstLen && p+32 <= len(src) && allOneByte(src[p:p+32]) {
				return n, p
			}
			n, p = n+8, p+8
			continue
		}
		_, l := Long(src[p:])
		if l <= 0 {
			return n, p
		}
		n, p = n+1, p+l
	}
	return n, p
}

const blockSentinel = int64(-0x5555555555555555)

// checkMixedBlocks checks one call's result against Long, the contract and
// blockModel. buf is dst with 8 sentinels or more past dstLen.
func checkMixedBlocks(t *testing.T, src []byte, dstLen int, buf []int64, n, p int) {
	t.Helper()
	fail := func(format string, a ...any) {
		t.Helper()
		t.Fatalf("src (%d bytes) % x, dst %d: n %d, p %d: %s", len(src), src, dstLen, n, p, fmt.Sprintf(format, a...))
	}
	if n < 0 || n > dstLen || p < 0 || p > len(src) {
		fail("out of range")
	}
	q := 0
	for i := 0; i < n; i++ {
		v, l := Long(src[q:])
		if l <= 0 || buf[i] != v {
			fail("dst[%d] = %d, Long = %d, %d", i, buf[i], v, l)
		}
		q += l
	}
	if q != p {
		fail("the values use %d bytes", q)
	}
	for i := n; i < len(buf); i++ {
		if buf[i] != blockSentinel {
			fail("dst[%d] written", i)
		}
	}
	run := n+32 <= dstLen && len(src)-p >= 32 && wantOneByteRuns(32, src[p:]) == 32
	if _, next := Long(src[p:]); n < dstLen && len(src)-p >= 16 && next > 0 && !run {
		fail("stopped at a valid value with room and 16 bytes left")
	}
	if mn, mp := blockModel(dstLen, src); mn != n || mp != p {
		fail("the model stops at n %d, p %d", mn, mp)
	}
}

func runMixedBlocks(t *testing.T, src []byte, dstLen int) {
	t.Helper()
	buf := make([]int64, dstLen+8)
	for i := range buf {
		buf[i] = blockSentinel
	}
	n, p := mixedLongsBMI2(buf[:dstLen:dstLen], src)
	checkMixedBlocks(t, src, dstLen, buf, n, p)
}

// validFill returns k bytes of valid values: one-byte (kind 0), two-byte
// (kind 1) or of random lengths 1 to 10 (kind 2).
func validFill(r *rand.Rand, kind, k int) []byte {
	b := make([]byte, 0, k)
	for len(b) < k {
		l := 1
		switch kind {
		case 1:
			l = min(2, k-len(b))
		case 2:
			l = 1 + r.IntN(min(10, k-len(b)))
		}
		for i := 1; i < l; i++ {
			b = append(b, 0x80|byte(r.IntN(128)))
		}
		if l == 10 {
			b = append(b, byte(r.IntN(2)))
		} else {
			b = append(b, byte(r.IntN(128)))
		}
	}
	return b
}

// dstLensFor: a few fixed lengths, the value count and its neighbours, and
// around every aligned block of 32 one-byte values the counts at which dst
// has room for 31, 32, 33, 7 and 8 values from it.
func dstLensFor(src []byte) []int {
	ls := []int{0, 1, 8, 9, 32, 33}
	q, i := 0, 0
	for {
		if q%32 == 0 && len(src)-q >= 32 && wantOneByteRuns(32, src[q:]) == 32 {
			ls = append(ls, i+7, i+8, i+31, i+32, i+33)
		}
		_, l := Long(src[q:])
		if l <= 0 {
			break
		}
		q, i = q+l, i+1
	}
	return append(ls, i-1, i, i+1)
}

// TestMixedLongsBMI2Blocks places values of every length 1 to 10 (minimal
// and not), invalid values of 11 to 80 bytes and 10th bytes 0x00 to 0xff
// at every offset 0 to 70 (straddling the first two block boundaries),
// after one-byte, two-byte and mixed values, with dst lengths at the
// 8- and 32-value thresholds.
func TestMixedLongsBMI2Blocks(t *testing.T) {
	if !hasMixedLongsKernelISA() {
		t.Skip("no BMI2")
	}
	r := rand.New(rand.NewPCG(31, 32))
	var vals [][]byte
	for l := 1; l <= 10; l++ {
		lo, hi := uint64(0), ^uint64(0)
		if l > 1 {
			lo = 1 << (7 * (l - 1))
		}
		if l < 10 {
			hi = 1<<(7*l) - 1
		}
		for _, u := range []uint64{lo, hi, lo + (hi-lo)/3} {
			vals = append(vals, AppendLong(nil, Unzigzag64(u)))
		}
		if l > 1 {
			vals = append(vals, append(bytes.Repeat([]byte{0xff}, l-1), 0))
		}
	}
	vals = append(vals, append(bytes.Repeat([]byte{0xff}, 9), 1))
	for l := 11; l <= 80; l += 1 + l/20 {
		vals = append(vals, bytes.Repeat([]byte{0x80}, l), append(bytes.Repeat([]byte{0xff}, l), 0))
	}
	for c := 0; c < 256; c += 1 + r.IntN(4) {
		vals = append(vals, append(bytes.Repeat([]byte{0x80 | byte(r.IntN(128))}, 9), byte(c)))
	}
	for _, v := range vals {
		for pre := 0; pre <= 70; pre++ {
			kind := pre % 3
			for suf := 0; suf <= 70; suf += 5 + r.IntN(5) {
				src := append(validFill(r, kind, pre), v...)
				src = append(src, validFill(r, r.IntN(3), suf)...)
				for _, d := range dstLensFor(src) {
					if d >= 0 {
						runMixedBlocks(t, src, d)
					}
				}
			}
		}
	}
}

// TestMixedLongsBMI2Cuts cuts mixed streams (one-byte runs, two-byte
// values, any values, now and then a 0xff byte) at every length 0 to 120.
func TestMixedLongsBMI2Cuts(t *testing.T) {
	if !hasMixedLongsKernelISA() {
		t.Skip("no BMI2")
	}
	r := rand.New(rand.NewPCG(33, 34))
	for iter := 0; iter < 200; iter++ {
		var full []byte
		for len(full) < 120 {
			switch r.IntN(4) {
			case 0:
				full = append(full, validFill(r, 0, r.IntN(70))...)
			case 1:
				full = append(full, validFill(r, 1, r.IntN(20))...)
			default:
				full = AppendLong(full, int64(r.Uint64())>>r.IntN(64))
			}
		}
		if iter%4 == 3 {
			full[r.IntN(len(full))] = 0xff
		}
		for cut := 0; cut <= 120; cut++ {
			for _, d := range dstLensFor(full[:cut]) {
				if d >= 0 {
					runMixedBlocks(t, full[:cut:cut], d)
				}
			}
		}
	}
}
