package avrojson

import (
	"fmt"
	"sync"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/jsoncodec"
	"github.com/avrogo/avro/schema"
)

// Marshal returns the Avro JSON encoding of v for schema s. v may be any
// Go value that avro.Marshal takes for s, with the same type mapping:
// structs, maps, slices, any, value.Value, registered interfaces and the
// Go types of logical types.
func Marshal(s *schema.Schema, v any) ([]byte, error) { return Options{}.Marshal(s, v) }

// Append appends the Avro JSON encoding of v for schema s to dst.
func Append(dst []byte, s *schema.Schema, v any) ([]byte, error) {
	return Options{}.Append(dst, s, v)
}

// Marshal returns the JSON text of v for schema s in the options' style.
func (o Options) Marshal(s *schema.Schema, v any) ([]byte, error) {
	// The text is written in a pooled buffer and copied out at its size:
	// one allocation, where growing a new slice would take several.
	b := getBuffer()
	defer putBuffer(b)
	out, err := o.Append((*b)[:0], s, v)
	*b = out
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), out...), nil
}

// Append appends the JSON text of v for schema s, in the options' style,
// to dst and returns the extended slice. It does not allocate when dst has
// room and avro.Append would not allocate for v. On error dst is returned
// unchanged in length.
//
// Go types map to Avro types exactly as in avro.Marshal: the JSON encoder
// of a Go type is compiled from its binary encoder, writing structs,
// slices, maps of strings, pointers and the primitive kinds straight from
// the Go value and the other values through their binary encoding.
// Errors are those of avro.Marshal, and *avro.Error for JSON text that
// would exceed Decode.MaxAlloc or, with Decode.ValidateUTF8, a string that
// is not UTF-8.
func (o Options) Append(dst []byte, s *schema.Schema, v any) ([]byte, error) {
	if err := o.check(s); err != nil {
		return dst, err
	}
	eo := codec.EncodeOptions(o.Encode)
	if out, ok, err := codec.AppendJSON(dst, s, v, jsoncodec.StyleOf(o.flavor()), &eo, o.decodeOptions()); ok {
		if err != nil {
			return dst, publicError(err, false)
		}
		return out, nil
	}
	buf := getBuffer()
	defer putBuffer(buf)
	bin, err := o.Encode.Append((*buf)[:0], s, v)
	*buf = bin
	if err != nil {
		return dst, err
	}
	out, _, err := o.program(s).ToJSON(dst, bin, o.decodeOptions(), "marshal")
	if err != nil {
		return dst, publicError(err, false)
	}
	return out, nil
}

// BinaryToJSON appends the JSON text of the Avro binary datum data of
// schema s to dst, without Go values. For a schema that schema.Resolve
// returned, data is written with the writer's schema and the text has the
// reader's shape. The datum must fill data; bad or hostile data is an
// *avro.Error with the path and the offset in data, under the limits of
// Decode. Every entry of a map is written as the datum holds it: a key
// that the binary repeats (which binary decoders read as its last value)
// is repeated in the text, which the JSON readers refuse as a duplicate.
func BinaryToJSON(dst []byte, s *schema.Schema, data []byte) ([]byte, error) {
	return Options{}.BinaryToJSON(dst, s, data)
}

// BinaryToJSON is the package's BinaryToJSON in the options' style.
func (o Options) BinaryToJSON(dst []byte, s *schema.Schema, data []byte) ([]byte, error) {
	if err := o.check(s); err != nil {
		return dst, err
	}
	resolved := s.Writer() != nil
	if resolved {
		buf := getBuffer()
		defer putBuffer(buf)
		bin, err := jsoncodec.ToReader((*buf)[:0], s, data, o.decodeOptions(), "unmarshal")
		*buf = bin
		if err != nil {
			return dst, publicError(err, false)
		}
		data = bin
	}
	out, n, err := o.program(s).ToJSON(dst, data, o.decodeOptions(), "unmarshal")
	if err == nil && n != len(data) {
		err = &codec.Error{Op: "unmarshal", Offset: int64(n), Err: fmt.Errorf("%w: %d bytes after the datum", avro.ErrInvalid, len(data)-n)}
	}
	if err != nil {
		// The offsets of a resolved datum's errors here are in the
		// reader's rewrite, not in data.
		return dst, publicError(err, resolved)
	}
	return out, nil
}

var bufferPool = sync.Pool{New: func() any { return new([]byte) }}

func getBuffer() *[]byte { return bufferPool.Get().(*[]byte) }

// putBuffer returns a scratch buffer to the pool unless it grew large, so
// that one huge datum does not pin its memory.
func putBuffer(b *[]byte) {
	if cap(*b) > 1<<20 {
		*b = nil
	}
	bufferPool.Put(b)
}

// publicError gives engine errors the avro package's types; noOffset
// drops an offset that is not one in the caller's input.
func publicError(err error, noOffset bool) error {
	switch e := err.(type) {
	case *codec.Error:
		pe := (*avro.Error)(e)
		if noOffset {
			pe.Offset = -1
		}
		return pe
	case *codec.TypeError:
		return (*avro.TypeError)(e)
	case *codec.InvalidUnmarshalError:
		return (*avro.InvalidUnmarshalError)(e)
	}
	return err
}
