package codec

import (
	"errors"
	"reflect"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

var errInlineKind = errors.New("inline needs a struct or a pointer to a struct")

// typeError reports a bad tag as a *TypeError at the field's Avro path,
// naming the Go field in the detail.
func (e *fieldTagError) typeError(path string, t reflect.Type) error {
	return &TypeError{Path: joinPath(path, e.field), GoType: e.typ.String(), Detail: "avro tag of Go field " + e.goName + ": " + e.err.Error()}
}

// checkFieldTag checks the options of a Go field's tag against the schema
// field f it encodes and decodes: a logical type the tag names must be
// the field's, and a default must be a value of the field's type.
func checkFieldTag(gf goField, f *schema.Field, path string) error {
	ft := f.Type()
	if gf.tag.logical != schema.NoLogical {
		s := nonNullBranch(ft)
		ok := s != nil && s.Logical() == gf.tag.logical
		if ok && gf.tag.logical == schema.Decimal {
			ok = s.Precision() == gf.tag.precision && s.Scale() == gf.tag.scale
		}
		if !ok {
			return typeErr(path, gf.typ, ft, "its tag asks for the logical type "+gf.tag.logicalText())
		}
	}
	if gf.tag.long && !holdsLongs(ft) {
		return typeErr(path, gf.typ, ft, "its tag asks for long")
	}
	if gf.tag.hasDef {
		if _, err := ft.EncodeDefault(gf.tag.def); err != nil {
			return typeErr(path, gf.typ, ft, "avro tag of Go field "+gf.goName+": its default="+gf.tag.def+" is not a value of the field: "+err.Error())
		}
	}
	return nil
}

// holdsLongs reports whether s is a long, or a nullable, array or map of
// what holdsLongs accepts, as SchemaOf maps a field tagged long.
func holdsLongs(s *schema.Schema) bool {
	for s != nil {
		switch s.Kind() {
		case schema.Long:
			return s.Logical() == schema.NoLogical
		case schema.Union:
			s = nonNullBranch(s)
		case schema.Array:
			s = s.Items()
		case schema.Map:
			s = s.Values()
		default:
			return false
		}
	}
	return false
}

// nonNullBranch returns s, or for a union the one branch that is not null,
// or nil when a union has several.
func nonNullBranch(s *schema.Schema) *schema.Schema {
	if s.Kind() != schema.Union {
		return s
	}
	var out *schema.Schema
	for _, b := range s.Branches() {
		if b.Kind() == schema.Null {
			continue
		}
		if out != nil {
			return nil
		}
		out = b
	}
	return out
}

// omitZero wraps the encoder of a field tagged omitzero: a zero value
// writes the schema field's default, else the tag's default, else null
// when the field's union has a null branch.
func omitZero(gf goField, f *schema.Field, enc encoder, path string) (encoder, error) {
	var def []byte
	switch ft := f.Type(); {
	case f.HasDefault():
		def = f.DefaultBinary()
	case gf.tag.hasDef:
		bin, err := ft.EncodeDefault(gf.tag.def)
		if err != nil {
			return nil, typeErr(path, gf.typ, ft, "avro tag of Go field "+gf.goName+": its default="+gf.tag.def+" is not a value of the field: "+err.Error())
		}
		def = bin
	case ft.Kind() == schema.Union && nullIndex(ft) >= 0:
		def = varint.AppendLong(nil, int64(nullIndex(ft)))
	default:
		return nil, typeErr(path, gf.typ, ft, "omitzero needs a default to write: the schema field has none, nor has the tag, nor a null branch")
	}
	return &omitZeroEncoder{isZero: zeroTest(gf.typ), def: def, inner: enc}, nil
}

func nullIndex(s *schema.Schema) int {
	for i, b := range s.Branches() {
		if b.Kind() == schema.Null {
			return i
		}
	}
	return -1
}

// omitZeroEncoder writes def for a zero value, else the value.
type omitZeroEncoder struct {
	isZero func(pointer) bool
	def    []byte
	inner  encoder
}

func (c *omitZeroEncoder) encode(p pointer, e *encodeState) {
	if c.isZero(p) {
		e.Buf = append(e.Buf, c.def...)
		return
	}
	c.inner.encode(p, e)
}

var zeroer = reflect.TypeFor[interface{ IsZero() bool }]()

// zeroTest returns the test of a zero value of t, as encoding/json's
// omitzero defines it: the type's IsZero method when it has one, else the
// zero value of the type (a nil slice or map, not an empty one; 0.0 but
// not -0.0).
func zeroTest(t reflect.Type) func(pointer) bool {
	if t.Implements(zeroer) || reflect.PointerTo(t).Implements(zeroer) {
		return func(p pointer) bool {
			return valueAt(t, p).Interface().(interface{ IsZero() bool }).IsZero()
		}
	}
	switch t.Kind() {
	case reflect.String:
		return func(p pointer) bool { return len(*as[string](p)) == 0 }
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return func(p pointer) bool { return *as[uint8](p) == 0 }
	case reflect.Int16, reflect.Uint16:
		return func(p pointer) bool { return *as[uint16](p) == 0 }
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return func(p pointer) bool { return *as[uint32](p) == 0 }
	case reflect.Int64, reflect.Uint64, reflect.Float64:
		return func(p pointer) bool { return *as[uint64](p) == 0 }
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return func(p pointer) bool { return *as[uint](p) == 0 }
	case reflect.Pointer, reflect.Map, reflect.Slice:
		// A nil slice has no data pointer; a nil map or pointer is one.
		return func(p pointer) bool { return p.elem().isNil() }
	}
	return func(p pointer) bool { return valueAt(t, p).Elem().IsZero() }
}

// tagDefault builds the decoder that sets a Go field that no schema field
// fills from its tag's default, read as a value of the field's own
// schema.
func (c *compiler) tagDefault(gf goField, path string) (fieldDefault, error) {
	s, err := fieldSchemaOf(gf, path)
	if err != nil {
		return fieldDefault{}, err
	}
	bin, err := s.EncodeDefault(gf.tag.def)
	if err != nil {
		return fieldDefault{}, typeErr(path, gf.typ, s, "avro tag of Go field "+gf.goName+": its default="+gf.tag.def+" is not a value of the field: "+err.Error())
	}
	dec, err := c.decoderFor(s, gf.typ, path)
	if err != nil {
		return fieldDefault{}, err
	}
	op := fieldOpOf(dec)
	off, dec := wrapDecoderSteps(gf.steps, dec)
	if bin == nil {
		bin = []byte{}
	}
	fd := fieldDefault{offset: off, dec: dec, bin: bin, name: gf.name}
	if len(gf.steps) == 1 {
		fd.setConstant(op)
	}
	return fd, nil
}
