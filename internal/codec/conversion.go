package codec

import (
	"reflect"
	"sync"

	"github.com/avrogo/avro/schema"
)

// Conversion maps a Go type T through a Go type A that the codecs already
// map: values of T are converted to A and encoded as A, and decoded as A
// and converted to T. The restrictions say which schemas it serves.
type Conversion struct {
	T, A reflect.Type
	// Logical, AvroType and Prop restrict the schemas the conversion
	// serves: a logical type name, an Avro type name or named type's full
	// name, and a property with its value. Empty serves every schema but
	// a union, whose branches are matched instead.
	Logical   string
	AvroType  string
	Prop      string
	PropValue any
	// Schema is what SchemaOf gives T; nil gives the schema of A.
	Schema *schema.Schema

	decoder func(inner decoder) decoder
	encoder func(inner encoder) encoder
}

// conversions holds the registered conversions by Go type, each type's
// in the order of registration.
var conversions struct {
	sync.RWMutex
	byType map[reflect.Type][]*Conversion
}

// RegisterConversion registers c, after those registered before. It
// panics for a T that keeps its own mapping (an interface, value.Value)
// or that is its own A.
func RegisterConversion(c *Conversion) {
	switch {
	case c.T == c.A:
		panic("avro.RegisterConversion: " + c.T.String() + " converts to itself")
	case c.T.Kind() == reflect.Interface || isValueType(c.T):
		panic("avro.RegisterConversion: " + c.T.String() + " keeps its own mapping")
	}
	conversions.Lock()
	defer conversions.Unlock()
	if conversions.byType == nil {
		conversions.byType = map[reflect.Type][]*Conversion{}
	}
	conversions.byType[c.T] = append(conversions.byType[c.T], c)
}

func conversionsOf(t reflect.Type) []*Conversion {
	conversions.RLock()
	defer conversions.RUnlock()
	return conversions.byType[t]
}

// specificity ranks how narrowly a conversion picks its schemas: a
// property above a logical type above an Avro type above none.
func (c *Conversion) specificity() int {
	n := 0
	if c.Prop != "" {
		n += 4
	}
	if c.Logical != "" {
		n += 2
	}
	if c.AvroType != "" {
		n++
	}
	return n
}

func (c *Conversion) matches(s *schema.Schema) bool {
	if s.Kind() == schema.Union && c.AvroType != "union" {
		return false
	}
	if c.Logical != "" && s.Logical().String() != c.Logical {
		return false
	}
	if c.AvroType != "" && c.AvroType != s.Kind().String() && (!s.Kind().IsNamed() || c.AvroType != s.FullName()) {
		return false
	}
	if c.Prop != "" {
		v, ok := s.Prop(c.Prop)
		if !ok || !reflect.DeepEqual(v, c.PropValue) {
			return false
		}
	}
	return true
}

// matchesNode is matches for the node SchemaOf derives, before it is a
// schema: a derived node has no properties, so a conversion restricted
// to one does not serve it.
func (c *Conversion) matchesNode(n schema.Node) bool {
	if n.Type == "union" && c.AvroType != "union" || c.Prop != "" {
		return false
	}
	if c.Logical != "" && n.Logical != c.Logical {
		return false
	}
	return c.AvroType == "" || c.AvroType == n.Type || n.Name != "" && c.AvroType == n.Name
}

// conversionFor returns the conversion of Go type t for schema s: the
// most specific that matches, the first registered of those; or nil.
func conversionFor(s *schema.Schema, t reflect.Type) *Conversion {
	var best *Conversion
	for _, c := range conversionsOf(t) {
		if c.matches(s) && (best == nil || c.specificity() > best.specificity()) {
			best = c
		}
	}
	return best
}

func (c *compiler) conversionDecoder(conv *Conversion, s *schema.Schema, path string) (decoder, error) {
	inner, err := c.decoderFor(s, conv.A, path)
	if err != nil {
		return nil, err
	}
	return conv.decoder(inner), nil
}

func (c *compiler) conversionEncoder(conv *Conversion, s *schema.Schema, path string) (encoder, error) {
	inner, err := c.encoderFor(s, conv.A, path)
	if err != nil {
		return nil, err
	}
	return conv.encoder(inner), nil
}

// NewConversion returns the conversion of T through A by the functions
// encode and decode.
func NewConversion[T, A any](encode func(T) (A, error), decode func(A) (T, error)) *Conversion {
	return &Conversion{
		T: reflect.TypeFor[T](), A: reflect.TypeFor[A](),
		decoder: func(inner decoder) decoder {
			cd := &convDecoder[T, A]{inner: inner, op: fieldOpOf(inner), fn: decode, t: reflect.TypeFor[T]()}
			cd.keep = keepsScratch(cd.op, reflect.TypeFor[A]())
			cd.scratch.New = func() any { return new(A) }
			return cd
		},
		encoder: func(inner encoder) encoder {
			ce := &convEncoder[T, A]{inner: inner, op: fieldOpOf(inner), fn: encode, t: reflect.TypeFor[T]()}
			ce.scratch.New = func() any { return new(A) }
			return ce
		},
	}
}

// keepsScratch reports whether an A decoded through the inner decoder
// may keep the value of the previous decode in its scratch slot: a
// pointer to a value the decoder overwrites whole (a *big.Rat) reuses its
// storage; every other A starts from zero, so no field of an earlier
// record shows through one the schema does not set.
func keepsScratch(op fieldOp, a reflect.Type) bool {
	switch op {
	case fieldInt32, fieldInt64, fieldDouble, fieldBool, fieldString, fieldStringRun:
		return false
	}
	return a.Kind() == reflect.Pointer && (a.Elem().Kind() != reflect.Struct || a.Elem() == ratType)
}

// convDecoder decodes an A and converts it to the T at p. For an A of a
// primitive kind the A lives on the stack; other kinds are decoded into
// a scratch A from a pool, since the inner decoder's pointer would put a
// fresh A on the heap for every value. The codec is shared by goroutines,
// so the scratch is taken per value, not held by the codec.
type convDecoder[T, A any] struct {
	inner   decoder
	op      fieldOp
	fn      func(A) (T, error)
	t       reflect.Type
	keep    bool
	scratch sync.Pool // of *A
}

func (c *convDecoder[T, A]) decode(p pointer, d *decodeState) {
	if c.fn == nil {
		d.Failf(ErrInvalid, "no conversion decodes %s", c.t)
		return
	}
	var a A
	ap := pointerTo(&a)
	switch c.op {
	case fieldInt32:
		int32Codec{}.decode(ap, d)
	case fieldInt64:
		int64Codec{}.decode(ap, d)
	case fieldDouble:
		doubleCodec{}.decode(ap, d)
	case fieldBool:
		boolCodec{}.decode(ap, d)
	case fieldString, fieldStringRun:
		stringCodec{}.decode(ap, d)
	default:
		c.decodeInner(p, d)
		return
	}
	if d.Err == nil {
		c.set(p, a, d)
	}
}

func (c *convDecoder[T, A]) decodeInner(p pointer, d *decodeState) {
	a := c.scratch.Get().(*A)
	if !c.keep {
		var zero A
		*a = zero
	}
	if c.inner.decode(pointerTo(a), d); d.Err == nil {
		c.set(p, *a, d)
	}
	if !c.keep {
		// Drop what the A points to, so the pool does not hold the
		// memory of the value it was given to Decode.
		var zero A
		*a = zero
	}
	c.scratch.Put(a)
}

func (c *convDecoder[T, A]) set(p pointer, a A, d *decodeState) {
	v, err := c.fn(a)
	if err != nil {
		d.Failf(ErrInvalid, "converting to %s: %w", c.t, err)
		return
	}
	*as[T](p) = v
}

// convEncoder converts the T at p to an A and encodes it. An A of a
// kind that is not primitive is encoded from a pooled slot, which keeps
// it off the heap.
type convEncoder[T, A any] struct {
	inner   encoder
	op      fieldOp
	fn      func(T) (A, error)
	t       reflect.Type
	scratch sync.Pool // of *A
}

func (c *convEncoder[T, A]) encode(p pointer, e *encodeState) {
	if c.fn == nil {
		e.Failf(ErrRange, "no conversion encodes %s", c.t)
		return
	}
	a, err := c.fn(*as[T](p))
	if err != nil {
		e.Failf(ErrRange, "converting from %s: %w", c.t, err)
		return
	}
	switch c.op {
	case fieldInt32:
		int32Codec{}.encode(pointerTo(&a), e)
	case fieldInt64:
		int64Codec{}.encode(pointerTo(&a), e)
	case fieldDouble:
		doubleCodec{}.encode(pointerTo(&a), e)
	case fieldBool:
		boolCodec{}.encode(pointerTo(&a), e)
	case fieldString, fieldStringRun:
		stringCodec{}.encode(pointerTo(&a), e)
	default:
		c.encodeInner(a, e)
	}
}

func (c *convEncoder[T, A]) encodeInner(a A, e *encodeState) {
	slot := c.scratch.Get().(*A)
	*slot = a
	c.inner.encode(pointerTo(slot), e)
	var zero A
	*slot = zero // the pool must not keep the user's value alive
	c.scratch.Put(slot)
}
