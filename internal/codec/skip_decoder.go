package codec

import "github.com/avrogo/avro/internal/skip"

// skipDecoder is the decoder of a value that the Go type has no place
// for: it reads the value and discards it.
type skipDecoder struct{ sk *skip.Skipper }

func (c skipDecoder) decode(_ pointer, d *decodeState) { c.sk.Skip(&d.Decoder) }
