package codec

// The text of a struct's strings, slices, maps and pointed-to values is
// read from memory of their own. Over many records that memory is not in
// the cache, and writing the fields in order waits for one miss after the
// other: in the 10-field record of the benchmarks, the walk of a 3-entry
// map spent most of its time loading the map's header and group. Loading
// one byte of each such field before any text is written starts the
// misses together, so that they overlap; the loads read nothing the
// fields' encoders do not read anyway.

// touchKind says how to reach the memory a field's text is read from.
type touchKind uint8

const (
	touchNone      touchKind = iota
	touchData                // a string or slice: its data, when not empty
	touchPtr                 // a pointer: what it points at, when not nil
	touchPtrString           // a pointer to a string: the string's data
	touchMap                 // a map: its header and its group
)

// touchField is a field to touch: its offset in the struct and its kind.
type touchField struct {
	off  uintptr
	kind touchKind
}

// toucher is a JSON encoder of a value that holds the address of the
// memory its text is read from.
type toucher interface{ touchKind() touchKind }

func (c jsonScalar) touchKind() touchKind {
	if c.op >= jopString { // strings and bytes
		return touchData
	}
	return touchNone
}

func (jsonPrimSlice[T]) touchKind() touchKind { return touchData }
func (*jsonSlice) touchKind() touchKind       { return touchData }
func (*jsonStringMap) touchKind() touchKind   { return touchMap }
func (*jsonPtr) touchKind() touchKind         { return touchPtr }

func (c *jsonUnion) touchKind() touchKind {
	if !c.isPtr {
		return touchNone
	}
	if sc, ok := c.elem.(jsonScalar); ok && sc.op == jopString {
		return touchPtrString
	}
	return touchPtr
}

// touchesOf returns the fields to touch of a struct field at off encoded
// by enc: the field itself, or the fields of a struct it holds.
func touchesOf(off uintptr, enc jsonEncoder, self *jsonStruct) []touchField {
	switch e := enc.(type) {
	case *jsonStruct:
		if e == self {
			return nil
		}
		out := make([]touchField, len(e.touch))
		for i, t := range e.touch {
			out[i] = touchField{off + t.off, t.kind}
		}
		return out
	case toucher:
		if k := e.touchKind(); k != touchNone {
			return []touchField{{off, k}}
		}
	}
	return nil
}

// touch loads a byte of the memory of each field of the struct at p, and
// returns their sum, for the caller to keep so that the loads are made.
func touch(p pointer, fields []touchField) byte {
	var sum byte
	for _, f := range fields {
		q := p.add(f.off)
		switch f.kind {
		case touchData:
			if *as[int](q.add(sizeOf[uintptr]())) > 0 {
				sum += *as[byte](q.elem())
			}
		case touchPtr:
			if e := q.elem(); !e.isNil() {
				sum += *as[byte](e)
			}
		case touchPtrString:
			if e := q.elem(); !e.isNil() && len(*as[string](e)) > 0 {
				sum += *as[byte](e.elem())
			}
		case touchMap:
			sum += touchMapGroup(q)
		}
	}
	return sum
}
