package jsoncodec

import (
	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/schema"
)

// compiler builds the nodes of one program; records are kept by schema
// node so that a recursive schema compiles to a cycle of nodes.
type compiler struct {
	fl      Flavor
	records map[*schema.Schema]*recordNode
}

func compile(s *schema.Schema, fl Flavor) *Program {
	c := &compiler{fl: fl, records: map[*schema.Schema]*recordNode{}}
	return &Program{root: c.node(s)}
}

func (c *compiler) node(s *schema.Schema) node {
	if c.fl.Readable && s.Logical() != schema.NoLogical {
		if n := readableNode(s, c.fl); n != nil {
			return n
		}
	}
	if s.Logical() != schema.NoLogical {
		return checkedUnderlying(s, c.underlying(s))
	}
	return c.underlying(s)
}

// underlying returns the node of s's Avro type, as if it had no logical
// type.
func (c *compiler) underlying(s *schema.Schema) node {
	switch s.Kind() {
	case schema.Null:
		return nullNode{}
	case schema.Boolean:
		return boolNode{}
	case schema.Int:
		return intNode{}
	case schema.Long:
		return intNode{long: true}
	case schema.Float:
		return floatNode{bits: 32}
	case schema.Double:
		return floatNode{bits: 64}
	case schema.String:
		return stringNode{}
	case schema.Bytes:
		return bytesNode{size: -1, base64: c.fl.Base64}
	case schema.Fixed:
		return bytesNode{size: s.Size(), base64: c.fl.Base64}
	case schema.Enum:
		return newEnumNode(s.FullName(), s.Symbols())
	case schema.Array:
		return &arrayNode{elem: c.node(s.Items()), minSize: skip.ItemSize(s.Items())}
	case schema.Map:
		return &mapNode{elem: c.node(s.Values()), minSize: 1 + s.Values().MinEncodedSize()}
	case schema.Union:
		var branches []node
		for _, b := range s.Branches() {
			branches = append(branches, c.node(b))
		}
		return newUnionNode(s, c.fl, branches)
	case schema.Record:
		return c.record(s)
	}
	panic("jsoncodec: unknown schema kind " + s.Kind().String())
}

func (c *compiler) record(s *schema.Schema) *recordNode {
	if r, ok := c.records[s]; ok {
		return r
	}
	r := &recordNode{name: s.FullName()}
	c.records[s] = r
	fields := s.Fields()
	r.fields = make([]recordField, len(fields))
	for i, f := range fields {
		r.fields[i] = recordField{
			name:   f.Name(),
			key:    jsontext.NewKey(f.Name(), i == 0),
			member: jsontext.Member(f.Name(), true),
			def:    f.DefaultBinary(),
			hasDef: f.HasDefault(),
		}
	}
	// The fields' nodes after the record is registered: a field may refer
	// to the record itself.
	for i, f := range fields {
		r.fields[i].node = c.node(f.Type())
	}
	if len(fields) > 8 {
		r.index = make(map[string]int, len(fields))
		for i, f := range fields {
			r.index[f.Name()] = i
		}
	}
	return r
}
