package schema

import (
	"bytes"
	"encoding/json"
)

// NodeOf returns a Node that builds a schema equal to s (the same String):
// each named type is defined at its first occurrence and referred to by
// full name after, field defaults are kept as their JSON text
// (json.RawMessage), and other attributes as props.
func NodeOf(s *Schema) Node {
	n, _ := nodeOfJSON(json.RawMessage(s.String()))
	return n
}

// nodeKey reports whether attribute k of a type is held in a Node field of
// its own;
// other attributes are props.
func nodeKey(typ, logical, k string) bool {
	switch k {
	case "type", "name", "namespace", "aliases", "doc", "logicalType":
		return true
	case "fields":
		return typ == "record" || typ == "error"
	case "symbols", "default":
		return typ == "enum"
	case "items":
		return typ == "array"
	case "values":
		return typ == "map"
	case "size":
		return typ == "fixed"
	case "precision", "scale":
		return logical == "decimal"
	}
	return false
}

var fieldKeys = map[string]bool{"name": true, "type": true, "doc": true, "aliases": true, "default": true, "order": true}

func nodeOfJSON(raw json.RawMessage) (Node, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var t string
		err := json.Unmarshal(raw, &t)
		return Node{Type: t}, err
	case len(raw) > 0 && raw[0] == '[':
		var branches []json.RawMessage
		if err := json.Unmarshal(raw, &branches); err != nil {
			return Node{}, err
		}
		n := Node{Type: "union", Branches: make([]Node, len(branches))}
		for i, b := range branches {
			var err error
			if n.Branches[i], err = nodeOfJSON(b); err != nil {
				return Node{}, err
			}
		}
		return n, nil
	}
	var o map[string]json.RawMessage
	if err := json.Unmarshal(raw, &o); err != nil {
		return Node{}, err
	}
	var n Node
	get := func(k string, v any) {
		if r, ok := o[k]; ok {
			_ = json.Unmarshal(r, v)
		}
	}
	get("type", &n.Type)
	get("name", &n.Name)
	get("namespace", &n.Namespace)
	get("aliases", &n.Aliases)
	get("doc", &n.Doc)
	get("symbols", &n.Symbols)
	get("size", &n.Size)
	get("logicalType", &n.Logical)
	if n.Logical == "decimal" {
		get("precision", &n.Precision)
		get("scale", &n.Scale)
	}
	if n.Type == "enum" {
		get("default", &n.EnumDefault)
	}
	if ns, ok := o["namespace"]; ok && n.Namespace == "" {
		// The null namespace, set explicitly inside another one.
		n.setProp("namespace", json.RawMessage(ns))
	}
	for _, k := range []string{"items", "values"} {
		if r, ok := o[k]; ok && nodeKey(n.Type, "", k) {
			c, err := nodeOfJSON(r)
			if err != nil {
				return Node{}, err
			}
			if k == "items" {
				n.Items = &c
			} else {
				n.Values = &c
			}
		}
	}
	if r, ok := o["fields"]; ok && nodeKey(n.Type, "", "fields") {
		var fields []map[string]json.RawMessage
		if err := json.Unmarshal(r, &fields); err != nil {
			return Node{}, err
		}
		n.Fields = make([]FieldNode, len(fields))
		for i, fo := range fields {
			f := &n.Fields[i]
			_ = json.Unmarshal(fo["name"], &f.Name)
			var err error
			if f.Type, err = nodeOfJSON(fo["type"]); err != nil {
				return Node{}, err
			}
			if d, ok := fo["doc"]; ok {
				_ = json.Unmarshal(d, &f.Doc)
			}
			if a, ok := fo["aliases"]; ok {
				_ = json.Unmarshal(a, &f.Aliases)
			}
			if d, ok := fo["default"]; ok {
				f.Default, f.HasDefault = d, true
			}
			if d, ok := fo["order"]; ok {
				_ = json.Unmarshal(d, &f.Order)
			}
			for k, v := range fo {
				if !fieldKeys[k] {
					if f.Props == nil {
						f.Props = map[string]any{}
					}
					f.Props[k] = v
				}
			}
		}
	}
	for k, v := range o {
		if nodeKey(n.Type, n.Logical, k) {
			continue
		}
		n.setProp(k, v)
	}
	return n, nil
}

func (n *Node) setProp(k string, v json.RawMessage) {
	if n.Props == nil {
		n.Props = map[string]any{}
	}
	n.Props[k] = v
}
