package codec

import (
	"math"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// The JSON encoding of Go values is compiled from their binary encoders:
// the encoder tree of a (schema, Go type) is the type mapping, and each of
// its common nodes (structs, slices, map[string]string, nullable pointers,
// the primitive kinds) has a twin that writes JSON text straight from the
// Go value. Every other node (logical types, enums, fixed, any,
// value.Value, interfaces, ...) is encoded in binary and the bytes
// rendered by the JSON family's program of its schema, so both encodings
// agree on every Go type by construction.

// JSONStyle tells the compiler what the flavours of the JSON encoding
// write differently. Package jsoncodec implements it.
type JSONStyle interface {
	// Index numbers the style, below JSONStyles, for the cache.
	Index() int
	// Direct reports whether the values of s may be written straight
	// from their Go values, as their plain Avro type; false sends them
	// through the binary encoding and Renderer.
	Direct(s *schema.Schema) bool
	// BranchOpen returns the text that opens branch i of union s, such
	// as `{"string":`, or nil when the branch is written bare.
	BranchOpen(s *schema.Schema, i int) []byte
	// NonFiniteOpen returns the text that opens branch i of union s, a
	// float or double written bare, when its value is NaN or an infinity
	// and must be tagged, as a string branch would read it; else nil.
	NonFiniteOpen(s *schema.Schema, i int) []byte
	// NumberOpen returns the text that opens branch i of union s, a
	// timestamp, date or time written bare, when it is written as a
	// number and must be tagged, as another branch would read it; else
	// nil.
	NumberOpen(s *schema.Schema, i int) []byte
	// Base64 reports whether bytes are written in base64 rather than as
	// code points.
	Base64() bool
	// Renderer returns the renderer of the binary datums of s.
	Renderer(s *schema.Schema) JSONRenderer
	// TextReader returns the reader of the JSON text of the values of s.
	TextReader(s *schema.Schema) JSONTextReader
}

// JSONStyles bounds JSONStyle.Index.
const JSONStyles = 32

// JSONRenderer appends the JSON text of the binary datum bin to dst. Its
// errors are *Error.
type JSONRenderer interface {
	AppendJSON(dst, bin []byte, o *DecodeOptions) ([]byte, error)
}

// jsonEncoder appends the JSON text of the Go value at p to j.Buf.
type jsonEncoder interface {
	encodeJSON(p pointer, j *jsonState)
}

// jsonState is the state of one JSON encode: the text in Buf, with the
// error, its path and the depth left as a binary encode keeps them.
type jsonState struct {
	wire.Encoder
	// outMax bounds Buf when Decode.MaxAlloc is set.
	outMax      int
	validateUTF bool
	// bin is the binary encode of the nodes rendered through it.
	bin encodeState
	// dopts are the options of the renderers; a copy, so that the
	// caller's options do not escape.
	dopts DecodeOptions
	// touched keeps the bytes that structs load ahead (see touch).
	touched byte
}

var jsonStatePool = sync.Pool{New: func() any { return new(jsonState) }}

// grown checks the text against its bound; containers call it per item.
func (j *jsonState) grown() bool {
	if len(j.Buf) > j.outMax {
		j.Failf(ErrLimit, "JSON text larger than the allocation limit")
		return false
	}
	return true
}

// StyleSlots holds one value per JSONStyle index, each made on first
// use; the JSON family keeps its programs in them, and the JSON encoders
// of a Go type are kept so too.
type StyleSlots[T any] struct {
	p  [JSONStyles]atomic.Pointer[T]
	mu sync.Mutex
}

// Get returns the value of slot i, made by newValue if there is none yet.
func (s *StyleSlots[T]) Get(i int, newValue func() *T) *T {
	slot := &s.p[i&(JSONStyles-1)]
	if v := slot.Load(); v != nil {
		return v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v := slot.Load(); v != nil {
		return v
	}
	v := newValue()
	slot.Store(v)
	return v
}

type jsonCompiled struct {
	enc jsonEncoder
	// any is the encoder of a generic value at the top.
	any jsonAnyEncoder
	err error
}

// AppendJSON appends the JSON text of v for s, in style st, to dst. ok is
// false, with nothing done, when v is of a shape the JSON encoders do not
// start from (a nil pointer, a map other than map[string]any, a value an
// interface holds in its data word): the caller renders v's binary
// encoding instead. Errors are *Error and *TypeError.
func AppendJSON(dst []byte, s *schema.Schema, v any, st JSONStyle, eo *EncodeOptions, do *DecodeOptions) (out []byte, ok bool, err error) {
	ef := efaceOf(&v)
	if s == nil || ef.typ.isNil() {
		return dst, false, nil
	}
	t := reflect.TypeOf(v)
	if t == stringAnyMapType || t == anySliceType {
		return appendGenericJSON(dst, s, v, ef.typ, t, st, eo, do)
	}
	// The binary encoder the JSON one is compiled from is looked up only
	// to compile it: a second cache lookup a call would cost 5% of
	// encoding a 10-field record.
	family := familyJSONEncoder
	switch {
	case t.Kind() == reflect.Pointer && !ef.data.isNil():
		family = familyJSONElemEncoder
	case isDirectIface(t):
		return dst, false, nil
	}
	entry := cachedFor(s, family, ef.typ, func() *StyleSlots[jsonCompiled] { return new(StyleSlots[jsonCompiled]) })
	jc := (*entry).Get(st.Index(), func() *jsonCompiled {
		enc, _, _, err := topEncoder(s, &v)
		if err != nil {
			return &jsonCompiled{err: err}
		}
		return compileJSON(s, enc, st)
	})
	if jc.err != nil {
		return dst, true, jc.err
	}
	p := ef.data
	out, err = runJSON(dst, eo, do, func(j *jsonState) { jc.enc.encodeJSON(p, j) })
	return out, true, err
}

// appendGenericJSON is AppendJSON for a map[string]any or []any v of type
// t, whose type word is typ.
func appendGenericJSON(dst []byte, s *schema.Schema, v any, typ typeWord, t reflect.Type, st JSONStyle, eo *EncodeOptions, do *DecodeOptions) ([]byte, bool, error) {
	entry := cachedFor(s, familyJSONEncoder, typ, func() *StyleSlots[jsonCompiled] { return new(StyleSlots[jsonCompiled]) })
	jc := (*entry).Get(st.Index(), func() *jsonCompiled {
		enc, err := cachedEncoder(s, typ, t)
		if err != nil {
			return &jsonCompiled{err: err}
		}
		gs, ok := enc.(genericShapeCodec)
		if !ok {
			return &jsonCompiled{} // rendered from binary
		}
		return compileJSONAny(s, gs.any.n, st)
	})
	switch {
	case jc.err != nil:
		return dst, true, jc.err
	case jc.any == nil:
		return dst, false, nil
	}
	out, err := runJSON(dst, eo, do, func(j *jsonState) { jc.any.encodeJSONAny(v, j) })
	return out, true, err
}

// runJSON runs one JSON encode, write, appending to dst.
func runJSON(dst []byte, eo *EncodeOptions, do *DecodeOptions, write func(j *jsonState)) ([]byte, error) {
	j := jsonStatePool.Get().(*jsonState)
	j.Buf = dst
	j.outMax = math.MaxInt
	if do.MaxAlloc > 0 {
		j.outMax = len(dst) + int(min(do.MaxAlloc, int64(math.MaxInt-len(dst))))
	}
	j.DepthLeft = eo.maxDepth()
	j.validateUTF = do.ValidateUTF8
	j.dopts = *do
	j.bin.MaxDecimalScale = eo.maxDecimalScale()
	write(j)
	out, err := j.Buf, marshalError(&j.Encoder)
	j.Buf, j.Err, j.Path = nil, nil, j.Path[:0]
	if cap(j.bin.Buf) > maxPooledBuffer {
		j.bin.Buf = nil
	}
	jsonStatePool.Put(j)
	if err != nil {
		return dst, err
	}
	return out, nil
}
