package schema

import (
	"strconv"
	"strings"
)

// Error is the error that Parse and the Parser methods return for a schema
// they reject. Path locates the offending JSON value inside the schema text,
// in the form "fields[2].type" or "items.symbols[0]" ("" for the whole
// schema), so that a message points at the mistake in a large schema.
// Text that is not valid JSON (a syntax error, a key repeated in an
// object) is found before it is a schema: Path is then "" and the message
// gives the byte offset. Err holds the underlying error, if any (for
// malformed JSON, a *encoding/json.SyntaxError), and is returned by
// Unwrap.
type Error struct {
	// File is the file the schema was read from, when parsed by ParseFile
	// or ParseFiles.
	File string
	// Path is the location of the offending value in the schema's JSON.
	Path string
	// Msg describes the problem.
	Msg string
	// Err is the underlying error, or nil.
	Err error

	// undefined is the name of an undefined type when that is what made
	// the parse fail; ParseFiles uses it to retry a file once the files
	// that define the name have been parsed.
	undefined string
}

// Error formats the error as "schema: file: path: message", leaving out
// the file and the path when they are empty.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("schema: ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// path is a location in the schema JSON, built as a linked list on the
// stack of the recursive parser: it costs nothing unless an error is
// reported, which is the only time it is rendered.
type path struct {
	up    *path
	name  string // an attribute name; "" for an array index
	index int
}

func (p *path) key(name string) path    { return path{up: p, name: name} }
func (p *path) elem(index int) path     { return path{up: p, index: index} }
func (p *path) errorf(msg string) error { return &Error{Path: p.String(), Msg: msg} }

// limitf reports a schema that exceeds a limit of ParseOptions.
func (p *path) limitf(msg string) error { return &Error{Path: p.String(), Msg: msg, Err: ErrLimit} }

// String renders the path as "fields[2].type".
func (p *path) String() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

// write renders the path from the root down. It recurses rather than
// collecting the elements, so that no *path is stored anywhere: that keeps
// the paths the parser builds on its stack, where the escape analysis can
// leave them (a path that leaked cost an allocation per attribute parsed).
// Paths are as deep as the schema JSON, which MaxDepth bounds.
func (p *path) write(b *strings.Builder) {
	if p == nil || (p.up == nil && p.name == "") {
		return // the root
	}
	p.up.write(b)
	if p.name == "" {
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(p.index))
		b.WriteByte(']')
		return
	}
	if b.Len() > 0 {
		b.WriteByte('.')
	}
	b.WriteString(p.name)
}
