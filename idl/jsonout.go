package idl

import (
	"bytes"
	"strings"
)

// jsonWriter prints the model as Java's Schema.toJson and Protocol.toJson
// do: a named type is defined where it is first written and referenced by
// name after, keys in Java's order, names relative to the enclosing
// namespace.
type jsonWriter struct {
	buf   bytes.Buffer
	names map[*node]bool
	space string
	// limit bounds the text: a type with large annotations shared by many
	// fields ("string? a, b, c") is printed once per field, so the text can
	// grow as the square of the file.
	limit int
	over  bool
}

func newJSONWriter(space string, limit int) *jsonWriter {
	return &jsonWriter{names: map[*node]bool{}, space: space, limit: limit}
}

func (w *jsonWriter) key(k string) {
	writeString(&w.buf, k)
	w.buf.WriteByte(':')
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	writeString(&w.buf, v)
	w.buf.WriteByte(',')
}

// end replaces a trailing comma by the closing delimiter.
func (w *jsonWriter) end(c byte) {
	b := w.buf.Bytes()
	if len(b) > 0 && b[len(b)-1] == ',' {
		w.buf.Truncate(len(b) - 1)
	}
	w.buf.WriteByte(c)
}

func (w *jsonWriter) props(props []prop) {
	for _, pr := range props {
		w.key(pr.key)
		pr.val.write(&w.buf)
		w.buf.WriteByte(',')
	}
}

func qualified(full, space string) string {
	if i := strings.LastIndexByte(full, '.'); i >= 0 && full[:i] == space {
		return full[i+1:]
	}
	return full
}

func (w *jsonWriter) schema(n *node) {
	if w.buf.Len() > w.limit {
		w.over = true
		return
	}
	n = n.deref()
	switch {
	case primitives[n.kind]:
		if len(n.props) == 0 {
			writeString(&w.buf, n.kind)
			return
		}
		w.buf.WriteByte('{')
		w.str("type", n.kind)
		w.props(n.props)
		w.end('}')
	case n.kind == "array" || n.kind == "map":
		w.buf.WriteByte('{')
		w.str("type", n.kind)
		if n.kind == "array" {
			w.key("items")
		} else {
			w.key("values")
		}
		w.schema(n.items)
		w.buf.WriteByte(',')
		w.props(n.props)
		w.end('}')
	case n.kind == "union":
		w.buf.WriteByte('[')
		for _, b := range n.branches {
			w.schema(b)
			w.buf.WriteByte(',')
		}
		w.end(']')
	case n.named():
		if w.names[n] {
			if n.space == "" || n.space == w.space {
				writeString(&w.buf, n.name)
			} else {
				writeString(&w.buf, n.fullName())
			}
			return
		}
		w.names[n] = true
		w.buf.WriteByte('{')
		w.str("type", n.kind)
		w.str("name", n.name)
		if n.space != w.space {
			w.str("namespace", n.space)
		}
		if n.doc != nil {
			w.str("doc", *n.doc)
		}
		switch n.kind {
		case "enum":
			w.key("symbols")
			w.buf.WriteByte('[')
			for _, s := range n.symbols {
				writeString(&w.buf, s)
				w.buf.WriteByte(',')
			}
			w.end(']')
			w.buf.WriteByte(',')
			if n.enumDefault != nil {
				w.str("default", *n.enumDefault)
			}
		case "fixed":
			w.key("size")
			(&jvalue{kind: jInt, i: int64(n.size)}).write(&w.buf)
			w.buf.WriteByte(',')
		default:
			saved := w.space
			w.space = n.space
			w.key("fields")
			w.fields(n.fields)
			w.buf.WriteByte(',')
			w.props(n.props)
			w.aliases(n)
			w.space = saved
			w.end('}')
			return
		}
		w.props(n.props)
		w.aliases(n)
		w.end('}')
	}
}

func (w *jsonWriter) aliases(n *node) {
	if len(n.aliases) == 0 {
		return
	}
	w.key("aliases")
	w.buf.WriteByte('[')
	for _, a := range n.aliases {
		writeString(&w.buf, qualified(a, n.space))
		w.buf.WriteByte(',')
	}
	w.end(']')
	w.buf.WriteByte(',')
}

func (w *jsonWriter) fields(fields []*field) {
	w.buf.WriteByte('[')
	for _, f := range fields {
		w.buf.WriteByte('{')
		w.str("name", f.name)
		w.key("type")
		w.schema(f.typ)
		w.buf.WriteByte(',')
		if f.doc != nil {
			w.str("doc", *f.doc)
		}
		if f.def != nil {
			w.key("default")
			f.def.write(&w.buf)
			w.buf.WriteByte(',')
		}
		if f.order != "" {
			w.str("order", f.order)
		}
		if len(f.aliases) > 0 {
			w.key("aliases")
			w.buf.WriteByte('[')
			for _, a := range f.aliases {
				writeString(&w.buf, a)
				w.buf.WriteByte(',')
			}
			w.end(']')
			w.buf.WriteByte(',')
		}
		w.props(f.props)
		w.end('}')
		w.buf.WriteByte(',')
	}
	w.end(']')
}

// protocolJSON prints the protocol as Java's Protocol.toJson does.
func (r *reader) protocolJSON() []byte {
	pr := r.proto
	w := newJSONWriter(pr.space, r.maxOutput())
	w.buf.WriteByte('{')
	w.str("protocol", pr.name)
	if pr.space != "" {
		w.str("namespace", pr.space)
	}
	if pr.doc != nil {
		w.str("doc", *pr.doc)
	}
	w.props(pr.props)
	w.key("types")
	w.buf.WriteByte('[')
	for _, t := range r.types {
		if !w.names[t] {
			w.schema(t)
			w.buf.WriteByte(',')
		}
	}
	w.end(']')
	w.buf.WriteByte(',')
	w.key("messages")
	w.buf.WriteByte('{')
	for _, name := range r.msgOrder {
		m := r.msgs[name]
		w.key(name)
		w.buf.WriteByte('{')
		if m.doc != nil {
			w.str("doc", *m.doc)
		}
		w.props(m.props)
		w.key("request")
		w.fields(m.request)
		w.buf.WriteByte(',')
		if m.oneway {
			w.str("response", "null")
			w.key("one-way")
			w.buf.WriteString("true")
		} else {
			w.key("response")
			w.schema(m.response)
			w.buf.WriteByte(',')
			if len(m.errors) > 0 {
				w.key("errors")
				w.schema(&node{kind: "union", branches: m.errors})
			}
		}
		w.end('}')
		w.buf.WriteByte(',')
	}
	w.end('}')
	w.end('}')
	if w.over {
		return nil
	}
	return indent(w.buf.Bytes())
}

func indent(b []byte) []byte {
	var out bytes.Buffer
	if err := jsonIndent(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}
