package jsontext

import "math/bits"

// The shortest decimal that reads back as a binary float is found with
// Raffaello Giulietti's Schubfach method ("The Schubfach way to render
// doubles", 2020). Unlike Java's Double.toString, which the paper
// follows, the digits are the strict shortest: a single digit is never
// widened to two, and the decimal is the coarsest one in the rounding
// interval, the closest among those, ties to an even digit, as strconv
// gives them.
//
// A float is c·2^q. Its rounding interval R, in units of 2^(q-2), is
// [4c-2, 4c+2], or [4c-1, 4c+2] when c is the smallest significand of
// a binade above the first, and it is closed when c is even (round half
// to even reads the bounds back as the float) and open when c is odd.
// With k chosen so that 10^k is at most the width of R and 10^(k+1) is
// above it, R holds at most one multiple of 10^(k+1) and at least one
// of 10^k, so the answer is that multiple when there is one, and else
// the closer of the two multiples of 10^k around the float.
//
// The bounds scaled by 10^-k are computed with a rounded-up 128-bit
// (float32: 64-bit) approximation of 10^-k, keeping the floor of the
// product and whether a fraction is left (rounding to odd). The error
// is below 2^-64 of a unit (float32: 2^-33, with fractions seen from
// 2^-32), and the paper proves that scaled bounds that are not integers
// are further than that from any integer, so the rounded results are
// exact. For float32 the build-tagged exhaustive test also checks every
// value against strconv.
//
// strconv from Go 1.26 breaks the one tie of the float32 2^-12 upward,
// 0.00024414063; this code and earlier releases give 0.00024414062.

// flog10pow2 returns floor(log10(2^q)) for |q| <= 1100.
func flog10pow2(q int) int {
	return q * 315653 >> 20
}

// flog10ThreeQuartersPow2 returns floor(log10(3/4·2^q)) for |q| <= 1100.
func flog10ThreeQuartersPow2(q int) int {
	return (q*315653 - 131008) >> 20
}

// flog2pow10 returns floor(log2(10^e)) for |e| <= 330.
func flog2pow10(e int) int {
	return e * 1741647 >> 19
}

// roundOdd returns floor(g·cp/2^128), with its lowest bit set when the
// fraction is at least 2^-64, which is how a fraction shows once the
// error of g is below that.
func roundOdd(gHi, gLo, cp uint64) uint64 {
	x1, _ := bits.Mul64(gLo, cp)
	y1, y0 := bits.Mul64(gHi, cp)
	p1, carry := bits.Add64(y0, x1, 0)
	p2 := y1 + carry
	return p2 | (p1|-p1)>>63
}

// roundOdd32 is roundOdd for a 64-bit g: floor(g·cp/2^64), with its
// lowest bit set when the fraction is at least 2^-32.
func roundOdd32(g, cp uint64) uint64 {
	hi, lo := bits.Mul64(g, cp)
	lo >>= 32
	return hi | (lo|-lo)>>63
}

// interval returns the rounding interval of the float c·2^q in units of
// 2^(q-2), [cbl, cbr] around cb, with the k of the decimals to look at
// and the shift h that aligns the bounds with 10^-k; cMin is the
// smallest significand of a normal binade and qMin the exponent of the
// subnormals.
func interval(c, cMin uint64, q, qMin int) (cb, cbl, cbr uint64, k int, h uint) {
	cb = c << 2
	cbr = cb + 2
	if c != cMin || q == qMin {
		cbl = cb - 2
		k = flog10pow2(q)
	} else {
		cbl = cb - 1
		k = flog10ThreeQuartersPow2(q)
	}
	h = uint(q+flog2pow10(-k)+1) & 63
	return cb, cbl, cbr, k, h
}

// shortest64 returns the shortest decimal d·10^e that reads back as the
// float64 c·2^q, with c > 0 and q as in the encoding (c below 2^53;
// q = -1074 for the subnormals). d is below 10^17 and may end in zeros.
func shortest64(c uint64, q int) (d uint64, e int) {
	cb, cbl, cbr, k, h := interval(c, 1<<52, q, -1074)
	g := &pow10Table[-k-pow10MinExp]
	vb := roundOdd(g[0], g[1], cb<<h)
	vbl := roundOdd(g[0], g[1], cbl<<h)
	vbr := roundOdd(g[0], g[1], cbr<<h)
	return pickDigits(vb, vbl, vbr, c&1, k)
}

// shortest32 is shortest64 for a float32: c below 2^24, q = -149 for
// the subnormals. Its 64-bit approximations of 10^-k are the table's
// high words rounded up.
func shortest32(c uint64, q int) (d uint64, e int) {
	cb, cbl, cbr, k, h := interval(c, 1<<23, q, -149)
	g := pow10Table[-k-pow10MinExp][0] + 1
	vb := roundOdd32(g, cb<<h)
	vbl := roundOdd32(g, cbl<<h)
	vbr := roundOdd32(g, cbr<<h)
	return pickDigits(vb, vbl, vbr, c&1, k)
}

// pickDigits chooses the decimal from the float and its interval bounds
// scaled by 10^-k·4 and rounded to odd; out is 1 when the bounds are
// excluded. It selects rather than branches, as the choice is as good
// as random for arbitrary data and a mispredicted branch costs more
// than computing every candidate.
func pickDigits(vb, vbl, vbr, out uint64, k int) (uint64, int) {
	s := vb >> 2
	t := s + 1
	// Both are in R, unless R is the narrowest: the closer one, ties to
	// even; 4s+2 is the midpoint.
	mid := (s + t) << 1
	var up uint64
	if vb > mid {
		up = 1
	}
	if vb == mid {
		up = s & 1
	}
	d := s + up
	uin := vbl+out <= s<<2
	win := t<<2+out <= vbr
	if uin != win {
		d = t
		if uin {
			d = s
		}
	}
	// The one multiple of 10^(k+1) that R may hold is below or above s,
	// and is shorter than anything else in R.
	sp10 := s / 10 * 10
	tp10 := sp10 + 10
	upin := vbl+out <= sp10<<2
	wpin := tp10<<2+out <= vbr
	if upin != wpin {
		d = tp10
		if upin {
			d = sp10
		}
	}
	return d, k
}
