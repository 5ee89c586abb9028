package avrojson

import (
	"fmt"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/jsoncodec"
	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/schema"
)

// Unmarshal reads the Avro JSON encoding of a datum of schema s from data
// into v, which must be a non-nil pointer to any Go type that
// avro.Unmarshal takes for s. For a schema that schema.Resolve returned,
// data is written with the writer's schema and v has the reader's shape.
//
// The text must hold one JSON value, with white space around it only.
// Bad text is an *avro.Error wrapping avro.ErrInvalid (or ErrTruncated,
// ErrLimit, ErrRange), with the path of the value and the byte offset in
// data. An error of the Go value (a number that does not fit an int8
// field) has the offset of the value's text, or of its record's when the
// record's fields are not in the schema's order; a syntax error anywhere in
// the text is reported before it, as encoding/json does. For a resolved
// schema, an error of the Go value has an Offset of -1. The decoded
// values never alias data, whatever Decode.ZeroCopy says.
func Unmarshal(s *schema.Schema, data []byte, v any) error { return Options{}.Unmarshal(s, data, v) }

// Unmarshal is the package's Unmarshal with these options.
func (o Options) Unmarshal(s *schema.Schema, data []byte, v any) error {
	if err := o.check(s); err != nil {
		return err
	}
	// The binary datums decoded are scratch.
	o.Decode.ZeroCopy = false
	if s.Writer() == nil {
		ro := o.readOptions()
		return publicError(codec.UnmarshalJSON(s, data, v, jsoncodec.StyleOf(o.flavor()), &ro), false)
	}
	o.limitByText(data)
	buf := getBuffer()
	defer putBuffer(buf)
	bin, err := o.readValue((*buf)[:0], writerOf(s), data)
	*buf = bin
	if err != nil {
		return err
	}
	return publicError(o.Decode.Unmarshal(s, bin, v), true)
}

// JSONToBinary appends the Avro binary datum of the JSON text data, a
// datum of schema s, to dst, without Go values. For a schema that
// schema.Resolve returned, the text is written with the writer's schema
// and the datum is in the reader's encoding.
func JSONToBinary(dst []byte, s *schema.Schema, data []byte) ([]byte, error) {
	return Options{}.JSONToBinary(dst, s, data)
}

// JSONToBinary is the package's JSONToBinary with these options.
func (o Options) JSONToBinary(dst []byte, s *schema.Schema, data []byte) ([]byte, error) {
	if err := o.check(s); err != nil {
		return dst, err
	}
	if s.Writer() == nil {
		return o.readValue(dst, s, data)
	}
	o.limitByText(data)
	buf := getBuffer()
	defer putBuffer(buf)
	bin, err := o.readValue((*buf)[:0], s.Writer(), data)
	*buf = bin
	if err != nil {
		return dst, err
	}
	out, err := jsoncodec.ToReader(dst, s, bin, o.decodeOptions(), "unmarshal")
	return out, publicError(err, true)
}

// readValue reads the one JSON value of data as a binary datum of s.
func (o Options) readValue(dst []byte, s *schema.Schema, data []byte) ([]byte, error) {
	ro := o.readOptions()
	out, n, err := o.program(s).FromJSON(dst, data, 0, &ro)
	if err != nil {
		return dst, publicError(err, false)
	}
	r := jsontext.Reader{Buf: data, Pos: n}
	if !r.End() {
		return dst, &avro.Error{Op: "unmarshal", Offset: int64(r.Pos), Err: fmt.Errorf("%w: data after the JSON value", avro.ErrInvalid)}
	}
	return out, nil
}

// limitByText fixes the allocation limit, unless the options set one, at
// what the JSON text allows. A read through a resolved schema decodes the
// binary datum of the text, which holds the writer's defaults that the
// text left out: limits of the binary's own length would grow with them,
// and a few bytes of text could fill the reader's defaults without end.
func (o *Options) limitByText(text []byte) {
	if o.Decode.MaxAlloc <= 0 {
		o.Decode.MaxAlloc = int64(len(text))*avro.DefaultAllocPerByte + avro.DefaultAllocFloor
	}
}

// writerOf returns the schema that JSON read for s is written with.
func writerOf(s *schema.Schema) *schema.Schema {
	if w := s.Writer(); w != nil {
		return w
	}
	return s
}
