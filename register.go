package avro

import "github.com/avrogo/avro/internal/codec"

// Register associates the named Avro type fullName (a record, enum or
// fixed) with the Go type of v, so that a union of named types decodes
// into an interface-typed value: the branch's registered type is
// allocated, decoded and stored in the interface. Register a pointer (for
// example Register("com.example.Cat", (*Cat)(nil))) when the interface's
// methods have pointer receivers. Encoding picks the branch whose
// registered type is the dynamic type of the interface value.
//
// Register is meant to be called from init functions; codecs compiled
// before a registration do not see it. It panics if v is nil: a nil
// interface value has no type to register.
func Register(fullName string, v any) { codec.Register(fullName, v) }
