package avro

import (
	"math"
	"math/big"
	"reflect"
	"slices"
	"time"
	"unsafe"

	"github.com/avrogo/avro/schema"
)

// The generic mapping: Go values of type any.
//
// Decoding into an any gives:
//
//	null                      nil
//	boolean                   bool
//	int, long                 int32, int64
//	float, double             float32, float64
//	string, bytes             string, []byte
//	enum                      string (the symbol)
//	fixed                     []byte
//	array                     []any (empty, not nil, for an empty array)
//	map                       map[string]any
//	record                    map[string]any, keyed by field name
//	union                     the value of the branch, unwrapped
//	date, timestamp-*, local-timestamp-*   time.Time
//	time-millis, time-micros  time.Duration
//	decimal, big-decimal      *big.Rat
//	uuid                      string (the RFC 4122 text, also for uuid on fixed)
//	duration                  Duration
//
// Encoding from an any accepts those shapes and also: any Go integer type
// for int and long (ErrRange when it does not fit), any integer or float
// type for float and double, []byte or string for both string and bytes,
// the symbol or the index (any integer type) for an enum, []byte or a byte
// array of the fixed's size for a fixed, any slice or array for an array,
// any map with string keys for a map or a record, and for logical types
// both the Go types above and the values of the underlying type (an int64
// for a timestamp-millis, a [16]byte for a uuid, ...). Named types (type
// Celsius float64) are accepted by their kind. A record field missing from
// the map is written from its default, or is an ErrRange error when it has
// none; keys that are not fields are ignored.
//
// A union is encoded from:
//   - nil: the null branch;
//   - a map[string]any of one key that names a branch and whose value that
//     branch accepts (goavro's wrapper form, {"string": "x"}); a branch is
//     named by its full name, by its unqualified name for named types, and
//     by type.logicalType for logical types ("long.timestamp-millis");
//   - otherwise the value itself, given to the first branch that accepts it
//     in this order of preference (ties go to the earlier branch):
//     bool: boolean. int, int64, uint, uint64: long, int, double, float.
//     int8 to int32, uint8 to uint32: int, long, double, float. float64:
//     double, float. float32: float, double. string: string, enum (when
//     it is a symbol), uuid on fixed (when it parses), bytes. []byte:
//     bytes, fixed (of its length), string. A byte array: fixed (of its
//     length), uuid on string. []any and other slices: array.
//     map[string]any: a record whose fields it matches exactly (every key
//     a field, every field without a default present), then a map, then a
//     record whose fields without a default are all present. Other maps
//     with string keys: a map, then a record as for map[string]any. time.Time:
//     the first date or timestamp branch. time.Duration: time-millis or
//     time-micros, then long, int. *big.Rat: decimal or big-decimal.
//     Duration: duration.
//
// Integers must fit the branch (int64(1<<40) skips an int branch for a
// long one), and an enum symbol must exist. A value that fits no branch is
// an ErrRange error. The choice looks at the value's shape only: once a
// branch is chosen, an error inside it (a wrong value in a record field)
// is reported, not retried on the next branch.

// anyNode is the codec of one schema node for values held in an any. The
// tree of nodes is built once per schema, so encoding and decoding walk no
// schema.
type anyNode interface {
	decodeAny(d *decodeState, b *anyBoxes) any
	encodeAny(v any, e *encodeState)
	// accepts reports whether encodeAny takes v without error at this
	// level (union branch selection; children are not inspected).
	accepts(v any) bool
}

// anyCodec is the decoder and encoder of *any for one node.
type anyCodec struct {
	n anyNode
	// boxed is set for nodes that decode to containers of many values,
	// which share one anyBoxes.
	boxed bool
}

func (c anyCodec) decode(p unsafe.Pointer, d *decodeState) {
	var b *anyBoxes
	if c.boxed && slabBoxing {
		b = &d.boxes
		b.d = d
	}
	v := c.n.decodeAny(d, b)
	if d.err == nil {
		*(*any)(p) = v
	}
}

func (c anyCodec) encode(p unsafe.Pointer, e *encodeState) { c.n.encodeAny(*(*any)(p), e) }

// anyDecoder returns the decoder of s into an any (p points at an any).
func (c *compiler) anyDecoder(s *schema.Schema, path string) (decoder, error) {
	if _, err := c.anyNodeFor(s, path); err != nil {
		return nil, err
	}
	return c.decoders[compileKey{s, anyType}], nil
}

// anyEncoder returns the encoder of s from an any (p points at an any).
func (c *compiler) anyEncoder(s *schema.Schema, path string) (encoder, error) {
	if _, err := c.anyNodeFor(s, path); err != nil {
		return nil, err
	}
	return c.encoders[compileKey{s, anyType}], nil
}

// anyNodeFor returns the node of s, building it once per compilation: the
// nodes are kept as anyCodec values in the compiler's maps under (s, any),
// both directions sharing one node, so a recursive record refers back to
// itself.
func (c *compiler) anyNodeFor(s *schema.Schema, path string) (anyNode, error) {
	key := compileKey{s, anyType}
	if ac, ok := c.decoders[key].(anyCodec); ok {
		return ac.n, nil
	}
	n, err := c.newAnyNode(s, path)
	if err != nil {
		return nil, err
	}
	ac := anyCodec{n: n, boxed: holdsMany(s)}
	c.decoders[key], c.encoders[key] = ac, ac
	return n, nil
}

// holdsMany reports whether values of s are containers, worth an
// anyBoxes.
func holdsMany(s *schema.Schema) bool {
	switch s.Kind() {
	case schema.Record, schema.Array, schema.Map:
		return true
	case schema.Union:
		return slices.ContainsFunc(s.Branches(), holdsMany)
	}
	return false
}

// anyBoxes provides the storage of decoded numbers, strings and times
// stored in an any. Storing an int64 or a string in an interface allocates
// 8 or 16 bytes each time; a container decoded into []any or
// map[string]any holds many of them, so they are carved out of shared
// chunks instead, which turns one allocation per value into one per chunk.
// Chunks are never written again once a value is handed out; a value kept
// alive keeps its chunk (at most a few KiB) alive.
//
// The boxes of one decode live in its decodeState. Numbers take 8 bytes
// of the chunk of short strings, shared with later decodes like the
// strings themselves; times come from a slab of time.Time that later
// decodes share too, since a time.Time points to nothing but its
// *time.Location (UTC, for decoded times). The string headers are the
// decode's own: they point to its strings, which a slab shared with
// another decode would keep alive.
type anyBoxes struct {
	d    *decodeState
	strs []string
}

// Values below 256 of the integer types, and "", box without allocating
// (the runtime has static copies), so they bypass the chunks.

const (
	firstBoxChunk = 8
	maxBoxChunk   = 256
)

var (
	int32EfaceType    = eTypeOf(int32(0))
	int64EfaceType    = eTypeOf(int64(0))
	float32EfaceType  = eTypeOf(float32(0))
	float64EfaceType  = eTypeOf(float64(0))
	stringEfaceType   = eTypeOf("")
	timeEfaceType     = eTypeOf(time.Time{})
	durationEfaceType = eTypeOf(time.Duration(0))
)

func eTypeOf(v any) unsafe.Pointer { return efaceOf(&v).typ }

// makeAny builds the interface value of the given type whose data is at p.
func makeAny(typ, p unsafe.Pointer) any {
	var v any
	ef := efaceOf(&v)
	ef.typ, ef.data = typ, p
	return v
}

// word returns a fresh 8-byte slot.
func (b *anyBoxes) word() unsafe.Pointer {
	if p, ok := chunkData[int64](b.d, 1); ok {
		return p
	}
	return unsafe.Pointer(new(uint64))
}

// timeBoxChunk is the number of times a slab of them holds.
const timeBoxChunk = 32

func (b *anyBoxes) time(t time.Time) any {
	if b == nil {
		return t
	}
	d := b.d
	if len(d.timeBoxes) == cap(d.timeBoxes) {
		d.timeBoxes = make([]time.Time, 0, timeBoxChunk)
	}
	d.timeBoxes = append(d.timeBoxes, t)
	return makeAny(timeEfaceType, unsafe.Pointer(&d.timeBoxes[len(d.timeBoxes)-1]))
}

func (b *anyBoxes) duration(v time.Duration) any {
	if b == nil {
		return v
	}
	p := b.word()
	*(*time.Duration)(p) = v
	return makeAny(durationEfaceType, p)
}

func (b *anyBoxes) int32(v int32) any {
	if b == nil || uint32(v) < 256 {
		return v
	}
	p := b.word()
	*(*int32)(p) = v
	return makeAny(int32EfaceType, p)
}

func (b *anyBoxes) int64(v int64) any {
	if b == nil || uint64(v) < 256 {
		return v
	}
	p := b.word()
	*(*int64)(p) = v
	return makeAny(int64EfaceType, p)
}

func (b *anyBoxes) float32(v float32) any {
	if b == nil {
		return v
	}
	p := b.word()
	*(*float32)(p) = v
	return makeAny(float32EfaceType, p)
}

func (b *anyBoxes) float64(v float64) any {
	if b == nil {
		return v
	}
	p := b.word()
	*(*float64)(p) = v
	return makeAny(float64EfaceType, p)
}

func (b *anyBoxes) string(v string) any {
	if b == nil || v == "" {
		return v
	}
	if len(b.strs) == cap(b.strs) {
		b.strs = make([]string, 0, min(max(2*cap(b.strs), firstBoxChunk), maxBoxChunk))
	}
	b.strs = append(b.strs, v)
	return makeAny(stringEfaceType, unsafe.Pointer(&b.strs[len(b.strs)-1]))
}

func (c *compiler) newAnyNode(s *schema.Schema, path string) (anyNode, error) {
	var base anyNode
	switch s.Kind() {
	case schema.Null:
		base = anyNull{}
	case schema.Boolean:
		base = anyBool{}
	case schema.Int:
		base = anyInt{}
	case schema.Long:
		base = anyLong{}
	case schema.Float:
		base = anyFloat{}
	case schema.Double:
		base = anyDouble{}
	case schema.String:
		base = anyString{}
	case schema.Bytes:
		base = anyBytes{}
	case schema.Enum:
		en := &anyEnum{s: s}
		for _, sym := range s.Symbols() {
			en.syms = append(en.syms, sym) // boxed once, not per value
		}
		base = en
	case schema.Fixed:
		base = anyFixed{size: s.Size()}
	case schema.Array:
		items, err := c.anyNodeFor(s.Items(), path+"[]")
		if err != nil {
			return nil, err
		}
		base = &anyArray{items: items, minSize: s.Items().MinEncodedSize()}
	case schema.Map:
		values, err := c.anyNodeFor(s.Values(), path+"[]")
		if err != nil {
			return nil, err
		}
		_, stringValues := values.(anyString)
		base = &anyMap{values: values, minSize: 1 + s.Values().MinEncodedSize(), stringValues: stringValues}
	case schema.Record:
		rec := &anyRecord{s: s}
		// Registered before the fields, which may refer back to it.
		key := compileKey{s, anyType}
		c.decoders[key], c.encoders[key] = anyCodec{n: rec, boxed: true}, anyCodec{n: rec, boxed: true}
		for _, f := range s.Fields() {
			n, err := c.anyNodeFor(f.Type(), joinPath(path, f.Name()))
			if err != nil {
				return nil, err
			}
			rec.fields = append(rec.fields, anyField{name: f.Name(), n: n, f: f, leaf: anyLeafOf(n)})
		}
		base = rec
	case schema.Union:
		u, err := c.newAnyUnion(s, path)
		if err != nil {
			return nil, err
		}
		base = u
	default:
		return nil, typeErr(path, anyType, s, "unknown schema kind")
	}
	return anyLogical(s, base), nil
}

// anyMismatch records that v has no mapping to the Avro type.
func anyMismatch(e *encodeState, v any, avroType string) {
	e.failf(ErrRange, "cannot encode Go %T as Avro %s", v, avroType)
}

// --- primitives ---

type anyNull struct{}

func (anyNull) decodeAny(*decodeState, *anyBoxes) any { return nil }
func (anyNull) accepts(v any) bool                    { return v == nil }
func (anyNull) encodeAny(v any, e *encodeState) {
	if v != nil {
		anyMismatch(e, v, "null")
	}
}

type anyBool struct{}

func (anyBool) decodeAny(d *decodeState, b *anyBoxes) any { return d.readBool() }

func (anyBool) encodeAny(v any, e *encodeState) {
	b, ok := v.(bool)
	if !ok {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Bool {
			b, ok = rv.Bool(), true
		}
	}
	if !ok {
		anyMismatch(e, v, "boolean")
		return
	}
	e.writeBool(b)
}

func (anyBool) accepts(v any) bool {
	if _, ok := v.(bool); ok {
		return true
	}
	return reflect.ValueOf(v).Kind() == reflect.Bool
}

// anyInteger returns the integer in v. isInt is false when v holds no Go
// integer; fits is false for an unsigned value above math.MaxInt64.
func anyInteger(v any) (x int64, isInt, fits bool) {
	switch v := v.(type) {
	case int:
		return int64(v), true, true
	case int64:
		return v, true, true
	case int32:
		return int64(v), true, true
	case int16:
		return int64(v), true, true
	case int8:
		return int64(v), true, true
	case uint8:
		return int64(v), true, true
	case uint16:
		return int64(v), true, true
	case uint32:
		return int64(v), true, true
	case uint:
		return int64(v), true, uint64(v) <= math.MaxInt64
	case uint64:
		return int64(v), true, v <= math.MaxInt64
	case nil, string, float64, bool, float32, []byte, []any, map[string]any:
		return 0, false, false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		return int64(u), true, u <= math.MaxInt64
	}
	return 0, false, false
}

type anyInt struct{}

func (anyInt) decodeAny(d *decodeState, b *anyBoxes) any { return b.int32(d.readInt()) }

func (anyInt) encodeAny(v any, e *encodeState) {
	x, isInt, fits := anyInteger(v)
	if !isInt {
		anyMismatch(e, v, "int")
		return
	}
	if !fits || x != int64(int32(x)) {
		e.failf(ErrRange, "%v does not fit an Avro int", v)
		return
	}
	e.writeLong(x)
}

func (anyInt) accepts(v any) bool {
	x, isInt, fits := anyInteger(v)
	return isInt && fits && x == int64(int32(x))
}

type anyLong struct{}

func (anyLong) decodeAny(d *decodeState, b *anyBoxes) any { return b.int64(d.readLong()) }

func (anyLong) encodeAny(v any, e *encodeState) {
	x, isInt, fits := anyInteger(v)
	if !isInt {
		anyMismatch(e, v, "long")
		return
	}
	if !fits {
		e.failf(ErrRange, "%v does not fit an Avro long", v)
		return
	}
	e.writeLong(x)
}

func (anyLong) accepts(v any) bool {
	_, isInt, fits := anyInteger(v)
	return isInt && fits
}

// anyFloat64 returns the number in v as a float64: floats exactly,
// integers rounded to the nearest float64.
func anyFloat64(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	}
	if x, isInt, fits := anyInteger(v); isInt {
		if !fits {
			return float64(uint64(x)), true
		}
		return float64(x), true
	}
	rv := reflect.ValueOf(v)
	if k := rv.Kind(); k == reflect.Float32 || k == reflect.Float64 {
		return rv.Float(), true
	}
	return 0, false
}

type anyFloat struct{}

func (anyFloat) decodeAny(d *decodeState, b *anyBoxes) any { return b.float32(d.readFloat()) }

func (anyFloat) encodeAny(v any, e *encodeState) {
	if f, ok := v.(float32); ok {
		e.writeFloat(f)
		return
	}
	f, ok := anyFloat64(v)
	if !ok {
		anyMismatch(e, v, "float")
		return
	}
	// Rounding to float32 is the conversion; only a finite value that
	// overflows to infinity is out of range.
	f32 := float32(f)
	if math.IsInf(float64(f32), 0) && !math.IsInf(f, 0) {
		e.failf(ErrRange, "%v overflows an Avro float", v)
		return
	}
	e.writeFloat(f32)
}

func (anyFloat) accepts(v any) bool {
	f, ok := anyFloat64(v)
	return ok && (math.IsInf(f, 0) || !math.IsInf(float64(float32(f)), 0))
}

type anyDouble struct{}

func (anyDouble) decodeAny(d *decodeState, b *anyBoxes) any { return b.float64(d.readDouble()) }

func (anyDouble) encodeAny(v any, e *encodeState) {
	f, ok := anyFloat64(v)
	if !ok {
		anyMismatch(e, v, "double")
		return
	}
	e.writeDouble(f)
}

func (anyDouble) accepts(v any) bool {
	_, ok := anyFloat64(v)
	return ok
}

// anyText returns the string or bytes in v (a string, a []byte, or a type
// of those kinds).
func anyText(v any) (s string, b []byte, ok bool) {
	switch v := v.(type) {
	case string:
		return v, nil, true
	case []byte:
		return "", v, true
	}
	rv := reflect.ValueOf(v)
	switch {
	case rv.Kind() == reflect.String:
		return rv.String(), nil, true
	case rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8:
		return "", rv.Bytes(), true
	}
	return "", nil, false
}

func encodeAnyText(v any, e *encodeState, avroType string) {
	s, b, ok := anyText(v)
	switch {
	case !ok:
		anyMismatch(e, v, avroType)
	case b != nil:
		e.writeBytes(b)
	default:
		e.writeString(s)
	}
}

type anyString struct{}

func (anyString) decodeAny(d *decodeState, b *anyBoxes) any { return b.string(d.readString()) }
func (anyString) encodeAny(v any, e *encodeState) {
	if s, ok := v.(string); ok {
		e.writeString(s)
		return
	}
	encodeAnyText(v, e, "string")
}

func (anyString) accepts(v any) bool {
	_, _, ok := anyText(v)
	return ok
}

type anyBytes struct{}

func (anyBytes) decodeAny(d *decodeState, b *anyBoxes) any {
	if b := d.readBytes(); d.err == nil {
		return b
	}
	return nil
}

func (anyBytes) encodeAny(v any, e *encodeState) {
	if b, ok := v.([]byte); ok {
		e.writeBytes(b)
		return
	}
	encodeAnyText(v, e, "bytes")
}

func (anyBytes) accepts(v any) bool {
	_, _, ok := anyText(v)
	return ok
}

// --- enum and fixed ---

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
		count := d.readBlockCount(total, n.minSize)
		if count == 0 || !d.reserveItems(count, int64(unsafe.Sizeof(any(nil)))) {
			break
		}
		out = slices.Grow(out, int(count))
		for i := int64(0); i < count; i++ {
			v := n.items.decodeAny(d, b)
			if d.err != nil {
				d.moreItems(i, count, n.minSize)
				d.addIndex(total + i)
				return nil
			}
			out = append(out, v)
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
		count := d.readBlockCount(total, n.minSize)
		if count == 0 {
			break
		}
		// A key and a value, and the map's own overhead.
		if !d.reserveItems(count, 48) {
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
				total += count
				continue
			}
		}
		for i := int64(0); i < count; i++ {
			k := d.readString()
			if d.err != nil {
				d.moreItems(i, count, n.minSize)
				d.addIndex(total + i)
				return nil
			}
			v := n.values.decodeAny(d, b)
			if d.err != nil {
				d.moreItems(i, count, n.minSize)
				d.addKey(k)
				return nil
			}
			m[k] = v
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

// encodeLeaf writes x inline when it is the Go type the decoder gives for
// leaf, and reports whether it did; any other value takes the node's
// general path.
func encodeLeaf(leaf valueOp, x any, e *encodeState) bool {
	switch leaf {
	case vopString:
		if s, ok := x.(string); ok {
			e.writeString(s)
			return true
		}
	case vopLong:
		if v, ok := x.(int64); ok {
			e.writeLong(v)
			return true
		}
	case vopInt:
		if v, ok := x.(int32); ok {
			e.writeLong(int64(v))
			return true
		}
	case vopDouble:
		if v, ok := x.(float64); ok {
			e.writeDouble(v)
			return true
		}
	case vopBool:
		if v, ok := x.(bool); ok {
			e.writeBool(v)
			return true
		}
	}
	return false
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
		if f.leaf != vopNode && encodeLeaf(f.leaf, x, e) {
			continue
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

// --- union ---

// anyClass is the shape of a Go value, for choosing a union branch.
type anyClass uint8

const (
	clsNone anyClass = iota
	clsNull
	clsBool
	clsInt64 // int, int64, uint, uint64, uintptr
	clsInt32 // int8..int32, uint8..uint32
	clsFloat32
	clsFloat64
	clsString
	clsBytes     // []byte
	clsByteArray // [N]byte
	clsSlice     // other slices and arrays
	clsStringMap // map[string]any
	clsMap       // other maps with string keys
	clsTime
	clsDuration // time.Duration
	clsRat
	clsAvroDuration
	numClasses
)

func classify(v any) anyClass {
	switch v.(type) {
	case nil:
		return clsNull
	case bool:
		return clsBool
	case int, int64, uint, uint64, uintptr:
		return clsInt64
	case int32, int16, int8, uint32, uint16, uint8:
		return clsInt32
	case float32:
		return clsFloat32
	case float64:
		return clsFloat64
	case string:
		return clsString
	case []byte:
		return clsBytes
	case []any:
		return clsSlice
	case map[string]any:
		return clsStringMap
	case time.Time:
		return clsTime
	case time.Duration:
		return clsDuration
	case *big.Rat, big.Rat:
		return clsRat
	case Duration:
		return clsAvroDuration
	case [16]byte:
		return clsByteArray
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return clsBool
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return clsInt64
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return clsInt32
	case reflect.Float32:
		return clsFloat32
	case reflect.Float64:
		return clsFloat64
	case reflect.String:
		return clsString
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return clsBytes
		}
		return clsSlice
	case reflect.Array:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return clsByteArray
		}
		return clsSlice
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			return clsMap
		}
	}
	return clsNone
}

// branchRank returns the preference of branch b for values of class cls
// (lower is preferred), or -1 when b never takes them. See the package
// comment above for the order.
func branchRank(cls anyClass, b *schema.Schema) int {
	k, l := b.Kind(), b.Logical()
	pick := func(kinds ...schema.Kind) int {
		for i, x := range kinds {
			if x == k {
				return i
			}
		}
		return -1
	}
	switch cls {
	case clsNull:
		return pick(schema.Null)
	case clsBool:
		return pick(schema.Boolean)
	case clsInt64:
		return pick(schema.Long, schema.Int, schema.Double, schema.Float)
	case clsInt32:
		return pick(schema.Int, schema.Long, schema.Double, schema.Float)
	case clsFloat32:
		return pick(schema.Float, schema.Double)
	case clsFloat64:
		return pick(schema.Double, schema.Float)
	case clsString:
		if k == schema.Fixed && l != schema.UUID {
			return -1
		}
		return pick(schema.String, schema.Enum, schema.Fixed, schema.Bytes)
	case clsBytes:
		return pick(schema.Bytes, schema.Fixed, schema.String)
	case clsByteArray:
		if k == schema.String && l != schema.UUID {
			return -1
		}
		return pick(schema.Fixed, schema.String)
	case clsSlice:
		return pick(schema.Array)
	case clsStringMap:
		return pick(schema.Record, schema.Map)
	case clsMap:
		return pick(schema.Map, schema.Record)
	case clsTime:
		switch l {
		case schema.Date, schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
			schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
			return 0
		}
	case clsDuration:
		if l == schema.TimeMillis || l == schema.TimeMicros {
			return 0
		}
		if r := pick(schema.Long, schema.Int); r >= 0 {
			return 1 + r
		}
	case clsRat:
		if l == schema.Decimal || l == schema.BigDecimal {
			return 0
		}
	case clsAvroDuration:
		if l == schema.Duration {
			return 0
		}
	}
	return -1
}

type anyUnion struct {
	s         *schema.Schema
	branches  []anyNode
	nullIndex int
	byName    map[string]int
	// order lists, for each class of Go value, the branches that may take
	// it, preferred first.
	order [numClasses][]int
	// records lists the record branches, for the loose match of a map.
	records []int
}

func (c *compiler) newAnyUnion(s *schema.Schema, path string) (*anyUnion, error) {
	u := &anyUnion{s: s, nullIndex: -1, byName: map[string]int{}}
	for i, b := range s.Branches() {
		n, err := c.anyNodeFor(b, joinPath(path, "["+b.FullName()+"]"))
		if err != nil {
			return nil, err
		}
		u.branches = append(u.branches, n)
		if b.Kind() == schema.Null && u.nullIndex < 0 {
			u.nullIndex = i
		}
		if b.Kind() == schema.Record {
			u.records = append(u.records, i)
		}
		names := []string{b.FullName()}
		if b.Kind().IsNamed() {
			names = append(names, b.Name())
		}
		if b.Logical() != schema.NoLogical {
			names = append(names, b.Kind().String()+"."+b.Logical().String())
		}
		for _, name := range names {
			if _, dup := u.byName[name]; !dup {
				u.byName[name] = i
			}
		}
	}
	for cls := range numClasses {
		var idx []int
		for i, b := range s.Branches() {
			if branchRank(cls, b) >= 0 {
				idx = append(idx, i)
			}
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			return branchRank(cls, s.Branches()[a]) - branchRank(cls, s.Branches()[b])
		})
		u.order[cls] = idx
	}
	return u, nil
}

func (n *anyUnion) decodeAny(d *decodeState, b *anyBoxes) any {
	i := readUnionIndex(n.s, d)
	if d.err != nil {
		return nil
	}
	return n.branches[i].decodeAny(d, b)
}

// onlyEntry returns the entry of a map of one entry (a union wrapper,
// {"type": value}), without setting up a range over it when it can.
func onlyEntry(m map[string]any) (string, any) {
	if w, ok := walkSmallMap(unsafe.Pointer(&m)); ok {
		if s := w.next(unsafe.Sizeof(mapSlot[any]{})); s != nil {
			return *(*string)(s), *(*any)(unsafe.Add(s, unsafe.Offsetof(mapSlot[any]{}.value)))
		}
	}
	for k, v := range m {
		return k, v
	}
	return "", nil
}

// pick returns the branch for v and the value to encode in it (v, or the
// content of a wrapper map), or -1.
func (n *anyUnion) pick(v any) (int, any) {
	if v == nil {
		return n.nullIndex, nil
	}
	m, isMap := v.(map[string]any)
	if isMap && len(m) == 1 {
		k, inner := onlyEntry(m)
		if i, ok := n.byName[k]; ok && n.branches[i].accepts(inner) {
			return i, inner
		}
	}
	cls := classify(v)
	if (cls == clsStringMap || cls == clsMap) && len(n.order[cls]) == 1 && len(n.records) <= 1 {
		// The only branch that takes a map (["null", "Rec"], the usual
		// optional record): matching its fields first would look every
		// field up twice. A map that does not fit it fails inside it,
		// naming the field.
		return n.order[cls][0], v
	}
	for _, i := range n.order[cls] {
		if n.branches[i].accepts(v) {
			return i, v
		}
	}
	if cls == clsStringMap || cls == clsMap {
		for _, i := range n.records {
			if n.branches[i].(*anyRecord).keysMatch(v, false) {
				return i, v
			}
		}
	}
	return -1, nil
}

func (n *anyUnion) encodeAny(v any, e *encodeState) {
	i, x := n.pick(v)
	if i < 0 {
		if v == nil {
			e.failf(ErrRange, "nil for a union without null")
			return
		}
		e.failf(ErrRange, "Go %T fits no branch of the union %s", v, unionText(n.s))
		return
	}
	e.writeLong(int64(i))
	n.branches[i].encodeAny(x, e)
}

func (n *anyUnion) accepts(v any) bool {
	i, _ := n.pick(v)
	return i >= 0
}

// unionText names the branches of a union for an error message.
func unionText(s *schema.Schema) string {
	b := []byte{'['}
	for i, br := range s.Branches() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, br.FullName()...)
	}
	return string(append(b, ']'))
}

// --- logical types ---

// anyLogical wraps the node of a logical type's underlying type: decoding
// gives the logical Go value, encoding takes it or the underlying value.
func anyLogical(s *schema.Schema, base anyNode) anyNode {
	switch l := s.Logical(); l {
	case schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
		schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
		return anyTimestamp{l: l, base: base}
	case schema.Date:
		return anyDate{base: base}
	case schema.TimeMillis, schema.TimeMicros:
		return anyTimeOfDay{micros: l == schema.TimeMicros, base: base}
	case schema.Decimal:
		return anyDecimal{c: newDecimalCodec(s), base: base}
	case schema.BigDecimal:
		return anyBigDecimal{base: base}
	case schema.UUID:
		if s.Kind() == schema.String {
			return anyUUIDString{}
		}
		return anyUUIDFixed{base: base}
	case schema.Duration:
		return anyDuration{base: base}
	}
	return base
}

type anyTimestamp struct {
	l    schema.Logical
	base anyNode
}

func (n anyTimestamp) decodeAny(d *decodeState, b *anyBoxes) any {
	v := d.readLong()
	if d.err != nil {
		return nil
	}
	u, _ := timeUnitOf(n.l)
	return b.time(unitsToTime(v, u))
}

func (n anyTimestamp) encodeAny(v any, e *encodeState) {
	if t, ok := v.(time.Time); ok {
		encodeTimestamp(t, n.l, e)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyTimestamp) accepts(v any) bool {
	if t, ok := v.(time.Time); ok {
		u, local := timeUnitOf(n.l)
		_, ok := timeToUnits(t, u, local)
		return ok
	}
	return n.base.accepts(v)
}

type anyDate struct{ base anyNode }

func (n anyDate) decodeAny(d *decodeState, b *anyBoxes) any {
	v := d.readInt()
	if d.err != nil {
		return nil
	}
	return b.time(daysToTime(v))
}

func (n anyDate) encodeAny(v any, e *encodeState) {
	if t, ok := v.(time.Time); ok {
		encodeDate(t, e)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyDate) accepts(v any) bool {
	if t, ok := v.(time.Time); ok {
		sec, ok := wallSeconds(t, true)
		days, _ := floorDivMod(sec, secondsPerDay)
		return ok && days == int64(int32(days))
	}
	return n.base.accepts(v)
}

type anyTimeOfDay struct {
	micros bool
	base   anyNode
}

func (n anyTimeOfDay) decodeAny(d *decodeState, b *anyBoxes) any {
	if v, ok := decodeTimeOfDay(n.micros, d); ok {
		return b.duration(v)
	}
	return nil
}

func (n anyTimeOfDay) encodeAny(v any, e *encodeState) {
	if t, ok := v.(time.Duration); ok {
		encodeTimeOfDay(t, n.micros, e)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyTimeOfDay) accepts(v any) bool {
	if t, ok := v.(time.Duration); ok {
		ms := int64(t / time.Millisecond)
		return n.micros || ms == int64(int32(ms))
	}
	return n.base.accepts(v)
}

// anyRat returns the *big.Rat in v (a *big.Rat or a big.Rat).
func anyRat(v any) (*big.Rat, bool) {
	switch r := v.(type) {
	case *big.Rat:
		return r, r != nil
	case big.Rat:
		return &r, true
	}
	return nil, false
}

type anyDecimal struct {
	c    *decimalCodec
	base anyNode
}

func (n anyDecimal) decodeAny(d *decodeState, b *anyBoxes) any {
	r := new(big.Rat)
	if !n.c.decodeRat(r, d) {
		return nil
	}
	return r
}

func (n anyDecimal) encodeAny(v any, e *encodeState) {
	if r, ok := anyRat(v); ok {
		n.c.encodeRat(r, e)
		return
	}
	if _, isPtr := v.(*big.Rat); isPtr {
		e.failf(ErrRange, "nil *big.Rat for a decimal")
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyDecimal) accepts(v any) bool {
	if _, ok := anyRat(v); ok {
		return true // a scale or precision error is reported, not skipped
	}
	return n.base.accepts(v)
}

type anyBigDecimal struct{ base anyNode }

func (n anyBigDecimal) decodeAny(d *decodeState, b *anyBoxes) any {
	r := new(big.Rat)
	if !decodeBigDecimal(r, d) {
		return nil
	}
	return r
}

func (n anyBigDecimal) encodeAny(v any, e *encodeState) {
	if r, ok := anyRat(v); ok {
		encodeBigDecimal(r, e)
		return
	}
	if _, isPtr := v.(*big.Rat); isPtr {
		e.failf(ErrRange, "nil *big.Rat for a big-decimal")
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyBigDecimal) accepts(v any) bool {
	if _, ok := anyRat(v); ok {
		return true
	}
	return n.base.accepts(v)
}

// uuidArray returns the 16 bytes of v when it is a 16-byte array.
func uuidArray(v any) ([16]byte, bool) {
	if u, ok := v.([16]byte); ok {
		return u, true
	}
	var u [16]byte
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Array || !isUUIDArray(rv.Type()) {
		return u, false
	}
	for i := range u {
		u[i] = byte(rv.Index(i).Uint())
	}
	return u, true
}

// anyUUIDString is uuid on string: a string passes through unchecked (as
// with a typed string), a 16-byte array is written as text.
type anyUUIDString struct{}

func (anyUUIDString) decodeAny(d *decodeState, b *anyBoxes) any { return b.string(d.readString()) }

func (anyUUIDString) encodeAny(v any, e *encodeState) {
	if u, ok := uuidArray(v); ok {
		e.writeLong(uuidLen)
		e.buf = appendUUID(e.buf, &u)
		return
	}
	anyString{}.encodeAny(v, e)
}

func (anyUUIDString) accepts(v any) bool {
	_, ok := uuidArray(v)
	return ok || anyString{}.accepts(v)
}

// anyUUIDFixed is uuid on fixed(16): decoded as text, encoded from text or
// from 16 raw bytes.
type anyUUIDFixed struct{ base anyNode }

func (anyUUIDFixed) decodeAny(d *decodeState, b *anyBoxes) any {
	if s, ok := decodeUUIDFixedText(d); ok {
		return b.string(s)
	}
	return nil
}

func (n anyUUIDFixed) encodeAny(v any, e *encodeState) {
	if s, ok := v.(string); ok {
		encodeUUIDFixedText(s, e)
		return
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		encodeUUIDFixedText(rv.String(), e)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyUUIDFixed) accepts(v any) bool {
	if s, ok := v.(string); ok {
		_, ok := parseUUID(s)
		return ok
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		_, ok := parseUUID(rv.String())
		return ok
	}
	return n.base.accepts(v)
}

type anyDuration struct{ base anyNode }

func (anyDuration) decodeAny(d *decodeState, b *anyBoxes) any {
	if b := d.readRaw(12); d.err == nil {
		return durationFromBytes(b)
	}
	return nil
}

func (n anyDuration) encodeAny(v any, e *encodeState) {
	if x, ok := v.(Duration); ok {
		e.buf = appendDuration(e.buf, x)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyDuration) accepts(v any) bool {
	if _, ok := v.(Duration); ok {
		return true
	}
	return n.base.accepts(v)
}
