package avro

import (
	"reflect"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// A SchemaOption configures SchemaOf.
type SchemaOption struct {
	apply func(*codec.SchemaOptions)
}

// WithNamespace puts every named type of the schema that is not named
// otherwise (by Register, by a dotted typename= or WithName) in namespace
// ns. Without it the names have no namespace.
func WithNamespace(ns string) SchemaOption {
	return SchemaOption{func(o *codec.SchemaOptions) { o.Namespace = ns }}
}

// WithName names the root record (or fixed) name instead of its Go type's
// name. A dotted name is a full name.
func WithName(name string) SchemaOption {
	return SchemaOption{func(o *codec.SchemaOptions) { o.Name = name }}
}

// SchemaOf returns the schema of Go type T, by the mapping that Marshal
// and Unmarshal use, so that Marshal(SchemaOf[T](), v) works for every v
// of type T and Unmarshal reads back an equal value (see "Schemas of Go
// types" in the package doc for the mapping and its limits). The schema is
// derived once per type and options, and the same *schema.Schema (with its
// compiled codecs) is returned after that. A Go type that has no schema
// (an empty interface, a channel, a map with int keys, a bad struct tag)
// is a *TypeError with the Avro path of the field (see TypeError.Path),
// the path Marshal would report for it.
//
// The schema holds every value of T: a uint, uint64 or uintptr, half of
// whose values an Avro long cannot hold, is a *TypeError that says how to
// choose. Either tag the field that holds it with the option long
// (`avro:"count,long"`, which also reaches the integers of its slices,
// arrays, maps and pointers): the field gets a long, and Marshal of a
// value above 2^63-1 is an *Error wrapping ErrRange with its path. Or
// write the schema by hand with a type that holds every value (a string,
// a decimal(20,0), a fixed of 8 bytes) and register a conversion to it.
func SchemaOf[T any](opts ...SchemaOption) (*schema.Schema, error) {
	return SchemaOfType(reflect.TypeFor[T](), opts...)
}

// SchemaOfType is SchemaOf for a type known at run time.
func SchemaOfType(t reflect.Type, opts ...SchemaOption) (*schema.Schema, error) {
	var o codec.SchemaOptions
	for _, opt := range opts {
		if opt.apply != nil {
			opt.apply(&o)
		}
	}
	s, err := codec.SchemaOf(t, o)
	return s, publicError(err)
}

// MustSchemaOf is SchemaOf for types known to have a schema: it panics on
// error. It suits package-level variables.
func MustSchemaOf[T any](opts ...SchemaOption) *schema.Schema {
	s, err := SchemaOf[T](opts...)
	if err != nil {
		panic(err)
	}
	return s
}
