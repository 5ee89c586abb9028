package codec

import (
	"slices"
	"time"

	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// The generic mapping of Go values of type any is documented in doc.go
// ("Generic values").

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

func (c anyCodec) decode(p pointer, d *decodeState) {
	var b *anyBoxes
	if c.boxed && wire.SlabBoxing {
		b = &d.boxes
		b.d = d
	}
	v := c.n.decodeAny(d, b)
	if d.Err == nil {
		*as[any](p) = v
	}
}

func (c anyCodec) encode(p pointer, e *encodeState) { c.n.encodeAny(*as[any](p), e) }

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

func eTypeOf(v any) typeWord { return efaceOf(&v).typ }

// word returns a fresh 8-byte slot.
func (b *anyBoxes) word() pointer {
	if p, ok := chunkData[int64](b.d, 1); ok {
		return p
	}
	return pointerTo(new(uint64))
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
	return anyAt(timeEfaceType, &d.timeBoxes[len(d.timeBoxes)-1])
}

func (b *anyBoxes) duration(v time.Duration) any {
	if b == nil {
		return v
	}
	p := b.word()
	*as[time.Duration](p) = v
	return makeAny(durationEfaceType, p)
}

func (b *anyBoxes) int32(v int32) any {
	if b == nil || uint32(v) < 256 {
		return v
	}
	p := b.word()
	*as[int32](p) = v
	return makeAny(int32EfaceType, p)
}

func (b *anyBoxes) int64(v int64) any {
	if b == nil || uint64(v) < 256 {
		return v
	}
	p := b.word()
	*as[int64](p) = v
	return makeAny(int64EfaceType, p)
}

func (b *anyBoxes) float32(v float32) any {
	if b == nil {
		return v
	}
	p := b.word()
	*as[float32](p) = v
	return makeAny(float32EfaceType, p)
}

func (b *anyBoxes) float64(v float64) any {
	if b == nil {
		return v
	}
	p := b.word()
	*as[float64](p) = v
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
	return anyAt(stringEfaceType, &b.strs[len(b.strs)-1])
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
		base = &anyArray{items: items, minSize: skip.ItemSize(s.Items())}
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
		names := make([]string, len(rec.fields))
		for i := range rec.fields {
			names[i] = rec.fields[i].name
		}
		rec.table = newFieldTable(names)
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
	e.Failf(ErrRange, "cannot encode Go %T as Avro %s", v, avroType)
}
