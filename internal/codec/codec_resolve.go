package codec

import (
	"github.com/avrogo/avro/internal/resolve"
	"github.com/avrogo/avro/schema"
)

// Reading through a resolved schema: a transcoder (package resolve)
// rewrites the writer's datum in the reader's encoding, and the decoder
// compiled for the reader's shape reads that; a struct reads the writer's
// bytes directly where it can (codec_resolve_struct.go).

// resolvedDecoderFor wraps the decoder compiled for the reader shape of
// the resolved schema s.
func resolvedDecoderFor(s *schema.Schema, inner decoder) decoder {
	prog := transcoderOf(s)
	if prog == nil {
		return inner // the writer's bytes are the reader's bytes
	}
	if sd, ok := inner.(*structDecoder); ok && s.Resolution().Kind() == schema.ActionRecord {
		r := &directResolver{xc: resolve.NewCompiler(s.Resolution()), done: map[directKey]*structDecoder{}}
		if direct := r.resolvedStructFor(s.Resolution(), sd); direct != nil {
			return direct
		}
	}
	return &resolvingDecoder{prog: prog, inner: inner}
}

type transcoderEntry struct{ prog *resolve.Program }

// transcoderOf returns the transcoder of the resolved schema s, or nil
// when the writer's bytes are the reader's.
func transcoderOf(s *schema.Schema) *resolve.Program {
	return Cached(s, familyTranscoder, func() transcoderEntry {
		xc := resolve.NewCompiler(s.Resolution())
		if xc.Identity(s.Resolution()) {
			return transcoderEntry{}
		}
		return transcoderEntry{xc.Program(s.Resolution())}
	}).prog
}

// resolvingDecoder transcodes the writer's datum, then decodes the result
// with the decoder of the reader's shape.
type resolvingDecoder struct {
	prog  *resolve.Program
	inner decoder
}

func (r *resolvingDecoder) decode(p pointer, d *decodeState) {
	start, zero, alloc, depth, defaults := d.Pos, d.ZeroLeft, d.AllocLeft, d.DepthLeft, d.DefaultsLeft
	t := r.prog.Transcode(&d.Decoder)
	// The output is bounded by the allocation limit on its own (t.limit)
	// and not charged to it: it is a pooled scratch buffer, not memory the
	// decode keeps, and charged, reader defaults took half the budget of
	// a read that had fit (3 MB of defaults for 10 KB of input).
	if d.Err != nil {
		t.Release()
		return
	}
	// The reader's decode draws on the same budget: the transcoder's
	// charge only guarded its own output.
	d.ZeroLeft = zero
	// The reader's decode runs on d itself, over the transcoded bytes: it
	// inherits every limit and option, and carves strings and Values from
	// d's chunk and arena. Only the input is swapped, and zero-copy is
	// off because the buffer is pooled: nothing decoded may alias it.
	buf, pos, zeroCopy := d.Buf, d.Pos, d.ZeroCopy
	d.Buf, d.Pos, d.ZeroCopy = t.Bytes, 0, false
	r.inner.decode(p, d)
	if d.Err == nil && d.Pos != len(d.Buf) {
		d.Failf(ErrInvalid, "resolution left %d bytes unread (internal error)", len(d.Buf)-d.Pos)
	}
	outPos := d.ErrPos
	d.Buf, d.Pos, d.ZeroCopy = buf, pos, zeroCopy
	if d.Err != nil {
		// Map the offset with the budgets the datum started with: the
		// failed decode spent them, and a second transcode with what is
		// left would stop early at the wrong place.
		d.AllocLeft, d.DepthLeft, d.DefaultsLeft = alloc, depth, defaults
		d.ErrPos = r.prog.WriterOffset(&d.Decoder, start, zero, outPos, &t)
	}
	t.Release()
}
