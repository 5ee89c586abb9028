package codec

import (
	"reflect"
	"unsafe"

	"github.com/avrogo/avro/schema"
)

// The codecs of enums, fixeds, arrays, maps and records for values held in
// an any (see codec_any.go for the mapping).

type anyEnum struct {
	s    *schema.Schema
	syms []any
}

func (n *anyEnum) decodeAny(d *decodeState, b *anyBoxes) any {
	i := readEnumIndex(n.s, d)
	if d.err != nil {
		return nil
	}
	return n.syms[i]
}

// index returns the symbol index v stands for, or -1.
func (n *anyEnum) index(v any) int {
	if s, ok := v.(string); ok {
		return n.s.SymbolIndex(s)
	}
	if x, isInt, fits := anyInteger(v); isInt {
		if fits && x >= 0 && x < int64(len(n.syms)) {
			return int(x)
		}
		return -1
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		return n.s.SymbolIndex(rv.String())
	}
	return -1
}

func (n *anyEnum) encodeAny(v any, e *encodeState) {
	i := n.index(v)
	if i < 0 {
		e.failf(ErrRange, "%v (%T) is not a symbol or index of enum %s", v, v, n.s.FullName())
		return
	}
	e.writeLong(int64(i))
}

func (n *anyEnum) accepts(v any) bool { return n.index(v) >= 0 }

type anyFixed struct{ size int }

func (n anyFixed) decodeAny(d *decodeState, b *anyBoxes) any {
	if int64(n.size) > d.maxLength {
		d.failf(ErrLimit, "fixed of %d bytes exceeds the maximum length", n.size)
		return nil
	}
	src := d.readRaw(n.size)
	if d.err != nil {
		return nil
	}
	if d.zeroCopy {
		return src
	}
	if !d.reserve(int64(n.size)) {
		return nil
	}
	return append([]byte(nil), src...)
}

// fixedBytes returns the bytes of v when it is a []byte or a byte array of
// the fixed's size.
func (n anyFixed) fixedBytes(v any, e *encodeState) bool {
	switch b := v.(type) {
	case []byte:
		if len(b) != n.size {
			return false
		}
		if e != nil {
			e.buf = append(e.buf, b...)
		}
		return true
	case [16]byte:
		if n.size != 16 {
			return false
		}
		if e != nil {
			e.buf = append(e.buf, b[:]...)
		}
		return true
	}
	rv := reflect.ValueOf(v)
	k := rv.Kind()
	if (k != reflect.Slice && k != reflect.Array) || rv.Type().Elem().Kind() != reflect.Uint8 || rv.Len() != n.size {
		return false
	}
	if e != nil {
		for i := range n.size {
			e.buf = append(e.buf, byte(rv.Index(i).Uint()))
		}
	}
	return true
}

func (n anyFixed) encodeAny(v any, e *encodeState) {
	if !n.fixedBytes(v, e) {
		e.failf(ErrRange, "cannot encode Go %T as Avro fixed of %d bytes", v, n.size)
	}
}

func (n anyFixed) accepts(v any) bool { return n.fixedBytes(v, nil) }

// --- array, map, record ---

type anyArray struct {
	items   anyNode
	minSize int
}

func (n *anyArray) decodeAny(d *decodeState, b *anyBoxes) any {
	if !d.enter() {
		return nil
	}
	out := []any{}
	var total int64
	for {
		count, blk := d.readBlock(total, n.minSize)
		if count == 0 {
			break
		}
		var ok bool
		if !d.reserveItems(count, int64(unsafe.Sizeof(any(nil)))) {
			d.endBlock(blk)
			break
		}
		if out, ok = growFor(out, int(count), d); !ok {
			d.endBlock(blk)
			return nil
		}
		for i := int64(0); i < count; i++ {
			v := n.items.decodeAny(d, b)
			if d.err != nil {
				d.endBlock(blk)
				d.moreItems(i, count, n.minSize)
				d.addIndex(total + i)
				return nil
			}
			out = append(out, v)
		}
		if !d.endBlock(blk) {
			return nil
		}
		total += count
	}
	if d.err != nil {
		return nil
	}
	d.leave()
	return out
}

func (n *anyArray) encodeAny(v any, e *encodeState) {
	if !e.enter() {
		return
	}
	if xs, ok := v.([]any); ok {
		if len(xs) > 0 {
			e.writeLong(int64(len(xs)))
			for i, x := range xs {
				n.items.encodeAny(x, e)
				if e.err != nil {
					e.addIndex(i)
					return
				}
			}
		}
	} else {
		rv := reflect.ValueOf(v)
		if k := rv.Kind(); k != reflect.Slice && k != reflect.Array {
			anyMismatch(e, v, "array")
			return
		}
		if l := rv.Len(); l > 0 {
			e.writeLong(int64(l))
			for i := range l {
				n.items.encodeAny(rv.Index(i).Interface(), e)
				if e.err != nil {
					e.addIndex(i)
					return
				}
			}
		}
	}
	e.buf = append(e.buf, 0)
	e.leave()
}

func (n *anyArray) accepts(v any) bool {
	if _, ok := v.([]any); ok {
		return true
	}
	k := reflect.ValueOf(v).Kind()
	return k == reflect.Slice || k == reflect.Array
}

// isStringMap reports whether rv is a map with string-kind keys.
func isStringMap(rv reflect.Value) bool {
	return rv.Kind() == reflect.Map && rv.Type().Key().Kind() == reflect.String
}

type anyMap struct {
	values  anyNode
	minSize int
	// stringValues: a map of strings, whose blocks readShortSpan can take
	// at once.
	stringValues bool
}

func (n *anyMap) decodeAny(d *decodeState, b *anyBoxes) any {
	if !d.enter() {
		return nil
	}
	var m map[string]any
	var total int64
	for {
		count, blk := d.readBlock(total, n.minSize)
		if count == 0 {
			break
		}
		// A key and a value, and the map's own overhead.
		if !d.reserveItems(count, 48) {
			d.endBlock(blk)
			return nil
		}
		if m == nil {
			m = make(map[string]any, mapSizeHint(count))
		}
		if n.stringValues {
			if span, ok := d.readShortSpan(2 * count); ok {
				for range count {
					k := cutSpanString(&span)
					m[k] = b.string(cutSpanString(&span))
				}
				if !d.endBlock(blk) {
					return nil
				}
				total += count
				continue
			}
		}
		for i := int64(0); i < count; i++ {
			k := d.readString()
			if d.err != nil {
				d.endBlock(blk)
				d.moreItems(i, count, n.minSize)
				d.addIndex(total + i)
				return nil
			}
			v := n.values.decodeAny(d, b)
			if d.err != nil {
				d.endBlock(blk)
				d.moreItems(i, count, n.minSize)
				d.addKey(k)
				return nil
			}
			m[k] = v
		}
		if !d.endBlock(blk) {
			return nil
		}
		total += count
	}
	if d.err != nil {
		return nil
	}
	if m == nil {
		m = map[string]any{}
	}
	d.leave()
	return m
}

func (n *anyMap) encodeAny(v any, e *encodeState) {
	if !e.enter() {
		return
	}
	if m, ok := v.(map[string]any); ok {
		if len(m) > 0 {
			e.writeLong(int64(len(m)))
			if w, ok := walkSmallMap(unsafe.Pointer(&m)); ok {
				const size, off = unsafe.Sizeof(mapSlot[any]{}), unsafe.Offsetof(mapSlot[any]{}.value)
				for s := w.next(size); s != nil; s = w.next(size) {
					e.writeString(*(*string)(s))
					n.values.encodeAny(*(*any)(unsafe.Add(s, off)), e)
					if e.err != nil {
						e.addKey(*(*string)(s))
						return
					}
				}
			} else {
				for k, x := range m {
					e.writeString(k)
					n.values.encodeAny(x, e)
					if e.err != nil {
						e.addKey(k)
						return
					}
				}
			}
		}
	} else {
		rv := reflect.ValueOf(v)
		if !isStringMap(rv) {
			anyMismatch(e, v, "map")
			return
		}
		if rv.Len() > 0 {
			e.writeLong(int64(rv.Len()))
			it := rv.MapRange()
			for it.Next() {
				k := it.Key().String()
				e.writeString(k)
				n.values.encodeAny(it.Value().Interface(), e)
				if e.err != nil {
					e.addKey(k)
					return
				}
			}
		}
	}
	e.buf = append(e.buf, 0)
	e.leave()
}

func (n *anyMap) accepts(v any) bool {
	if _, ok := v.(map[string]any); ok {
		return true
	}
	return isStringMap(reflect.ValueOf(v))
}

type anyRecord struct {
	s      *schema.Schema
	fields []anyField
}

type anyField struct {
	name string
	n    anyNode
	f    *schema.Field
	leaf valueOp
}

// anyLeafOf names, with the ops of the value.Value record decoder, the
// plain primitive nodes whose usual Go value a record encodes inline,
// without the interface call of its node: these calls are a fifth of
// encoding a record of primitives.
func anyLeafOf(n anyNode) valueOp {
	switch n.(type) {
	case anyString:
		return vopString
	case anyLong:
		return vopLong
	case anyInt:
		return vopInt
	case anyDouble:
		return vopDouble
	case anyBool:
		return vopBool
	}
	return vopNode
}

func (n *anyRecord) decodeAny(d *decodeState, b *anyBoxes) any {
	if !d.enter() {
		return nil
	}
	if !d.reserve(48 + 48*int64(len(n.fields))) {
		return nil
	}
	m := make(map[string]any, len(n.fields))
	for i := range n.fields {
		f := &n.fields[i]
		v := f.n.decodeAny(d, b)
		if d.err != nil {
			d.addField(f.name)
			return nil
		}
		m[f.name] = v
	}
	d.leave()
	return m
}

// lookup returns the field value v holds under name. v is a
// map[string]any or a map with string-kind keys (rv).
func lookupField(m map[string]any, rv reflect.Value, name string) (any, bool) {
	if m != nil || !rv.IsValid() {
		x, ok := m[name]
		return x, ok
	}
	x := rv.MapIndex(reflect.ValueOf(name).Convert(rv.Type().Key()))
	if !x.IsValid() {
		return nil, false
	}
	return x.Interface(), true
}

func (n *anyRecord) encodeAny(v any, e *encodeState) {
	m, ok := v.(map[string]any)
	var rv reflect.Value
	if !ok {
		if rv = reflect.ValueOf(v); !isStringMap(rv) {
			anyMismatch(e, v, "record "+n.s.FullName())
			return
		}
	}
	if !e.enter() {
		return
	}
	for i := range n.fields {
		f := &n.fields[i]
		var x any
		if m != nil {
			// Inline: a call to lookupField per field costs more than the
			// reflect fallback it would share.
			x, ok = m[f.name]
		} else {
			x, ok = lookupField(m, rv, f.name)
		}
		if !ok {
			if !f.f.HasDefault() {
				e.failf(ErrRange, "missing field %q of record %s, which has no default", f.name, n.s.FullName())
				e.addField(f.name)
				return
			}
			e.buf = append(e.buf, f.f.DefaultBinary()...)
			continue
		}
		// The leaves are written here: as a helper, which the compiler
		// does not inline, this switch made records of primitives 7%
		// slower to encode (telemetry and wide, n=6).
		switch f.leaf {
		case vopString:
			if s, ok := x.(string); ok {
				e.writeString(s)
				continue
			}
		case vopLong:
			if v, ok := x.(int64); ok {
				e.writeLong(v)
				continue
			}
		case vopInt:
			if v, ok := x.(int32); ok {
				e.writeLong(int64(v))
				continue
			}
		case vopDouble:
			if v, ok := x.(float64); ok {
				e.writeDouble(v)
				continue
			}
		case vopBool:
			if v, ok := x.(bool); ok {
				e.writeBool(v)
				continue
			}
		}
		f.n.encodeAny(x, e)
		if e.err != nil {
			e.addField(f.name)
			return
		}
	}
	e.leave()
}

// keysMatch reports whether v is a map with string keys holding every
// field without a default, and, when exact, no key that is not a field.
func (n *anyRecord) keysMatch(v any, exact bool) bool {
	m, ok := v.(map[string]any)
	var rv reflect.Value
	if !ok {
		if rv = reflect.ValueOf(v); !isStringMap(rv) {
			return false
		}
	}
	present := 0
	for i := range n.fields {
		f := &n.fields[i]
		if _, ok := lookupField(m, rv, f.name); ok {
			present++
		} else if !f.f.HasDefault() {
			return false
		}
	}
	if !exact {
		return true
	}
	if m != nil {
		return present == len(m)
	}
	return present == rv.Len()
}

func (n *anyRecord) accepts(v any) bool { return n.keysMatch(v, true) }
