package jsoncodec

import (
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// Unions says how union values are written and read.
type Unions uint8

const (
	// Tagged writes a non-null branch as {"type": value}, the type
	// named as the specification names it.
	Tagged Unions = iota
	// TaggedLogical is Tagged with the logical type in the name of a
	// logical branch ("long.timestamp-millis"), as goavro writes it.
	TaggedLogical
	// Bare writes the branch's value alone; reading picks the branch
	// from the JSON type of the value.
	Bare
)

// Flavor is one way of writing the JSON encoding. The zero Flavor is the
// specification's.
type Flavor struct {
	Unions Unions
	// Readable writes logical types as text for people: timestamps in
	// RFC 3339, dates, times of day, decimals as exact decimal numbers,
	// uuids as their text, durations in ISO 8601.
	Readable bool
	// DecimalStrings writes readable decimals as JSON strings, for
	// readers that would parse a number into a float.
	DecimalStrings bool
	// Base64 writes bytes and fixed values as standard base64.
	Base64 bool
}

// index numbers the flavours, for the table of a schema's programs.
func (f Flavor) index() int {
	i := int(f.Unions)
	if f.Readable {
		i |= 4
	}
	if f.DecimalStrings {
		i |= 8
	}
	if f.Base64 {
		i |= 16
	}
	return i
}

const flavors = codec.JSONStyles

// ProgramOf returns the program of schema s in flavour f, compiled on
// first use and kept in the schema.
func ProgramOf(s *schema.Schema, f Flavor) *Program {
	ps := codec.Cached(s, codec.FamilyJSON, func() *codec.StyleSlots[Program] { return new(codec.StyleSlots[Program]) })
	return (*ps).Get(f.index(), func() *Program { return compile(s, f) })
}
