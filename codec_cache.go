package avro

import (
	"reflect"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// Compile compiles ahead of time the codecs that Marshal, Append,
// Unmarshal and the Encoder and Decoder of s use for values of type T
// (and pointers to them), so that a service can pay for them at start-up
// rather than on its first request. Codecs are compiled once per schema
// and Go type in any case; Compile only moves the cost, and the later
// calls find them ready.
//
// A T that cannot represent s is the *TypeError that Marshal would return
// (or, for a T that can be encoded but not decoded, that Unmarshal would
// return). Like Marshal, Compile sees the types and conversions registered
// before it is called.
func Compile[T any](s *schema.Schema) error {
	return publicError(codec.Compile(s, reflect.TypeFor[T]()))
}
