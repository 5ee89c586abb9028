package idl

import (
	"strings"
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
