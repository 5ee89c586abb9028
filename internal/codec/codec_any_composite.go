package codec

import (
	"github.com/avrogo/avro/internal/wire"
	"reflect"

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
	if d.Err != nil {
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
		e.Failf(ErrRange, "%v (%T) is not a symbol or index of enum %s", v, v, n.s.FullName())
		return
	}
	e.WriteLong(int64(i))
}

func (n *anyEnum) accepts(v any) bool { return n.index(v) >= 0 }

type anyFixed struct{ size int }

func (n anyFixed) decodeAny(d *decodeState, b *anyBoxes) any {
	if int64(n.size) > d.MaxLength {
		d.Failf(ErrLimit, "fixed of %d bytes exceeds the maximum length", n.size)
		return nil
	}
	src := d.ReadRaw(n.size)
	if d.Err != nil {
		return nil
	}
	if d.ZeroCopy {
		return src
	}
	if !d.Reserve(int64(n.size)) {
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
			e.Buf = append(e.Buf, b...)
		}
		return true
	case [16]byte:
		if n.size != 16 {
			return false
		}
		if e != nil {
			e.Buf = append(e.Buf, b[:]...)
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
			e.Buf = append(e.Buf, byte(rv.Index(i).Uint()))
		}
	}
	return true
}

func (n anyFixed) encodeAny(v any, e *encodeState) {
	if !n.fixedBytes(v, e) {
		e.Failf(ErrRange, "cannot encode Go %T as Avro fixed of %d bytes", v, n.size)
	}
}

func (n anyFixed) accepts(v any) bool { return n.fixedBytes(v, nil) }

// --- array, map, record ---

type anyArray struct {
	items   anyNode
	minSize int
}

func (n *anyArray) decodeAny(d *decodeState, b *anyBoxes) any {
	if !d.Enter() {
		return nil
	}
	out := []any{}
	var total int64
	for {
		count, blk := d.ReadBlock(total, n.minSize)
		if count == 0 {
			break
		}
		var ok bool
		if !d.ReserveItems(count, int64(sizeOf[any]())) {
			d.EndBlock(blk)
			break
		}
		if out, ok = growFor(out, int(count), d); !ok {
			d.EndBlock(blk)
			return nil
		}
		for i := int64(0); i < count; i++ {
			v := n.items.decodeAny(d, b)
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, n.minSize)
				d.AddIndex(total + i)
				return nil
			}
			out = append(out, v)
		}
		if !d.EndBlock(blk) {
			return nil
		}
		total += count
	}
	if d.Err != nil {
		return nil
	}
	d.Leave()
	return out
}

func (n *anyArray) encodeAny(v any, e *encodeState) {
	if !e.Enter() {
		return
	}
	if xs, ok := v.([]any); ok {
		if len(xs) > 0 {
			e.WriteLong(int64(len(xs)))
			for i, x := range xs {
				n.items.encodeAny(x, e)
				if e.Err != nil {
					e.AddIndex(i)
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
			e.WriteLong(int64(l))
			for i := range l {
				n.items.encodeAny(rv.Index(i).Interface(), e)
				if e.Err != nil {
					e.AddIndex(i)
					return
				}
			}
		}
	}
	e.Buf = append(e.Buf, 0)
	e.Leave()
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
	if !d.Enter() {
		return nil
	}
	var m map[string]any
	var total int64
	for {
		count, blk := d.ReadBlock(total, n.minSize)
		if count == 0 {
			break
		}
		// A key and a value, and the map's own overhead.
		if !d.ReserveItems(count, 48) {
			d.EndBlock(blk)
			return nil
		}
		if m == nil {
			m = make(map[string]any, mapSizeHint(count))
		}
		if n.stringValues {
			if span, ok := d.ReadShortSpan(2 * count); ok {
				for range count {
					k := wire.CutSpanString(&span)
					m[k] = b.string(wire.CutSpanString(&span))
				}
				if !d.EndBlock(blk) {
					return nil
				}
				total += count
				continue
			}
		}
		for i := int64(0); i < count; i++ {
			k := d.ReadString()
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, n.minSize)
				d.AddIndex(total + i)
				return nil
			}
			v := n.values.decodeAny(d, b)
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, n.minSize)
				d.AddKey(k)
				return nil
			}
			m[k] = v
		}
		if !d.EndBlock(blk) {
			return nil
		}
		total += count
	}
	if d.Err != nil {
		return nil
	}
	if m == nil {
		m = map[string]any{}
	}
	d.Leave()
	return m
}

func (n *anyMap) encodeAny(v any, e *encodeState) {
	if !e.Enter() {
		return
	}
	if m, ok := v.(map[string]any); ok {
		if len(m) > 0 {
			e.WriteLong(int64(len(m)))
			if w, ok := walkSmallMap(pointerTo(&m)); ok {
				size, off := slotLayout[any]()
				for s := w.next(size); !s.isNil(); s = w.next(size) {
					e.WriteString(*as[string](s))
					n.values.encodeAny(*as[any](s.add(off)), e)
					if e.Err != nil {
						e.AddKey(*as[string](s))
						return
					}
				}
			} else {
				for k, x := range m {
					e.WriteString(k)
					n.values.encodeAny(x, e)
					if e.Err != nil {
						e.AddKey(k)
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
			e.WriteLong(int64(rv.Len()))
			it := rv.MapRange()
			for it.Next() {
				k := it.Key().String()
				e.WriteString(k)
				n.values.encodeAny(it.Value().Interface(), e)
				if e.Err != nil {
					e.AddKey(k)
					return
				}
			}
		}
	}
	e.Buf = append(e.Buf, 0)
	e.Leave()
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
	// table places the fields of a map past one group (nil: they are
	// looked up).
	table *fieldTable
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
	if !d.Enter() {
		return nil
	}
	if !d.Reserve(48 + 48*int64(len(n.fields))) {
		return nil
	}
	m := make(map[string]any, len(n.fields))
	for i := range n.fields {
		f := &n.fields[i]
		v := f.n.decodeAny(d, b)
		if d.Err != nil {
			d.AddField(f.name)
			return nil
		}
		m[f.name] = v
	}
	d.Leave()
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
	if !e.Enter() {
		return
	}
	var cur fieldCursor
	if m != nil {
		cur.start(m, n.table)
	}
	n.encodeFields(&cur, rv, e)
}

// encodeFields writes the fields of the record whose map cur finds them
// in, or, when cur has no map, of rv, a map of another string-kind key
// type.
func (n *anyRecord) encodeFields(cur *fieldCursor, rv reflect.Value, e *encodeState) {
	for i := range n.fields {
		f := &n.fields[i]
		var x any
		var ok bool
		if cur.m != nil {
			x, ok = cur.field(i, f.name)
		} else {
			x, ok = lookupField(nil, rv, f.name)
		}
		if !ok {
			if !f.f.HasDefault() {
				e.Failf(ErrRange, "missing field %q of record %s, which has no default", f.name, n.s.FullName())
				e.AddField(f.name)
				return
			}
			e.Buf = append(e.Buf, f.f.DefaultBinary()...)
			continue
		}
		// The leaves are written here: as a helper, which the compiler
		// does not inline, this switch made records of primitives 7%
		// slower to encode (telemetry and wide, n=6).
		switch f.leaf {
		case vopString:
			if s, ok := x.(string); ok {
				e.WriteString(s)
				continue
			}
		case vopLong:
			if v, ok := x.(int64); ok {
				e.WriteLong(v)
				continue
			}
		case vopInt:
			if v, ok := x.(int32); ok {
				e.WriteLong(int64(v))
				continue
			}
		case vopDouble:
			if v, ok := x.(float64); ok {
				e.WriteDouble(v)
				continue
			}
		case vopBool:
			if v, ok := x.(bool); ok {
				e.WriteBool(v)
				continue
			}
		}
		f.n.encodeAny(x, e)
		if e.Err != nil {
			e.AddField(f.name)
			return
		}
	}
	e.Leave()
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
