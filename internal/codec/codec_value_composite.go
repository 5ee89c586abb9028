package codec

import (
	"github.com/avrogo/avro/internal/wire"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// The value.Value codecs of arrays, maps, records and unions.

// valueArray holds arrays of non-primitive items as []value.Value.
type valueArray struct {
	minSize int
	items   valueNode
}

func (n *valueArray) read(d *decodeState) value.Value {
	if !d.Enter() {
		return value.Null()
	}
	var out []value.Value
	var total int64
	for {
		count, blk := d.ReadBlock(total, n.minSize)
		if count == 0 {
			break
		}
		if !d.ReserveItems(count, int64(sizeOf[value.Value]())) {
			d.EndBlock(blk)
			return value.Null()
		}
		if out == nil {
			out = d.arena.Values(int(count))[:0]
		}
		var ok bool
		if out, ok = growFor(out, int(count), d); !ok {
			d.EndBlock(blk)
			return value.Null()
		}
		for i := int64(0); i < count; i++ {
			v := n.items.read(d)
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, n.minSize)
				d.AddIndex(total + i)
				return value.Null()
			}
			out = append(out, v)
		}
		if !d.EndBlock(blk) {
			return value.Null()
		}
		total += count
	}
	if d.Err != nil {
		return value.Null()
	}
	d.Leave()
	if out == nil {
		out = []value.Value{}
	}
	return value.Array(out[:len(out):len(out)])
}

// growFor returns s with room for n more elements (the block being read,
// already accounted). It grows geometrically, as append does: growing to
// exactly the block's size made an array of many small blocks cost time
// quadratic in its length (found by FuzzUnmarshalValue: 2 KB of one-item
// blocks took seconds). The new array is accounted whole but for the
// block's items: the arrays it replaces were accounted when they were
// made, so the allocation limit bounds all that a decode allocates.
func growFor[T any](s []T, n int, d *decodeState) ([]T, bool) {
	if cap(s)-len(s) >= n {
		return s, true
	}
	newCap := max(len(s)+n, 2*cap(s))
	if extra := newCap - n; extra > 0 && !d.ReserveItems(int64(extra), int64(sizeOf[T]())) {
		return nil, false
	}
	ns := make([]T, len(s), newCap)
	copy(ns, s)
	return ns, true
}

func (n *valueArray) accepts(v value.Value) bool { return v.Kind() == value.KindArray }

func (n *valueArray) write(v value.Value, e *encodeState) {
	if v.Kind() != value.KindArray {
		valueMismatch(e, v, "array")
		return
	}
	if !e.Enter() {
		return
	}
	writeValueItems(v, n.items, e)
	if e.Err == nil {
		e.Leave()
	}
}

// writeValueItems writes the elements of an array Value as one block,
// element by element.
func writeValueItems(v value.Value, items valueNode, e *encodeState) {
	l := v.Len()
	if l > 0 {
		e.WriteLong(int64(l))
		for i := 0; i < l; i++ {
			items.write(v.Index(i), e)
			if e.Err != nil {
				e.AddIndex(i)
				return
			}
		}
	}
	e.Buf = append(e.Buf, 0)
}

// typedElem is the element type of the typed value arrays: pointer-free,
// so that short ones can live in the chunk of a decode's strings.
type typedElem = wire.Elem

// typedArrayNode decodes arrays of primitives into a typed value array
// with the same block kernels as the struct fast paths.
type typedArrayNode[T typedElem] struct {
	minSize int
	elem    valueNode
	dec     func(dst []T, d *decodeState)
	enc     func(dst []byte, src []T) []byte
	wrap    func([]T) value.Value
	get     func(value.Value) []T
	kind    value.Kind
}

func (n *typedArrayNode[T]) read(d *decodeState) value.Value {
	var out []T
	var total int64
	for {
		count, blk := d.ReadBlock(total, n.minSize)
		if count == 0 {
			break
		}
		if !d.ReserveItems(count, int64(sizeOf[T]())) {
			d.EndBlock(blk)
			return value.Null()
		}
		start := len(out)
		if out == nil {
			// A short array (a first block of at most 256 bytes) shares
			// the chunk of the decode's strings.
			if s, ok := wire.ChunkSlice[T](&d.Decoder, int(count)); ok {
				out = s[:0]
			}
		}
		var ok bool
		if out, ok = growFor(out, int(count), d); !ok {
			d.EndBlock(blk)
			return value.Null()
		}
		out = out[:start+int(count)]
		n.dec(out[start:], d)
		if !d.EndBlock(blk) {
			return value.Null()
		}
		total += count
	}
	if d.Err != nil {
		return value.Null()
	}
	if out == nil {
		out = []T{}
	}
	return n.wrap(out[:len(out):len(out)])
}

func (n *typedArrayNode[T]) accepts(v value.Value) bool { return v.Kind() == value.KindArray }

func (n *typedArrayNode[T]) write(v value.Value, e *encodeState) {
	if v.Kind() != value.KindArray {
		valueMismatch(e, v, "array")
		return
	}
	if v.IsTyped() && v.ElemKind() == n.kind {
		s := n.get(v)
		if len(s) > 0 {
			e.WriteLong(int64(len(s)))
			e.Buf = n.enc(e.Buf, s)
		}
		e.Buf = append(e.Buf, 0)
		return
	}
	writeValueItems(v, n.elem, e)
}

func typedValueArray(items *schema.Schema) valueNode {
	switch items.Kind() {
	case schema.Int:
		return &typedArrayNode[int32]{minSize: 1, elem: valueInt{}, dec: decodeIntsBlock, enc: appendIntsBlock,
			wrap: value.Int32s, get: value.Value.Int32s, kind: value.KindInt}
	case schema.Long:
		return &typedArrayNode[int64]{minSize: 1, elem: valueLong{}, dec: decodeLongsBlock, enc: appendLongsBlock,
			wrap: value.Int64s, get: value.Value.Int64s, kind: value.KindLong}
	case schema.Float:
		return &typedArrayNode[float32]{minSize: 4, elem: valueFloat{}, dec: decodeFloat32sBlock, enc: wire.AppendFloat32s,
			wrap: value.Float32s, get: value.Value.Float32s, kind: value.KindFloat}
	case schema.Double:
		return &typedArrayNode[float64]{minSize: 8, elem: valueDouble{}, dec: decodeFloat64sBlock, enc: wire.AppendFloat64s,
			wrap: value.Float64s, get: value.Value.Float64s, kind: value.KindDouble}
	case schema.Boolean:
		return &typedArrayNode[bool]{minSize: 1, elem: valueBool{}, dec: decodeBoolsBlock, enc: appendBools,
			wrap: value.Bools, get: value.Value.Bools, kind: value.KindBoolean}
	}
	return nil
}

type valueMap struct {
	minSize int
	values  valueNode
	// stringValues: a map of strings, whose blocks readShortSpan can take
	// at once.
	stringValues bool
}

func (n *valueMap) read(d *decodeState) value.Value {
	if !d.Enter() {
		return value.Null()
	}
	var m *value.Map
	var total int64
	for {
		count, blk := d.ReadBlock(total, n.minSize)
		if count == 0 {
			break
		}
		if !d.ReserveItems(count, int64(sizeOf[value.Value]()+16)) {
			d.EndBlock(blk)
			return value.Null()
		}
		// The first block fills the entries the arena made; later ones
		// (rare) append.
		var keys []string
		var vals []value.Value
		if m == nil {
			if !d.Reserve(int64(sizeOf[value.Map]())) {
				d.EndBlock(blk)
				return value.Null()
			}
			m = d.arena.NewMap(int(count))
			keys, vals = m.Keys(), m.Values()
			if n.stringValues {
				if span, ok := d.ReadShortSpan(2 * count); ok {
					for i := range keys {
						keys[i] = wire.CutSpanString(&span)
						vals[i] = value.String(wire.CutSpanString(&span))
					}
					if !d.EndBlock(blk) {
						return value.Null()
					}
					total += count
					continue
				}
			}
		}
		for i := int64(0); i < count; i++ {
			k := d.ReadString()
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, n.minSize)
				d.AddIndex(total + i)
				return value.Null()
			}
			v := n.values.read(d)
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, n.minSize)
				d.AddKey(k)
				return value.Null()
			}
			if keys != nil {
				keys[i], vals[i] = k, v
			} else {
				m.Append(k, v)
			}
		}
		if !d.EndBlock(blk) {
			return value.Null()
		}
		total += count
	}
	if d.Err != nil {
		return value.Null()
	}
	d.Leave()
	if m == nil {
		m = d.arena.NewMap(0)
	}
	return value.MapOf(m)
}

func (n *valueMap) accepts(v value.Value) bool { return v.Kind() == value.KindMap }

func (n *valueMap) write(v value.Value, e *encodeState) {
	if v.Kind() != value.KindMap {
		valueMismatch(e, v, "map")
		return
	}
	if !e.Enter() {
		return
	}
	m := v.Map()
	if m.Len() > 0 {
		e.WriteLong(int64(m.Len()))
		for i := 0; i < m.Len(); i++ {
			k := m.Key(i)
			e.WriteString(k)
			n.values.write(m.ValueAt(i), e)
			if e.Err != nil {
				e.AddKey(k)
				return
			}
		}
	}
	e.Buf = append(e.Buf, 0)
	e.Leave()
}

type valueRecord struct {
	s      *schema.Schema
	fields []valueNode
	ops    []valueOp
	// runs[i], for vopStringRun, is how many string fields start at i.
	runs  []uint8
	names []string
}

// valueOp lets a record read its scalar fields inline rather than through
// a call to the field's node.
type valueOp uint8

const (
	vopNode valueOp = iota
	vopInt
	vopLong
	vopDouble
	vopBool
	vopString
	vopStringRun // the first of a run of vopString fields
)

func valueOpOf(n valueNode) valueOp {
	switch n.(type) {
	case valueInt:
		return vopInt
	case valueLong:
		return vopLong
	case valueDouble:
		return vopDouble
	case valueBool:
		return vopBool
	case valueString:
		return vopString
	}
	return vopNode
}

func (n *valueRecord) read(d *decodeState) value.Value {
	if !d.Enter() {
		return value.Null()
	}
	if !d.Reserve(int64(len(n.fields)+2) * int64(sizeOf[value.Value]())) {
		return value.Null()
	}
	rec := d.arena.NewRecord(n.s)
	fields := rec.Fields()
	fields = fields[:len(n.fields)]
	ops := n.ops[:len(n.fields)]
	for i := 0; i < len(n.fields); i++ {
		var v value.Value
		switch ops[i] {
		case vopInt:
			v = value.Int(d.ReadInt())
		case vopLong:
			v = value.Long(d.ReadLong())
		case vopDouble:
			v = value.Double(d.ReadDouble())
		case vopBool:
			v = value.Bool(d.ReadBool())
		case vopString:
			v = value.String(d.ReadString())
		case vopStringRun:
			run := int(n.runs[i])
			if span, ok := d.ReadShortSpan(int64(run)); ok {
				for j := range fields[i : i+run] {
					fields[i+j] = value.String(wire.CutSpanString(&span))
				}
				i += run - 1
				continue
			}
			// Not all short: this field alone, then the rest one by one.
			v = value.String(d.ReadString())
		default:
			v = n.fields[i].read(d)
		}
		fields[i] = v
		if d.Err != nil {
			d.AddField(n.names[i])
			return value.Null()
		}
	}
	d.Leave()
	return value.RecordOf(rec)
}

func (n *valueRecord) accepts(v value.Value) bool {
	if v.Kind() != value.KindRecord {
		return false
	}
	r := v.Record()
	if rs := r.Schema(); rs != nil && rs.FullName() != n.s.FullName() {
		return false
	}
	return r.NumField() == len(n.fields)
}

func (n *valueRecord) write(v value.Value, e *encodeState) {
	if v.Kind() != value.KindRecord {
		valueMismatch(e, v, "record "+n.s.FullName())
		return
	}
	r := v.Record()
	if r.NumField() != len(n.fields) {
		e.Failf(ErrRange, "record with %d fields for %s, which has %d", r.NumField(), n.s.FullName(), len(n.fields))
		return
	}
	if !e.Enter() {
		return
	}
	for i, f := range r.Fields() {
		n.fields[i].write(f, e)
		if e.Err != nil {
			e.AddField(n.names[i])
			return
		}
	}
	e.Leave()
}

type valueUnion struct {
	s        *schema.Schema
	branches []valueNode
}

func (n *valueUnion) read(d *decodeState) value.Value {
	i := readUnionIndex(n.s, d)
	if d.Err != nil {
		return value.Null()
	}
	v := n.branches[i].read(d)
	return value.Union(i, v)
}

func (n *valueUnion) accepts(v value.Value) bool { return n.branchFor(v) >= 0 }

// branchFor returns the branch a value is written with: its own branch
// when it has one, else the first branch that accepts it.
func (n *valueUnion) branchFor(v value.Value) int {
	if b := v.Branch(); b >= 0 {
		if b < len(n.branches) {
			return b
		}
		return -1
	}
	for i, b := range n.branches {
		if b.accepts(v) {
			return i
		}
	}
	return -1
}

func (n *valueUnion) write(v value.Value, e *encodeState) {
	i := n.branchFor(v)
	if i < 0 {
		e.Failf(ErrRange, "a %s value fits no branch of the union", v.Kind())
		return
	}
	e.WriteLong(int64(i))
	n.branches[i].write(v.WithBranch(-1), e)
}
