package avro

import (
	"reflect"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// A Conversion maps a Go type T that the library does not know (a money
// type, a netip.Addr, a point struct) through a Go type A that it does
// (int64, string, *big.Rat, a struct, value.Value, ...): a T is encoded
// by converting it with Encode and encoding the A, and decoded by
// decoding an A and converting it with Decode. Register it with
// RegisterConversion. See "Conversions" in the package doc.
type Conversion[T, A any] struct {
	// Encode converts a value to write; Decode converts a value read. An
	// error from either is an *Error at the value's path, wrapping
	// ErrRange (encode) or ErrInvalid (decode) and the error returned.
	//
	// The A given to Decode is scratch space that the library reuses for
	// the next value: Decode may keep what A holds by value (numbers,
	// strings, arrays), but must copy what A refers to before it returns
	// (the big.Rat of a *big.Rat, the array of a []byte, the pointees of
	// a struct's pointer, slice and map fields) if T keeps it. Likewise
	// the library keeps nothing of the A that Encode returns once the
	// value is written, so Encode may return memory that T owns.
	Encode func(T) (A, error)
	Decode func(A) (T, error)

	// Logical, AvroType and Prop restrict the schemas the conversion
	// serves; all that are set must match. Logical is a logical type
	// name ("decimal", "timestamp-millis"); AvroType an Avro type name
	// ("long", "string", "record", "union") or a named type's full name;
	// Prop a schema property that must have the value PropValue (as JSON
	// decodes it: a string, float64, bool, ...), such as Kafka Connect's
	// "connect.name". With none set, the conversion serves every schema
	// of its Go type but a union, whose branches are matched one by one.
	Logical   string
	AvroType  string
	Prop      string
	PropValue any

	// Schema is the schema SchemaOf gives T. When nil, SchemaOf uses
	// the schema of A if the conversion has no restriction. A field whose
	// tag names a logical type gets the schema the tag gives A, when the
	// conversion serves it: with Logical "decimal" and A *big.Rat, a
	// field tagged decimal(18,4) gets bytes decimal(18,4), precision and
	// scale per field, as Marshal reads the same tag. Otherwise SchemaOf
	// uses T's own mapping.
	Schema *schema.Schema
}

// RegisterConversion registers c for its Go type T. Where several
// conversions of T match a schema, the most specific wins (a property
// over a logical type over an Avro type over none; the restrictions of one
// conversion add up), and among equally specific ones the first
// registered. Like Register, it is meant for init functions: codecs
// compiled before a registration do not see it. It panics if Encode and
// Decode are both nil, or if T is A, an interface or value.Value, which
// keep their own mappings.
func RegisterConversion[T, A any](c Conversion[T, A]) {
	if c.Encode == nil && c.Decode == nil {
		panic("avro.RegisterConversion: no Encode nor Decode for " + reflect.TypeFor[T]().String())
	}
	conv := codec.NewConversion(c.Encode, c.Decode)
	conv.Logical, conv.AvroType, conv.Prop, conv.PropValue, conv.Schema = c.Logical, c.AvroType, c.Prop, c.PropValue, c.Schema
	codec.RegisterConversion(conv)
}
