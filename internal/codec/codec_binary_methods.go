package codec

import (
	"encoding"
	"reflect"

	"github.com/avrogo/avro/schema"
)

// binaryDecoder decodes an Avro bytes or fixed with the Go type's
// UnmarshalBinary method, as textDecoder serves strings.
type binaryDecoder struct {
	s *schema.Schema
	t reflect.Type
}

func (c binaryDecoder) decode(p pointer, d *decodeState) {
	var data []byte
	if c.s.Kind() == schema.Fixed {
		data = d.ReadSized(c.s.Size())
	} else {
		data = d.ReadBytes()
	}
	if d.Err != nil {
		return
	}
	// The method may keep what it is given, and the input may be the
	// caller's (zero copy): it gets its own copy.
	u := valueAt(c.t, p).Interface().(encoding.BinaryUnmarshaler)
	if err := u.UnmarshalBinary(append([]byte(nil), data...)); err != nil {
		d.Failf(ErrInvalid, "%s.UnmarshalBinary: %w", c.t, err)
	}
}

// binaryEncoder encodes a Go type with its MarshalBinary method as an
// Avro bytes or fixed.
type binaryEncoder struct {
	s *schema.Schema
	t reflect.Type
}

func (c binaryEncoder) encode(p pointer, e *encodeState) {
	m := valueAt(c.t, p).Interface().(encoding.BinaryMarshaler)
	data, err := m.MarshalBinary()
	if err != nil {
		e.Failf(ErrRange, "%s.MarshalBinary: %w", c.t, err)
		return
	}
	if c.s.Kind() == schema.Fixed {
		if len(data) != c.s.Size() {
			e.Failf(ErrRange, "%s.MarshalBinary gave %d bytes for fixed %s of size %d", c.t, len(data), c.s.FullName(), c.s.Size())
			return
		}
		e.Buf = append(e.Buf, data...)
		return
	}
	e.WriteBytes(data)
}

// usesBinaryMethods reports whether the bytes or fixed s maps to t through
// t's binary methods: t is not already a byte slice or array, whose own
// mapping comes first, and s has no logical type.
func usesBinaryMethods(s *schema.Schema, t, method reflect.Type) bool {
	if s.Kind() != schema.Bytes && s.Kind() != schema.Fixed || s.Logical() != schema.NoLogical {
		return false
	}
	return !isByteSeq(t) && reflect.PointerTo(t).Implements(method)
}
