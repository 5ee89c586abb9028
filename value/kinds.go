package value

import "github.com/avrogo/avro/schema"

// Kind is the Avro type of a Value. Its numbering mirrors schema.Kind, so
// Kind(s.Kind()) is the kind of the values of a non-union schema node s.
type Kind uint8

// The kinds of values. KindUnion is never returned by Value.Kind: a union value
// reports the kind of its branch and keeps the branch index (Value.Branch).
// Typed primitive arrays (Value.IsTyped) report KindArray.
const (
	KindNull    = Kind(schema.Null)
	KindBoolean = Kind(schema.Boolean)
	KindInt     = Kind(schema.Int)
	KindLong    = Kind(schema.Long)
	KindFloat   = Kind(schema.Float)
	KindDouble  = Kind(schema.Double)
	KindBytes   = Kind(schema.Bytes)
	KindString  = Kind(schema.String)
	KindRecord  = Kind(schema.Record)
	KindEnum    = Kind(schema.Enum)
	KindArray   = Kind(schema.Array)
	KindMap     = Kind(schema.Map)
	KindUnion   = Kind(schema.Union)
	KindFixed   = Kind(schema.Fixed)

	// KindGeneric is what Value.ElemKind returns for an array of Values, whose
	// elements may be of any kind.
	KindGeneric Kind = 0xff
)

// String returns the Avro name of the kind ("long", "record", ...), or
// "generic" for KindGeneric.
func (k Kind) String() string {
	if k == KindGeneric {
		return "generic"
	}
	return schema.Kind(k).String()
}

// KindError is the panic value of an accessor called on a Value of the
// wrong kind, like reflect.ValueError: v.Long() on a string Value panics
// with &KindError{Method: "Value.Long", Kind: KindString}.
type KindError struct {
	Method string
	Kind   Kind
}

// Error implements error.
func (e *KindError) Error() string {
	return "value: call of " + e.Method + " on " + e.Kind.String() + " Value"
}
