package avrojson

import (
	"fmt"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/jsoncodec"
	"github.com/avrogo/avro/schema"
)

// Options configures the JSON text: how unions, logical types and bytes
// look, and how strict reading is. The zero value is the Avro
// specification's JSON encoding; Plain returns the options of plain JSON
// for people and for JSON tools. The package-level functions use
// Options{}. A Unions, Logical or Bytes value that is none of their
// constants is an error of every call.
type Options struct {
	// Unions says how a union's non-null branch is written: tagged with
	// its type name (the default), tagged with its type and logical name,
	// or bare. Readers of the tagged styles accept both tag forms; a
	// reader of bare unions also accepts tagged values where the union has
	// no record or map branch.
	Unions Unions
	// Logical says how logical types are written: as their underlying
	// Avro value (the default: a timestamp-millis is a number) or as text
	// for people. A reader of readable text also accepts the underlying
	// values, except a decimal's: a string given for a decimal is read as
	// its decimal text, never as its bytes. Reading JSON, in every
	// flavour, refuses with ErrRange what avro.Marshal refuses: a decimal
	// with more digits than its precision or more after the point than
	// its scale, whether given as a number, a string or its bytes. A
	// decimal's text whose exponent, less trailing zeros, is beyond
	// Decode.MaxDecimalScale ("1e5000") is ErrLimit whatever the
	// precision, as when a json.Number is encoded: the work of reading it
	// grows with the exponent. Text of a timestamp or time of day with
	// digits below the type's unit ("00:00:00.0005" for a time-millis)
	// is ErrRange, not rounded: avro.Marshal drops those digits of a
	// time.Time or time.Duration, but text that says more than the datum
	// can hold is refused.
	Logical Logical
	// DecimalStrings writes readable decimals as JSON strings ("6.17")
	// rather than numbers (6.17), for readers that would parse a number
	// into a binary float. Readers accept both.
	DecimalStrings bool
	// Bytes says how bytes and fixed values are written: as a string of
	// the code points U+0000 to U+00FF, one per byte (the default, as the
	// specification says), or in standard base64.
	Bytes Bytes
	// AllowUnknownFields skips object members that name no field of their
	// record when reading. By default they are an error, as is a member
	// given twice; a field that is missing takes its default, and is an
	// error when it has none. Skipped members are not kept, so one name
	// given twice among them is not an error (a field given twice still
	// is).
	AllowUnknownFields bool
	// MaxNumberLength bounds the text of one JSON number (default 1024
	// bytes). Longer is ErrLimit.
	MaxNumberLength int
	// Decode gives the limits of reading JSON (MaxDepth bounds the nesting
	// of arrays and objects, MaxLength one string, MaxItems one array or
	// object, MaxAlloc the defaults filled in for missing fields and the
	// JSON text written from one datum) and of decoding into Go values; and
	// ValidateUTF8, which makes a string that is not UTF-8 an error both
	// ways. By default strings pass byte for byte.
	Decode avro.DecodeOptions
	// Encode gives the limits of encoding Go values.
	Encode avro.EncodeOptions
}

// Unions is a way of writing union values: TaggedUnions (the
// specification's, and the zero value), TaggedLogicalUnions or BareUnions.
type Unions uint8

// The ways of writing unions: TaggedUnions, TaggedLogicalUnions and
// BareUnions.
const (
	// TaggedUnions writes a non-null branch as {"name": value}, named by
	// its full name when it is a named type and by its type otherwise
	// ("string", "array", "long" for a timestamp-millis), as the
	// specification, Java and avsc do. Null is written bare.
	TaggedUnions Unions = iota
	// TaggedLogicalUnions is TaggedUnions with the logical type in the tag
	// of an unnamed logical branch ({"long.timestamp-millis": 1}), as
	// goavro writes and reads it.
	TaggedLogicalUnions
	// BareUnions writes the branch's value alone. A reader picks the
	// branch from the JSON type of the value (null, boolean, number,
	// string, object, array); a value whose JSON type two branches share
	// (an int or a long, a record or a map) is an error that names the
	// field, and must be written tagged. NaN and the infinities, which
	// are written as strings, are written tagged ({"double":"NaN"}) in a
	// union with a branch that reads strings; bare there, they are such
	// an error. Likewise a readable timestamp, date or time written as
	// its number is tagged ({"long":253402300800000}) in a union with a
	// number branch. In a union with a record or map branch, which would
	// read the tagged value, both are written bare, and reading them back
	// is that error.
	BareUnions
)

// Logical is a way of writing logical types: UnderlyingLogical (the
// specification's, and the zero value) or ReadableLogical.
type Logical uint8

// The ways of writing logical types: UnderlyingLogical and ReadableLogical.
const (
	// UnderlyingLogical writes a logical type as the value of its Avro
	// type, as the specification does.
	UnderlyingLogical Logical = iota
	// ReadableLogical writes timestamps in RFC 3339
	// ("2026-12-01T10:30:00.5Z"; local timestamps without the zone),
	// dates as "2026-12-01", times of day as "10:30:00.500" (six
	// fraction digits for time-micros), decimals as exact decimal numbers
	// (6.17, every digit of the scale kept), uuids on fixed as their
	// text, and durations in ISO 8601 ("P1M2DT3.500S").
	// A timestamp or date outside the years 0 to 9999, and a time of day
	// outside a day, is written as its number. A decimal with more digits
	// than Decode.MaxDecimalScale is ErrLimit, whatever the precision its
	// schema declares: writing a number in decimal takes more than linear
	// time.
	ReadableLogical
)

// Bytes is a way of writing bytes and fixed values: CodePointBytes (the
// specification's, and the zero value) or Base64Bytes.
type Bytes uint8

// The ways of writing bytes and fixed values: CodePointBytes and
// Base64Bytes.
const (
	// CodePointBytes writes each byte as the code point of the same
	// number, as the specification does: "\u0000\u00ff" for 00 ff.
	CodePointBytes Bytes = iota
	// Base64Bytes writes standard base64, with padding; readers accept it
	// without padding too.
	Base64Bytes
)

// Plain returns the options of plain JSON: bare unions, readable logical
// types and base64 bytes.
func Plain() Options {
	return Options{Unions: BareUnions, Logical: ReadableLogical, Bytes: Base64Bytes}
}

// DefaultMaxNumberLength is the default MaxNumberLength.
const DefaultMaxNumberLength = 1024

// check returns the error of calling with schema s and these options: a
// nil schema, or a value of Unions, Logical or Bytes that is none of
// their constants.
func (o *Options) check(s *schema.Schema) error {
	switch {
	case s == nil:
		return codec.ErrNilSchema
	case o.Unions > BareUnions:
		return fmt.Errorf("avrojson: Options.Unions is %d, none of the Unions constants", o.Unions)
	case o.Logical > ReadableLogical:
		return fmt.Errorf("avrojson: Options.Logical is %d, none of the Logical constants", o.Logical)
	case o.Bytes > Base64Bytes:
		return fmt.Errorf("avrojson: Options.Bytes is %d, none of the Bytes constants", o.Bytes)
	}
	return nil
}

func (o *Options) flavor() jsoncodec.Flavor {
	return jsoncodec.Flavor{
		Unions:         jsoncodec.Unions(o.Unions),
		Readable:       o.Logical == ReadableLogical,
		DecimalStrings: o.DecimalStrings,
		Base64:         o.Bytes == Base64Bytes,
	}
}

func (o *Options) program(s *schema.Schema) *jsoncodec.Program {
	return jsoncodec.ProgramOf(s, o.flavor())
}

func (o *Options) decodeOptions() *codec.DecodeOptions {
	return (*codec.DecodeOptions)(&o.Decode)
}

func (o *Options) readOptions() jsoncodec.ReadOptions {
	n := o.MaxNumberLength
	if n <= 0 {
		n = DefaultMaxNumberLength
	}
	return jsoncodec.ReadOptions{Decode: o.decodeOptions(), MaxNumberLength: n, AllowUnknownFields: o.AllowUnknownFields}
}

// The unions of the engine are numbered as this package's.
var _ = [1]int{}[jsoncodec.Unions(BareUnions)-jsoncodec.Bare]
var _ = [1]int{}[jsoncodec.Unions(TaggedLogicalUnions)-jsoncodec.TaggedLogical]
