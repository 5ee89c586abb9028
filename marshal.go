package avro

import (
	"io"
	"reflect"
	"sync"
	"unsafe"

	"github.com/avrogo/avro/internal/cache"
	"github.com/avrogo/avro/schema"
)

// Marshal returns the Avro binary encoding of v for schema s.
//
// See the package documentation for how Go types map to Avro types. A Go
// type that cannot represent the schema returns a *TypeError; a value that
// does not fit it (an integer out of range, a nil pointer where the schema
// has no null, ...) returns an *Error wrapping ErrRange or ErrLimit.
func Marshal(s *schema.Schema, v any) ([]byte, error) {
	return marshal(&defaultEncodeOptions, s, v)
}

// marshalBuffers holds scratch buffers for Marshal, which encodes into one
// and returns an exact-size copy: one allocation, where growing a nil
// slice would take several.
var marshalBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// maxPooledBuffer keeps an occasional huge datum from pinning its buffer.
const maxPooledBuffer = 64 << 10

func marshal(o *EncodeOptions, s *schema.Schema, v any) ([]byte, error) {
	bp := marshalBuffers.Get().(*[]byte)
	buf, err := appendValue(o, (*bp)[:0], s, v)
	var out []byte
	if err == nil {
		out = make([]byte, len(buf))
		copy(out, buf)
	}
	if cap(buf) <= maxPooledBuffer {
		*bp = buf[:0]
	}
	marshalBuffers.Put(bp)
	return out, err
}

// Append appends the Avro binary encoding of v for schema s to dst and
// returns the extended slice. It does not allocate when dst has room and v
// is a pointer to a struct, or any value that is not pointer-shaped. On
// error dst is returned unchanged in length.
func Append(dst []byte, s *schema.Schema, v any) ([]byte, error) {
	return appendValue(&defaultEncodeOptions, dst, s, v)
}

func appendValue(o *EncodeOptions, dst []byte, s *schema.Schema, v any) ([]byte, error) {
	if s == nil {
		return dst, errNilSchema
	}
	ef := efaceOf(&v)
	if ef.typ == nil {
		return appendNil(o, dst, s)
	}
	if t := reflect.TypeOf(v); t == stringAnyMapType || t == anySliceType {
		// The generic shapes encode from the interface value itself, so
		// the map or slice header needs no addressable (heap) copy.
		enc, err := cachedEncoder(s, ef.typ, t)
		if err != nil {
			return dst, err
		}
		e := newEncodeState(o, dst)
		if gc, ok := enc.(genericShapeCodec); ok {
			gc.any.n.encodeAny(v, e)
		} else {
			x := v
			enc.encode(efaceOf(&x).data, e)
		}
		return finishAppend(e, dst)
	}
	enc, p, err := topEncoder(s, &v)
	if err != nil {
		return dst, err
	}
	e := newEncodeState(o, dst)
	enc.encode(p, e)
	return finishAppend(e, dst)
}

func finishAppend(e *encodeState, dst []byte) ([]byte, error) {
	out, err := e.buf, e.toError()
	e.release()
	if err != nil {
		return dst, err
	}
	return out, nil
}

// topEncoder returns the encoder for v and the pointer it works on. A
// non-nil pointer is encoded through its element, so encoding &rec
// allocates nothing; other pointer-shaped values (maps, nil pointers) are
// addressed through the interface's data word.
func topEncoder(s *schema.Schema, v *any) (encoder, unsafe.Pointer, error) {
	ef := efaceOf(v)
	t := reflect.TypeOf(*v)
	if t.Kind() == reflect.Pointer && ef.data != nil {
		enc, err := cachedEncoderOfElem(s, ef.typ, t)
		return enc, ef.data, err
	}
	enc, err := cachedEncoder(s, ef.typ, t)
	if err != nil {
		return nil, nil, err
	}
	if t.Kind() == reflect.Map || t.Kind() == reflect.Pointer || t.Kind() == reflect.Chan ||
		t.Kind() == reflect.Func || t.Kind() == reflect.UnsafePointer || isDirectIface(t) {
		data := ef.data
		return enc, unsafe.Pointer(&data), nil
	}
	return enc, ef.data, nil
}

// isDirectIface reports whether t is stored directly in an interface's
// data word (a struct or array holding a single pointer-shaped value).
func isDirectIface(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Struct:
		return t.NumField() == 1 && isDirectIface(t.Field(0).Type)
	case reflect.Array:
		return t.Len() == 1 && isDirectIface(t.Elem())
	}
	return false
}

// familyElemEncoder caches the encoder of a pointer's element under the
// pointer's type.
const familyElemEncoder uint8 = 3

func cachedEncoderOfElem(s *schema.Schema, rtype unsafe.Pointer, t reflect.Type) (encoder, error) {
	c := cache.ForSchema(unsafe.Pointer(s))
	key := cache.Key{Type: rtype, Family: familyElemEncoder}
	if e, ok := c.Load(key); ok {
		entry := e.(*encoderEntry)
		return entry.enc, entry.err
	}
	enc, err := newCompiler().encoderFor(s, t.Elem(), "")
	entry := c.LoadOrStore(key, &encoderEntry{enc, err}).(*encoderEntry)
	return entry.enc, entry.err
}

// appendNil encodes an untyped nil: the null branch of a union, or null.
func appendNil(o *EncodeOptions, dst []byte, s *schema.Schema) ([]byte, error) {
	var x any
	return appendValue(o, dst, s, &x)
}

// An Encoder writes datums of one schema back to back on a stream, with no
// header and no framing.
type Encoder struct {
	w    io.Writer
	s    *schema.Schema
	opts EncodeOptions
	buf  []byte
}

// NewEncoder returns an Encoder that writes datums of schema s to w.
func NewEncoder(w io.Writer, s *schema.Schema) *Encoder {
	return EncodeOptions{}.NewEncoder(w, s)
}

// NewEncoder returns an Encoder that uses these options.
func (o EncodeOptions) NewEncoder(w io.Writer, s *schema.Schema) *Encoder {
	return &Encoder{w: w, s: s, opts: o}
}

// Encode writes the encoding of v to the stream with one Write call.
func (enc *Encoder) Encode(v any) error {
	buf, err := appendValue(&enc.opts, enc.buf[:0], enc.s, v)
	if err != nil {
		return err
	}
	enc.buf = buf
	_, err = enc.w.Write(buf)
	return err
}
