package schema

import (
	"slices"
	"strings"
	"sync/atomic"
)

// propList is the props of a node or a field, kept as the JSON text that
// String writes for each value: that is a few bytes for each byte of
// text, where the values of the generic model (a map for every object)
// cost hundreds. The values are decoded on first use.
type propList struct {
	raw    []rawProp
	values atomic.Pointer[[]Prop]
}

// rawProp is a prop's name and the JSON text of its value.
type rawProp struct {
	name, json string
}

// add appends the prop name with the decoded value v; buf is scratch
// space. The name and the text are one allocation.
func (l *propList) add(buf *[]byte, name string, v any) {
	b := append((*buf)[:0], name...)
	b = appendPropJSON(b, v)
	*buf = b
	t := string(b)
	l.raw = append(l.raw, rawProp{name: t[:len(name)], json: t[len(name):]})
}

// list returns the props with their values in the generic model, the
// same slice on every call.
func (l *propList) list() []Prop {
	if len(l.raw) == 0 {
		return nil
	}
	if p := l.values.Load(); p != nil {
		return *p
	}
	props := make([]Prop, len(l.raw))
	for i, r := range l.raw {
		// The text is what appendPropJSON wrote of a decoded value:
		// it decodes.
		v, _, _ := decodeJSON(r.json)
		props[i] = Prop{Name: r.name, Value: toGo(v)}
	}
	l.values.CompareAndSwap(nil, &props)
	return *l.values.Load()
}

// get returns the value of prop name.
func (l *propList) get(name string) (any, bool) {
	for i, r := range l.raw {
		if r.name == name {
			return l.list()[i].Value, true
		}
	}
	return nil, false
}

// appendPropJSON writes a decoded value as appendJSON writes its
// generic model (toGo), whose objects are maps: members sorted by key.
func appendPropJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case *object:
		var small [16]int
		order := small[:0]
		if len(v.members) > len(small) {
			order = make([]int, 0, len(v.members))
		}
		for i := range v.members {
			order = append(order, i)
		}
		// The keys are distinct: the decoder rejects duplicates.
		slices.SortFunc(order, func(i, j int) int { return strings.Compare(v.members[i].key, v.members[j].key) })
		b = append(b, '{')
		for i, k := range order {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, v.members[k].key)
			b = append(b, ':')
			b = appendPropJSON(b, v.members[k].val)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPropJSON(b, e)
		}
		return append(b, ']')
	}
	return appendJSON(b, v)
}
