package schema

import (
	"strconv"
	"strings"
)

// String returns the schema as compact JSON with everything Parse kept:
// doc, aliases, defaults, order, logical types, the error keyword and
// props. The output is deterministic, and Parse(s.String()) yields a schema
// equal to s (the same String and Canonical). Each named type is written in
// full at its first occurrence and by name after; a "namespace" attribute
// is written wherever the namespace differs from the enclosing one, so that
// every full name survives the round trip.
func (s *Schema) String() string {
	w := stringWriter{seen: map[*Schema]bool{}, names: map[string]bool{}}
	w.write(s, "")
	return string(w.b)
}

// StringReferring returns the schema as String does, except that the named
// types with the given full names are written by name only, never
// defined: the text of a schema that refers to types defined elsewhere,
// as a schema registry's references are. s itself is defined even when
// its name is listed. Parsing the text needs those types known to the
// Parser first (parse the schemas that define them with the same Parser).
func (s *Schema) StringReferring(fullNames ...string) string {
	w := stringWriter{seen: map[*Schema]bool{}, names: map[string]bool{}, elsewhere: map[string]bool{}}
	for _, n := range fullNames {
		w.elsewhere[n] = n != s.nm().fullName || !s.kind.IsNamed()
		w.names[n] = true
	}
	w.write(s, "")
	return string(w.b)
}

// MarshalJSON returns String, so that a schema can be embedded in other
// JSON (container file headers, registry requests).
func (s *Schema) MarshalJSON() ([]byte, error) { return []byte(s.String()), nil }

type stringWriter struct {
	b     []byte
	seen  map[*Schema]bool
	names map[string]bool // full names written so far
	// elsewhere holds the full names of types defined outside the text,
	// written by name only.
	elsewhere map[string]bool
}

func (w *stringWriter) key(k string) {
	w.b = append(w.b, ',')
	w.b = appendString(w.b, k)
	w.b = append(w.b, ':')
}

func (w *stringWriter) write(s *Schema, ns string) {
	if s.kind.IsNamed() {
		if w.seen[s] || w.elsewhere[s.nm().fullName] {
			w.ref(s, ns)
			return
		}
		w.seen[s] = true
		w.names[s.nm().fullName] = true
		kind := s.kind.String()
		if s.isError {
			kind = "error"
		}
		w.b = append(w.b, `{"type":`...)
		w.b = appendString(w.b, kind)
		w.key("name")
		w.b = appendString(w.b, s.nm().name)
		if s.nm().namespace != ns {
			w.key("namespace")
			w.b = appendString(w.b, s.nm().namespace)
		}
		if s.ex().doc != "" {
			w.key("doc")
			w.b = appendString(w.b, s.ex().doc)
		}
		if len(s.nm().aliases) > 0 {
			w.key("aliases")
			w.strings(s.nm().aliases)
		}
		switch s.kind {
		case Record:
			w.key("fields")
			w.b = append(w.b, '[')
			for i, f := range s.nm().fields {
				if i > 0 {
					w.b = append(w.b, ',')
				}
				w.field(f, s.nm().namespace)
			}
			w.b = append(w.b, ']')
		case Enum:
			w.key("symbols")
			w.strings(s.en().symbols)
			if s.en().hasEnumDefault {
				w.key("default")
				w.b = appendString(w.b, s.en().enumDefault)
			}
		case Fixed:
			w.key("size")
			w.b = strconv.AppendInt(w.b, int64(s.nm().size), 10)
		}
		w.tail(s)
		return
	}
	switch s.kind {
	case Union:
		w.b = append(w.b, '[')
		for i, b := range s.branches {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.write(b, ns)
		}
		w.b = append(w.b, ']')
	case Array, Map:
		w.b = append(w.b, `{"type":`...)
		w.b = appendString(w.b, s.kind.String())
		if s.kind == Array {
			w.key("items")
		} else {
			w.key("values")
		}
		w.write(s.elem, ns)
		if s.ex().doc != "" {
			w.key("doc")
			w.b = appendString(w.b, s.ex().doc)
		}
		w.tail(s)
	default:
		if s.ex().doc == "" && s.logical == NoLogical && len(s.ex().props.raw) == 0 {
			w.b = appendString(w.b, s.kind.String())
			return
		}
		w.b = append(w.b, `{"type":`...)
		w.b = appendString(w.b, s.kind.String())
		if s.ex().doc != "" {
			w.key("doc")
			w.b = appendString(w.b, s.ex().doc)
		}
		w.tail(s)
	}
}

// ref writes a reference to a named type already written. Inside namespace
// ns, a name of the same namespace is written short (unless the short name
// is a primitive's) and a name of another namespace in full. A name of the null namespace cannot be written with a
// dot; it is written bare, which Parse resolves through its fallback to
// the null namespace, unless a type of the same short name exists in ns,
// in which case {"type":name,"namespace":""} says which one is meant.
func (w *stringWriter) ref(s *Schema, ns string) {
	_, primName := primitiveKinds[s.nm().name]
	switch {
	case s.nm().namespace == ns && !primName:
		w.b = appendString(w.b, s.nm().name)
	case primName:
		// "int" always means the primitive, even where ns.int exists.
		w.b = appendString(w.b, s.nm().fullName)
	case s.nm().namespace != "":
		w.b = appendString(w.b, s.nm().fullName)
	case !w.names[ns+"."+s.nm().name]:
		w.b = appendString(w.b, s.nm().name)
	default:
		w.b = append(w.b, `{"type":`...)
		w.b = appendString(w.b, s.nm().name)
		w.b = append(w.b, `,"namespace":""}`...)
	}
}

// tail writes the logical type and the props, the attributes common to
// all nodes, and closes the object.
func (w *stringWriter) tail(s *Schema) {
	if s.logical != NoLogical {
		w.key("logicalType")
		w.b = appendString(w.b, s.logical.String())
		if s.logical == Decimal {
			w.key("precision")
			w.b = strconv.AppendInt(w.b, int64(s.ex().precision), 10)
			if s.ex().scale != 0 {
				w.key("scale")
				w.b = strconv.AppendInt(w.b, int64(s.ex().scale), 10)
			}
		}
	}
	w.props(&s.ex().props)
	w.b = append(w.b, '}')
}

func (w *stringWriter) props(props *propList) {
	for _, p := range props.raw {
		w.key(p.name)
		w.b = append(w.b, p.json...)
	}
}

func (w *stringWriter) field(f *Field, ns string) {
	w.b = append(w.b, `{"name":`...)
	w.b = appendString(w.b, f.name)
	w.key("type")
	w.write(f.typ, ns)
	if f.Doc() != "" {
		w.key("doc")
		w.b = appendString(w.b, f.Doc())
	}
	if f.dflt != nil {
		w.key("default")
		w.b = appendJSON(w.b, f.dflt.json)
	}
	if f.order != Ascending {
		w.key("order")
		w.b = appendString(w.b, f.order.String())
	}
	if len(f.Aliases()) > 0 {
		w.key("aliases")
		w.strings(f.Aliases())
	}
	if f.extra != nil {
		w.props(&f.extra.props)
	}
	w.b = append(w.b, '}')
}

func (w *stringWriter) strings(list []string) {
	w.b = append(w.b, '[')
	for i, s := range list {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendString(w.b, s)
	}
	w.b = append(w.b, ']')
}

// GoString returns a short description for %#v, so that a debugger or a
// test failure does not print the internal pointer graph (which is
// cyclic for recursive schemas).
func (s *Schema) GoString() string {
	var b strings.Builder
	b.WriteString("schema.MustParse(")
	b.WriteString(strconv.Quote(s.String()))
	b.WriteString(")")
	return b.String()
}
