package idl

import (
	"math"
	"strings"

	"github.com/avrogo/avro/schema"
)

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
