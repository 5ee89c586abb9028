package avro

import (
	"io"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// Marshal returns the Avro binary encoding of v for schema s.
//
// See the package documentation for how Go types map to Avro types. A Go
// type that cannot represent the schema returns a *TypeError; a value that
// does not fit it (an integer out of range, a nil pointer where the schema
// has no null, ...) returns an *Error wrapping ErrRange or ErrLimit.
func Marshal(s *schema.Schema, v any) ([]byte, error) {
	out, err := codec.Marshal(s, v)
	return out, publicError(err)
}

// Append appends the Avro binary encoding of v for schema s to dst and
// returns the extended slice. It does not allocate when dst has room and v
// is a pointer to a struct, or any value that is not pointer-shaped, with
// one exception: a decimal from a big.Rat allocates as it is scaled. On
// error dst is returned unchanged in length.
func Append(dst []byte, s *schema.Schema, v any) ([]byte, error) {
	out, err := codec.Append(dst, s, v)
	return out, publicError(err)
}

// An Encoder writes datums of one schema back to back on a stream, with no
// header and no framing. An Encoder is not safe for concurrent use.
type Encoder struct {
	e *codec.Encoder
}

// NewEncoder returns an Encoder that writes datums of schema s to w.
func NewEncoder(w io.Writer, s *schema.Schema) *Encoder {
	return EncodeOptions{}.NewEncoder(w, s)
}

// Encode writes the encoding of v to the stream with one Write call.
func (enc *Encoder) Encode(v any) error { return publicError(enc.e.Encode(v)) }
