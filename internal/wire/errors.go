package wire

import (
	"errors"
	"fmt"
	"io"
)

// Sentinel errors. Every error that Marshal, Unmarshal, the Encoder and the
// Decoder return for bad data is an *Error that wraps one of these, so
// callers can tell the cases apart with errors.Is.
var (
	// ErrTruncated means the input ended inside a value. It also matches
	// io.ErrUnexpectedEOF.
	ErrTruncated = fmt.Errorf("avro: truncated input: %w", io.ErrUnexpectedEOF)
	// ErrInvalid means the input is not valid Avro for the schema: an
	// overlong varint, a union or enum index out of range, a boolean byte
	// other than 0 or 1, a negative length, trailing bytes, ...
	ErrInvalid = errors.New("avro: invalid data")
	// ErrLimit means a configured safety limit was exceeded (nesting depth,
	// length of one value, items in one collection, bytes allocated by one
	// decode). See DecodeOptions.
	ErrLimit = errors.New("avro: limit exceeded")
	// ErrRange means a Go value does not fit the schema type: an int64 that
	// does not fit an Avro int, a byte slice of the wrong length for a
	// fixed, a decimal with more digits than its scale, a value that fits no
	// union branch, a nil pointer where the schema has no null.
	ErrRange = errors.New("avro: value out of range for schema")
)
