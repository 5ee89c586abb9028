package ocf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// A Split is a byte range of a container file, [Offset, Offset+Length),
// that one worker of a distributed read takes: NewSplitReader reads the
// blocks whose sync marker before them starts in it.
type Split struct {
	Offset, Length int64
}

// NewSplitReader returns a Reader of the blocks of one split of the
// container file r of size bytes: the byte range [off, off+length). As
// Hadoop's AvroRecordReader does with Java's DataFileReader.sync and
// pastSync, it reads the file's header from its start, then the blocks
// from the first sync marker that starts at or after off (the header's
// own marker included, so the split that holds it reads the first block),
// up to the last block whose sync marker before it starts before
// off+length. Every block is read by exactly one split of any partition
// of the file into splits, so the Readers of a partition give every
// record once, in order. Outside its own range, a split's Reader reads
// the header and the rest of its last block, and at most a few KiB more:
// its reads stop at the split's end, so that it does not read ahead into
// the next split's blocks. SeekBlock and the other moves take offsets in
// the whole file; the split's end still bounds what is read after them.
//
// Offsets, BlockInfo and errors give positions in the whole file; block
// numbers in errors count from the split's first block. The options are
// those of NewReader (WithWorkers included).
func NewSplitReader(r io.ReaderAt, size, off, length int64, opts ...ReaderOption) (*Reader, error) {
	if off < 0 || length < 0 || size < 0 || off > size {
		return nil, fmt.Errorf("ocf: split [%d, %d+%d) of a file of %d bytes", off, off, length, size)
	}
	src := &splitSource{r: r, size: size}
	rd, err := newReader(src, readerOptions(opts))
	if err != nil {
		return nil, err
	}
	end := off + min(length, size-off)
	start := rd.pos // the header's own marker ends the header
	if off > start-SyncSize {
		at, err := findSync(r, rd.sync, off, end)
		if err != nil {
			return nil, sourceErr(off, err)
		}
		start = size // no marker starts in the split: it has no block
		if at >= 0 {
			start = at + SyncSize
		}
	}
	src.pos, src.end = start, end
	rd.moveTo(src, start)
	rd.end = end
	return rd, nil
}

// splitTail is the most a split's Reader reads at a time outside its
// range: in the header, and in its last block after the split's end.
const splitTail = 4 << 10

// splitSource reads a file for the Reader of a split, at offsets in the
// whole file. Its reads stop at the split's end, and past it (where only
// the rest of the last block is wanted) are small, so that the Reader's
// buffer does not read ahead into the next split's blocks.
type splitSource struct {
	r              io.ReaderAt
	pos, end, size int64
}

func (s *splitSource) Read(p []byte) (int, error) {
	if s.pos >= s.size {
		return 0, io.EOF
	}
	limit := max(s.end-s.pos, splitTail)
	if int64(len(p)) > limit {
		p = p[:limit]
	}
	if rest := s.size - s.pos; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := s.r.ReadAt(p, s.pos)
	s.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

func (s *splitSource) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += s.pos
	case io.SeekEnd:
		offset += s.size
	}
	if offset < 0 {
		return 0, errors.New("ocf: seek to a negative offset")
	}
	s.pos = offset
	return offset, nil
}

// moveTo makes the Reader read blocks from src, which starts at offset
// off of the file.
func (r *Reader) moveTo(src io.Reader, off int64) {
	r.src = src
	r.br.Reset(src)
	r.seeker, _ = src.(io.Seeker)
	r.offset, r.pos, r.whole, r.nblocks = off, off, off, 0
}

// syncPiece is how much of a file a search for a sync marker reads at a
// time.
const syncPiece = 64 << 10

// findSync returns the offset of the first sync marker of r that starts in
// [from, to), or -1 when none does. It reads small pieces first, growing
// them, since a split planned at a marker finds it in its first bytes.
func findSync(r io.ReaderAt, sync [SyncSize]byte, from, to int64) (int64, error) {
	buf := make([]byte, min(syncPiece, max(to-from, 0))+SyncSize-1)
	grow := int64(splitTail)
	for off, piece := from, int64(0); off < to; off += piece {
		piece = min(grow, int64(len(buf)-(SyncSize-1)))
		grow = min(2*grow, syncPiece)
		want := buf[:piece+SyncSize-1]
		n, err := r.ReadAt(want, off)
		if err != nil && !errors.Is(err, io.EOF) {
			return -1, err
		}
		// A marker must start before to; it may end after it.
		if i := bytes.Index(want[:n], sync[:]); i >= 0 && off+int64(i) < to {
			return off + int64(i), nil
		} else if i >= 0 || n < len(want) {
			return -1, nil
		}
	}
	return -1, nil
}

// PlanSplits divides the container file r of size bytes into at most n
// splits of about the same size, for n workers that each read one with
// NewSplitReader: each split but the first starts where a sync marker
// does (so that its Reader finds its first block at once), and a split
// with no block is left out, so that a file of fewer blocks than n gives
// fewer splits. The splits cover the whole file, in order.
func PlanSplits(r io.ReaderAt, size int64, n int) ([]Split, error) {
	if n < 1 {
		return nil, fmt.Errorf("ocf: %d splits", n)
	}
	rd, err := newReader(io.NewSectionReader(r, 0, size), readerOptions(nil))
	if err != nil {
		return nil, err
	}
	header := rd.pos
	cuts := []int64{0}
	for i := 1; i < n; i++ {
		at := header + (size-header)*int64(i)/int64(n)
		if at <= cuts[len(cuts)-1] {
			continue
		}
		m, err := findSync(r, rd.sync, at, size)
		if err != nil {
			return nil, sourceErr(at, err)
		}
		if m < 0 || m+SyncSize >= size {
			break // no block follows: the last split runs to the end
		}
		if m > cuts[len(cuts)-1] {
			cuts = append(cuts, m)
		}
	}
	splits := make([]Split, len(cuts))
	for i, c := range cuts {
		next := size
		if i+1 < len(cuts) {
			next = cuts[i+1]
		}
		splits[i] = Split{Offset: c, Length: next - c}
	}
	return splits, nil
}
