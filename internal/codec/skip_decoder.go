package codec

import (
	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/schema"
)

// skipDecoder is the decoder of a value that the Go type has no place
// for: it reads the value and discards it.
type skipDecoder struct{ sk *skip.Skipper }

func (c skipDecoder) decode(_ pointer, d *decodeState) { c.sk.Skip(&d.Decoder) }

// writerOf returns the schema that the bytes of a datum of s are written
// with: the writer of a resolved schema, or s itself.
func writerOf(s *schema.Schema) *schema.Schema {
	if w := s.Writer(); w != nil {
		return w
	}
	return s
}
