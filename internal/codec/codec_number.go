package codec

import (
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"strconv"

	"github.com/avrogo/avro/internal/decimal"
	"github.com/avrogo/avro/schema"
)

var jsonNumberType = reflect.TypeFor[json.Number]()

// numberCodec maps a json.Number to an int, long, float or double (with
// or without a logical type over them, which the number holds as the
// underlying value), as value.FromAny reads one: int and long take an
// integer literal exactly, float and double the literal rounded once to
// their precision. Decoding writes the shortest literal that reads back
// as the value.
type numberCodec struct{ k schema.Kind }

// numberCodecFor returns the codec of a json.Number for s, or nil when s
// is not numeric: int, long, float, double, or a decimal or big-decimal
// (see numberDecimalCodec).
func numberCodecFor(s *schema.Schema, t reflect.Type) codec {
	if t != jsonNumberType {
		return nil
	}
	switch s.Logical() {
	case schema.Decimal:
		return &numberDecimalCodec{dec: newDecimalCodec(s)}
	case schema.BigDecimal:
		return &numberDecimalCodec{}
	}
	switch k := s.Kind(); k {
	case schema.Int, schema.Long, schema.Float, schema.Double:
		return &numberCodec{k}
	}
	return nil
}

func (c *numberCodec) encode(p pointer, e *encodeState) { encodeNumber(e, *as[json.Number](p), c.k) }

// numberInteger reads n as value.FromAny does for int and long: an integer
// literal, exactly. isInt is false for any other text; fits is false for
// an integer outside the int64 range.
func numberInteger(n json.Number) (x int64, isInt, fits bool) {
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, errors.Is(err, strconv.ErrRange), false
	}
	return i, true, true
}

// encodeNumber writes n as Avro kind k (int, long, float or double): an
// integer literal in range for int and long, the literal rounded once to
// the precision of float and double.
func encodeNumber(e *encodeState, n json.Number, k schema.Kind) {
	switch k {
	case schema.Int, schema.Long:
		x, isInt, fits := numberInteger(n)
		if !isInt || !fits || k == schema.Int && x != int64(int32(x)) {
			e.Failf(ErrRange, "json.Number %s is not an Avro %s", n, k)
			return
		}
		e.WriteLong(x)
	case schema.Float:
		f, err := strconv.ParseFloat(string(n), 32)
		if err != nil {
			e.Failf(ErrRange, "json.Number %s is not an Avro float", n)
			return
		}
		e.WriteFloat(float32(f))
	default:
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			e.Failf(ErrRange, "json.Number %s is not an Avro double", n)
			return
		}
		e.WriteDouble(f)
	}
}

func (c *numberCodec) decode(p pointer, d *decodeState) {
	var text string
	switch c.k {
	case schema.Int:
		text = strconv.FormatInt(int64(d.ReadInt()), 10)
	case schema.Long:
		text = strconv.FormatInt(d.ReadLong(), 10)
	case schema.Float:
		text = strconv.FormatFloat(float64(d.ReadFloat()), 'g', -1, 32)
	default:
		text = strconv.FormatFloat(d.ReadDouble(), 'g', -1, 64)
	}
	*as[json.Number](p) = json.Number(text)
}

// numberDecimalCodec maps a json.Number to a decimal (dec) or, with dec
// nil, a big-decimal: the literal's exact value, as a *big.Rat of that
// value would be written. Decoding writes the value in plain digits, with
// as many after the point as its scale.
type numberDecimalCodec struct{ dec *decimalCodec }

func (c *numberDecimalCodec) encode(p pointer, e *encodeState) {
	encodeNumberDecimal(e, *as[json.Number](p), c.dec)
}

// encodeNumberDecimal writes n as the decimal dec or, with dec nil, as a
// big-decimal. Its value costs time quadratic in its digits and a power
// of ten as large as its exponent, so both are bounded first: more
// digits than a decimal's precision is ErrRange; an exponent past
// MaxDecimalScale, or more digits than that and the precision, ErrLimit.
func encodeNumberDecimal(e *encodeState, n json.Number, dec *decimalCodec) {
	num, ok := decimal.ScanNumber(string(n))
	if !ok {
		e.Failf(ErrRange, "json.Number %q is not a number", shortText(string(n)))
		return
	}
	if dec != nil && len(num.Digits) > dec.precision {
		e.Failf(ErrRange, "json.Number %s has more than %d digits (the decimal's precision)", shortText(string(n)), dec.precision)
		return
	}
	if num.Exp > e.MaxDecimalScale || num.Exp < -e.MaxDecimalScale {
		e.Failf(ErrLimit, "json.Number %s has an exponent beyond the maximum decimal scale %d", shortText(string(n)), e.MaxDecimalScale)
		return
	}
	if len(num.Digits) > e.MaxDecimalScale && (dec == nil || len(num.Digits) > dec.precision) {
		e.Failf(ErrLimit, "json.Number %s has more digits than the maximum decimal scale %d", shortText(string(n)), e.MaxDecimalScale)
		return
	}
	if dec == nil {
		encodeBigDecimal(num.Rat(), e)
		return
	}
	dec.encodeRat(num.Rat(), e)
}

func (c *numberDecimalCodec) decode(p pointer, d *decodeState) {
	var r big.Rat
	var scale int
	if c.dec != nil {
		if !c.dec.decodeRat(&r, d) {
			return
		}
		scale = c.dec.scale
	} else {
		if !decodeBigDecimal(&r, d) {
			return
		}
		a, b, _ := powersOf2And5(r.Denom())
		scale = int(max(a, b))
	}
	*as[json.Number](p) = json.Number(r.FloatString(scale))
}

// shortText is s, or its start when it is long, for an error message.
func shortText(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
