package avro

import "github.com/avrogo/avro/internal/codec"

// Register associates a branch of unions with the Go type of v, so that
// a union decodes into an interface-typed value: the branch's registered
// type is allocated, decoded and stored in the interface. A branch is
// named by its full name for a record, enum or fixed ("com.example.Cat"),
// and by its type name for the others ("string", "long", "array",
// "map"). Register a pointer (for example Register("com.example.Cat",
// (*Cat)(nil))) when the interface's methods have pointer receivers.
// Encoding picks the branch whose registered type is the dynamic type of
// the interface value.
//
// One name may be registered with several Go types, one for each
// interface that uses it: a union read into an interface takes, for each
// branch, the most recently registered type that implements the
// interface. This is how generated code gives each union its own branch
// types:
//
//	type Pet interface{ isPet() }
//	type PetName string
//	func (PetName) isPet() {}
//	func (*Cat) isPet()    {}
//
//	func init() {
//		avro.Register("string", PetName(""))
//		avro.Register("com.example.Cat", (*Cat)(nil))
//	}
//
// Decoding a branch that has no registered type implementing the
// interface is an ErrRange error with the path; a union none of whose
// branches has one does not compile (a *TypeError).
//
// Register is meant to be called from init functions; codecs compiled
// before a registration do not see it. It panics if v is nil: a nil
// interface value has no type to register.
func Register(fullName string, v any) { codec.Register(fullName, v) }
