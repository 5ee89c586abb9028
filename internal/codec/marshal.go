package codec

import (
	"io"
	"reflect"
	"sync"

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

// maxPooledBuffer keeps an occasional huge datum from pinning its buffer.
const maxPooledBuffer = 64 << 10

func marshal(o *EncodeOptions, s *schema.Schema, v any) ([]byte, error) {
	return encodeValue(o, nil, s, v, true)
}

// Append appends the Avro binary encoding of v for schema s to dst and
// returns the extended slice. It does not allocate when dst has room and v
// is a pointer to a struct, or any value that is not pointer-shaped, with
// one exception: a decimal from a big.Rat allocates as it is scaled. On
// error dst is returned unchanged in length.
func Append(dst []byte, s *schema.Schema, v any) ([]byte, error) {
	return appendValue(&defaultEncodeOptions, dst, s, v)
}

func appendValue(o *EncodeOptions, dst []byte, s *schema.Schema, v any) ([]byte, error) {
	return encodeValue(o, dst, s, v, false)
}

// encodeValue appends the encoding of v to dst; with exact (Marshal) it
// encodes into the pooled state's scratch buffer instead and returns an
// exact-size copy: one allocation, where growing a nil slice would take
// several.
func encodeValue(o *EncodeOptions, dst []byte, s *schema.Schema, v any, exact bool) ([]byte, error) {
	if s == nil {
		return dst, ErrNilSchema
	}
	if efaceOf(&v).typ.isNil() {
		// An untyped nil: the null branch of a union, or null.
		var x any
		v = &x
	}
	var enc encoder
	var p pointer
	var err error
	var indirect bool
	t := reflect.TypeOf(v)
	generic := t == stringAnyMapType || t == anySliceType
	if generic {
		enc, err = cachedEncoder(s, efaceOf(&v).typ, t)
	} else {
		enc, p, indirect, err = topEncoder(s, &v)
	}
	if err != nil {
		return dst, err
	}
	e := newEncodeState(o, dst)
	if indirect {
		// The encoder takes the address of the value: the interface's
		// data word, kept in the pooled state rather than a new variable.
		e.top = p
		p = pointerTo(&e.top)
	}
	if exact {
		if e.scratch == nil {
			e.scratch = make([]byte, 0, 1024)
		}
		e.Buf = e.scratch[:0]
	}
	if !generic {
		enc.encode(p, e)
	} else if gc, ok := enc.(genericShapeCodec); ok {
		// The generic shapes encode from the interface value itself, so
		// the map or slice header needs no addressable (heap) copy.
		gc.any.n.encodeAny(v, e)
	} else {
		// The encoder takes the address of the value. A []any's data word
		// is that (of a boxed slice header); a map's is the map itself,
		// which as an address read an empty map as nil and a full one as
		// garbage (a union of null and a map wrote null, or crashed).
		x := v
		p = efaceOf(&x).data
		if t.Kind() == reflect.Map {
			e.top = p
			p = pointerTo(&e.top)
		}
		enc.encode(p, e)
	}
	out, err := e.Buf, e.toError()
	if exact {
		if err == nil {
			// A plain name as copy's source lets the compiler fuse the
			// two into one call that skips zeroing the new slice.
			encoded := e.Buf
			out = make([]byte, len(encoded))
			copy(out, encoded)
		}
		if cap(e.Buf) <= maxPooledBuffer {
			e.scratch = e.Buf[:0]
		}
	}
	e.release()
	if err != nil {
		return dst, err
	}
	return out, nil
}

// topEncoder returns the encoder for v and the pointer it works on. A
// non-nil pointer is encoded through its element, so encoding &rec
// allocates nothing. For other pointer-shaped values (maps, nil pointers)
// it returns the interface's data word itself, with indirect set: the
// encoder needs its address.
func topEncoder(s *schema.Schema, v *any) (enc encoder, p pointer, indirect bool, err error) {
	ef := efaceOf(v)
	t := reflect.TypeOf(*v)
	if t.Kind() == reflect.Pointer && !ef.data.isNil() {
		enc, err := cachedEncoderOfElem(s, ef.typ, t)
		return enc, ef.data, false, err
	}
	enc, err = cachedEncoder(s, ef.typ, t)
	if err != nil {
		return nil, pointer{}, false, err
	}
	indirect = t.Kind() == reflect.Map || t.Kind() == reflect.Pointer || t.Kind() == reflect.Chan ||
		t.Kind() == reflect.Func || t.Kind() == reflect.UnsafePointer || isDirectIface(t)
	return enc, ef.data, indirect, nil
}

// isDirectIface reports whether an interface holding a value of type t
// stores the value itself in its data word, rather than a pointer to it.
// Which structs and arrays the runtime stores so changes between Go
// releases (Go 1.26 counts a struct of one pointer and zero-size fields,
// which a rule of "one field" read as a pointer to the struct: wrong bytes
// or a crash), so the runtime is asked, once per type: a zero value of
// such a type has a nil data word, where the data word of every other
// type points at a copy.
func isDirectIface(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Struct, reflect.Array:
		if t.Size() != sizeOf[uintptr]() {
			return false
		}
		if d, ok := directIfaceTypes.Load(t); ok {
			return d.(bool)
		}
		zero := reflect.Zero(t).Interface()
		d := efaceOf(&zero).data.isNil()
		directIfaceTypes.Store(t, d)
		return d
	}
	return false
}

// directIfaceTypes caches isDirectIface for pointer-sized structs and
// arrays.
var directIfaceTypes sync.Map // reflect.Type -> bool

// An Encoder writes datums of one schema back to back on a stream, with no
// header and no framing. An Encoder is not safe for concurrent use.
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
