package avro

import (
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
