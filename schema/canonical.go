package schema

import (
	"strconv"
	"strings"
)

// Canonical returns the schema's Parsing Canonical Form (spec "Parsing
// Canonical Form for Schemas"): full names, only the attributes that
// matter for reading (name, type, fields, symbols, items, values, size,
// in that order), no whitespace, and each named type in full at its first
// use and by full name after. Two schemas with the same canonical form
// read the same bytes the same way. logicalType is stripped, so
// {"type":"long","logicalType":"timestamp-millis"} has the canonical form
// (and fingerprint) of "long", as in the Java implementation. An error
// record is written with type "record", also as in Java.
//
// Every node has its own canonical form: a nested node's form is what
// parsing that node alone would give.
func (s *Schema) Canonical() string {
	// The root's form is computed when the schema is parsed; most nested
	// nodes get a substring of it for free, and the others (those that
	// refer to a named type defined outside them, whose form must then
	// define it) compute theirs here, on first use: doing that eagerly
	// costs time and memory quadratic in the number of such references
	// (700 MB for a 385 KB schema of the test data).
	if s.canonical != "" {
		return s.canonical
	}
	if c := s.lazyCanon.Load(); c != nil {
		return *c
	}
	w := canonWriter{first: map[*Schema]int{}, lazy: true}
	w.body(s)
	c := w.b.String()
	// Callers that race compute the same form; one is kept.
	s.lazyCanon.CompareAndSwap(nil, &c)
	return *s.lazyCanon.Load()
}

// finish runs when a text has parsed: it computes the root's canonical
// form (its fingerprints wait for their first use), hands substrings of
// that form to the nested nodes
// whose own form it contains, and marks the new nodes published, after
// which they are never written outside a sync.Once.
func finish(root *Schema, textLen, nodes, named int) {
	if !root.published {
		// The form is about as long as the text it came from: less
		// without the whitespace, docs and other attributes, more where
		// names are qualified. Starting at that size saves the growing,
		// as sizing the tables does: every node made for the text has a
		// span, and every named one a first definition.
		w := canonWriter{first: make(map[*Schema]int, named), spans: make([]span, 0, nodes)}
		w.b.Grow(textLen)
		w.write(root)
		text := w.b.String()
		for _, sp := range w.spans {
			if sp.own && sp.node.canonical == "" {
				sp.node.canonical = text[sp.start:sp.end]
			}
		}
		// Every new node reachable from root was written, and so has a
		// span: nodes outside spans are published already.
		for _, sp := range w.spans {
			sp.node.published = true
		}
	}
}

// NamedTypes returns the records, enums and fixed types of s: s itself
// when it is named, and every named type it reaches, each once, in the
// order their definitions appear in String.
func (s *Schema) NamedTypes() []*Schema {
	var out []*Schema
	walk(s, func(n *Schema) {
		if n.kind.IsNamed() {
			out = append(out, n)
		}
	})
	return out
}

// walk calls fn once for every node reachable from s.
func walk(s *Schema, fn func(*Schema)) {
	seen := map[*Schema]bool{}
	var rec func(*Schema)
	rec = func(n *Schema) {
		if n.kind.IsNamed() {
			if seen[n] {
				return
			}
			seen[n] = true
		}
		fn(n)
		switch n.kind {
		case Record:
			for _, f := range n.nm().fields {
				rec(f.typ)
			}
		case Array, Map:
			rec(n.elem)
		case Union:
			for _, b := range n.branches {
				rec(b)
			}
		}
	}
	rec(s)
}

// span is the stretch of the canonical text that one node wrote.
type span struct {
	node       *Schema
	start, end int
	// own is false when the node's text refers by name to a named type
	// whose full definition lies outside the span: the node's own
	// canonical form must then define that type itself, and differs
	// from the span.
	own bool
}

type canonWriter struct {
	// b is a Builder so that the form becomes a string without a copy
	// (a form is about as long as its text).
	b     strings.Builder
	first map[*Schema]int // named node -> offset of its full definition
	spans []span
	open  []int // indexes into spans of the nodes being written
	// lazy is set when computing one node's form on demand: other nodes
	// may then be read concurrently and get nothing assigned.
	lazy bool
}

func (w *canonWriter) write(s *Schema) {
	// Nodes of earlier texts (published) may be read concurrently and
	// are left alone.
	track := !w.lazy && !s.published && s.canonical == ""
	if _, ref := w.first[s]; ref {
		track = false // a reference by name, not the node's own text
	}
	if track {
		w.open = append(w.open, len(w.spans))
		w.spans = append(w.spans, span{node: s, start: w.b.Len(), own: true})
	}
	w.body(s)
	if track {
		i := w.open[len(w.open)-1]
		w.open = w.open[:len(w.open)-1]
		w.spans[i].end = w.b.Len()
	}
}

func (w *canonWriter) body(s *Schema) {
	switch s.kind {
	case Record, Enum, Fixed:
		if pos, ok := w.first[s]; ok {
			// A reference: every open span that started after the
			// definition does not contain it.
			for j := len(w.open) - 1; j >= 0; j-- {
				sp := &w.spans[w.open[j]]
				if sp.start <= pos {
					break
				}
				sp.own = false
			}
			w.string(s.nm().fullName)
			return
		}
		w.first[s] = w.b.Len()
		w.b.WriteString(`{"name":`)
		w.string(s.nm().fullName)
		switch s.kind {
		case Record:
			w.b.WriteString(`,"type":"record","fields":[`)
			for i, f := range s.nm().fields {
				if i > 0 {
					w.b.WriteByte(',')
				}
				w.b.WriteString(`{"name":`)
				w.string(f.name)
				w.b.WriteString(`,"type":`)
				w.write(f.typ)
				w.b.WriteByte('}')
			}
			w.b.WriteString("]}")
		case Enum:
			w.b.WriteString(`,"type":"enum","symbols":[`)
			for i, sym := range s.en().symbols {
				if i > 0 {
					w.b.WriteByte(',')
				}
				w.string(sym)
			}
			w.b.WriteString("]}")
		case Fixed:
			w.b.WriteString(`,"type":"fixed","size":`)
			var digits [20]byte
			w.b.Write(strconv.AppendInt(digits[:0], int64(s.nm().size), 10))
			w.b.WriteByte('}')
		}
	case Array:
		w.b.WriteString(`{"type":"array","items":`)
		w.write(s.elem)
		w.b.WriteByte('}')
	case Map:
		w.b.WriteString(`{"type":"map","values":`)
		w.write(s.elem)
		w.b.WriteByte('}')
	case Union:
		w.b.WriteByte('[')
		for i, b := range s.branches {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.write(b)
		}
		w.b.WriteByte(']')
	default:
		w.b.WriteByte('"')
		w.b.WriteString(s.kind.String())
		w.b.WriteByte('"')
	}
}

// string writes s as a JSON string.
func (w *canonWriter) string(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			w.b.Write(appendString(nil, s))
			return
		}
	}
	w.b.WriteByte('"')
	w.b.WriteString(s)
	w.b.WriteByte('"')
}
