package resolve

import (
	"errors"
	"math"
	"math/bits"
	"sort"
	"sync"

	"github.com/avrogo/avro/internal/wire"
)

// Program is a compiled transcoder: it reads a datum of the writer's
// schema and writes the bytes the reader's schema would have written for
// it.
type Program struct{ root xnode }

// Output is the reader's bytes that a transcode wrote, in a pooled buffer.
type Output struct {
	t *xstate
	// Bytes is the transcoded datum; it is the pool's, and must not be
	// kept after Release.
	Bytes []byte
}

// Release gives the output's buffer back to the pool.
func (o *Output) Release() { o.t.release() }

// Transcode reads the writer's datum at d's position and returns the
// reader's bytes. On error (recorded in d) the output holds what was
// written before it.
func (p *Program) Transcode(d *wire.Decoder) Output {
	t := xstatePool.Get().(*xstate)
	t.d, t.out, t.limit = d, t.out[:0], outLimit(d)
	p.root.xcode(t)
	return Output{t: t, Bytes: t.out}
}

// xstate is the output side of a transcode.
type xstate struct {
	d     *wire.Decoder // the writer's bytes, position and limits
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

// markSize is the size of an xmark: three ints.
const markSize = 3 * bits.UintSize / 8

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
		t.d.Failf(wire.ErrLimit, "resolved datum larger than the allocation limit")
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
// would pass it is wire.ErrLimit at once, before it is allocated: what the
// output allocates stays under twice the limit.
func (t *xstate) grow(n int) bool {
	if len(t.out)+n > t.limit+outHeadroom {
		t.d.Failf(wire.ErrLimit, "resolved datum larger than the allocation limit")
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

// outLimit is the most output a transcode may write: what is left of the
// allocation limit, and less than 2 GiB with room for outHeadroom, so
// that the sizes grow computes fit an int on 32-bit platforms.
func outLimit(d *wire.Decoder) int {
	return int(min(max(d.AllocLeft, 0), math.MaxInt32-outHeadroom))
}

// writerOffset maps an offset in the transcoded bytes to the writer's
// bytes by transcoding the datum again with marks. It runs only on error.
// The transcode writes into out, the failed one's buffer, which it returns
// (grown or not) for the pool: a second buffer cost as much again.
func (p *Program) WriterOffset(d *wire.Decoder, start int, zero int64, outPos int, out *Output) int {
	tmp := *d
	tmp.Pos, tmp.Err, tmp.Path, tmp.ZeroLeft = start, nil, nil, zero
	tmp.Chunk = nil // d's own: tmp must not carve from it
	t := out.t
	t.d, t.out, t.limit, t.track, t.stop = &tmp, t.out[:0], outLimit(d), true, outPos
	// Marks take 24 bytes: at most an eighth of the allocation limit,
	// growth included.
	t.maxMarks = max(t.limit/(8*markSize), 64)
	p.root.xcode(t)
	// Decoders record an error after reading the bad value, so an error
	// at a mark's offset belongs to the value before it: take the last
	// mark strictly before outPos, and report the start of that value in
	// the writer's bytes (or the exact byte inside a copied span).
	i := sort.Search(len(t.marks), func(i int) bool { return t.marks[i].out >= outPos }) - 1
	if i < 0 {
		return start
	}
	m := t.marks[i]
	if off := outPos - m.out; off <= m.n {
		return m.in + off
	}
	return m.in
}
