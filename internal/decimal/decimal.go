// Package decimal holds the arithmetic of Avro's decimal logical types
// that the binary and JSON codecs share: unscaled values as big-endian
// two's-complement integers, powers of ten, and the precision check.
package decimal

import (
	"math"
	"math/big"
)

var (
	// One and Five are shared constants; callers must not modify them.
	One  = big.NewInt(1)
	Five = big.NewInt(5)
	// pow10Small holds 10^0 .. 10^63, shared and read-only.
	pow10Small = func() (t [64]*big.Int) {
		t[0] = big.NewInt(1)
		for i := 1; i < len(t); i++ {
			t[i] = new(big.Int).Mul(t[i-1], big.NewInt(10))
		}
		return t
	}()
)

// Pow10 returns 10^n. The result may be shared: callers must not modify
// it.
func Pow10(n int) *big.Int {
	if n < len(pow10Small) {
		return pow10Small[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// SetTwos sets z to the big-endian two's-complement integer b (0 when b is
// empty, as in Python's reader; Java rejects it, but nothing is ambiguous).
func SetTwos(z *big.Int, b []byte) {
	if len(b) == 0 || b[0]&0x80 == 0 {
		z.SetBytes(b)
		return
	}
	// A negative value is -(^b + 1).
	var small [64]byte
	var inv []byte
	if len(b) <= len(small) {
		inv = small[:len(b)]
	} else {
		inv = make([]byte, len(b))
	}
	for i, x := range b {
		inv[i] = ^x
	}
	z.SetBytes(inv)
	z.Add(z, One)
	z.Neg(z)
}

// TwosLen returns the length of the shortest two's-complement form of x
// (1 for zero).
func TwosLen(x *big.Int) int {
	n := x.BitLen()
	// A negative power of two, -2^k, needs only k value bits (-128 is 0x80).
	if x.Sign() < 0 && x.TrailingZeroBits() == uint(n-1) {
		n--
	}
	return n/8 + 1
}

// PutTwos writes x into dst as big-endian two's complement, sign-extended
// to len(dst), which must be at least TwosLen(x). It destroys x.
func PutTwos(dst []byte, x *big.Int) {
	if x.Sign() >= 0 {
		x.FillBytes(dst)
		return
	}
	// The complement of |x|-1 is x.
	x.Neg(x)
	x.Sub(x, One)
	x.FillBytes(dst)
	for i := range dst {
		dst[i] = ^dst[i]
	}
}

// AppendTwos appends n bytes of x in two's complement (see PutTwos).
func AppendTwos(dst []byte, x *big.Int, n int) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	PutTwos(dst[start:], x)
	return dst
}

// log2of10 is log2(10), the bits a decimal digit takes.
var log2of10 = math.Log2(10)

// ExceedsPrecision reports whether |u| >= 10^precision (never, for a
// precision of 0 or less). Bit lengths decide unless u is within a bit of
// the bound, so 10^precision is computed only for a u of about its size.
func ExceedsPrecision(u *big.Int, precision int) bool {
	if precision <= 0 {
		return false
	}
	b := float64(u.BitLen()) // 2^(b-1) <= |u| < 2^b
	bound := float64(precision) * log2of10
	if b <= bound-1 {
		return false
	}
	if b-1 >= bound+1 {
		return true
	}
	return u.CmpAbs(Pow10(precision)) >= 0
}
