package avro

import (
	"io"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// Unmarshal decodes one datum of schema s from data into the value v
// points at. v must be a non-nil pointer. Bytes left over after the datum
// are an error (ErrInvalid); to read datums back to back use a Decoder.
//
// See the package documentation for how Avro types map to Go types. Bad
// input returns an *Error wrapping ErrTruncated, ErrInvalid, ErrLimit or
// ErrRange, with the path of the value and the byte offset; a Go type that
// cannot represent the schema returns a *TypeError before any byte is
// read. Unmarshal applies the default DecodeOptions limits.
func Unmarshal(s *schema.Schema, data []byte, v any) error {
	return publicError(codec.Unmarshal(s, data, v))
}

// UnmarshalNext decodes the datum of schema s at the start of data into the
// value v points at, and returns the bytes after it. Unlike Unmarshal,
// bytes left over are not an error: this is how a caller walks datums
// written back to back in a buffer it already holds (the records of an
// object container block, for example) without copying them. An empty
// data is ErrTruncated unless the schema encodes to zero bytes.
//
// Errors are those of Unmarshal; on error rest is data, unchanged. The
// default DecodeOptions limits apply to the datum, with the allocation
// limit computed from len(data).
func UnmarshalNext(s *schema.Schema, data []byte, v any) (rest []byte, err error) {
	rest, err = codec.UnmarshalNext(s, data, v)
	return rest, publicError(err)
}

// A Decoder reads datums of one schema written back to back on a stream,
// with no header and no framing (the "raw" Avro stream of, for example,
// Avro's own person-10.avro.raw test file). A Decoder is not safe for
// concurrent use.
type Decoder struct {
	d *codec.Decoder
}

// NewDecoder returns a Decoder that reads datums of schema s from r with
// the default limits.
func NewDecoder(r io.Reader, s *schema.Schema) *Decoder {
	return DecodeOptions{}.NewDecoder(r, s)
}

// Decode reads the next datum into the value v points at. It returns
// io.EOF when the stream ends between datums, and an *Error wrapping
// ErrTruncated (which matches io.ErrUnexpectedEOF) when it ends inside
// one. A datum may be as large as DecodeOptions.MaxLength; the Decoder
// buffers one datum at a time. An error of the io.Reader is returned as it
// is; a reader that returns no bytes and no error 100 times in a row is
// io.ErrNoProgress.
//
// The datums of one Decoder share a budget of zero-size items: each may
// use MaxZeroSizeItems, and the stream as a whole MaxZeroSizeItems plus
// 64 (or MaxZeroSizeItems/16384 when that is more) per byte decoded, so
// that a stream of five-byte datums that each declare a million nulls is
// ErrLimit after a few of them rather than a million items per five bytes.
// Likewise for the reader defaults that a resolved schema fills in (see
// DecodeOptions.MaxAlloc).
func (dec *Decoder) Decode(v any) error { return publicError(dec.d.Decode(v)) }

// Raw reads the next datum without decoding it and returns its bytes: the
// binary datum as the stream holds it (in the writer's schema when the
// Decoder's schema is one that schema.Resolve returned), for
// avrojson.BinaryToJSON or to pass on. It returns io.EOF and errors as
// Decode does, under the same limits: the datum is framed by reading past
// it, which checks its lengths, counts, union indexes and enum symbols,
// but not its strings or logical values. The bytes are the Decoder's
// buffer: they stay valid until the next call of Decode or Raw.
func (dec *Decoder) Raw() ([]byte, error) {
	b, err := dec.d.Raw()
	return b, publicError(err)
}
