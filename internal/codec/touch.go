package codec

// A struct's strings, byte and primitive slices, maps and pointed-to
// strings are held in memory of their own. Over many records that memory
// is not in the cache, and encoding the fields in order waits for one
// miss after the other: in the JSON encode of the 10-field record of the
// benchmarks, the walk of a 3-entry map spent most of its time loading
// the map's header and group. The binary and JSON encoders of a struct
// load one byte of each such field's memory before they write anything,
// so that the misses start together and overlap; the loads read nothing
// the fields' encoders do not read anyway.

// touchKind says how to reach the memory a field's encoding reads.
type touchKind uint8

const (
	touchNone      touchKind = iota
	touchData                // a string or slice: its data, when not empty
	touchPtrString           // a pointer to a string: the string's data
	touchMap                 // a map: its header and its group
)

// touchField is a field to touch: its offset in the struct and its kind.
type touchField struct {
	off  uintptr
	kind touchKind
}

// toucher is the encoder of a value that holds the address of the
// memory its encoding reads.
type toucher interface{ touchKind() touchKind }

// Only memory the field's own encoder reads is touched: a pointer or a
// slice of structs or of values with marshalling methods may lead to
// bytes no encoder reads (a mutex the methods take), where a load would
// race with their writers.
func (stringCodec) touchKind() touchKind        { return touchData }
func (bytesCodec) touchKind() touchKind         { return touchData }
func (*primSliceCodec[T]) touchKind() touchKind { return touchData }
func (*typedMapCodec[V]) touchKind() touchKind  { return touchMap }
func (c *ptrEncoder) touchKind() touchKind      { return ptrTouch(c.enc) }

func (c *unionEncoder) touchKind() touchKind {
	if !c.isPtr {
		return touchNone
	}
	return ptrTouch(c.enc)
}

// ptrTouch is the touch of a pointer whose element has the encoder elem.
func ptrTouch(elem encoder) touchKind {
	if _, ok := elem.(stringCodec); ok {
		return touchPtrString
	}
	return touchNone
}

// touchesOf returns the fields to touch of a struct field at off encoded
// by enc: the field itself, or the fields of a struct it holds. The JSON
// encoder of a struct touches what its binary encoder does.
func touchesOf(off uintptr, enc encoder, self *structEncoder) []touchField {
	var nested []touchField
	switch e := enc.(type) {
	case *structEncoder:
		if e == self {
			return nil
		}
		nested = e.touch
	case toucher:
		if k := e.touchKind(); k != touchNone {
			return []touchField{{off, k}}
		}
		return nil
	}
	out := make([]touchField, len(nested))
	for i, t := range nested {
		out[i] = touchField{off + t.off, t.kind}
	}
	return out
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
