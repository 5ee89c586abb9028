package idl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// importStatement reads `import idl|protocol|schema "file";` and reads the
// file at once, as Java does: its types take their place in the order.
// A file already read is skipped, which also ends import cycles.
func (p *parser) importStatement() error {
	p.next()
	kindTok := p.peek()
	if !keyword(kindTok, "idl") && !keyword(kindTok, "protocol") && !keyword(kindTok, "schema") {
		return p.expected("idl, protocol or schema", "import")
	}
	p.next()
	locTok := p.peek()
	if locTok.kind != tString {
		return p.expected("the file to import as a string", "import "+kindTok.text)
	}
	p.next()
	if _, err := p.expect(";", "import "+locTok.text); err != nil {
		return err
	}
	path, err := p.findImport(locTok.val)
	if err != nil {
		return &Error{File: p.file, Line: locTok.line, Column: locTok.col, Msg: "cannot find import " + quote(locTok.val), Err: err}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	if p.r.read[abs] {
		return nil
	}
	p.r.read[abs] = true
	if p.importDepth+1 > p.r.opts.maxImportDepth {
		return &Error{File: p.file, Line: locTok.line, Column: locTok.col, Msg: "imports nested too deeply", Err: ErrLimit}
	}
	src, err := p.r.readFile(path, p.file, locTok.line, locTok.col)
	if err != nil {
		return err
	}
	switch kindTok.text {
	case "idl":
		ws, err := p.r.parseText(path, filepath.Dir(path), src, p.importDepth+1)
		for _, w := range ws {
			// Java's wording: the name as imported, then the warning
			// with a lower-case first letter.
			p.warnings = append(p.warnings, locTok.val+" "+strings.ToLower(w[:1])+w[1:])
		}
		return err
	case "protocol":
		return p.r.importProtocol(path, src)
	default:
		return p.r.importSchema(path, src)
	}
}

// findImport looks for a file relative to the importing file, then in the
// search path.
func (p *parser) findImport(name string) (string, error) {
	if filepath.IsAbs(name) {
		if fileExists(name) {
			return name, nil
		}
		return "", fs.ErrNotExist
	}
	dir := p.dir
	if dir == "" {
		dir = "."
	}
	if c := filepath.Join(dir, name); fileExists(c) {
		return c, nil
	}
	for _, d := range p.r.opts.searchPath {
		if c := filepath.Join(d, name); fileExists(c) {
			return c, nil
		}
	}
	return "", fs.ErrNotExist
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

func (r *reader) jsonError(path string, err error) *Error {
	if errors.Is(err, errDepth) {
		return &Error{File: path, Line: 1, Column: 1, Msg: "invalid JSON", Err: errors.Join(ErrLimit, err)}
	}
	return &Error{File: path, Line: 1, Column: 1, Msg: "invalid JSON", Err: err}
}

// importProtocol adds the types and messages of a protocol's JSON.
func (r *reader) importProtocol(path string, src []byte) error {
	v, err := decodeJSON(src, r.opts.maxDepth)
	if err != nil {
		return r.jsonError(path, err)
	}
	if v.kind != jObject {
		return newError(path, 1, 1, "a protocol must be a JSON object")
	}
	space := ""
	if ns := v.get("namespace"); ns != nil && ns.kind == jString {
		space = ns.s
	}
	if pn := v.get("protocol"); pn != nil && pn.kind == jString {
		if i := strings.LastIndexByte(pn.s, '.'); i >= 0 {
			space = pn.s[:i]
		}
	}
	c := &jsonConv{r: r, file: path}
	if ts := v.get("types"); ts != nil {
		if ts.kind != jArray {
			return newError(path, 1, 1, `"types" must be an array`)
		}
		for _, t := range ts.arr {
			if _, err := c.schema(t, space); err != nil {
				return err
			}
		}
	}
	ms := v.get("messages")
	if ms == nil {
		return nil
	}
	if ms.kind != jObject {
		return newError(path, 1, 1, `"messages" must be an object`)
	}
	for i, name := range ms.keys {
		mv := ms.vals[i]
		if mv.kind != jObject {
			return newError(path, 1, 1, "message %q must be an object", name)
		}
		m := &message{name: name}
		for j, k := range mv.keys {
			x := mv.vals[j]
			switch k {
			case "doc":
				if x.kind == jString {
					s := x.s
					m.doc = &s
				}
			case "request":
				fs, err := c.fields(x, space, "message "+quote(name))
				if err != nil {
					return err
				}
				m.request = fs
			case "response":
				if m.response, err = c.schema(x, space); err != nil {
					return err
				}
			case "errors":
				if x.kind != jArray {
					return newError(path, 1, 1, "the errors of message %q must be an array", name)
				}
				for _, e := range x.arr {
					en, err := c.schema(e, space)
					if err != nil {
						return err
					}
					m.errors = append(m.errors, en)
				}
			case "one-way":
				m.oneway = x.kind == jBool && x.b
			default:
				m.props = append(m.props, prop{k, x})
			}
		}
		if m.response == nil {
			return newError(path, 1, 1, "message %q has no response", name)
		}
		if r.proto != nil {
			r.addMessage(m)
		}
	}
	return nil
}

// importSchema adds the named types of a schema's JSON.
func (r *reader) importSchema(path string, src []byte) error {
	v, err := decodeJSON(src, r.opts.maxDepth)
	if err != nil {
		return r.jsonError(path, err)
	}
	c := &jsonConv{r: r, file: path}
	_, err = c.schema(v, "")
	return err
}

// jsonConv turns schema JSON into the model, named types put as they are
// met (outer before inner), as Java's schema parser registers them.
type jsonConv struct {
	r    *reader
	file string
}

func (c *jsonConv) err(format string, args ...any) *Error {
	return newError(c.file, 1, 1, format, args...)
}

var schemaReserved = map[string]bool{
	"type": true, "name": true, "namespace": true, "fields": true, "items": true, "size": true,
	"symbols": true, "values": true, "aliases": true, "doc": true, "default": true,
}

var fieldReserved = map[string]bool{
	"default": true, "doc": true, "name": true, "order": true, "type": true, "aliases": true,
}

func (c *jsonConv) ref(name, space string) *node {
	n := &node{kind: "ref", ref: name, file: c.file, line: 1, col: 1}
	if !strings.Contains(name, ".") && space != "" {
		n.ref = space + "." + name
		n.refShort = name
	}
	c.r.refs = append(c.r.refs, n)
	return n
}

func (c *jsonConv) schema(v *jvalue, space string) (*node, error) {
	switch v.kind {
	case jString:
		if primitives[v.s] {
			return &node{kind: v.s}, nil
		}
		return c.ref(v.s, space), nil
	case jArray:
		u := &node{kind: "union"}
		for _, b := range v.arr {
			bn, err := c.schema(b, space)
			if err != nil {
				return nil, err
			}
			u.branches = append(u.branches, bn)
		}
		return u, nil
	case jObject:
	default:
		return nil, c.err("a schema must be a string, array or object")
	}
	tv := v.get("type")
	if tv == nil {
		return nil, c.err(`a schema object needs "type"`)
	}
	if tv.kind != jString {
		return c.schema(tv, space)
	}
	t := tv.s
	n := &node{kind: t, file: c.file, line: 1, col: 1}
	for i, k := range v.keys {
		if !schemaReserved[k] {
			n.props = append(n.props, prop{k, v.vals[i]})
		}
	}
	switch {
	case primitives[t]:
		return n, nil
	case t == "array" || t == "map":
		key := "items"
		if t == "map" {
			key = "values"
		}
		x := v.get(key)
		if x == nil {
			return nil, c.err("%s needs %q", t, key)
		}
		var err error
		n.items, err = c.schema(x, space)
		return n, err
	case t == "record" || t == "error" || t == "enum" || t == "fixed":
	default:
		if len(v.keys) == 1 {
			return c.ref(t, space), nil
		}
		return nil, c.err("unknown type %q", t)
	}
	nv := v.get("name")
	if nv == nil || nv.kind != jString {
		return nil, c.err("%s needs a name", t)
	}
	id := nv.s
	n.space = space
	if ns := v.get("namespace"); ns != nil && ns.kind == jString {
		n.space = ns.s
	}
	if i := strings.LastIndexByte(id, '.'); i >= 0 {
		n.space, id = id[:i], id[i+1:]
	}
	n.name = id
	if d := v.get("doc"); d != nil && d.kind == jString {
		s := d.s
		n.doc = &s
	}
	if a := v.get("aliases"); a != nil && a.kind == jArray {
		var as []string
		for _, x := range a.arr {
			if x.kind == jString {
				as = append(as, x.s)
			}
		}
		n.aliases = fullAliases(as, n.space)
	}
	if err := c.r.put(n, c.file); err != nil {
		return nil, err
	}
	switch t {
	case "enum":
		sv := v.get("symbols")
		if sv == nil || sv.kind != jArray {
			return nil, c.err("enum %q needs symbols", id)
		}
		for _, s := range sv.arr {
			if s.kind != jString {
				return nil, c.err("enum %q: symbols must be strings", id)
			}
			n.symbols = append(n.symbols, s.s)
		}
		if d := v.get("default"); d != nil && d.kind == jString {
			s := d.s
			n.enumDefault = &s
		}
	case "fixed":
		sv := v.get("size")
		if sv == nil || sv.kind != jInt || sv.i < 0 || sv.i > 1<<31-1 {
			return nil, c.err("fixed %q needs a size", id)
		}
		n.size = int(sv.i)
	default:
		fs, err := c.fields(v.get("fields"), n.space, t+" "+quote(id))
		if err != nil {
			return nil, err
		}
		n.fields = fs
	}
	return n, nil
}

func (c *jsonConv) fields(v *jvalue, space, what string) ([]*field, error) {
	if v == nil || v.kind != jArray {
		return nil, c.err("%s needs an array of fields", what)
	}
	var out []*field
	for _, fv := range v.arr {
		if fv.kind != jObject {
			return nil, c.err("%s: a field must be an object", what)
		}
		nv, tv := fv.get("name"), fv.get("type")
		if nv == nil || nv.kind != jString || tv == nil {
			return nil, c.err("%s: a field needs a name and a type", what)
		}
		f := &field{name: nv.s, def: fv.get("default"), file: c.file, line: 1, col: 1}
		var err error
		if f.typ, err = c.schema(tv, space); err != nil {
			return nil, err
		}
		if d := fv.get("doc"); d != nil && d.kind == jString {
			s := d.s
			f.doc = &s
		}
		if o := fv.get("order"); o != nil && o.kind == jString && o.s != "ascending" {
			f.order = o.s
		}
		if a := fv.get("aliases"); a != nil && a.kind == jArray {
			for _, x := range a.arr {
				if x.kind == jString {
					f.aliases = append(f.aliases, x.s)
				}
			}
		}
		for i, k := range fv.keys {
			if !fieldReserved[k] {
				f.props = append(f.props, prop{k, fv.vals[i]})
			}
		}
		out = append(out, f)
	}
	return out, nil
}
