// Package idl reads Avro IDL (.avdl files) exactly as Java's Avro 1.12
// IDL compiler does, so that a Go build needs no JVM to turn IDL into
// schemas.
//
// A file declares either a protocol,
//
//	@namespace("org.example")
//	protocol Shop {
//	  record Item { string name; decimal(9,2) price; }
//	  Item lookup(string name) throws NotFound;
//	}
//
// or, in the schema syntax, an optional namespace, a main schema and named
// types:
//
//	namespace org.example;
//	schema Item;
//	record Item { string name; date? added = null; }
//
// Parse and ParseFile read one, with every file it imports (import idl,
// protocol and schema). An import is looked up relative to the importing
// file, then in the directories of WithSearchPath, as Java looks it up on
// its classpath; a file already read is not read again, so import cycles
// end. The result gives the named types as *schema.Schema values (parsed by
// package schema, in Java's order), and the protocol's JSON text, or the
// main schema's, as Java's idl tool writes it: the same keys in the same
// order, each named type defined where it is first used.
//
// Everything of the Avro 1.12 IDL is read: records, errors, enums with
// defaults, fixed, arrays, maps, unions and the nullable shorthand "type?"
// (null first, or last when the field's default is not null), the logical
// type keywords date, time_ms, timestamp_ms, local_timestamp_ms, uuid and
// decimal(p,s), annotations (@namespace, @aliases, @order, and any other
// name as a property, @logicalType included) on types, fields and
// messages, defaults of every type, documentation comments (/** ... */)
// on the declarations Java keeps them for, messages with oneway, throws and
// void, forward references and recursive types, reserved words quoted with
// backticks, and Unicode identifiers.
//
// # Errors and limits
//
// A file that cannot be read is an *Error giving the file, line and column
// and what was expected, as in
//
//	shop.avdl:3:18: expected ';' after field "name", found "}"
//
// Unknown types, duplicate names, bad defaults and missing imports are
// reported the same way. Parsing never panics, and the work is bounded:
// each file may be at most DefaultMaxSize bytes, a file and its imports
// DefaultMaxTokens tokens together, types and JSON values may nest
// DefaultMaxDepth levels and imports DefaultMaxImportDepth files deep (see
// WithMaxSize, WithMaxTokens, WithMaxDepth and WithMaxImportDepth), and the
// JSON
// texts printed may be at most four times the size limit plus 1 MiB (a
// type with large annotations shared by many fields is printed for each);
// beyond a limit the *Error wraps ErrLimit.
//
// The named types are built by package schema, with ParseOptions.UnicodeNames
// (Java takes identifiers of any script, which the specification's names do
// not allow), and the protocol by schema.ParseProtocol.
package idl

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

var lineBreak = regexp.MustCompile(`\r\n|\n|\r|\x0b|\f|\x{85}|\x{2028}|\x{2029}`)

func isHSpace(r rune) bool {
	switch r {
	case ' ', '\t', 0xa0, 0x1680, 0x180e, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// stripIndents removes from a trimmed doc comment what Java removes: the
// leading star (or two) of every line when all lines have them, or else
// the indentation the lines after the first share.
func stripIndents(doc string) string {
	lines := lineBreak.Split(doc, -1)
	seps := lineBreak.FindAllString(doc, -1)
	join := func(ls []string) string {
		var b strings.Builder
		for i, l := range ls {
			if i > 0 {
				b.WriteString(seps[i-1])
			}
			b.WriteString(l)
		}
		return b.String()
	}
	for _, stars := range []string{"**", "*"} {
		if !strings.HasPrefix(doc, stars) {
			continue
		}
		ok := true
		for _, l := range lines[1:] {
			if !strings.HasPrefix(strings.TrimLeftFunc(l, isHSpace), stars) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		out := make([]string, len(lines))
		for i, l := range lines {
			if i > 0 {
				l = strings.TrimLeftFunc(l, isHSpace)
			}
			l = strings.TrimPrefix(l, stars)
			if r := []rune(l); len(r) > 0 && isHSpace(r[0]) {
				l = string(r[1:])
			}
			out[i] = l
		}
		return join(out)
	}
	if len(lines) < 2 {
		return doc
	}
	// The longest leading blank of the second line that every later line
	// starts with.
	second := lines[1]
	indent := second[:len(second)-len(strings.TrimLeftFunc(second, isHSpace))]
	for _, l := range lines[2:] {
		n := 0
		for n < len(indent) && n < len(l) && indent[n] == l[n] {
			n++
		}
		// Cut at a rune boundary.
		for n > 0 && n < len(indent) && !utf8.RuneStart(indent[n]) {
			n--
		}
		indent = indent[:n]
	}
	if indent == "" {
		return doc
	}
	out := make([]string, len(lines))
	out[0] = lines[0]
	for i, l := range lines[1:] {
		out[i+1] = strings.TrimPrefix(l, indent)
	}
	return join(out)
}
