package jsoncodec

import (
	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
)

// recordNode writes a record as a JSON object of its fields in schema
// order. Reading takes the fields in any order: the binary is written as
// they come and put in schema order at the end when they came in another,
// with the defaults of fields that are missing.
type recordNode struct {
	name   string
	fields []recordField
	// index finds a field by name in a record of many fields.
	index map[string]int
}

type recordField struct {
	name string
	// key is the field's name as a JSON key, with its colon, and a
	// comma before it unless it is the first field; member is the key
	// and colon alone.
	key    jsontext.Key
	member []byte
	node   node
	// def is the binary encoding of the field's default; hasDef says
	// whether there is one.
	def    []byte
	hasDef bool
}

func (n *recordNode) toJSON(t *toState) {
	if !t.Enter() {
		return
	}
	t.out = append(t.out, '{')
	for i := range n.fields {
		fl := &n.fields[i]
		t.out = fl.key.Append(t.out)
		fl.node.toJSON(t)
		if t.Err != nil {
			t.AddField(fl.name)
			return
		}
	}
	t.out = append(t.out, '}')
	if !t.grown() {
		return
	}
	t.Leave()
}

func (n *recordNode) lookup(key []byte, next int) int {
	if next < len(n.fields) && n.fields[next].name == string(key) {
		return next
	}
	if n.index != nil {
		if i, ok := n.index[string(key)]; ok {
			return i
		}
		return -1
	}
	for i := range n.fields {
		if n.fields[i].name == string(key) {
			return i
		}
	}
	return -1
}

func (n *recordNode) fromJSON(f *fromState) {
	if !f.Expect('{') || !f.enter() {
		return
	}
	// Fields 0 to next-1 came in order and are written before
	// prefixEnd; once a field comes out of order, the fields after the
	// prefix are recorded in f.order[orderBase:], by field index.
	next := 0
	prefixEnd := -1
	orderBase := len(f.order)
	defer func() { f.order = f.order[:orderBase] }()
	if !f.Empty('}') {
		for {
			var i int
			var key []byte
			keyPos := f.Pos
			if prefixEnd < 0 && next < len(n.fields) && f.Peek() == '"' && f.HasPrefix(n.fields[next].member) {
				// The next field's key, as compact text writes it.
				f.Pos += len(n.fields[next].member)
				i = next
			} else {
				key, keyPos = f.readString()
				if !f.Expect(':') {
					return
				}
				i = n.lookup(key, next)
			}
			switch {
			case i < 0:
				if !f.allowUnknown {
					f.fail(wire.ErrInvalid, keyPos, "record %s has no field %q", n.name, key)
					return
				}
				f.Skip(f.depthLeft, f.maxNumber)
			case prefixEnd < 0 && i == next:
				n.fields[i].node.fromJSON(f)
				next++
			default:
				if prefixEnd < 0 {
					prefixEnd = len(f.out)
					for range n.fields {
						f.order = append(f.order, span{-1, -1})
					}
				}
				slot := &f.order[orderBase+i]
				if i < next || slot.start >= 0 {
					f.fail(wire.ErrInvalid, keyPos, "field %q given twice", key)
					return
				}
				start := len(f.out)
				n.fields[i].node.fromJSON(f)
				f.order[orderBase+i] = span{start, len(f.out)}
			}
			if f.failed() {
				if i >= 0 {
					f.addField(n.fields[i].name)
				}
				return
			}
			if !f.More('}') {
				break
			}
		}
		if f.failed() {
			return
		}
	}
	if prefixEnd < 0 {
		// In order: what is missing is at the end.
		for i := next; i < len(n.fields); i++ {
			if !f.appendDefault(&n.fields[i], n.name) {
				return
			}
		}
	} else {
		n.reorder(f, next, prefixEnd, orderBase)
	}
	f.leave()
}

// reorder puts the fields written after prefixEnd, recorded in
// f.order[orderBase:], in schema order after the first next fields, with
// the defaults of the fields that did not come.
func (n *recordNode) reorder(f *fromState, next, prefixEnd, orderBase int) {
	f.tmp = append(f.tmp[:0], f.out[prefixEnd:]...)
	f.out = f.out[:prefixEnd]
	for i := next; i < len(n.fields); i++ {
		sp := f.order[orderBase+i]
		if sp.start < 0 {
			if !f.appendDefault(&n.fields[i], n.name) {
				return
			}
			continue
		}
		f.out = append(f.out, f.tmp[sp.start-prefixEnd:sp.end-prefixEnd]...)
	}
}

// appendDefault writes the default of a field missing from the text, or
// fails when it has none. The defaults of one read share a budget: a
// record of two bytes of text may take a default of any size.
func (f *fromState) appendDefault(fl *recordField, record string) bool {
	if !fl.hasDef {
		f.fail(wire.ErrInvalid, f.Pos-1, "record %s: field %q is missing and has no default", record, fl.name)
		return false
	}
	f.defaultsLeft -= int64(len(fl.def))
	if f.defaultsLeft < 0 {
		f.fail(wire.ErrLimit, f.Pos-1, "defaults of missing fields larger than the allocation limit")
		return false
	}
	f.out = append(f.out, fl.def...)
	return true
}
