package codec

import (
	"encoding"
	"reflect"
	"unicode/utf8"

	"github.com/avrogo/avro/schema"
)

// stringCodec maps an Avro string or bytes to a Go string.
type stringCodec struct{}

func (stringCodec) decode(p pointer, d *decodeState) { *as[string](p) = d.ReadString() }
func (stringCodec) encode(p pointer, e *encodeState) { e.WriteString(*as[string](p)) }

// stringValidCodec is stringCodec for Avro string (which must be UTF-8 when
// the decoder validates); bytes held in a Go string are never validated.
type bytesAsStringCodec struct{}

func (bytesAsStringCodec) decode(p pointer, d *decodeState) {
	b := d.ReadStringBytes()
	if d.Err == nil && len(b) > 0 && d.Reserve(int64(len(b))) {
		*as[string](p) = string(b)
		return
	}
	*as[string](p) = ""
}

func (bytesAsStringCodec) encode(p pointer, e *encodeState) { e.WriteString(*as[string](p)) }

// bytesCodec maps an Avro bytes or string to a Go []byte. Decoded slices
// are fresh (never shared with the input or an earlier value) unless
// DecodeOptions.ZeroCopy is set.
type bytesCodec struct {
	// utf8 marks an Avro string, validated when DecodeOptions.ValidateUTF8
	// is set.
	utf8 bool
}

func (c bytesCodec) decode(p pointer, d *decodeState) {
	b := d.ReadBytes()
	if c.utf8 && d.ValidateUTF && d.Err == nil && !utf8.Valid(b) {
		d.Failf(ErrInvalid, "string is not valid UTF-8")
		return
	}
	*as[[]byte](p) = b
}

func (bytesCodec) encode(p pointer, e *encodeState) { e.WriteBytes(*as[[]byte](p)) }

func stringKindCodec(k schema.Kind, t reflect.Type) codec {
	switch {
	case t.Kind() == reflect.String && k == schema.String:
		return stringCodec{}
	case t.Kind() == reflect.String:
		return bytesAsStringCodec{}
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return bytesCodec{utf8: k == schema.String}
	}
	return nil
}

// textDecoder decodes an Avro string or enum symbol with the Go type's
// UnmarshalText method.
type textDecoder struct {
	s *schema.Schema
	t reflect.Type
}

func (c textDecoder) decode(p pointer, d *decodeState) {
	var text []byte
	if c.s.Kind() == schema.Enum {
		i := readEnumIndex(c.s, d)
		if d.Err != nil {
			return
		}
		text = []byte(c.s.Symbols()[i])
	} else {
		text = d.ReadStringBytes()
		if d.Err != nil {
			return
		}
		if d.ValidateUTF && !utf8.Valid(text) {
			d.Failf(ErrInvalid, "string is not valid UTF-8")
			return
		}
	}
	u := valueAt(c.t, p).Interface().(encoding.TextUnmarshaler)
	if err := u.UnmarshalText(text); err != nil {
		d.Failf(ErrInvalid, "%s.UnmarshalText: %w", c.t, err)
	}
}

// textEncoder encodes a Go type with its MarshalText method as an Avro
// string or enum symbol.
type textEncoder struct {
	s *schema.Schema
	t reflect.Type
}

func (c textEncoder) encode(p pointer, e *encodeState) {
	m := valueAt(c.t, p).Interface().(encoding.TextMarshaler)
	text, err := m.MarshalText()
	if err != nil {
		e.Failf(ErrRange, "%s.MarshalText: %w", c.t, err)
		return
	}
	if c.s.Kind() == schema.Enum {
		i := c.s.SymbolIndex(string(text))
		if i < 0 {
			e.Failf(ErrRange, "%q is not a symbol of enum %s", text, c.s.FullName())
			return
		}
		e.WriteLong(int64(i))
		return
	}
	e.WriteBytes(text)
}
