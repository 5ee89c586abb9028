package avro

import (
	"errors"
	"reflect"
	"unsafe"

	"github.com/avrogo/avro/internal/cache"
	"github.com/avrogo/avro/schema"
)

// Codecs are compiled once per (schema node, Go type) and kept in the
// schema's own cache, so a decode costs one atomic load and one map lookup
// before the first byte is read, and a schema that is garbage collected
// takes its codecs with it.

const (
	familyDecoder uint8 = iota + 1
	familyEncoder
)

type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

func efaceOf(v *any) *eface { return (*eface)(unsafe.Pointer(v)) }

type decoderEntry struct {
	dec decoder
	err error
}

type encoderEntry struct {
	enc encoder
	err error
}

var errNilSchema = errors.New("avro: nil schema")

// cachedDecoder returns the decoder of s into the Go type t, whose runtime
// type pointer is rtype.
func cachedDecoder(s *schema.Schema, rtype unsafe.Pointer, t reflect.Type) (decoder, error) {
	c := cache.ForSchema(unsafe.Pointer(s))
	key := cache.Key{Type: rtype, Family: familyDecoder}
	if e, ok := c.Load(key); ok {
		entry := e.(*decoderEntry)
		return entry.dec, entry.err
	}
	dec, err := newCompiler().decoderFor(s, t, "")
	entry := c.LoadOrStore(key, &decoderEntry{dec, err}).(*decoderEntry)
	return entry.dec, entry.err
}

func cachedEncoder(s *schema.Schema, rtype unsafe.Pointer, t reflect.Type) (encoder, error) {
	c := cache.ForSchema(unsafe.Pointer(s))
	key := cache.Key{Type: rtype, Family: familyEncoder}
	if e, ok := c.Load(key); ok {
		entry := e.(*encoderEntry)
		return entry.enc, entry.err
	}
	enc, err := newCompiler().encoderFor(s, t, "")
	entry := c.LoadOrStore(key, &encoderEntry{enc, err}).(*encoderEntry)
	return entry.enc, entry.err
}

// topDecoder returns the decoder for the value v points at. v must be a
// non-nil pointer.
func topDecoder(s *schema.Schema, v *any) (decoder, unsafe.Pointer, error) {
	if s == nil {
		return nil, nil, errNilSchema
	}
	ef := efaceOf(v)
	if ef.typ == nil {
		return nil, nil, &InvalidUnmarshalError{Type: nil}
	}
	// A nil pointer first, as encoding/json checks it: before, a nil
	// pointer to a type that cannot hold the schema was a *TypeError.
	if ef.data == nil {
		return nil, nil, &InvalidUnmarshalError{Type: reflect.TypeOf(*v)}
	}
	// The cache is keyed by the pointer type; the decoder works on its
	// element.
	dec, err := cachedDecoderOfPtr(s, ef.typ, *v)
	if err != nil {
		return nil, nil, err
	}
	return dec, ef.data, nil
}

func cachedDecoderOfPtr(s *schema.Schema, rtype unsafe.Pointer, v any) (decoder, error) {
	c := cache.ForSchema(unsafe.Pointer(s))
	key := cache.Key{Type: rtype, Family: familyDecoder}
	if e, ok := c.Load(key); ok {
		entry := e.(*decoderEntry)
		return entry.dec, entry.err
	}
	t := reflect.TypeOf(v)
	var entry *decoderEntry
	if t.Kind() != reflect.Pointer {
		entry = &decoderEntry{err: &InvalidUnmarshalError{Type: t}}
	} else {
		dec, err := newCompiler().decoderFor(s, t.Elem(), "")
		// Schema resolution (codec_resolve.go): a schema returned by
		// schema.Resolve reads the writer's bytes through a transcoder.
		if err == nil && s.Writer() != nil {
			dec = resolvedDecoderFor(s, dec)
		}
		entry = &decoderEntry{dec, err}
	}
	entry = c.LoadOrStore(key, entry).(*decoderEntry)
	return entry.dec, entry.err
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
