package codec

import (
	"strconv"
	"strings"

	"github.com/avrogo/avro/internal/wire"
)

// The sentinel errors of the wire layer, under the names the codecs use.
var (
	ErrTruncated = wire.ErrTruncated
	ErrInvalid   = wire.ErrInvalid
	ErrLimit     = wire.ErrLimit
	ErrRange     = wire.ErrRange
)

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

// Error formats the error as "avro: op path at offset n: detail", leaving
// out the path of the top-level value and the offset of an encode.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("avro: ")
	b.WriteString(e.Op)
	if e.Path != "" {
		b.WriteString(" ")
		b.WriteString(e.Path)
	}
	if e.Offset >= 0 {
		b.WriteString(" at offset ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
	}
	b.WriteString(": ")
	b.WriteString(strings.TrimPrefix(e.Err.Error(), "avro: "))
	return b.String()
}

// Unwrap returns the underlying error (one of the sentinels, possibly
// wrapped with detail).
func (e *Error) Unwrap() error { return e.Err }

// TypeError reports, when a codec is compiled, that a Go type cannot
// represent a schema: "avro: age: Go type string cannot represent Avro
// int", or that a struct to encode has no field for a schema field that
// has no default: "avro: qty: struct main.Line has no field for "qty"
// (int), and the schema gives it no default" (GoType is then the struct
// and Schema the field's type). It is returned before any byte is read
// or written.
type TypeError struct {
	Path   string // path in the schema, such as "address.zip"
	GoType string
	Schema string // the Avro type name
	Detail string

	// Field is the name of the schema field that the struct GoType
	// lacks, when that is the error, else "".
	Field string
}

// Error formats the error as "avro: path: Go type T cannot represent Avro
// type (detail)", or for a struct that lacks a field as "avro: path:
// struct T has no field for "name" (type), and the schema gives it no
// default".
func (e *TypeError) Error() string {
	var b strings.Builder
	b.WriteString("avro: ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Field != "" {
		if !strings.HasPrefix(e.GoType, "struct {") {
			b.WriteString("struct ")
		}
		b.WriteString(e.GoType)
		b.WriteString(" has no field for ")
		b.WriteString(strconv.Quote(e.Field))
		b.WriteString(" (")
		b.WriteString(e.Schema)
		b.WriteString("), and the schema gives it no default")
		return b.String()
	}
	b.WriteString("Go type ")
	b.WriteString(e.GoType)
	if e.Schema == "" {
		// No schema: SchemaOf, or a bad struct tag.
		b.WriteString(": ")
		b.WriteString(e.Detail)
		return b.String()
	}
	b.WriteString(" cannot represent Avro ")
	b.WriteString(e.Schema)
	if e.Detail != "" {
		b.WriteString(" (")
		b.WriteString(e.Detail)
		b.WriteString(")")
	}
	return b.String()
}

// formatPath renders path segments recorded innermost first: field names,
// and "[3]" or "[\"key\"]" for array indexes and map keys.
func formatPath(segs []string) string {
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		s := segs[i]
		if b.Len() > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}
