package codec

import (
	"errors"
	"math"
	"sort"
	"sync"
	"unsafe"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Reading through a resolved schema (schema.Resolve).
//
// A resolved schema has the reader's shape and carries the writer schema
// and a resolution graph. Rather than a second family of decoders that
// know about resolution for every Go target (structs, any, value.Value,
// ...), a resolved schema is read by a transcoder: a program compiled once
// per resolved schema that reads the writer's bytes and writes the bytes
// the reader schema would have written for the same datum, into a pooled
// buffer; the ordinary decoder compiled for the reader's shape then reads
// that buffer. Every target gets resolution from this one piece of code,
// and fields the reader does not want are skipped without being decoded.
//
// The program copies whole subtrees whose encoding does not change (same
// types, int read as long, string read as bytes, enums and unions whose
// indexes map to themselves) as spans of the input, after a skipper has
// found their end; it re-encodes promotions, remaps enum symbols and
// union branches, skips writer-only fields with skippers (no allocation),
// appends the reader's defaults (Field.DefaultBinary) for reader-only
// fields, and reorders record fields when the reader's order differs.
// When the whole resolution is such a copy (a writer that encodes like
// the reader), no transcoder runs at all.
//
// Limits: the transcoder reads the writer's bytes with the same cursor as
// any decoder, so depth, lengths, item counts (bounded by the bytes left)
// and the zero-size budget apply to the writer's data, and a datum cut
// short is ErrTruncated, which lets the streaming Decoder refill and
// retry. The output is bounded by the allocation limit (defaults can make
// it larger than the input). Errors carry offsets in the writer's bytes:
// when the reader's decoder fails on the transcoded bytes, the transcoder
// runs again with position tracking to map the offset back.

// resolvedDecoderFor wraps the decoder compiled for the reader shape of
// the resolved schema s.
func resolvedDecoderFor(s *schema.Schema, inner decoder) decoder {
	prog := transcoderOf(s)
	if prog == nil {
		return inner // the writer's bytes are the reader's bytes
	}
	if sd, ok := inner.(*structDecoder); ok && s.Resolution().Kind() == schema.ActionRecord {
		r := &directResolver{xc: newXCompiler(s.Resolution()), done: map[directKey]*structDecoder{}}
		if direct := r.resolvedStructFor(s.Resolution(), sd); direct != nil {
			return direct
		}
	}
	return &resolvingDecoder{prog: prog, inner: inner}
}

type transcoderEntry struct{ prog xnode }

// transcoderOf returns the transcoder of the resolved schema s, or nil
// when the writer's bytes are the reader's.
func transcoderOf(s *schema.Schema) xnode {
	return Cached(s, familyTranscoder, nil, func() transcoderEntry {
		xc := newXCompiler(s.Resolution())
		if xc.identity[s.Resolution()] {
			return transcoderEntry{}
		}
		return transcoderEntry{xc.node(s.Resolution())}
	}).prog
}

// resolvingDecoder transcodes the writer's datum, then decodes the result
// with the decoder of the reader's shape.
type resolvingDecoder struct {
	prog  xnode
	inner decoder
}

// xstate is the output side of a transcode.
type xstate struct {
	d     *decodeState // the writer's bytes, position and limits
	out   []byte
	limit int   // most bytes out may hold
	spans []int // scratch of reordered records: 3 ints per reader field
	track bool  // record marks (only when mapping an error offset)
	marks []xmark
	// When tracking, the transcode stops (with errTrackDone) once the
	// output reaches stop outside a reordered record (later marks are
	// not needed), or when marks reach maxMarks, so that mapping the
	// offset of an error costs no more than the transcode itself: an
	// array of a million one-byte items would otherwise record millions
	// of marks.
	stop, maxMarks int
	reorder        int // reordered records being transcoded
}

// errTrackDone stops a tracking transcode early; it is never returned.
var errTrackDone = errors.New("avro: offset tracking done")

// xmark ties an output offset to an input offset. For a copied span the
// n bytes after the mark map one to one.
type xmark struct {
	out, in, n int
}

var xstatePool = sync.Pool{New: func() any { return new(xstate) }}

// maxPooledOut bounds the buffers kept in the pool, so that one huge datum
// does not pin its buffer for the life of the process.
const maxPooledOut = 1 << 20

func (t *xstate) release() {
	t.d = nil
	if cap(t.out) > maxPooledOut {
		t.out = nil
	}
	t.marks = t.marks[:0]
	t.track = false
	xstatePool.Put(t)
}

func (t *xstate) mark(in, n int) {
	if (t.reorder == 0 && len(t.out) >= t.stop) || len(t.marks) >= t.maxMarks {
		t.d.Fail(errTrackDone)
		return
	}
	t.marks = append(t.marks, xmark{out: len(t.out), in: in, n: n})
}

func (t *xstate) checkLimit() bool {
	if len(t.out) > t.limit {
		t.d.Failf(ErrLimit, "resolved datum larger than the allocation limit")
		return false
	}
	// Room for the small appends (counts, indexes, promoted numbers)
	// until the next check, so that they do not grow the buffer either.
	if cap(t.out)-len(t.out) < outHeadroom {
		return t.grow(outHeadroom)
	}
	return true
}

// outHeadroom is the room checkLimit keeps at the end of the output.
const outHeadroom = 256

// put appends b to the output, growing it by doubling.
func (t *xstate) put(b []byte) {
	if cap(t.out)-len(t.out) < len(b) && !t.grow(len(b)) {
		return
	}
	t.out = append(t.out, b...)
}

// grow makes room for n more bytes of output by doubling the buffer at
// least: growing by append, by a quarter at a time for large buffers,
// allocated five times the output before it was done (an output of 4 MiB
// cost 20 MB). The buffer is not doubled past the limit, and output that
// would pass it is ErrLimit at once, before it is allocated: what the
// output allocates stays under twice the limit.
func (t *xstate) grow(n int) bool {
	if len(t.out)+n > t.limit+outHeadroom {
		t.d.Failf(ErrLimit, "resolved datum larger than the allocation limit")
		return false
	}
	newCap := max(2*cap(t.out), len(t.out)+n)
	if newCap > t.limit/2 {
		// The last growth takes the buffer to the limit, not to just
		// under it and then once more past it.
		newCap = t.limit + outHeadroom
	}
	out := make([]byte, len(t.out), newCap)
	copy(out, t.out)
	t.out = out
	return true
}

func (r *resolvingDecoder) decode(p unsafe.Pointer, d *decodeState) {
	start, zero, alloc, depth, defaults := d.Pos, d.ZeroLeft, d.AllocLeft, d.DepthLeft, d.DefaultsLeft
	t := xstatePool.Get().(*xstate)
	t.d, t.out, t.limit = d, t.out[:0], outLimit(d)
	r.prog.xcode(t)
	// The output is bounded by the allocation limit on its own (t.limit)
	// and not charged to it: it is a pooled scratch buffer, not memory the
	// decode keeps, and charged, reader defaults took half the budget of
	// a read that had fit (3 MB of defaults for 10 KB of input).
	if d.Err != nil {
		t.release()
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
	d.Buf, d.Pos, d.ZeroCopy = t.out, 0, false
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
		d.ErrPos, t.out = r.writerOffset(d, start, zero, outPos, t.out[:0])
	}
	t.release()
}

// outLimit is the most output a transcode may write: what is left of the
// allocation limit, and less than 2 GiB with room for outHeadroom, so
// that the sizes grow computes fit an int on 32-bit platforms.
func outLimit(d *decodeState) int {
	return int(min(max(d.AllocLeft, 0), math.MaxInt32-outHeadroom))
}

// writerOffset maps an offset in the transcoded bytes to the writer's
// bytes by transcoding the datum again with marks. It runs only on error.
// The transcode writes into out, the failed one's buffer, which it returns
// (grown or not) for the pool: a second buffer cost as much again.
func (r *resolvingDecoder) writerOffset(d *decodeState, start int, zero int64, outPos int, out []byte) (int, []byte) {
	tmp := *d
	tmp.Pos, tmp.Err, tmp.Path, tmp.ZeroLeft = start, nil, nil, zero
	tmp.Chunk, tmp.arena = nil, value.Arena{} // d's own: tmp must not carve from them
	t := &xstate{d: &tmp, out: out, limit: outLimit(d), track: true, stop: outPos}
	// Marks take 24 bytes: at most an eighth of the allocation limit,
	// growth included.
	t.maxMarks = max(t.limit/(8*int(unsafe.Sizeof(xmark{}))), 64)
	r.prog.xcode(t)
	// Decoders record an error after reading the bad value, so an error
	// at a mark's offset belongs to the value before it: take the last
	// mark strictly before outPos, and report the start of that value in
	// the writer's bytes (or the exact byte inside a copied span).
	i := sort.Search(len(t.marks), func(i int) bool { return t.marks[i].out >= outPos }) - 1
	if i < 0 {
		return start, t.out
	}
	m := t.marks[i]
	if off := outPos - m.out; off <= m.n {
		return m.in + off, t.out
	}
	return m.in, t.out
}
