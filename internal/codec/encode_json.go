package codec

import (
	"fmt"
	"math"
	"reflect"
	"sync"
	"sync/atomic"

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
	// Base64 reports whether bytes are written in base64 rather than as
	// code points.
	Base64() bool
	// Renderer returns the renderer of the binary datums of s.
	Renderer(s *schema.Schema) JSONRenderer
}

// JSONStyles bounds JSONStyle.Index.
const JSONStyles = 32

// JSONRenderer appends the JSON text of the binary datum bin to dst. Its
// errors are *Error.
type JSONRenderer interface {
	AppendJSON(dst, bin []byte, o *DecodeOptions) ([]byte, error)
}

// jsonEncoder appends the JSON text of the Go value at p to j.out.
type jsonEncoder interface {
	encodeJSON(p pointer, j *jsonState)
}

// jsonState is the state of one JSON encode.
type jsonState struct {
	out []byte
	// outMax bounds out when Decode.MaxAlloc is set.
	outMax      int
	depthLeft   int
	validateUTF bool
	err         error
	// path holds the steps of the error, innermost first.
	path []string
	// bin is the binary encode of the nodes rendered through it.
	bin encodeState
	// dopts are the options of the renderers; a copy, so that the
	// caller's options do not escape.
	dopts DecodeOptions
}

var jsonStatePool = sync.Pool{New: func() any { return new(jsonState) }}

func (j *jsonState) enter() bool {
	j.depthLeft--
	if j.depthLeft < 0 {
		j.fail(ErrLimit, "value nested deeper than the maximum depth (a value that contains itself?)")
		return false
	}
	return true
}

func (j *jsonState) leave() { j.depthLeft++ }

func (j *jsonState) fail(sentinel error, msg string) {
	if j.err == nil {
		j.err = fmt.Errorf("%w: %s", sentinel, msg)
	}
}

// grown checks the text against its bound; containers call it per item.
func (j *jsonState) grown() bool {
	if len(j.out) > j.outMax {
		j.fail(ErrLimit, "JSON text larger than the allocation limit")
		return false
	}
	return true
}

// jsonEntry holds the JSON encoders of one (schema, Go type), by style.
type jsonEntry struct {
	p  [JSONStyles]atomic.Pointer[jsonCompiled]
	mu sync.Mutex
}

type jsonCompiled struct {
	enc jsonEncoder
	err error
}

// AppendJSON appends the JSON text of v for s, in style st, to dst. ok is
// false, with nothing done, when v is of a shape the JSON encoders do not
// start from (a nil pointer, a map, a generic value at the top): the
// caller renders v's binary encoding instead. Errors are *Error and
// *TypeError.
func AppendJSON(dst []byte, s *schema.Schema, v any, st JSONStyle, eo *EncodeOptions, do *DecodeOptions) (out []byte, ok bool, err error) {
	ef := efaceOf(&v)
	if s == nil || ef.typ.isNil() {
		return dst, false, nil
	}
	t := reflect.TypeOf(v)
	if t == stringAnyMapType || t == anySliceType {
		return dst, false, nil
	}
	var family Family
	var enc encoder
	switch {
	case t.Kind() == reflect.Pointer && !ef.data.isNil():
		family = familyJSONElemEncoder
		enc, err = cachedEncoderOfElem(s, ef.typ, t)
	case t.Kind() == reflect.Map || t.Kind() == reflect.Pointer || t.Kind() == reflect.Chan ||
		t.Kind() == reflect.Func || t.Kind() == reflect.UnsafePointer || isDirectIface(t):
		return dst, false, nil
	default:
		family = familyJSONEncoder
		enc, err = cachedEncoder(s, ef.typ, t)
	}
	if err != nil {
		return dst, true, err
	}
	entry := cachedFor(s, family, ef.typ, func() *jsonEntry { return new(jsonEntry) })
	slot := &(*entry).p[st.Index()&(JSONStyles-1)]
	jc := slot.Load()
	if jc == nil {
		(*entry).mu.Lock()
		if jc = slot.Load(); jc == nil {
			jc = compileJSON(s, enc, st)
			slot.Store(jc)
		}
		(*entry).mu.Unlock()
	}
	if jc.err != nil {
		return dst, true, jc.err
	}
	j := jsonStatePool.Get().(*jsonState)
	j.out = dst
	j.outMax = math.MaxInt
	if do.MaxAlloc > 0 {
		j.outMax = len(dst) + int(min(do.MaxAlloc, int64(math.MaxInt-len(dst))))
	}
	j.depthLeft = eo.maxDepth()
	j.validateUTF = do.ValidateUTF8
	j.dopts = *do
	j.bin.MaxDecimalScale = eo.maxDecimalScale()
	jc.enc.encodeJSON(ef.data, j)
	out = j.out
	if j.err != nil {
		err = &Error{Op: "marshal", Path: formatPath(j.path), Offset: -1, Err: j.err}
	}
	j.out, j.err, j.path = nil, nil, j.path[:0]
	if cap(j.bin.Buf) > maxPooledBuffer {
		j.bin.Buf = nil
	}
	jsonStatePool.Put(j)
	if err != nil {
		return dst, true, err
	}
	return out, true, nil
}
