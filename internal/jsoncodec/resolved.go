package jsoncodec

import (
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// ToReader rewrites data, a datum of the writer of the resolved schema s,
// in the reader's encoding, appended to dst. The writer's bytes are
// returned as they are when they are the reader's.
func ToReader(dst []byte, s *schema.Schema, data []byte, o *codec.DecodeOptions, op string) ([]byte, error) {
	prog := codec.Transcoder(s)
	if prog == nil {
		return append(dst, data...), nil
	}
	var d wire.Decoder
	d.Rewind(data)
	o.SetLimits(&d.Limits, len(data))
	out := prog.Transcode(&d)
	if d.Err == nil && d.Pos != len(data) {
		d.Failf(wire.ErrInvalid, "%d bytes after the datum", len(data)-d.Pos)
	}
	if d.Err != nil {
		out.Release()
		return dst, &codec.Error{Op: op, Path: codec.FormatPath(d.Path), Offset: int64(d.ErrPos), Err: d.Err}
	}
	dst = append(dst, out.Bytes...)
	out.Release()
	return dst, nil
}
