package codec

import (
	"math"
	"math/big"
	"sync/atomic"

	"github.com/avrogo/avro/internal/decimal"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

// Decimal logical types, mapped to big.Rat (and *big.Rat through the
// generic pointer mapping), which holds every decimal exactly.
//
// decimal (bytes or fixed) holds the unscaled value, value*10^scale, as a
// big-endian two's-complement integer: the shortest such form for bytes,
// sign-extended to the size for fixed. Decoding gives unscaled/10^scale.
// Encoding fails with ErrRange when the value has more than scale digits
// after the decimal point (it is never rounded), when its unscaled value
// has more than precision digits, or when it does not fit the fixed.
// Decoding does not check the precision: readers accept what writers
// sent, and the input size bounds the work. A decimal held as its
// unscaled bytes ([]byte, a byte array) is checked against the precision
// when encoded, as a big.Rat is.
//
// big-decimal (bytes) holds its own scale: the bytes payload is an Avro
// bytes of the unscaled value (two's complement, as above) followed by an
// Avro int scale. Encoding uses the smallest scale >= 0 that represents
// the value exactly, and fails with ErrRange for a value with no finite
// decimal form (a denominator that is not 2^a*5^b, such as 1/3). Decoding
// accepts negative scales (Java writes them for values such as 1E+3) and
// fails with ErrLimit for a scale beyond ±DecodeOptions.MaxDecimalScale.
//
// A scale of n costs a power of ten of n digits, so the scale of a
// decimal schema is bounded too: decoding (and encoding) a decimal whose
// schema declares a scale beyond MaxDecimalScale is ErrLimit, and the
// power of ten is computed only once the scale has passed that check, not
// when the codec is compiled. The precision is checked by comparing bit
// lengths, so a schema may declare any precision without the codec
// computing 10^precision.

// ratText formats r for an error message, shortened when it is huge.
func ratText(r *big.Rat) string {
	if r.Num().BitLen() > 512 || r.Denom().BitLen() > 512 {
		return "value"
	}
	return r.RatString()
}

// decimalCodec maps decimal (bytes or fixed) to big.Rat.
type decimalCodec struct {
	size      int // the fixed's size, or 0 for bytes
	scale     int
	precision int
	// pow is 10^scale, read-only, computed on first use (after the scale
	// has been checked against the limit): a schema may declare a scale
	// of two billion, and compiling its codec must not compute 10^scale.
	pow atomic.Pointer[big.Int]
}

func newDecimalCodec(s *schema.Schema) *decimalCodec {
	c := &decimalCodec{scale: s.Scale(), precision: s.Precision()}
	if s.Kind() == schema.Fixed {
		c.size = s.Size()
	}
	return c
}

// powScale returns 10^scale; callers check the scale against the limit
// first.
func (c *decimalCodec) powScale() *big.Int {
	if p := c.pow.Load(); p != nil {
		return p
	}
	p := decimal.Pow10(c.scale)
	c.pow.Store(p)
	return p
}

// exceedsPrecision reports whether |u| >= 10^precision.
func (c *decimalCodec) exceedsPrecision(u *big.Int) bool {
	return decimal.ExceedsPrecision(u, c.precision)
}

func (c *decimalCodec) decode(p pointer, d *decodeState) { c.decodeRat(as[big.Rat](p), d) }

// decodeRat decodes into r, reusing its storage; it reports success.
func (c *decimalCodec) decodeRat(r *big.Rat, d *decodeState) bool {
	if c.scale > d.MaxDecimalScale {
		d.Failf(ErrLimit, "decimal scale %d beyond the maximum %d", c.scale, d.MaxDecimalScale)
		return false
	}
	var raw []byte
	if c.size > 0 {
		raw = d.ReadRaw(c.size)
	} else {
		raw = d.ReadStringBytes()
	}
	// The numerator, and the temporaries of normalising it.
	if d.Err != nil || !d.Reserve(2*int64(len(raw))+64) {
		return false
	}
	num := r.Num() // a reference to r's numerator
	decimal.SetTwos(num, raw)
	r.SetFrac(num, c.powScale())
	return true
}

func (c *decimalCodec) encode(p pointer, e *encodeState) { c.encodeRat(as[big.Rat](p), e) }

func (c *decimalCodec) encodeRat(r *big.Rat, e *encodeState) {
	if c.scale > e.MaxDecimalScale {
		e.Failf(ErrLimit, "decimal scale %d beyond the maximum %d", c.scale, e.MaxDecimalScale)
		return
	}
	pow := c.powScale()
	u := new(big.Int)
	if r.IsInt() {
		u.Mul(r.Num(), pow)
	} else {
		q, m := new(big.Int).QuoRem(pow, r.Denom(), new(big.Int))
		if m.Sign() != 0 {
			e.Failf(ErrRange, "%s has more than %d digits after the decimal point (the decimal's scale)", ratText(r), c.scale)
			return
		}
		u.Mul(r.Num(), q)
	}
	if c.exceedsPrecision(u) {
		e.Failf(ErrRange, "%s has more than %d digits (the decimal's precision)", ratText(r), c.precision)
		return
	}
	n := decimal.TwosLen(u)
	if c.size > 0 {
		if n > c.size {
			e.Failf(ErrRange, "%s does not fit a decimal of %d bytes", ratText(r), c.size)
			return
		}
		e.Buf = decimal.AppendTwos(e.Buf, u, c.size)
		return
	}
	e.WriteLong(int64(n))
	e.Buf = decimal.AppendTwos(e.Buf, u, n)
}

// bigDecimalCodec maps big-decimal to big.Rat.
type bigDecimalCodec struct{}

func (bigDecimalCodec) decode(p pointer, d *decodeState) { decodeBigDecimal(as[big.Rat](p), d) }
func (bigDecimalCodec) encode(p pointer, e *encodeState) { encodeBigDecimal(as[big.Rat](p), e) }

// decodeBigDecimal decodes into r, reusing its storage; it reports
// success.
func decodeBigDecimal(r *big.Rat, d *decodeState) bool {
	raw, scale, ok := d.ReadBigDecimal()
	if !ok {
		return false
	}
	absScale := int64(scale)
	if absScale < 0 {
		absScale = -absScale
	}
	// The numerator, 10^|scale| (about 0.42 bytes a digit), temporaries.
	if !d.Reserve(2*int64(len(raw)) + absScale + 64) {
		return false
	}
	num := r.Num()
	decimal.SetTwos(num, raw)
	if scale >= 0 {
		r.SetFrac(num, decimal.Pow10(int(scale)))
	} else {
		num.Mul(num, decimal.Pow10(int(-scale)))
		r.SetFrac(num, decimal.One)
	}
	return true
}

// powersOf2And5 returns a and b for den = 2^a * 5^b, or false when den
// has another prime factor. The smallest scale at which a value with the
// denominator den (in lowest terms) is an integer is max(a, b).
func powersOf2And5(den *big.Int) (a, b uint, ok bool) {
	a = den.TrailingZeroBits()
	rest := new(big.Int).Rsh(den, a)
	q, m := new(big.Int), new(big.Int)
	for rest.Cmp(decimal.One) != 0 {
		q.QuoRem(rest, decimal.Five, m)
		if m.Sign() != 0 {
			return 0, 0, false
		}
		rest, q = q, rest
		b++
	}
	return a, b, true
}

func encodeBigDecimal(r *big.Rat, e *encodeState) {
	a, b, ok := powersOf2And5(r.Denom())
	if !ok {
		e.Failf(ErrRange, "%s has no finite decimal form for big-decimal", ratText(r))
		return
	}
	scale := max(a, b)
	if scale > math.MaxInt32 {
		e.Failf(ErrRange, "%s needs a scale beyond an Avro int", ratText(r))
		return
	}
	// unscaled = num * 10^scale / (2^a * 5^b) = num * 2^(scale-a) * 5^(scale-b)
	u := new(big.Int).Lsh(r.Num(), scale-a)
	if scale > b {
		u.Mul(u, new(big.Int).Exp(decimal.Five, big.NewInt(int64(scale-b)), nil))
	}
	n := decimal.TwosLen(u)
	e.WriteLong(int64(varint.SizeLong(int64(n)) + n + varint.SizeInt(int32(scale))))
	e.WriteLong(int64(n))
	e.Buf = decimal.AppendTwos(e.Buf, u, n)
	e.WriteLong(int64(scale))
}
