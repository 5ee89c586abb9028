package codec

import (
	"encoding/json"
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

func (c *numberCodec) encode(p pointer, e *encodeState) {
	n := string(*as[json.Number](p))
	switch c.k {
	case schema.Int, schema.Long:
		i, err := strconv.ParseInt(n, 10, 64)
		if err != nil || c.k == schema.Int && i != int64(int32(i)) {
			e.Failf(ErrRange, "json.Number %q is not an Avro %s", n, c.k)
			return
		}
		e.WriteLong(i)
	case schema.Float:
		f, err := strconv.ParseFloat(n, 32)
		if err != nil {
			e.Failf(ErrRange, "json.Number %q is not an Avro float", n)
			return
		}
		e.WriteFloat(float32(f))
	default:
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			e.Failf(ErrRange, "json.Number %q is not an Avro double", n)
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
