package codec

import (
	"errors"
	"strconv"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/schema"
)

// defaultJSON renders the binary datum bin of s as the JSON of a field
// default: the specification's JSON encoding, with each union's value
// written bare, which only its first branch may be.
func defaultJSON(s *schema.Schema, bin []byte) (string, error) {
	d := newDecodeState(&DecodeOptions{}, bin)
	defer d.release()
	out, err := appendDefaultJSON(nil, s, d)
	if err == nil && d.Err != nil {
		err = d.Err
	}
	return string(out), err
}

var errDefaultBranch = errors.New("the zero value is not in the union's first branch, so it cannot be the field's default")

func appendDefaultJSON(b []byte, s *schema.Schema, d *decodeState) ([]byte, error) {
	switch s.Kind() {
	case schema.Null:
		return append(b, "null"...), nil
	case schema.Boolean:
		return strconv.AppendBool(b, d.ReadBool()), nil
	case schema.Int:
		return strconv.AppendInt(b, int64(d.ReadInt()), 10), nil
	case schema.Long:
		return strconv.AppendInt(b, d.ReadLong(), 10), nil
	case schema.Float:
		return strconv.AppendFloat(b, float64(d.ReadFloat()), 'g', -1, 32), nil
	case schema.Double:
		return strconv.AppendFloat(b, d.ReadDouble(), 'g', -1, 64), nil
	case schema.String:
		return jsontext.AppendString(b, d.ReadString()), nil
	case schema.Bytes:
		return jsontext.AppendCodePoints(b, d.ReadBytes()), nil
	case schema.Fixed:
		return jsontext.AppendCodePoints(b, d.ReadSized(s.Size())), nil
	case schema.Enum:
		i := d.ReadSymbol(len(s.Symbols()), s.FullName())
		if d.Err != nil {
			return b, d.Err
		}
		return jsontext.AppendString(b, s.Symbols()[i]), nil
	case schema.Union:
		if i := d.ReadBranch(len(s.Branches())); d.Err == nil && i != 0 {
			return b, errDefaultBranch
		}
		return appendDefaultJSON(b, s.Branches()[0], d)
	case schema.Record:
		b = append(b, '{')
		for i, f := range s.Fields() {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsontext.AppendString(b, f.Name())
			b = append(b, ':')
			var err error
			if b, err = appendDefaultJSON(b, f.Type(), d); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case schema.Array, schema.Map:
		open, end := byte('['), byte(']')
		if s.Kind() == schema.Map {
			open, end = '{', '}'
		}
		b = append(b, open)
		var n int64
		for {
			count, _ := d.ReadBlockHeader(n)
			if count == 0 || d.Err != nil {
				break
			}
			for range count {
				if n > 0 {
					b = append(b, ',')
				}
				n++
				var err error
				if s.Kind() == schema.Map {
					b = jsontext.AppendString(b, d.ReadString())
					b = append(b, ':')
					b, err = appendDefaultJSON(b, s.Values(), d)
				} else {
					b, err = appendDefaultJSON(b, s.Items(), d)
				}
				if err != nil {
					return b, err
				}
			}
		}
		return append(b, end), d.Err
	}
	return b, d.Err
}
