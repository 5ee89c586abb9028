package ocf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
)

// ErrNotSeekable is returned by the Reader's methods that move in the
// file (SeekBlock, SeekLastBlock, and reading WithFollow) when its source
// is not an io.Seeker.
var ErrNotSeekable = errors.New("ocf: the source is not an io.Seeker")

// ErrNotABlock is returned by SeekBlock for an offset where no block
// starts: one that is not right after a sync marker of the file.
var ErrNotABlock = errors.New("ocf: no block starts at the offset")

// WithFollow makes a Reader follow a file that a Writer is still
// appending to, as tail -f does: at the end of what is written, Next
// returns false and Err nil, and a later Next reads the blocks written
// since. A block cut short at the end, one the Writer is in the middle of
// writing, is not yet there: its records come when it is whole, never in
// part and never twice. The source must be an io.Seeker (an *os.File),
// since the Reader goes back to the end of the last whole block.
//
// A file that was cut short and will not grow therefore reads as if it
// ended at its last whole block, without the ErrTruncated a Reader
// reports otherwise.
func WithFollow() ReaderOption {
	return readerOption(func(c *readerConfig) { c.follow = true })
}

// Blocks returns an iterator over the blocks of the file from the
// Reader's position, each described by its offset, record count and size
// as stored, without decompressing or decoding them (SkipBlock). It stops
// after the last block, or after yielding the first error.
func (r *Reader) Blocks() iter.Seq2[BlockInfo, error] {
	return func(yield func(BlockInfo, error) bool) {
		for {
			b, err := r.SkipBlock()
			if err == io.EOF {
				return
			}
			if !yield(b, err) || err != nil {
				return
			}
		}
	}
}

// SeekBlock moves the Reader to the block that starts at offset, an
// Offset of a BlockInfo of this file (from Blocks, SkipBlock or a
// ReadBlock of an earlier read): the next record is that block's first.
// It checks that a sync marker of the file ends at offset, and returns an
// error wrapping ErrNotABlock if not, leaving the Reader as it was. A
// Reader stopped by bad data may be moved past it this way. The source
// must be an io.Seeker.
//
// Block numbers in later errors count from the block sought.
func (r *Reader) SeekBlock(offset int64) error {
	if err := r.movable(); err != nil {
		return err
	}
	if offset < r.dataStart || offset < SyncSize {
		return fmt.Errorf("%w: offset %d is inside the header, which ends at %d", ErrNotABlock, offset, r.dataStart)
	}
	var m [SyncSize]byte
	err := r.readAt(m[:], offset-SyncSize)
	switch {
	case err == nil && m == r.sync:
		return r.jump(offset)
	case err == nil:
		err = fmt.Errorf("%w: the %d bytes before offset %d are not the file's sync marker", ErrNotABlock, SyncSize, offset)
	case isEnd(err):
		err = fmt.Errorf("%w: offset %d is past the end of the file", ErrNotABlock, offset)
	default:
		r.err = sourceErr(offset-SyncSize, err)
		return r.err
	}
	if rerr := r.restore(); rerr != nil {
		return rerr
	}
	return err
}

// SeekLastBlock moves the Reader to the last whole block of the file and
// returns it: the next record is its first. It reads the file from its
// end backwards to the sync marker before that block, and nothing of the
// blocks before it, so that the newest records of a large file, or of
// one still being written, cost one block's read. It returns io.EOF for a
// file with no whole block, and leaves the Reader before the first. The
// source must be an io.Seeker.
func (r *Reader) SeekLastBlock() (BlockInfo, error) {
	if err := r.movable(); err != nil {
		return BlockInfo{}, err
	}
	size, err := r.seeker.Seek(0, io.SeekEnd)
	if err != nil {
		return BlockInfo{}, sourceErr(0, err)
	}
	// The marker before a block starts at dataStart-SyncSize at the
	// earliest: the header's own.
	first := r.dataStart - SyncSize
	buf := make([]byte, syncPiece+SyncSize-1)
	for hi := size; hi > first; {
		lo := max(hi-syncPiece, first)
		n := int(min(hi+SyncSize-1, size) - lo)
		if err := r.readAt(buf[:n], lo); err != nil {
			r.err = sourceErr(lo, err)
			return BlockInfo{}, r.err
		}
		// Markers that start in [lo, hi), latest first.
		for w := buf[:n]; ; {
			i := bytes.LastIndex(w, r.sync[:])
			if i < 0 || lo+int64(i) >= hi {
				if i < 0 {
					break
				}
				w = w[:i+SyncSize-1]
				continue
			}
			at := lo + int64(i) + SyncSize
			if b, ok := r.wholeBlockAt(at, size); ok {
				return b, r.jump(at)
			}
			w = w[:i+SyncSize-1]
		}
		hi = lo
	}
	// No block is whole: the first, when it is, comes after the header.
	if err := r.jump(r.dataStart); err != nil {
		return BlockInfo{}, err
	}
	return BlockInfo{}, io.EOF
}

// wholeBlockAt reports whether a whole block, its header, data and sync
// marker, starts at offset at of a file of size bytes, and describes it.
func (r *Reader) wholeBlockAt(at, size int64) (BlockInfo, bool) {
	var head [2 * binary.MaxVarintLen64]byte
	n := int(min(int64(len(head)), size-at))
	if n <= 0 || r.readAt(head[:n], at) != nil {
		return BlockInfo{}, false
	}
	count, n1 := binary.Varint(head[:n])
	if n1 <= 0 || count < 0 {
		return BlockInfo{}, false
	}
	stored, n2 := binary.Varint(head[n1:n])
	if n2 <= 0 || stored < 0 || stored > size {
		return BlockInfo{}, false
	}
	end := at + int64(n1+n2) + stored
	var m [SyncSize]byte
	if end+SyncSize > size || r.readAt(m[:], end) != nil || m != r.sync {
		return BlockInfo{}, false
	}
	return BlockInfo{Count: count, Size: stored, Offset: at}, true
}

// movable returns the error of a move in a Reader that cannot make it.
func (r *Reader) movable() error {
	switch {
	case r.err == ErrClosed:
		return ErrClosed
	case r.seeker == nil:
		return ErrNotSeekable
	}
	return nil
}

// readAt reads len(p) bytes at offset off of the source, leaving it
// where the read ends: the next read of blocks must jump first.
func (r *Reader) readAt(p []byte, off int64) error {
	r.stopPipeline()
	if _, err := r.seeker.Seek(off, io.SeekStart); err != nil {
		return err
	}
	_, err := io.ReadFull(r.src, p)
	return err
}

// jump makes the block at offset the next the Reader reads, dropping the
// current block and any error but ErrClosed.
func (r *Reader) jump(offset int64) error {
	r.stopPipeline()
	if _, err := r.seeker.Seek(offset, io.SeekStart); err != nil {
		r.err = sourceErr(offset, err)
		return r.err
	}
	r.br.Reset(r.src)
	r.offset, r.pos, r.whole = offset, offset, offset
	r.rest, r.left, r.inBlock, r.cur, r.pending, r.err = nil, 0, false, nil, nil, nil
	r.nblocks = 0
	return nil
}

// restore puts the source back where the Reader's current block ends,
// after a move that failed, so that the Reader goes on as before it.
func (r *Reader) restore() error {
	if _, err := r.seeker.Seek(r.pos, io.SeekStart); err != nil {
		r.err = sourceErr(r.pos, err)
		return r.err
	}
	r.br.Reset(r.src)
	r.offset = r.pos
	if r.cur != nil {
		r.nblocks = r.cur.index + 1
	}
	return nil
}

// stopPipeline stops the workers reading ahead, whose reads a move makes
// wrong.
func (r *Reader) stopPipeline() {
	if r.pipe != nil {
		r.pipe.stop()
		r.pipe = nil
	}
}

// followed reports whether a Reader at the end of a file it follows has
// gone back to the end of its last whole block, to read what was written
// since: then its next read may find more.
func (r *Reader) followed() bool {
	if !r.cfg.follow || r.err != io.EOF {
		return false
	}
	blocks := r.nblocks
	if r.jump(r.whole) != nil {
		return false
	}
	r.nblocks = blocks
	return true
}
