package codec

import (
	"errors"
	"reflect"
	"sync/atomic"

	"github.com/avrogo/avro/internal/cache"
	"github.com/avrogo/avro/schema"
)

// Codecs are compiled once per (schema node, Go type) and kept in the
// schema's own cache, so a decode costs one atomic load and one map lookup
// before the first byte is read, and a schema that is garbage collected
// takes its codecs with it. Every key of that cache is made here: a family
// says what an entry holds, and the Go type, when it has one, whom for.

// Family is the kind of an entry of a schema's cache.
type Family uint8

const (
	// familyDecoder holds the decoder into the element of a pointer
	// type, keyed by the pointer type (what Unmarshal is given).
	familyDecoder Family = iota + 1
	// familyEncoder holds the encoder of a Go type.
	familyEncoder
	// familyElemEncoder holds the encoder of a pointer's element, keyed
	// by the pointer type.
	familyElemEncoder
	// familyTranscoder holds a resolved schema's transcoder; no Go type.
	familyTranscoder
	// FamilyResolvedByFingerprint holds, in a reader schema's cache, the
	// writer schemas of single-object data resolved against it, by
	// writer fingerprint; no Go type.
	FamilyResolvedByFingerprint
	// FamilyResolvedSameFingerprint holds the writers that have the
	// reader's fingerprint, by writer schema; no Go type.
	FamilyResolvedSameFingerprint
	// FamilyJSON holds the JSON programs of a schema node, one per
	// flavour of the encoding; no Go type.
	FamilyJSON
	// familyJSONEncoder holds the JSON encoders of a Go type, one per
	// style of the encoding.
	familyJSONEncoder
	// familyJSONElemEncoder holds the JSON encoders of a pointer's
	// element, keyed by the pointer type.
	familyJSONElemEncoder
	// familyJSONDecoder holds the JSON decoders into the element of a
	// pointer type, one per style of the encoding, keyed by the pointer
	// type.
	familyJSONDecoder
)

// Cached returns the entry of family f in the cache of s, made by compile
// on first use, for the families whose entries are not per Go type. Two
// goroutines that compile at once agree on one result.
func Cached[T any](s *schema.Schema, f Family, compile func() T) *T {
	return cachedFor(s, f, typeWord{}, compile)
}

// cachedFor is Cached for the entry of family f for the Go type rtype.
func cachedFor[T any](s *schema.Schema, f Family, rtype typeWord, compile func() T) *T {
	c := cache.Of(s)
	key := cacheKey(f, rtype)
	if e, ok := c.Load(key); ok {
		return e.(*T)
	}
	v := compile()
	return c.LoadOrStore(key, &v).(*T)
}

// compilations counts the codecs compiled for Go values, so that tests
// can tell a cache hit from a compile.
var compilations atomic.Int64

// Compile compiles, into the cache of s, the codecs that Marshal and
// Unmarshal use for values of Go type t: the encoder of a t and of the
// element of a *t, and the decoder into a *t (for a pointer t, also those
// of its element). It returns the first error of those codecs, the
// encoder's before the decoder's, as Marshal or Unmarshal would.
func Compile(s *schema.Schema, t reflect.Type) error {
	if s == nil {
		return ErrNilSchema
	}
	word := func(t reflect.Type) typeWord { return eTypeOf(reflect.Zero(t).Interface()) }
	pt := reflect.PointerTo(t)
	var encErr, decErr error
	keep := func(dst *error, err error) {
		if *dst == nil {
			*dst = err
		}
	}
	if t.Kind() != reflect.Interface {
		_, err := cachedEncoder(s, word(t), t)
		keep(&encErr, err)
	}
	_, err := cachedEncoderOfElem(s, word(pt), pt)
	keep(&encErr, err)
	_, err = cachedDecoderOfPtr(s, word(pt), reflect.Zero(pt).Interface())
	keep(&decErr, err)
	if t.Kind() == reflect.Pointer {
		_, err = cachedEncoderOfElem(s, word(t), t)
		keep(&encErr, err)
		_, err = cachedDecoderOfPtr(s, word(t), reflect.Zero(t).Interface())
		keep(&decErr, err)
	}
	if encErr != nil {
		return encErr
	}
	return decErr
}

type decoderEntry struct {
	dec decoder
	err error
}

type encoderEntry struct {
	enc encoder
	err error
}

// ErrNilSchema is the error for a nil *schema.Schema.
var ErrNilSchema = errors.New("avro: nil schema")

// cachedEncoder returns the encoder of s from the Go type t, whose
// runtime type pointer is rtype.
func cachedEncoder(s *schema.Schema, rtype typeWord, t reflect.Type) (encoder, error) {
	e := cachedFor(s, familyEncoder, rtype, func() encoderEntry {
		compilations.Add(1)
		enc, err := newCompiler().encoderFor(s, t, "")
		return encoderEntry{enc, err}
	})
	return e.enc, e.err
}

// cachedEncoderOfElem returns the encoder of s from the element of the
// pointer type t, whose runtime type pointer is rtype.
func cachedEncoderOfElem(s *schema.Schema, rtype typeWord, t reflect.Type) (encoder, error) {
	e := cachedFor(s, familyElemEncoder, rtype, func() encoderEntry {
		compilations.Add(1)
		enc, err := newCompiler().encoderFor(s, t.Elem(), "")
		return encoderEntry{enc, err}
	})
	return e.enc, e.err
}

// topDecoder returns the decoder for the value v points at. v must be a
// non-nil pointer.
func topDecoder(s *schema.Schema, v *any) (decoder, pointer, error) {
	p, err := targetOf(s, v)
	if err != nil {
		return nil, pointer{}, err
	}
	// The cache is keyed by the pointer type; the decoder works on its
	// element.
	dec, err := cachedDecoderOfPtr(s, efaceOf(v).typ, *v)
	if err != nil {
		return nil, pointer{}, err
	}
	return dec, p, nil
}

// targetOf returns the pointer in *v that a decode of s writes through,
// or the error of a target that is nil.
func targetOf(s *schema.Schema, v *any) (pointer, error) {
	if s == nil {
		return pointer{}, ErrNilSchema
	}
	ef := efaceOf(v)
	if ef.typ.isNil() {
		return pointer{}, &InvalidUnmarshalError{Type: nil}
	}
	// A nil pointer first, as encoding/json checks it: before, a nil
	// pointer to a type that cannot hold the schema was a *TypeError.
	if ef.data.isNil() {
		return pointer{}, &InvalidUnmarshalError{Type: reflect.TypeOf(*v)}
	}
	return ef.data, nil
}

func cachedDecoderOfPtr(s *schema.Schema, rtype typeWord, v any) (decoder, error) {
	e := cachedFor(s, familyDecoder, rtype, func() decoderEntry {
		compilations.Add(1)
		t := reflect.TypeOf(v)
		if t.Kind() != reflect.Pointer {
			return decoderEntry{err: &InvalidUnmarshalError{Type: t}}
		}
		dec, err := newCompiler().topDecoder(s, t.Elem())
		return decoderEntry{dec, err}
	})
	return e.dec, e.err
}

// InvalidUnmarshalError describes an invalid argument passed to Unmarshal
// or Decode: it must be a non-nil pointer.
type InvalidUnmarshalError struct {
	Type reflect.Type // the type of the argument; nil for a nil interface
}

// Error names the argument's type, as encoding/json does:
// "avro: Unmarshal(non-pointer T)" or "avro: Unmarshal(nil *T)".
func (e *InvalidUnmarshalError) Error() string {
	if e.Type == nil {
		return "avro: Unmarshal(nil)"
	}
	if e.Type.Kind() != reflect.Pointer {
		return "avro: Unmarshal(non-pointer " + e.Type.String() + ")"
	}
	return "avro: Unmarshal(nil " + e.Type.String() + ")"
}
