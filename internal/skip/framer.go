package skip

import (
	"math"

	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

// A Decoder that meets the end of its buffer inside a datum reads more and
// decodes the datum again from its start. When the failed read tells how
// much is missing (a long string, a block of many items) one refill is
// enough, but an array of many small blocks only ever shows its next block
// header: a datum of 2 MB read 4 KiB at a time was decoded 500 times, 4.5
// seconds where one decode takes 60 ms. After a second truncation the
// Decoder therefore frames the datum instead: a Framer walks the writer's
// schema over the bytes as they arrive, keeping its place between reads,
// and the datum is decoded once the Framer has found its end. It reads
// nothing from the reader beyond what a Read returns, so a datum that ends
// before more bytes come (a request on a connection) is decoded without
// waiting for more.

// Framer finds the end of one datum, resuming where the bytes ran out.
// It checks only what it needs to find the end; anything else that is
// wrong with the datum is the decode's to report, and when the Framer
// meets such a thing (a malformed varint, a branch out of range, a
// limit) it stops, and the datum is decoded as far as it is buffered.
type Framer struct {
	// stack holds the values still to read, innermost last.
	stack []frame
	// Pos is the length of the datum framed so far.
	pos int
	// skip is what is left of a string, bytes or fixed value.
	skip int64
	// sized holds, for each block being read that gave its byte size
	// (innermost last), how far its items may go: its end, or an
	// enclosing block's if that comes first.
	sized []int
	// ZeroLeft is the datum's budget of zero-size items; maxLength,
	// MaxItems and maxDepth are the decode's limits.
	zeroLeft, maxLength, maxItems int64
	maxDepth                      int
}

// frame is one value being read, with a record's next field, or an array
// or map's items so far and items left in its block (0 before a block
// header), whether a map item's value is still to come, and where its
// block ends when the block gave its byte size (0 when it did not).
type frame struct {
	s     *schema.Schema
	field int
	total int64
	left  int64
	value bool
	end   int
}

// FrameState is what a step of the Framer found.
type FrameState int

const (
	FrameMore FrameState = iota // the datum goes on past the bytes given
	FrameDone                   // the datum ends at pos
	FrameStop                   // the Framer cannot go on: decode to see why
)

// NewFramer returns a Framer of a datum of schema s (a resolved schema's
// writer), with the zero-size items and limits the decode will have.
func NewFramer(s *schema.Schema, zeroLeft int64, l *wire.Limits) *Framer {
	if w := s.Writer(); w != nil {
		s = w // the bytes are the writer's
	}
	// The stack also holds the leaf being read, and the decode counts
	// depth a little differently: two frames more than MaxDepth, so that
	// the Framer stops no earlier than the decode would.
	return &Framer{stack: []frame{{s: s}}, zeroLeft: zeroLeft, maxLength: l.MaxLength, maxItems: l.MaxItems, maxDepth: l.DepthLeft + 2}
}

// Feed frames the datum at the start of buf (all of it buffered so far,
// from the datum's first byte: the bytes before pos are not read again).
func (f *Framer) Feed(all []byte) FrameState {
	for {
		// Inside a block that gave its byte size, its items must end
		// where it said, as the decode checks: the Framer reads no
		// further, and where the items end elsewhere it stops (the
		// decode reports the error) rather than wait for bytes that
		// cannot make the datum valid.
		buf := all
		if n := len(f.sized); n > 0 && f.sized[n-1] < len(all) {
			buf = all[:f.sized[n-1]]
		}
		st := FrameDone
		if f.skip > 0 {
			n := min(f.skip, int64(len(buf)-f.pos))
			f.pos += int(n)
			if f.skip -= n; f.skip > 0 {
				st = FrameMore
			}
		} else if len(f.stack) == 0 {
			return FrameDone
		} else {
			st = f.step(buf)
		}
		switch {
		case st == FrameMore && len(buf) < len(all):
			return FrameStop
		case st != FrameDone:
			return st
		}
	}
}

// step reads the next part of the innermost value: FrameDone means it
// moved on (not that the datum ended).
func (f *Framer) step(buf []byte) FrameState {
	top := len(f.stack) - 1
	fr := &f.stack[top]
	s := fr.s
	switch s.Kind() {
	case schema.Null:
	case schema.Boolean:
		if f.pos >= len(buf) {
			return FrameMore
		}
		f.pos++
	case schema.Int, schema.Long:
		if _, st := f.varint(buf); st != FrameDone {
			return st
		}
	case schema.Enum:
		if _, st := f.index(buf, len(s.Symbols())); st != FrameDone {
			return st
		}
	case schema.Float:
		f.skip = 4
	case schema.Double:
		f.skip = 8
	case schema.Fixed:
		f.skip = int64(s.Size())
	case schema.String, schema.Bytes:
		n, st := f.varint(buf)
		if st != FrameDone {
			return st
		}
		if n < 0 || n > f.maxLength {
			return FrameStop
		}
		f.skip = n
	case schema.Union:
		i, st := f.index(buf, len(s.Branches()))
		if st != FrameDone {
			return st
		}
		*fr = frame{s: s.Branches()[i]} // the branch replaces the union
		return FrameDone
	case schema.Record:
		if fr.field < len(s.Fields()) {
			fr.field++
			return f.push(s.Fields()[fr.field-1].Type())
		}
	case schema.Array, schema.Map:
		return f.block(buf, fr)
	default:
		return FrameStop
	}
	f.stack = f.stack[:top]
	return FrameDone
}

// block reads an array's or map's next item, or the header of its next
// block.
func (f *Framer) block(buf []byte, fr *frame) FrameState {
	items := fr.s.Items()
	if fr.s.Kind() == schema.Map {
		items = fr.s.Values()
	}
	if fr.value {
		fr.value = false
		return f.push(items)
	}
	if fr.left > 0 {
		fr.left--
		if fr.s.Kind() == schema.Map {
			fr.value = true
			return f.push(stringSchema)
		}
		return f.push(items)
	}
	if fr.end != 0 {
		// The items of a block that gave its byte size are done: they
		// must end where it said.
		if f.pos != fr.end {
			return FrameStop
		}
		f.sized = f.sized[:len(f.sized)-1]
		fr.end = 0
		return FrameDone
	}
	// A header: the count, and the byte size after a negative count. It
	// is read whole or not at all.
	start := f.pos
	count, st := f.varint(buf)
	if st != FrameDone {
		return st
	}
	if count == 0 {
		f.stack = f.stack[:len(f.stack)-1]
		return FrameDone
	}
	end := 0
	if count < 0 {
		size, st := f.varint(buf)
		if st == FrameMore {
			f.pos = start
		}
		if st != FrameDone {
			return st
		}
		if size < 0 || count == -1<<63 || size > int64(math.MaxInt-f.pos) {
			return FrameStop
		}
		count, end = -count, f.pos+int(size)
	}
	minSize := items.MinEncodedSize()
	if fr.s.Kind() == schema.Map {
		minSize++ // the key's length
	}
	if end != 0 && minSize > 0 && count > int64(end-f.pos)/int64(minSize) {
		return FrameStop // more items than the block's size holds
	}
	if minSize == 0 {
		// Charged as the decoders charge it (see ItemSize), so that
		// what frames also decodes.
		charge := count
		if items.Kind() == schema.Record {
			w := int64(-ItemSize(items))
			if count > f.zeroLeft/w {
				return FrameStop
			}
			charge *= w
		}
		if f.zeroLeft -= charge; f.zeroLeft < 0 {
			return FrameStop
		}
	}
	if fr.total += count; fr.total > f.maxItems {
		return FrameStop
	}
	fr.left = count
	if end != 0 {
		fr.end = end
		// The items may not go past an enclosing block's end either.
		limit := end
		if n := len(f.sized); n > 0 {
			limit = min(limit, f.sized[n-1])
		}
		f.sized = append(f.sized, limit)
	}
	return FrameDone
}

// stringSchema is a map key's schema.
var stringSchema = schema.MustParse(`"string"`)

// push starts reading a value of s inside the innermost one.
func (f *Framer) push(s *schema.Schema) FrameState {
	if len(f.stack) >= f.maxDepth {
		return FrameStop
	}
	f.stack = append(f.stack, frame{s: s})
	return FrameDone
}

// index reads an enum's or a union's index, which must be below n.
func (f *Framer) index(buf []byte, n int) (int, FrameState) {
	i, st := f.varint(buf)
	if st == FrameDone && (i < 0 || i >= int64(n)) {
		st = FrameStop
	}
	return int(i), st
}

// varint reads a whole varint at pos, or nothing (FrameMore) when the
// bytes end inside it.
func (f *Framer) varint(buf []byte) (int64, FrameState) {
	v, n := varint.Long(buf[f.pos:])
	switch {
	case n > 0:
		f.pos += n
		return v, FrameDone
	case n == 0 && len(buf)-f.pos < varint.MaxLenLong:
		return 0, FrameMore
	}
	return 0, FrameStop
}
