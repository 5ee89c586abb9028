package idl

import (
	"strings"
)

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
