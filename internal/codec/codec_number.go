package codec

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"

	"github.com/avrogo/avro/schema"
)

var jsonNumberType = reflect.TypeFor[json.Number]()

// numberCodec maps a json.Number to an int, long, float or double, as
// value.FromAny reads one: int and long take an integer literal exactly,
// float and double the literal rounded once to their precision. Decoding
// writes the shortest literal that reads back as the value.
type numberCodec struct{ k schema.Kind }

// numberCodecFor returns the codec of a json.Number for s, or nil when s
// is not a plain numeric schema.
func numberCodecFor(s *schema.Schema, t reflect.Type) *numberCodec {
	if t != jsonNumberType || s.Logical() != schema.NoLogical {
		return nil
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
