package idl

import (
	"math"
	"strings"
	"unicode"
)

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
