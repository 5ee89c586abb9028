package codec

import (
	"reflect"

	"github.com/avrogo/avro/schema"
)

// decoder decodes one value of its schema from d into the Go value at p.
// p points at a value of the Go type the decoder was compiled for. On bad
// input a decoder records the error with d.fail and returns; callers check
// d.err where they need to stop early.
type decoder interface {
	decode(p pointer, d *decodeState)
}

// encoder appends the Go value at p to e.buf, in the encoding of its
// schema. Errors are recorded with e.fail.
type encoder interface {
	encode(p pointer, e *encodeState)
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

// topDecoder compiles the decoder of a datum of schema s into Go type t:
// the decoder of s, and for a schema that schema.Resolve returned, the
// resolution that reads the writer's bytes into it (codec_resolve.go).
func (c *compiler) topDecoder(s *schema.Schema, t reflect.Type) (decoder, error) {
	dec, err := c.decoderFor(s, t, "")
	if err != nil || s.Writer() == nil {
		return dec, err
	}
	return resolvedDecoderFor(s, dec), nil
}

// decoderFor compiles the decoder of schema s into Go type t.
func (c *compiler) decoderFor(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	key := compileKey{s, t}
	if dec, ok := c.decoders[key]; ok {
		return dec, nil
	}
	if conv := conversionFor(s, t); conv != nil {
		return c.conversionDecoder(conv, s, path)
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
	if codec := scalarCodec(s, t); codec != nil {
		return codec, nil
	}
	switch s.Kind() {
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
	if conv := conversionFor(s, t); conv != nil {
		return c.conversionEncoder(conv, s, path)
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
	if codec := scalarCodec(s, t); codec != nil {
		return codec, nil
	}
	switch s.Kind() {
	case schema.Array:
		return c.arrayEncoder(s, t, path)
	case schema.Map:
		return c.mapEncoder(s, t, path)
	case schema.Record:
		return c.recordEncoder(s, t, path)
	}
	return nil, typeErr(path, t, s, "")
}

// codec is a decoder and encoder of one Go type, as the codecs of scalar
// Avro types are: their encoding is symmetric.
type codec interface {
	decoder
	encoder
}

// scalarCodec returns the codec of a non-container schema (null through
// fixed) for t, or nil when t does not map to it.
func scalarCodec(s *schema.Schema, t reflect.Type) codec {
	switch s.Kind() {
	case schema.Null:
		return nullCodec{}
	case schema.Boolean:
		if t.Kind() == reflect.Bool {
			return boolCodec{}
		}
	case schema.Int, schema.Long:
		return intKindCodec(s.Kind(), t)
	case schema.Float, schema.Double:
		return floatKindCodec(s.Kind(), t)
	case schema.String, schema.Bytes:
		return stringKindCodec(s.Kind(), t)
	case schema.Enum:
		return enumCodecFor(s, t)
	case schema.Fixed:
		return fixedCodecFor(s, t)
	}
	return nil
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
	if gc, err := c.genericShape(s, t, path); gc != nil || err != nil {
		return gc, true, err
	}
	if nc := numberCodecFor(s, t); nc != nil {
		return nc, true, nil
	}
	// As in encoding/json, the methods come before the kind: a string
	// type with its own UnmarshalText is read through it.
	if (s.Kind() == schema.String || s.Kind() == schema.Enum) && s.Logical() == schema.NoLogical &&
		reflect.PointerTo(t).Implements(textUnmarshaler) {
		return textDecoder{s: s, t: t}, true, nil
	}
	if usesBinaryMethods(s, t, binaryUnmarshal) {
		return binaryDecoder{s: s, t: t}, true, nil
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
	if gc, err := c.genericShape(s, t, path); gc != nil || err != nil {
		return gc, true, err
	}
	if nc := numberCodecFor(s, t); nc != nil {
		return nc, true, nil
	}
	// A MarshalText of *T serves too: the encoder has the value's
	// address, as encoding/json does for addressable values. And as
	// there, the method comes before the kind.
	if (s.Kind() == schema.String || s.Kind() == schema.Enum) && s.Logical() == schema.NoLogical &&
		reflect.PointerTo(t).Implements(textMarshaler) {
		return textEncoder{s: s, t: t}, true, nil
	}
	if usesBinaryMethods(s, t, binaryMarshaler) {
		return binaryEncoder{s: s, t: t}, true, nil
	}
	return nil, false, nil
}
