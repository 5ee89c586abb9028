package idl

import (
	"math"
	"strings"
	"unicode"

	"github.com/avrogo/avro/schema"
)

// parser reads the tokens of one file into the reader's model.
type parser struct {
	r           *reader
	file        string // the name errors give
	dir         string // the directory imports are relative to; "" for none
	toks        []token
	pos         int
	depth       int
	spaces      []string // namespace stack; "" is the null namespace
	importDepth int
	// docDone is the index of the last token whose doc comments were
	// dealt with, as Java's reader tracks it for its warnings.
	docDone  int
	warnings []string
}

func newError(file string, line, col int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Column: col, Msg: sprintf(format, args...)}
}

func (p *parser) peek() *token { return &p.toks[p.pos] }
func (p *parser) peekAt(i int) *token {
	if p.pos+i >= len(p.toks) {
		return &p.toks[len(p.toks)-1]
	}
	return &p.toks[p.pos+i]
}

// atPunct reports whether the next token is the punctuation s.
func (p *parser) atPunct(s string) bool { return isPunct(p.peek(), s) }

func isPunct(t *token, s string) bool { return t.kind == tPunct && t.text == s }

func (p *parser) next() *token {
	t := &p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func (p *parser) errAt(t *token, format string, args ...any) *Error {
	return newError(p.file, t.line, t.col, format, args...)
}

// expect consumes the punctuation s, or fails saying what it expected and
// after what.
func (p *parser) expect(s, after string) (*token, error) {
	t := p.peek()
	if !isPunct(t, s) {
		return nil, p.expected("'"+s+"'", after)
	}
	return p.next(), nil
}

func (p *parser) expected(what, after string) *Error {
	t := p.peek()
	msg := "expected " + what
	if after != "" {
		msg += " after " + after
	}
	return p.errAt(t, "%s, found %s", msg, t.describe())
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > p.r.opts.maxDepth {
		t := p.peek()
		return &Error{File: p.file, Line: t.line, Column: t.col, Msg: "nesting too deep", Err: ErrLimit}
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) currentNamespace() string {
	if len(p.spaces) == 0 {
		return ""
	}
	return p.spaces[len(p.spaces)-1]
}

// keyword reports whether t is the unquoted keyword kw.
func keyword(t *token, kw string) bool {
	return t.kind == tIdent && t.text == kw
}

func (p *parser) identifier(what string) (*token, error) {
	t := p.peek()
	if t.kind != tIdent {
		return nil, p.expected(what, "")
	}
	return p.next(), nil
}

// docOf gives the doc comment before the token at index i, as Java gives
// it: trimmed, with the common indentation and leading stars removed.
func (p *parser) docOf(i int) *string {
	t := &p.toks[i]
	for j := p.docDone + 1; j <= i; j++ {
		docs := p.toks[j].docs
		if j == i && len(docs) > 0 {
			docs = docs[:len(docs)-1]
		}
		for _, d := range docs {
			p.warnings = append(p.warnings, sprintf("Line %d, char %d: Ignoring out-of-place documentation comment.\n"+
				"Did you mean to use a multiline comment ( /* ... */ ) instead?", d.line, d.col))
		}
	}
	if i > p.docDone {
		p.docDone = i
	}
	if !t.hasDoc {
		return nil
	}
	s := stripIndents(strings.TrimFunc(t.doc, func(r rune) bool { return r <= ' ' }))
	return &s
}

// parseFile parses a whole file: a protocol, or the schema syntax.
func (p *parser) parseFile() error {
	start := p.pos
	if _, err := p.properties(propsCtx{}); err != nil {
		return err
	}
	isProtocol := keyword(p.peek(), "protocol")
	p.pos = start
	if isProtocol {
		if err := p.protocol(); err != nil {
			return err
		}
	} else if err := p.schemaFile(); err != nil {
		return err
	}
	if t := p.peek(); t.kind != tEOF {
		return p.expected("end of file", "")
	}
	return nil
}

func (p *parser) protocol() error {
	start := p.pos
	props, err := p.properties(propsCtx{withNamespace: true})
	if err != nil {
		return err
	}
	p.next() // "protocol"
	nameTok, err := p.identifier("protocol name")
	if err != nil {
		return err
	}
	id := nameTok.val
	space := namespaceOf(id, props.namespaceOr(""))
	name, err := p.name(nameTok, id)
	if err != nil {
		return err
	}
	p.spaces = append(p.spaces, space)
	defer func() { p.spaces = p.spaces[:len(p.spaces)-1] }()
	doc := p.docOf(start) // also for an imported protocol, for the warnings
	if p.r.top == p {
		p.r.proto = &protocolInfo{name: name, space: space, doc: doc, props: props.props}
	}
	if _, err := p.expect("{", "protocol "+quote(name)); err != nil {
		return err
	}
	for {
		t := p.peek()
		if isPunct(t, "}") {
			p.next()
			return nil
		}
		if t.kind == tEOF {
			return p.expected("'}'", "protocol "+quote(name))
		}
		if keyword(t, "import") {
			if err := p.importStatement(); err != nil {
				return err
			}
			continue
		}
		if p.atNamedDeclaration() {
			if err := p.namedDeclaration(); err != nil {
				return err
			}
			continue
		}
		if err := p.messageDeclaration(); err != nil {
			return err
		}
	}
}

// atNamedDeclaration looks past the properties for record, error, enum or
// fixed followed by a name and not by a message's parameter list.
func (p *parser) atNamedDeclaration() bool {
	start := p.pos
	defer func() { p.pos = start }()
	if _, err := p.properties(propsCtx{}); err != nil {
		return false
	}
	t := p.peek()
	switch {
	case keyword(t, "record"), keyword(t, "error"), keyword(t, "enum"):
		return !isPunct(p.peekAt(2), "(")
	case keyword(t, "fixed"):
		return !isPunct(p.peekAt(2), "(") || p.peekAt(3).kind == tInt
	}
	return false
}

func (p *parser) schemaFile() error {
	if keyword(p.peek(), "namespace") {
		p.next()
		t, err := p.identifier("namespace name")
		if err != nil {
			return err
		}
		if _, err := p.expect(";", "namespace "+quote(t.val)); err != nil {
			return err
		}
		p.spaces = append(p.spaces, t.val)
	}
	if keyword(p.peek(), "schema") {
		p.next()
		typ, err := p.fullType()
		if err != nil {
			return err
		}
		if _, err := p.expect(";", "the main schema"); err != nil {
			return err
		}
		if p.r.top == p {
			p.r.mainSchema = typ
		}
	}
	for {
		t := p.peek()
		if t.kind == tEOF {
			return nil
		}
		if keyword(t, "import") {
			if err := p.importStatement(); err != nil {
				return err
			}
			continue
		}
		if !p.atNamedDeclaration() {
			return p.expected("a record, enum, fixed or import", "")
		}
		if err := p.namedDeclaration(); err != nil {
			return err
		}
	}
}

// propsCtx says which annotations have a meaning of their own where the
// properties are read.
type propsCtx struct {
	withNamespace, withAliases, withOrder bool
}

type propSet struct {
	namespace *string
	aliases   []string
	order     string
	props     []prop
	list      propList
}

func (ps *propSet) namespaceOr(def string) string {
	if ps.namespace != nil {
		return *ps.namespace
	}
	return def
}

func (p *parser) properties(ctx propsCtx) (*propSet, error) {
	ps := &propSet{}
	for p.atPunct("@") {
		p.next()
		nameTok, err := p.identifier("a property name after '@'")
		if err != nil {
			return nil, err
		}
		name := nameTok.val
		if _, err := p.expect("(", "property "+quote(name)); err != nil {
			return nil, err
		}
		valTok := p.peek()
		val, err := p.jsonValue()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")", "the value of property "+quote(name)); err != nil {
			return nil, err
		}
		switch {
		case ctx.withNamespace && name == "namespace":
			if val.kind != jString {
				return nil, p.errAt(valTok, "@namespace(...) must contain a String value")
			}
			s := val.s
			ps.namespace = &s
		case ctx.withAliases && name == "aliases":
			if val.kind != jArray {
				return nil, p.errAt(valTok, "@aliases(...) must contain an array of String values")
			}
			var as []string
			for _, a := range val.arr {
				if a.kind != jString {
					return nil, p.errAt(valTok, "@aliases(...) must contain an array of String values")
				}
				as = append(as, a.s)
			}
			ps.aliases = as
		case ctx.withOrder && name == "order":
			if val.kind != jString {
				return nil, p.errAt(valTok, "@order(...) must contain a String value")
			}
			switch strings.ToUpper(val.s) {
			case "ASCENDING":
				ps.order = ""
			case "DESCENDING":
				ps.order = "descending"
			case "IGNORE":
				ps.order = "ignore"
			default:
				return nil, p.errAt(valTok, `@order(...) must contain "ASCENDING", "DESCENDING" or "IGNORE"`)
			}
		default:
			ps.list.set(name, val)
		}
	}
	ps.props = ps.list.list
	return ps, nil
}

// namespaceOf is the namespace of a declared identifier: its dotted prefix,
// or else the namespace in effect.
func namespaceOf(id, space string) string {
	if i := strings.LastIndexByte(id, '.'); i >= 0 {
		return id[:i]
	}
	return space
}

var invalidTypeNames = map[string]bool{
	"boolean": true, "int": true, "long": true, "float": true, "double": true,
	"bytes": true, "string": true, "null": true, "date": true, "time_ms": true,
	"timestamp_ms": true, "localtimestamp_ms": true, "uuid": true,
}

// name is the last part of a declared identifier, checked as Java checks
// it: it must contain a letter or '_' and not be a primitive's name.
func (p *parser) name(t *token, id string) (string, error) {
	name := id[strings.LastIndexByte(id, '.')+1:]
	ok := false
	for _, r := range name {
		if r == '_' || unicode.IsLetter(r) {
			ok = true
			break
		}
	}
	if !ok || invalidTypeNames[name] || strings.Contains(name, "-") {
		return "", p.errAt(t, "illegal name %q", name)
	}
	return name, nil
}

func (p *parser) namedDeclaration() error {
	start := p.pos
	props, err := p.properties(propsCtx{withNamespace: true, withAliases: true})
	if err != nil {
		return err
	}
	kw := p.next()
	nameTok, err := p.identifier(kw.text + " name")
	if err != nil {
		return err
	}
	id := nameTok.val
	name, err := p.name(nameTok, id)
	if err != nil {
		return err
	}
	n := &node{kind: kw.text, name: name, space: namespaceOf(id, props.namespaceOr(p.currentNamespace())),
		doc: p.docOf(start), line: nameTok.line, col: nameTok.col, file: p.file}
	n.aliases = fullAliases(props.aliases, n.space)
	what := kw.text + " " + quote(name)
	switch kw.text {
	case "fixed":
		if _, err := p.expect("(", what); err != nil {
			return err
		}
		sizeTok := p.peek()
		if sizeTok.kind != tInt {
			return p.expected("the size of fixed "+quote(name), "")
		}
		p.next()
		size, _ := parseJavaLong(sizeTok.text)
		if strings.ContainsAny(sizeTok.text, "lL") || size < 0 || size > math.MaxInt32 {
			return p.errAt(sizeTok, "invalid size %s of fixed %q", sizeTok.text, name)
		}
		n.size = int(size)
		if _, err := p.expect(")", "the size of "+what); err != nil {
			return err
		}
		if _, err := p.expect(";", what); err != nil {
			return err
		}
	case "enum":
		if _, err := p.expect("{", what); err != nil {
			return err
		}
		seen := map[string]bool{}
		for !p.atPunct("}") {
			if len(n.symbols) > 0 {
				if _, err := p.expect(",", "enum symbol "+quote(n.symbols[len(n.symbols)-1])); err != nil {
					return err
				}
			}
			if _, err := p.properties(propsCtx{}); err != nil {
				return err
			}
			st, err := p.identifier("an enum symbol")
			if err != nil {
				return err
			}
			if seen[st.val] {
				return p.errAt(st, "duplicate enum symbol %q in %s", st.val, what)
			}
			seen[st.val] = true
			n.symbols = append(n.symbols, st.val)
		}
		p.next()
		if p.atPunct("=") {
			p.next()
			dt, err := p.identifier("the default symbol of " + what)
			if err != nil {
				return err
			}
			if !seen[dt.val] {
				return p.errAt(dt, "the default %q of %s is not one of its symbols", dt.val, what)
			}
			d := dt.val
			n.enumDefault = &d
			if _, err := p.expect(";", "the default of "+what); err != nil {
				return err
			}
		}
	default: // record, error
		p.spaces = append(p.spaces, n.space)
		err := p.recordBody(n, what)
		p.spaces = p.spaces[:len(p.spaces)-1]
		if err != nil {
			return err
		}
	}
	if err := p.applyProps(n, props.props, nameTok); err != nil {
		return err
	}
	return p.r.put(n, p.file)
}

func fullAliases(aliases []string, space string) []string {
	var out []string
	for _, a := range aliases {
		if !strings.Contains(a, ".") && space != "" {
			a = space + "." + a
		}
		out = append(out, a)
	}
	return out
}

func (p *parser) recordBody(n *node, what string) error {
	if _, err := p.expect("{", what); err != nil {
		return err
	}
	seen := map[string]bool{}
	for {
		t := p.peek()
		if isPunct(t, "}") {
			p.next()
			return nil
		}
		if t.kind == tEOF {
			return p.expected("'}'", "the fields of "+what)
		}
		fields, err := p.fieldDeclaration()
		if err != nil {
			return err
		}
		for _, f := range fields {
			if seen[f.name] {
				return newError(p.file, f.line, f.col, "duplicate field %q in %s", f.name, what)
			}
			seen[f.name] = true
		}
		n.fields = append(n.fields, fields...)
	}
}

func (p *parser) fieldDeclaration() ([]*field, error) {
	start := p.pos
	defDoc := p.docOf(start)
	typ, err := p.fullType()
	if err != nil {
		return nil, err
	}
	var fields []*field
	for {
		f, err := p.variable(typ, defDoc)
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
		if p.atPunct(",") {
			p.next()
			continue
		}
		if _, err := p.expect(";", "field "+quote(f.name)); err != nil {
			return nil, err
		}
		return fields, nil
	}
}

// variable reads a field or parameter name, its annotations and default.
func (p *parser) variable(typ *node, defDoc *string) (*field, error) {
	start := p.pos
	props, err := p.properties(propsCtx{withAliases: true, withOrder: true})
	if err != nil {
		return nil, err
	}
	nameTok, err := p.identifier("a field name")
	if err != nil {
		return nil, err
	}
	f := &field{name: nameTok.val, doc: p.docOf(start), order: props.order, aliases: props.aliases,
		props: props.props, line: nameTok.line, col: nameTok.col, file: p.file}
	if f.doc == nil {
		f.doc = defDoc
	}
	if p.atPunct("=") {
		p.next()
		if f.def, err = p.jsonValue(); err != nil {
			return nil, err
		}
	}
	f.typ = typ
	if typ.optional {
		// "T?" is null first, unless the default is not null.
		nullNode, other := typ.branches[0], typ.branches[1]
		u := &node{kind: "union", line: typ.line, col: typ.col, file: typ.file}
		if f.def != nil && f.def.kind != jNull {
			u.branches = []*node{other, nullNode}
		} else {
			u.branches = []*node{nullNode, other}
		}
		f.typ = u
	}
	return f, nil
}

func (p *parser) messageDeclaration() error {
	start := p.pos
	props, err := p.properties(propsCtx{})
	if err != nil {
		return err
	}
	m := &message{doc: p.docOf(start), props: props.props}
	if keyword(p.peek(), "void") {
		p.next()
		m.response = &node{kind: "null"}
	} else {
		retTok := p.peek()
		if retTok.kind != tIdent {
			return p.expected("a declaration or a message", "")
		}
		if m.response, err = p.plainType(len(props.props) > 0); err != nil {
			return err
		}
	}
	nameTok, err := p.identifier("a message name")
	if err != nil {
		return err
	}
	m.name = nameTok.val
	what := "message " + quote(m.name)
	if _, err := p.expect("(", what); err != nil {
		return err
	}
	seen := map[string]bool{}
	for !p.atPunct(")") {
		if len(m.request) > 0 {
			if _, err := p.expect(",", "parameter "+quote(m.request[len(m.request)-1].name)); err != nil {
				return err
			}
		}
		pstart := p.pos
		typ, err := p.fullType()
		if err != nil {
			return err
		}
		f, err := p.variable(typ, p.docOf(pstart))
		if err != nil {
			return err
		}
		if seen[f.name] {
			return newError(p.file, f.line, f.col, "duplicate parameter %q in %s", f.name, what)
		}
		seen[f.name] = true
		m.request = append(m.request, f)
	}
	p.next()
	switch t := p.peek(); {
	case keyword(t, "oneway"):
		p.next()
		if m.response.kind != "null" {
			return p.errAt(t, "one-way %s must return void", what)
		}
		m.oneway = true
	case keyword(t, "throws"):
		p.next()
		for {
			et, err := p.identifier("an error name after throws")
			if err != nil {
				return err
			}
			m.errors = append(m.errors, p.reference(et))
			if !p.atPunct(",") {
				break
			}
			p.next()
		}
	}
	if _, err := p.expect(";", what); err != nil {
		return err
	}
	if p.r.proto != nil {
		// Java keeps the messages of an imported protocol only when the
		// importing file is a protocol.
		p.r.addMessage(m)
	}
	return nil
}

// reference is a named type referenced by t, resolved later.
func (p *parser) reference(t *token) *node {
	full := t.val
	if !strings.Contains(full, ".") && p.currentNamespace() != "" {
		full = p.currentNamespace() + "." + full
	}
	n := &node{kind: "ref", ref: full, line: t.line, col: t.col, file: p.file}
	p.r.refs = append(p.r.refs, n)
	return n
}

// fullType reads annotations and a type, and puts the annotations on it.
func (p *parser) fullType() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	startTok := p.peek()
	props, err := p.properties(propsCtx{})
	if err != nil {
		return nil, err
	}
	typ, err := p.plainType(len(props.props) > 0)
	if err != nil {
		return nil, err
	}
	target := typ
	if typ.optional {
		target = typ.branches[1]
	}
	if err := p.applyProps(target, props.props, startTok); err != nil {
		return nil, err
	}
	return typ, nil
}

// applyProps adds properties to a type as Java's addProp does: a property
// already set to another value cannot be changed.
func (p *parser) applyProps(n *node, props []prop, at *token) error {
	if n.kind == "union" {
		return nil // Java keeps no properties on a union
	}
	defer completeDecimal(n)
	if len(n.props) == 0 {
		// props has no repeated keys.
		n.props = props
		return nil
	}
	have := make(map[string]*jvalue, len(n.props))
	for _, pr := range n.props {
		have[pr.key] = pr.val
	}
	for _, pr := range props {
		if old := have[pr.key]; old != nil {
			if !sameJSON(old, pr.val) {
				return p.errAt(at, "can't overwrite property %q", pr.key)
			}
			continue
		}
		n.props = append(n.props, pr)
	}
	return nil
}

// completeDecimal adds "scale": 0 to a valid decimal that lacks a scale:
// Java re-adds a logical type it recognises to its schema, and the decimal
// type writes both its precision and its scale.
func completeDecimal(n *node) {
	lt := findProp(n.props, "logicalType")
	if lt == nil || lt.kind != jString || lt.s != "decimal" || findProp(n.props, "scale") != nil {
		return
	}
	pr := findProp(n.props, "precision")
	if pr == nil || pr.kind != jInt || pr.i <= 0 || pr.i > math.MaxInt32 {
		return
	}
	switch n.kind {
	case "bytes":
	case "fixed":
		if pr.i > int64(schema.MaxDecimalPrecision(n.size)) {
			return
		}
	default:
		return
	}
	n.props = append(n.props, prop{"scale", &jvalue{kind: jInt}})
}

func findProp(props []prop, key string) *jvalue {
	for _, pr := range props {
		if pr.key == key {
			return pr.val
		}
	}
	return nil
}

var primitiveKeywords = map[string]string{
	"boolean": "boolean", "int": "int", "long": "long", "float": "float", "double": "double",
	"bytes": "bytes", "string": "string", "null": "null",
}

var logicalKeywords = map[string][2]string{
	"date":               {"int", "date"},
	"time_ms":            {"int", "time-millis"},
	"timestamp_ms":       {"long", "timestamp-millis"},
	"local_timestamp_ms": {"long", "local-timestamp-millis"},
	"uuid":               {"string", "uuid"},
}

func (p *parser) plainType(annotated bool) (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.peek()
	if t.kind != tIdent {
		return nil, p.expected("a type", "")
	}
	mk := func(kind string) *node { return &node{kind: kind, line: t.line, col: t.col, file: p.file} }
	switch {
	case keyword(t, "array"), keyword(t, "map"):
		p.next()
		if _, err := p.expect("<", t.text); err != nil {
			return nil, err
		}
		inner, err := p.fullType()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(">", "the "+t.text+"'s type"); err != nil {
			return nil, err
		}
		n := mk(t.text)
		n.items = inner
		return n, nil
	case keyword(t, "union"):
		p.next()
		if _, err := p.expect("{", "union"); err != nil {
			return nil, err
		}
		n := mk("union")
		for {
			b, err := p.fullType()
			if err != nil {
				return nil, err
			}
			n.branches = append(n.branches, b)
			if p.atPunct(",") {
				p.next()
				continue
			}
			if _, err := p.expect("}", "the union's types"); err != nil {
				return nil, err
			}
			return n, nil
		}
	}
	var n *node
	p.next()
	if k, ok := primitiveKeywords[t.text]; ok {
		n = mk(k)
	} else if l, ok := logicalKeywords[t.text]; ok {
		n = mk(l[0])
		n.props = []prop{{"logicalType", jstr(l[1])}}
	} else if keyword(t, "decimal") {
		if _, err := p.expect("(", "decimal"); err != nil {
			return nil, err
		}
		pt := p.peek()
		if pt.kind != tInt {
			return nil, p.expected("the precision of decimal", "")
		}
		p.next()
		precision, _ := parseJavaLong(pt.text)
		scale := int64(0)
		if p.atPunct(",") {
			p.next()
			st := p.peek()
			if st.kind != tInt {
				return nil, p.expected("the scale of decimal", "")
			}
			p.next()
			scale, _ = parseJavaLong(st.text)
		}
		if _, err := p.expect(")", "the precision and scale of decimal"); err != nil {
			return nil, err
		}
		if precision <= 0 || precision > math.MaxInt32 {
			return nil, p.errAt(pt, "invalid decimal precision %d", precision)
		}
		if scale < 0 || scale > precision {
			return nil, p.errAt(pt, "invalid decimal scale %d for precision %d", scale, precision)
		}
		n = mk("bytes")
		n.props = []prop{{"logicalType", jstr("decimal")}, {"precision", &jvalue{kind: jInt, i: precision}},
			{"scale", &jvalue{kind: jInt, i: scale}}}
	} else {
		if annotated {
			return nil, p.errAt(t, "type references may not be annotated")
		}
		n = p.reference(t)
	}
	if q := p.peek(); isPunct(q, "?") {
		p.next()
		u := mk("union")
		u.branches = []*node{mk("null"), n}
		u.optional = true
		return u, nil
	}
	return n, nil
}

func (p *parser) jsonValue() (*jvalue, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.peek()
	switch {
	case t.kind == tString:
		p.next()
		return jstr(t.val), nil
	case t.kind == tInt:
		p.next()
		v, _ := parseJavaLong(t.text)
		return &jvalue{kind: jInt, i: v}, nil
	case t.kind == tFloat:
		p.next()
		f, _ := parseJavaDouble(t.text)
		return &jvalue{kind: jFloat, f: f}, nil
	case keyword(t, "true"), keyword(t, "false"):
		p.next()
		return &jvalue{kind: jBool, b: t.text == "true"}, nil
	case keyword(t, "null"):
		p.next()
		return &jvalue{kind: jNull}, nil
	case isPunct(t, "["):
		p.next()
		v := &jvalue{kind: jArray}
		for !p.atPunct("]") {
			if len(v.arr) > 0 {
				if _, err := p.expect(",", "an array element"); err != nil {
					return nil, err
				}
			}
			x, err := p.jsonValue()
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, x)
		}
		p.next()
		return v, nil
	case isPunct(t, "{"):
		p.next()
		v := &jvalue{kind: jObject}
		for {
			kt := p.peek()
			if kt.kind != tString {
				return nil, p.expected("a string key", "'{' or ','")
			}
			p.next()
			if _, err := p.expect(":", "key "+kt.text); err != nil {
				return nil, err
			}
			x, err := p.jsonValue()
			if err != nil {
				return nil, err
			}
			v.set(kt.val, x)
			if p.atPunct(",") {
				p.next()
				continue
			}
			if _, err := p.expect("}", "the value of key "+kt.text); err != nil {
				return nil, err
			}
			return v, nil
		}
	}
	return nil, p.expected("a JSON value", "")
}
