package avro

import (
	"reflect"

	"github.com/avrogo/avro/internal/codec"
)

// Sentinel errors. Every error that Marshal, Unmarshal, the Encoder and the
// Decoder return for bad data is an *Error that wraps one of these, so
// callers can tell the cases apart with errors.Is.
var (
	// ErrTruncated means the input ended inside a value. It also matches
	// io.ErrUnexpectedEOF.
	ErrTruncated error
	// ErrInvalid means the input is not valid Avro for the schema: an
	// overlong varint, a union or enum index out of range, a boolean byte
	// other than 0 or 1, a negative length, a block whose items do not end
	// at its byte size, trailing bytes, ...
	ErrInvalid error
	// ErrLimit means a configured safety limit was exceeded (nesting depth,
	// length of one value, items in one collection, bytes allocated by one
	// decode). See DecodeOptions.
	ErrLimit error
	// ErrRange means a Go value does not fit the schema type: an int64 that
	// does not fit an Avro int, a byte slice of the wrong length for a
	// fixed, a decimal with more digits than its scale, a value that fits no
	// union branch, a nil pointer where the schema has no null.
	ErrRange error
)

// The sentinels are the engine's own, so that its errors match them; they
// are set here rather than in their declarations to keep the engine's
// names out of the documentation.
func init() {
	ErrTruncated, ErrInvalid, ErrLimit, ErrRange = codec.ErrTruncated, codec.ErrInvalid, codec.ErrLimit, codec.ErrRange
}

// Error is the error returned for a value that cannot be encoded or
// decoded. Path locates the value in the datum ("items[3].name"; empty for
// the top-level value) and Offset is the byte offset in the input where
// decoding failed (-1 when encoding).
type Error struct {
	Op     string // "marshal" or "unmarshal"
	Path   string
	Offset int64
	Err    error
}

// Error formats the error as "avro: op path at offset n: reason".
func (e *Error) Error() string { return (*codec.Error)(e).Error() }

// Unwrap returns the underlying error (one of the sentinels, possibly
// wrapped with detail).
func (e *Error) Unwrap() error { return e.Err }

// TypeError reports, when a codec is compiled, that a Go type cannot
// represent a schema: "avro: age: Go type string cannot represent Avro
// int", or that a struct to encode has no field for a schema field that
// has no default: "avro: qty: struct main.Line has no field for "qty"
// (int), and the schema gives it no default" (GoType is then the struct,
// Schema the field's type and Field its name). It is returned before any
// byte is read or written. SchemaOf and struct tags report a Go type
// that has no schema, or a bad tag, with an empty Schema: "avro: pet: Go
// type interface {}: an empty interface holds values of any schema, ...".
type TypeError struct {
	// Path is the Avro path of the value, such as "lines[].price.currency":
	// each record field by its Avro name (for a struct field, its tag's
	// name, else its Go name), and [] for the items of an array or the
	// values of a map. SchemaOf and the codecs use the same paths; a bad
	// tag's Detail names the Go field.
	Path   string
	GoType string
	Schema string // the Avro type name
	Detail string
	// Field is the name of the schema field that the struct GoType lacks,
	// when that is the error, else "".
	Field string
}

// Error formats the error as "avro: path: Go type T cannot represent Avro
// type (detail)", or for a struct that lacks a field as "avro: path:
// struct T has no field for "name" (type), and the schema gives it no
// default".
func (e *TypeError) Error() string { return (*codec.TypeError)(e).Error() }

// InvalidUnmarshalError describes an invalid argument passed to Unmarshal
// or Decode: it must be a non-nil pointer.
type InvalidUnmarshalError struct {
	Type reflect.Type // the type of the argument; nil for a nil interface
}

// Error names the argument's type, as encoding/json does:
// "avro: Unmarshal(non-pointer T)" or "avro: Unmarshal(nil *T)".
func (e *InvalidUnmarshalError) Error() string {
	return (*codec.InvalidUnmarshalError)(e).Error()
}

// publicError gives the engine's errors the types of this package; every
// error the engine returns to a caller passes through it.
func publicError(err error) error {
	switch e := err.(type) {
	case nil:
		return nil
	case *codec.Error:
		return (*Error)(e)
	case *codec.TypeError:
		return (*TypeError)(e)
	case *codec.InvalidUnmarshalError:
		return (*InvalidUnmarshalError)(e)
	}
	return err
}
