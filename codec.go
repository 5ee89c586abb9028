package avro

import (
	"reflect"
	"unsafe"

	"github.com/avrogo/avro/schema"
)

// decoder decodes one value of its schema from d into the Go value at p.
// p points at a value of the Go type the decoder was compiled for. On bad
// input a decoder records the error with d.fail and returns; callers check
// d.err where they need to stop early.
type decoder interface {
	decode(p unsafe.Pointer, d *decodeState)
}

// encoder appends the Go value at p to e.buf, in the encoding of its
// schema. Errors are recorded with e.fail.
type encoder interface {
	encode(p unsafe.Pointer, e *encodeState)
}

// compileKey identifies one codec being compiled, so that recursive
// schemas and recursive Go types compile to a cycle of codecs.
type compileKey struct {
	s *schema.Schema
	t reflect.Type
}

// compiler holds the state of one compilation: the record codecs compiled
// so far, which a recursive reference reuses instead of recursing forever.
type compiler struct {
	decoders map[compileKey]decoder
	encoders map[compileKey]encoder
}

func newCompiler() *compiler {
	return &compiler{decoders: map[compileKey]decoder{}, encoders: map[compileKey]encoder{}}
}

// typeErr builds the compile-time error for a Go type that cannot hold s.
func typeErr(path string, t reflect.Type, s *schema.Schema, detail string) error {
	name := s.Kind().String()
	if s.Kind().IsNamed() {
		name += " " + s.FullName()
	}
	if s.Logical() != schema.NoLogical {
		name += " (" + s.Logical().String() + ")"
	}
	gt := "<nil>"
	if t != nil {
		gt = t.String()
	}
	return &TypeError{Path: path, GoType: gt, Schema: name, Detail: detail}
}

func joinPath(path, elem string) string {
	if path == "" {
		return elem
	}
	if elem != "" && elem[0] == '[' {
		return path + elem
	}
	return path + "." + elem
}

var (
	anyType         = reflect.TypeFor[any]()
	textMarshaler   = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()
	textUnmarshaler = reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()
)

// decoderFor compiles the decoder of schema s into Go type t.
func (c *compiler) decoderFor(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	key := compileKey{s, t}
	if dec, ok := c.decoders[key]; ok {
		return dec, nil
	}
	if dec, ok, err := c.specialDecoder(s, t, path); ok || err != nil {
		return dec, err
	}
	if s.Kind() == schema.Union {
		return c.unionDecoder(s, t, path)
	}
	if t.Kind() == reflect.Pointer {
		return c.ptrDecoder(s, t, path)
	}
	if s.Logical() != schema.NoLogical {
		if dec, err := logicalDecoder(s, t, path); dec != nil || err != nil {
			return dec, err
		}
	}
	switch s.Kind() {
	case schema.Null:
		return nullCodec{}, nil
	case schema.Boolean:
		if t.Kind() == reflect.Bool {
			return boolCodec{}, nil
		}
	case schema.Int, schema.Long:
		if dec := intDecoderFor(s.Kind(), t); dec != nil {
			return dec, nil
		}
	case schema.Float, schema.Double:
		if dec := floatDecoderFor(s.Kind(), t); dec != nil {
			return dec, nil
		}
	case schema.String, schema.Bytes:
		if dec := stringDecoderFor(s.Kind(), t); dec != nil {
			return dec, nil
		}
	case schema.Enum:
		if dec := enumDecoderFor(s, t); dec != nil {
			return dec, nil
		}
	case schema.Fixed:
		if dec := fixedDecoderFor(s, t); dec != nil {
			return dec, nil
		}
	case schema.Array:
		return c.arrayDecoder(s, t, path)
	case schema.Map:
		return c.mapDecoder(s, t, path)
	case schema.Record:
		return c.recordDecoder(s, t, path)
	}
	return nil, typeErr(path, t, s, "")
}

// encoderFor compiles the encoder of schema s from Go type t.
func (c *compiler) encoderFor(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	key := compileKey{s, t}
	if enc, ok := c.encoders[key]; ok {
		return enc, nil
	}
	if enc, ok, err := c.specialEncoder(s, t, path); ok || err != nil {
		return enc, err
	}
	if s.Kind() == schema.Union {
		return c.unionEncoder(s, t, path)
	}
	if t.Kind() == reflect.Pointer {
		return c.ptrEncoder(s, t, path)
	}
	if s.Logical() != schema.NoLogical {
		if enc, err := logicalEncoder(s, t, path); enc != nil || err != nil {
			return enc, err
		}
	}
	switch s.Kind() {
	case schema.Null:
		return nullCodec{}, nil
	case schema.Boolean:
		if t.Kind() == reflect.Bool {
			return boolCodec{}, nil
		}
	case schema.Int, schema.Long:
		if enc := intEncoderFor(s.Kind(), t); enc != nil {
			return enc, nil
		}
	case schema.Float, schema.Double:
		if enc := floatEncoderFor(s.Kind(), t); enc != nil {
			return enc, nil
		}
	case schema.String, schema.Bytes:
		if enc := stringEncoderFor(s.Kind(), t); enc != nil {
			return enc, nil
		}
	case schema.Enum:
		if enc := enumEncoderFor(s, t); enc != nil {
			return enc, nil
		}
	case schema.Fixed:
		if enc := fixedEncoderFor(s, t); enc != nil {
			return enc, nil
		}
	case schema.Array:
		return c.arrayEncoder(s, t, path)
	case schema.Map:
		return c.mapEncoder(s, t, path)
	case schema.Record:
		return c.recordEncoder(s, t, path)
	}
	return nil, typeErr(path, t, s, "")
}

// specialDecoder handles the Go types whose mapping does not depend on the
// schema kind: interfaces (any and registered unions), value.Value, and
// types with their own TextUnmarshaler for string and enum schemas.
func (c *compiler) specialDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, bool, error) {
	if t == anyType {
		dec, err := c.anyDecoder(s, path)
		return dec, true, err
	}
	if t.Kind() == reflect.Interface {
		dec, err := c.interfaceDecoder(s, t, path)
		return dec, true, err
	}
	if isValueType(t) {
		dec, err := c.valueDecoder(s, path)
		return dec, true, err
	}
	if (s.Kind() == schema.String || s.Kind() == schema.Enum) && s.Logical() == schema.NoLogical &&
		t.Kind() != reflect.String && reflect.PointerTo(t).Implements(textUnmarshaler) {
		return textDecoder{s: s, t: t}, true, nil
	}
	return nil, false, nil
}

func (c *compiler) specialEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, bool, error) {
	if t == anyType {
		enc, err := c.anyEncoder(s, path)
		return enc, true, err
	}
	if t.Kind() == reflect.Interface {
		enc, err := c.interfaceEncoder(s, t, path)
		return enc, true, err
	}
	if isValueType(t) {
		enc, err := c.valueEncoder(s, path)
		return enc, true, err
	}
	if (s.Kind() == schema.String || s.Kind() == schema.Enum) && s.Logical() == schema.NoLogical &&
		t.Kind() != reflect.String && t.Implements(textMarshaler) {
		return textEncoder{s: s, t: t}, true, nil
	}
	return nil, false, nil
}
