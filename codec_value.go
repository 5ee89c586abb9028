package avro

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// The value.Value codecs: a tree of nodes built once per schema, so that a
// decode walks no schema and looks nothing up by name. Values hold the
// underlying Avro representation of logical types (a timestamp-millis is a
// Long), so every datum round-trips exactly. Arrays of int, long, float,
// double and boolean decode to typed arrays: one allocation, filled by the
// bulk kernels.

var valueType = reflect.TypeFor[value.Value]()

func isValueType(t reflect.Type) bool { return t == valueType }

// valueNode is the codec of one schema node for value.Value.
type valueNode interface {
	read(d *decodeState) value.Value
	write(v value.Value, e *encodeState)
	// accepts reports whether write takes v at this level (for choosing
	// the union branch of a value without one).
	accepts(v value.Value) bool
}

// valueCodec is the decoder and encoder of *value.Value for one node.
type valueCodec struct {
	n     valueNode
	arena *arenaSizer // nil for an encoder
}

func newValueDecoder(n valueNode, s *schema.Schema) valueCodec {
	return valueCodec{n, &arenaSizer{fixed: int32(fixedValues(s))}}
}

func (c valueCodec) decode(p unsafe.Pointer, d *decodeState) {
	// Only the first tree of a decode sizes the arena: the trees of a
	// []value.Value, or of a struct's other value.Value fields, share its
	// blocks, which then double as usual. (Sizing each anew would give
	// each small tree a block of its own.)
	top := d.arena.Handed() == 0
	left := len(d.buf) - d.pos
	if top {
		d.arena.SetBlockSizes(c.arena.blockSizes(left))
	}
	v := c.n.read(d)
	if d.err == nil {
		*(*value.Value)(p) = v
		if top {
			c.arena.learn(d.arena.Handed(), left-(len(d.buf)-d.pos), left)
		}
	}
}

// arenaSizer sizes the first arena blocks of a decode so that the whole
// tree fits with little to spare: the bytes of a block cost the collector
// more than the number of blocks. It starts from the fixed part of the
// tree (records, nested records, map headers) plus room for what the input
// can add, then follows what decodes of this codec used:
//   - By default, the first block takes the size of the last tree, and
//     the blocks after it double. Trees of one size (a record of scalars
//     and strings) fit it exactly.
//   - When trees vary in size but not in Values per byte of input (a
//     record with 2 or 20 array items takes 30 or 180 Values, and about as
//     many Values per byte either way), the input's length predicts the
//     tree better than the last tree does. The first block is then the
//     input's length times a recent high count of Values per byte, and the
//     second a quarter of it: what did not fit is likely little. This
//     needs decodes whose input is the one datum (Unmarshal's, or a
//     resolved datum's transcoded bytes); a stream's buffer holds more, so
//     its decodes keep the default.
//
// Its fields are shared by every goroutine decoding with the codec, and
// are written only when they change or leave a band around the new
// figure, so that concurrent decodes of similar data do not keep writing
// one cache line.
type arenaSizer struct {
	fixed int32
	// last is a recent decode's use in Values (0 before the first),
	// written when it moves out of [use, 2*use).
	last atomic.Int32
	// perKiB is a recent high count of Values per 1,024 bytes of input,
	// from decodes that took all of their input (0 before the first),
	// written when it moves out of [rate, 2*rate].
	perKiB atomic.Int32
	// steady reports whether the last decode took all of its input, used
	// another number of Values than last held, and had a rate within
	// [perKiB/2, perKiB]: the per-byte estimate is then to be trusted.
	steady atomic.Bool
}

// maxSizedInput caps the input length the per-byte estimate multiplies,
// so that the product fits in an int64 (a rate is at most 2^19); larger
// inputs get the largest block anyway.
const maxSizedInput = 1 << 30

// blockSizes returns the sizes of the first two blocks of a decode of
// inputLeft bytes (a second size of 0 doubles the first).
func (z *arenaSizer) blockSizes(inputLeft int) (first, second int) {
	fixed, last := int(z.fixed), int(z.last.Load())
	if rate := z.perKiB.Load(); rate > 0 && z.steady.Load() {
		est := int(min((int64(min(inputLeft, maxSizedInput))*int64(rate)+1023)>>10, arenaMaxBlock))
		// The cap bounds the block of a stream's first datum after one
		// that took all of its buffer.
		est = max(fixed, min(est+est&1, 4*last))
		if est >= arenaMaxBlock {
			return est, 0 // a tree this large may take many blocks
		}
		return est, est / 4
	}
	if last > 0 {
		// A short input after a large one does not get its large block.
		return min(last, max(fixed, 2*min(inputLeft, arenaMaxBlock)+2)), 0
	}
	return max(fixed, min(arenaHint, fixed+inputLeft/8)), 0
}

// learn records that a decode used the given Values and consumed the
// given bytes of the inputLeft bytes it was given.
func (z *arenaSizer) learn(used, consumed, inputLeft int) {
	used = min(used+used&1, arenaMaxBlock) // a whole size class: blocks of two Values
	last := int(z.last.Load())
	if used > last || 2*used <= last {
		z.last.Store(int32(used))
	}
	steady := false
	if consumed == inputLeft && consumed > 0 {
		rate := int32((int64(used)<<10 + int64(consumed) - 1) / int64(consumed))
		cur := z.perKiB.Load()
		steady = used != last && rate <= cur && 2*int64(rate) >= int64(cur)
		if rate > cur || 2*int64(rate) < int64(cur) {
			z.perKiB.Store(rate)
		}
	}
	if z.steady.Load() != steady {
		z.steady.Store(steady)
	}
}

func (c valueCodec) encode(p unsafe.Pointer, e *encodeState) { c.n.write(*(*value.Value)(p), e) }

func (c *compiler) valueDecoder(s *schema.Schema, path string) (decoder, error) {
	n, err := c.valueNodeFor(s, path)
	if err != nil {
		return nil, err
	}
	return newValueDecoder(n, s), nil
}

// arenaHint caps the first arena block of a decode at 512 bytes unless
// the fixed part of the tree needs more: the runtime allocates objects
// with pointers up to that size without a type header.
const arenaHint = 32

// fixedValues is the number of Values the records of s and the records
// they nest directly take in an arena (a map counts its header only),
// capped at arenaMaxBlock: only a block size is derived from it. Each
// named record is counted once per path and remembered, so a schema that
// reuses record types as fields many times over costs time linear in its
// size, not exponential (found in review: a few KB of schema took 20 s).
func fixedValues(s *schema.Schema) int {
	return fixedValuesMemo(s, map[*schema.Schema]int{})
}

// arenaMaxBlock is the largest block a value.Arena allocates, in Values.
const arenaMaxBlock = 512

func fixedValuesMemo(s *schema.Schema, memo map[*schema.Schema]int) int {
	switch s.Kind() {
	case schema.Map:
		return 3
	case schema.Record:
		if n, seen := memo[s]; seen {
			return n // also 0 for a record inside itself (marked below)
		}
		memo[s] = 0
		n := 2 + len(s.Fields())
		for _, f := range s.Fields() {
			n = min(n+fixedValuesMemo(f.Type(), memo), arenaMaxBlock)
		}
		memo[s] = n
		return n
	}
	return 0
}

func (c *compiler) valueEncoder(s *schema.Schema, path string) (encoder, error) {
	n, err := c.valueNodeFor(s, path)
	if err != nil {
		return nil, err
	}
	return valueCodec{n: n}, nil
}

func (c *compiler) valueNodeFor(s *schema.Schema, path string) (valueNode, error) {
	key := compileKey{s, valueType}
	if vc, ok := c.decoders[key].(valueCodec); ok {
		return vc.n, nil
	}
	var n valueNode
	switch s.Kind() {
	case schema.Null:
		n = valueNull{}
	case schema.Boolean:
		n = valueBool{}
	case schema.Int:
		n = valueInt{}
	case schema.Long:
		n = valueLong{}
	case schema.Float:
		n = valueFloat{}
	case schema.Double:
		n = valueDouble{}
	case schema.String:
		n = valueString{}
	case schema.Bytes:
		n = valueBytes{}
	case schema.Enum:
		n = valueEnum{s}
	case schema.Fixed:
		n = valueFixed{s.Size()}
	case schema.Array:
		if typed := typedValueArray(s.Items()); typed != nil {
			n = typed
			break
		}
		arr := &valueArray{minSize: s.Items().MinEncodedSize()}
		c.setValueNode(s, arr)
		items, err := c.valueNodeFor(s.Items(), path+"[]")
		if err != nil {
			return nil, err
		}
		arr.items = items
		n = arr
	case schema.Map:
		m := &valueMap{minSize: 1 + s.Values().MinEncodedSize()}
		c.setValueNode(s, m)
		values, err := c.valueNodeFor(s.Values(), path+"[]")
		if err != nil {
			return nil, err
		}
		m.values = values
		_, m.stringValues = values.(valueString)
		n = m
	case schema.Record:
		rec := &valueRecord{s: s}
		c.setValueNode(s, rec)
		for _, f := range s.Fields() {
			fn, err := c.valueNodeFor(f.Type(), joinPath(path, f.Name()))
			if err != nil {
				return nil, err
			}
			rec.fields = append(rec.fields, fn)
			rec.ops = append(rec.ops, valueOpOf(fn))
			rec.names = append(rec.names, f.Name())
		}
		rec.runs = make([]uint8, len(rec.ops))
		forStringRuns(len(rec.ops), func(i int) bool { return rec.ops[i] == vopString }, func(first, run int) {
			rec.ops[first], rec.runs[first] = vopStringRun, uint8(run)
		})
		n = rec
	case schema.Union:
		u := &valueUnion{s: s}
		c.setValueNode(s, u)
		for _, b := range s.Branches() {
			bn, err := c.valueNodeFor(b, joinPath(path, "["+b.FullName()+"]"))
			if err != nil {
				return nil, err
			}
			u.branches = append(u.branches, bn)
		}
		n = u
	default:
		return nil, typeErr(path, valueType, s, "unknown schema kind")
	}
	c.setValueNode(s, n)
	return n, nil
}

func (c *compiler) setValueNode(s *schema.Schema, n valueNode) {
	key := compileKey{s, valueType}
	c.decoders[key], c.encoders[key] = newValueDecoder(n, s), valueCodec{n: n}
}

func valueMismatch(e *encodeState, v value.Value, avroType string) {
	e.failf(ErrRange, "cannot encode a %s value as Avro %s", v.Kind(), avroType)
}

type valueNull struct{}

func (valueNull) read(*decodeState) value.Value { return value.Null() }
func (valueNull) accepts(v value.Value) bool    { return v.Kind() == value.KindNull }
func (n valueNull) write(v value.Value, e *encodeState) {
	if !n.accepts(v) {
		valueMismatch(e, v, "null")
	}
}

type valueBool struct{}

func (valueBool) read(d *decodeState) value.Value { return value.Bool(d.readBool()) }
func (valueBool) accepts(v value.Value) bool      { return v.Kind() == value.KindBoolean }
func (n valueBool) write(v value.Value, e *encodeState) {
	if !n.accepts(v) {
		valueMismatch(e, v, "boolean")
		return
	}
	e.writeBool(v.Bool())
}

// valueInteger reads an int or long value as int64.
func valueInteger(v value.Value) (int64, bool) {
	switch v.Kind() {
	case value.KindInt:
		return int64(v.Int()), true
	case value.KindLong:
		return v.Long(), true
	}
	return 0, false
}

type valueInt struct{}

func (valueInt) read(d *decodeState) value.Value { return value.Int(d.readInt()) }
func (valueInt) accepts(v value.Value) bool {
	x, ok := valueInteger(v)
	return ok && x == int64(int32(x))
}
func (n valueInt) write(v value.Value, e *encodeState) {
	x, ok := valueInteger(v)
	if !ok {
		valueMismatch(e, v, "int")
		return
	}
	if x != int64(int32(x)) {
		e.failf(ErrRange, "%d does not fit an Avro int", x)
		return
	}
	e.writeLong(x)
}

type valueLong struct{}

func (valueLong) read(d *decodeState) value.Value { return value.Long(d.readLong()) }
func (valueLong) accepts(v value.Value) bool {
	_, ok := valueInteger(v)
	return ok
}
func (n valueLong) write(v value.Value, e *encodeState) {
	x, ok := valueInteger(v)
	if !ok {
		valueMismatch(e, v, "long")
		return
	}
	e.writeLong(x)
}

type valueFloat struct{}

func (valueFloat) read(d *decodeState) value.Value { return value.Float(d.readFloat()) }
func (valueFloat) accepts(v value.Value) bool      { return v.Kind() == value.KindFloat }
func (n valueFloat) write(v value.Value, e *encodeState) {
	if !n.accepts(v) {
		valueMismatch(e, v, "float")
		return
	}
	e.writeFloat(v.Float())
}

type valueDouble struct{}

func (valueDouble) read(d *decodeState) value.Value { return value.Double(d.readDouble()) }
func (valueDouble) accepts(v value.Value) bool {
	k := v.Kind()
	return k == value.KindDouble || k == value.KindFloat
}
func (n valueDouble) write(v value.Value, e *encodeState) {
	switch v.Kind() {
	case value.KindDouble:
		e.writeDouble(v.Double())
	case value.KindFloat:
		e.writeDouble(float64(v.Float()))
	default:
		valueMismatch(e, v, "double")
	}
}

type valueString struct{}

func (valueString) read(d *decodeState) value.Value { return value.String(d.readString()) }
func (valueString) accepts(v value.Value) bool      { return v.Kind() == value.KindString }
func (n valueString) write(v value.Value, e *encodeState) {
	switch v.Kind() {
	case value.KindString:
		e.writeString(v.Str())
	case value.KindBytes:
		e.writeBytes(v.Bytes())
	default:
		valueMismatch(e, v, "string")
	}
}

type valueBytes struct{}

func (valueBytes) read(d *decodeState) value.Value {
	src := d.readStringBytes()
	if d.err != nil || d.zeroCopy {
		return value.Bytes(src)
	}
	if !d.reserve(int64(len(src))) {
		return value.Null()
	}
	return value.Bytes(d.makeBytes(src))
}
func (valueBytes) accepts(v value.Value) bool { return v.Kind() == value.KindBytes }
func (n valueBytes) write(v value.Value, e *encodeState) {
	switch v.Kind() {
	case value.KindBytes:
		e.writeBytes(v.Bytes())
	case value.KindString:
		e.writeString(v.Str())
	default:
		valueMismatch(e, v, "bytes")
	}
}

type valueEnum struct{ s *schema.Schema }

func (n valueEnum) read(d *decodeState) value.Value {
	i := readEnumIndex(n.s, d)
	if d.err != nil {
		// i is 0, which is no symbol of an enum without symbols.
		return value.Value{}
	}
	return value.EnumOf(n.s, i)
}
func (n valueEnum) accepts(v value.Value) bool {
	if v.Kind() != value.KindEnum {
		return false
	}
	if es := v.Schema(); es != nil && es.FullName() != n.s.FullName() {
		return false
	}
	return v.EnumIndex() < len(n.s.Symbols())
}
func (n valueEnum) write(v value.Value, e *encodeState) {
	if v.Kind() == value.KindString {
		i := n.s.SymbolIndex(v.Str())
		if i < 0 {
			e.failf(ErrRange, "%q is not a symbol of enum %s", v.Str(), n.s.FullName())
			return
		}
		e.writeLong(int64(i))
		return
	}
	if v.Kind() != value.KindEnum {
		valueMismatch(e, v, "enum "+n.s.FullName())
		return
	}
	i := v.EnumIndex()
	if i < 0 || i >= len(n.s.Symbols()) {
		e.failf(ErrRange, "enum index %d out of range for %s", i, n.s.FullName())
		return
	}
	e.writeLong(int64(i))
}

type valueFixed struct{ size int }

func (n valueFixed) read(d *decodeState) value.Value {
	src := d.readRaw(n.size)
	if d.err != nil || !d.reserve(int64(n.size)) {
		return value.Null()
	}
	if d.zeroCopy {
		return value.Fixed(src)
	}
	return value.Fixed(append([]byte(nil), src...))
}
func (n valueFixed) accepts(v value.Value) bool {
	k := v.Kind()
	return (k == value.KindFixed || k == value.KindBytes) && len(v.Bytes()) == n.size
}
func (n valueFixed) write(v value.Value, e *encodeState) {
	k := v.Kind()
	if k != value.KindFixed && k != value.KindBytes {
		valueMismatch(e, v, "fixed")
		return
	}
	b := v.Bytes()
	if len(b) != n.size {
		e.failf(ErrRange, "%d bytes for a fixed of size %d", len(b), n.size)
		return
	}
	e.buf = append(e.buf, b...)
}

// valueArray holds arrays of non-primitive items as []value.Value.
type valueArray struct {
	minSize int
	items   valueNode
}

func (n *valueArray) read(d *decodeState) value.Value {
	if !d.enter() {
		return value.Null()
	}
	var out []value.Value
	var total int64
	for {
		count := d.readBlockCount(total, n.minSize)
		if count == 0 {
			break
		}
		if !d.reserveItems(count, int64(unsafe.Sizeof(value.Value{}))) {
			return value.Null()
		}
		if out == nil {
			out = d.arena.Values(int(count))[:0]
		}
		var ok bool
		if out, ok = growFor(out, int(count), d); !ok {
			return value.Null()
		}
		for i := int64(0); i < count; i++ {
			v := n.items.read(d)
			if d.err != nil {
				d.moreItems(i, count, n.minSize)
				d.addIndex(total + i)
				return value.Null()
			}
			out = append(out, v)
		}
		total += count
	}
	if d.err != nil {
		return value.Null()
	}
	d.leave()
	if out == nil {
		out = []value.Value{}
	}
	return value.Array(out[:len(out):len(out)])
}

// growFor returns s with room for n more elements (the block being read,
// already accounted). It grows geometrically, as append does: growing to
// exactly the block's size made an array of many small blocks cost time
// quadratic in its length (found by FuzzUnmarshalValue: 2 KB of one-item
// blocks took seconds). The capacity beyond the block is accounted too,
// so the allocation limit still bounds what is allocated.
func growFor[T any](s []T, n int, d *decodeState) ([]T, bool) {
	if cap(s)-len(s) >= n {
		return s, true
	}
	var zero T
	newCap := max(len(s)+n, 2*cap(s))
	if extra := newCap - len(s) - n; extra > 0 && !d.reserveItems(int64(extra), int64(unsafe.Sizeof(zero))) {
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
	if !e.enter() {
		return
	}
	writeValueItems(v, n.items, e)
	if e.err == nil {
		e.leave()
	}
}

// writeValueItems writes the elements of an array Value as one block,
// element by element.
func writeValueItems(v value.Value, items valueNode, e *encodeState) {
	l := v.Len()
	if l > 0 {
		e.writeLong(int64(l))
		for i := 0; i < l; i++ {
			items.write(v.Index(i), e)
			if e.err != nil {
				e.addIndex(i)
				return
			}
		}
	}
	e.buf = append(e.buf, 0)
}

// typedElem is the element type of the typed value arrays: pointer-free,
// so that short ones can live in the chunk of a decode's strings.
type typedElem interface {
	int32 | int64 | float32 | float64 | bool
}

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
	var zero T
	var total int64
	for {
		count := d.readBlockCount(total, n.minSize)
		if count == 0 {
			break
		}
		if !d.reserveItems(count, int64(unsafe.Sizeof(zero))) {
			return value.Null()
		}
		start := len(out)
		if out == nil {
			// A short array (a first block of at most 256 bytes) shares
			// the chunk of the decode's strings.
			if s, ok := chunkSlice[T](d, int(count)); ok {
				out = s[:0]
			}
		}
		var ok bool
		if out, ok = growFor(out, int(count), d); !ok {
			return value.Null()
		}
		out = out[:start+int(count)]
		n.dec(out[start:], d)
		if d.err != nil {
			return value.Null()
		}
		total += count
	}
	if d.err != nil {
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
			e.writeLong(int64(len(s)))
			e.buf = n.enc(e.buf, s)
		}
		e.buf = append(e.buf, 0)
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
		return &typedArrayNode[float32]{minSize: 4, elem: valueFloat{}, dec: decodeFloat32sBlock, enc: appendFloat32s,
			wrap: value.Float32s, get: value.Value.Float32s, kind: value.KindFloat}
	case schema.Double:
		return &typedArrayNode[float64]{minSize: 8, elem: valueDouble{}, dec: decodeFloat64sBlock, enc: appendFloat64s,
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
	if !d.enter() {
		return value.Null()
	}
	var m *value.Map
	var total int64
	for {
		count := d.readBlockCount(total, n.minSize)
		if count == 0 {
			break
		}
		if !d.reserveItems(count, int64(unsafe.Sizeof(value.Value{})+16)) {
			return value.Null()
		}
		// The first block fills the entries the arena made; later ones
		// (rare) append.
		var keys []string
		var vals []value.Value
		if m == nil {
			if !d.reserve(int64(unsafe.Sizeof(value.Map{}))) {
				return value.Null()
			}
			m = d.arena.NewMap(int(count))
			keys, vals = m.Keys(), m.Values()
			if n.stringValues {
				if span, ok := d.readShortSpan(2 * count); ok {
					for i := range keys {
						keys[i] = cutSpanString(&span)
						vals[i] = value.String(cutSpanString(&span))
					}
					total += count
					continue
				}
			}
		}
		for i := int64(0); i < count; i++ {
			k := d.readString()
			if d.err != nil {
				d.moreItems(i, count, n.minSize)
				d.addIndex(total + i)
				return value.Null()
			}
			v := n.values.read(d)
			if d.err != nil {
				d.moreItems(i, count, n.minSize)
				d.addKey(k)
				return value.Null()
			}
			if keys != nil {
				keys[i], vals[i] = k, v
			} else {
				m.Append(k, v)
			}
		}
		total += count
	}
	if d.err != nil {
		return value.Null()
	}
	d.leave()
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
	if !e.enter() {
		return
	}
	m := v.Map()
	if m.Len() > 0 {
		e.writeLong(int64(m.Len()))
		for i := 0; i < m.Len(); i++ {
			k := m.Key(i)
			e.writeString(k)
			n.values.write(m.ValueAt(i), e)
			if e.err != nil {
				e.addKey(k)
				return
			}
		}
	}
	e.buf = append(e.buf, 0)
	e.leave()
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
	if !d.enter() {
		return value.Null()
	}
	if !d.reserve(int64(len(n.fields)+2) * int64(unsafe.Sizeof(value.Value{}))) {
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
			v = value.Int(d.readInt())
		case vopLong:
			v = value.Long(d.readLong())
		case vopDouble:
			v = value.Double(d.readDouble())
		case vopBool:
			v = value.Bool(d.readBool())
		case vopString:
			v = value.String(d.readString())
		case vopStringRun:
			run := int(n.runs[i])
			if span, ok := d.readShortSpan(int64(run)); ok {
				for j := range fields[i : i+run] {
					fields[i+j] = value.String(cutSpanString(&span))
				}
				i += run - 1
				continue
			}
			// Not all short: this field alone, then the rest one by one.
			v = value.String(d.readString())
		default:
			v = n.fields[i].read(d)
		}
		fields[i] = v
		if d.err != nil {
			d.addField(n.names[i])
			return value.Null()
		}
	}
	d.leave()
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
		e.failf(ErrRange, "record with %d fields for %s, which has %d", r.NumField(), n.s.FullName(), len(n.fields))
		return
	}
	if !e.enter() {
		return
	}
	for i, f := range r.Fields() {
		n.fields[i].write(f, e)
		if e.err != nil {
			e.addField(n.names[i])
			return
		}
	}
	e.leave()
}

type valueUnion struct {
	s        *schema.Schema
	branches []valueNode
}

func (n *valueUnion) read(d *decodeState) value.Value {
	i := readUnionIndex(n.s, d)
	if d.err != nil {
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
		e.failf(ErrRange, "a %s value fits no branch of the union", v.Kind())
		return
	}
	e.writeLong(int64(i))
	n.branches[i].write(v.WithBranch(-1), e)
}
