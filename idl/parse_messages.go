package idl

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
