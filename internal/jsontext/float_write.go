package jsontext

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// floatScratch is the room a number is laid out in: its longest text
// (a sign, "0.00000" and 17 digits, or 17 digits, a point and "e-324")
// with room for the eight-byte stores that run past the end.
const floatScratch = 48

var pow10Uint64 = [...]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// decimalLen returns the number of decimal digits of d > 0.
func decimalLen(d uint64) int {
	// bits.Len64·1233/4096 is log10(2^Len64), at most one too high.
	t := bits.Len64(d) * 1233 >> 12
	if d < pow10Uint64[t] {
		return t
	}
	return t + 1
}

// digitPairs[v] holds the two ASCII digits of v < 100, the first in
// the low byte, so that four of them make a word of eight digits; the
// table is padded to 128 entries for masked, unchecked indexes.
var digitPairs = func() (t [128]uint16) {
	for v := range 100 {
		t[v] = uint16('0'+v/10) | uint16('0'+v%10)<<8
	}
	return t
}()

// digits8 returns the eight decimal digits of n < 10^8, leading zeros
// included, as ASCII bytes in a word whose lowest byte is the first
// digit, written to memory with one little-endian store.
func digits8(n uint32) uint64 {
	hi, lo := n/10000, n%10000
	a, b := hi/100, hi%100
	c, d := lo/100, lo%100
	return uint64(digitPairs[a&127]) | uint64(digitPairs[b&127])<<16 |
		uint64(digitPairs[c&127])<<32 | uint64(digitPairs[d&127])<<48
}

// zeros8 is "00000000" as digits8 writes it.
const zeros8 = 0x30303030_30303030

// put17 writes m, 10^16 <= m < 10^17, as 17 digits at b[i:] and returns
// how many of them are significant, the rest being trailing zeros, and
// the words of the last 16 digits.
func put17(b []byte, i int, m uint64) (n int, w1, w2 uint64) {
	hi := m / 1e8
	w1, w2 = digits8(uint32(hi%1e8)), digits8(uint32(m%1e8))
	b[i] = byte('0' + hi/1e8)
	binary.LittleEndian.PutUint64(b[i+1:], w1)
	binary.LittleEndian.PutUint64(b[i+9:], w2)
	// The last digit is a word's highest byte.
	x1, x2 := w1^zeros8, w2^zeros8
	if x2 != 0 {
		return 17 - bits.LeadingZeros64(x2)/8, w1, w2
	}
	return 9 - bits.LeadingZeros64(x1)/8, w1, w2
}

// formatDecimal lays out ±d·10^e, 0 < d < 10^17, in b, floatScratch
// bytes long, in plain digits or, when exp is set, as d.ddde±x with no
// padded exponent, and returns its length.
func formatDecimal(b []byte, neg bool, d uint64, e int, exp bool) int {
	b = b[:floatScratch]
	i := 0
	if neg {
		b[0] = '-'
		i = 1
	}
	// The digits are written as 17, with trailing zeros if need be, the
	// same stores for every number; n of them are significant.
	// Normal float64s have 16 or 17 digits: skip the general count.
	var n int
	var m uint64
	if d >= 1e15 && d < 1e17 {
		n, m = 16, d*10
		if d >= 1e16 {
			n, m = 17, d
		}
	} else {
		n = decimalLen(d)
		m = d * pow10Uint64[17-n]
	}
	dp := n + e // the place of the point after the first digit's
	switch {
	case exp:
		n, _, _ = put17(b, i+1, m)
		b[i] = b[i+1]
		if n > 1 {
			b[i+1] = '.'
			i += n + 1
		} else {
			i++
		}
		x := dp - 1
		b[i] = 'e'
		b[i+1] = '+'
		if x < 0 {
			b[i+1] = '-'
			x = -x
		}
		i += 2
		switch {
		case x >= 100:
			b[i] = byte('0' + x/100)
			x %= 100
			b[i+1], b[i+2] = byte('0'+x/10), byte('0'+x%10)
			i += 3
		case x >= 10 || b[i-1] == '+':
			b[i], b[i+1] = byte('0'+x/10), byte('0'+x%10)
			i += 2
		default:
			b[i] = byte('0' + x)
			i++
		}
	case dp <= 0:
		// At most five zeros after the point, the rest is exponent form.
		binary.LittleEndian.PutUint64(b[i:], 0x30303030_30302E30) // "0.000000"
		i += 2 - dp
		n, _, _ = put17(b, i, m)
		i += n
	default:
		n, w1, w2 := put17(b, i, m)
		if dp < n {
			// Write the fraction, at most 16 digits, again one place on
			// to make room for the point. It starts at digit dp, byte
			// dp-1 of w1:w2; the words are shifted rather than read back,
			// which would stall on the stores just made.
			o := uint(dp-1) * 8
			lo := w1>>o | w2<<(64-o) | w2>>(o-64)
			hi := w2 >> o
			j := i + dp
			binary.LittleEndian.PutUint64(b[j+1:], lo)
			binary.LittleEndian.PutUint64(b[j+9:], hi)
			b[j] = '.'
			i += n + 1
		} else {
			// Zeros up to 10^21: at most 21 digits in all, 17 written.
			binary.LittleEndian.PutUint64(b[i+17:], zeros8)
			i += dp
		}
	}
	return i
}

// appendDecimal appends ±d·10^e as formatDecimal lays it out, in place
// when dst has the room, else through the stack.
func appendDecimal(dst []byte, neg bool, d uint64, e int, exp bool) []byte {
	if n0 := len(dst); cap(dst)-n0 >= floatScratch {
		n := formatDecimal(dst[n0:n0+floatScratch], neg, d, e, exp)
		return dst[:n0+n]
	}
	var b [floatScratch]byte
	n := formatDecimal(b[:], neg, d, e, exp)
	return append(dst, b[:n]...)
}

// appendFloat64 is AppendFloat for 64 bits.
func appendFloat64(dst []byte, f float64) []byte {
	u := math.Float64bits(f)
	neg := u>>63 != 0
	be := int(u>>52) & 0x7FF
	c := u & (1<<52 - 1)
	switch be {
	case 0x7FF:
		return appendNonFinite(dst, f)
	case 0:
		if c == 0 {
			if neg {
				// "-0" reads as the integer 0 in Java's and Python's
				// readers, which lose the sign; "-0.0" keeps it.
				return append(dst, "-0.0"...)
			}
			return append(dst, '0')
		}
		be = 1
	default:
		c |= 1 << 52
	}
	q := be - 1075
	// Integers below 2^53 are their own shortest decimal.
	if -52 <= q && q <= 0 && c&(1<<uint(-q)-1) == 0 {
		return appendDecimal(dst, neg, c>>uint(-q), 0, false)
	}
	d, e := shortest64(c, q)
	abs := math.Abs(f)
	return appendDecimal(dst, neg, d, e, abs < 1e-6 || abs >= 1e21)
}

// appendFloat32 is AppendFloat for 32 bits.
func appendFloat32(dst []byte, f float64) []byte {
	f32 := float32(f)
	u := math.Float32bits(f32)
	neg := u>>31 != 0
	be := int(u>>23) & 0xFF
	c := uint64(u & (1<<23 - 1))
	switch be {
	case 0xFF:
		return appendNonFinite(dst, float64(f32))
	case 0:
		if c == 0 {
			if f == 0 {
				if neg {
					return append(dst, "-0.0"...)
				}
				return append(dst, '0')
			}
			// A float64 too small for a float32, in the exponent form
			// that the magnitude asks for.
			if neg {
				return append(dst, "-0e+00"...)
			}
			return append(dst, "0e+00"...)
		}
		be = 1
	default:
		c |= 1 << 23
	}
	q := be - 150
	if -23 <= q && q <= 0 && c&(1<<uint(-q)-1) == 0 {
		return appendDecimal(dst, neg, c>>uint(-q), 0, false)
	}
	d, e := shortest32(c, q)
	abs := float32(math.Abs(float64(f32)))
	return appendDecimal(dst, neg, d, e, abs < 1e-6 || abs >= 1e21)
}

// appendNonFinite writes NaN and the infinities as strconv does; JSON
// has no room for them, and AppendNumber quotes them before this.
func appendNonFinite(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case f > 0:
		return append(dst, "+Inf"...)
	}
	return append(dst, "-Inf"...)
}
