package ocf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/wire"
)

// A block is one data block as a Reader holds it. It is read from the
// source (fetch), decompressed (unpack), on the caller's goroutine or on
// a worker's, and then entered by the Reader, in file order (enter),
// where the checks that depend on the blocks before it are made.
type block struct {
	info    BlockInfo
	index   int64 // its number in the file, from 0
	headLen int   // the bytes of its record count and size
	loaded  bool  // its data was read, not skipped
	raw     []byte
	dec     []byte // the decompression buffer
	data    []byte // its records: raw, or decompressed into dec
	// end is the offset after the block's sync marker, or where reading
	// stopped when the block could not be read.
	end int64
	// pending is a truncation of the sync marker after complete data: the
	// block's records are returned, then the error.
	pending error
	// err is why the block could not be read; io.EOF after the last
	// block. unpackErr is why its data could not be decompressed, an
	// error only for a reader that wants its records.
	err, unpackErr error
	// done is closed when the block is unpacked, when a worker does it.
	done chan struct{}
	// batch is the block's records as a worker decoded them for Records,
	// when it did; spare is the memory of an earlier batch, for the next.
	batch, spare any
}

// blockErr is the error of block b at offset off.
func blockErr(sentinel error, index, off int64, format string, args ...any) error {
	return fmt.Errorf("%w: block %d at offset %d: "+format, append([]any{sentinel, index, off}, args...)...)
}

// fetch reads the next block of the source into b, reusing its buffers:
// its header, then its data (load) or past it, then its sync marker, with
// the checks that need nothing but the block. At the end of the file,
// or when the block cannot be read, b.err says why.
func (s *blockSource) fetch(b *block, load bool) {
	spare := b.spare
	if b.batch != nil {
		spare = b.batch
	}
	*b = block{raw: b.raw, dec: b.dec, done: b.done, spare: spare, index: s.nblocks, loaded: load,
		info: BlockInfo{Offset: s.offset}}
	b.err = s.readBlock(b, load)
	b.end = s.offset
	if b.err == nil {
		s.nblocks++
	}
}

func (s *blockSource) readBlock(b *block, load bool) error {
	bad := func(sentinel error, format string, args ...any) error {
		return blockErr(sentinel, b.index, b.info.Offset, format, args...)
	}
	if s.end >= 0 && b.info.Offset-SyncSize >= s.end {
		return io.EOF // the split's last block is behind
	}
	count, n1, err := s.readLong()
	if err == io.EOF && n1 == 0 {
		return io.EOF
	}
	var size int64
	var n2 int
	if err == nil {
		size, n2, err = s.readLong()
	}
	if err != nil {
		if isEnd(err) {
			// The input ends inside a block header: a stray byte or two
			// after the last block, or a file cut inside a header.
			if s.cfg.strictTail && !s.cfg.follow {
				return fmt.Errorf("%w: %d bytes at offset %d do not form a block header",
					ErrTrailingData, n1+n2, b.info.Offset)
			}
			return io.EOF
		}
		if err != errOverlong {
			return sourceErr(s.offset, err)
		}
		return bad(ErrInvalidBlock, "%v", err)
	}
	switch {
	case count < 0:
		return bad(ErrInvalidBlock, "negative record count %d", count)
	case size < 0:
		return bad(ErrInvalidBlock, "negative size %d", size)
	case size > s.storedLimit():
		return bad(ErrTooLarge, "size %d exceeds the limit of %d bytes", size, s.storedLimit())
	}
	if err := s.checkCount(count, s.cfg.maxBlock); err != nil {
		return bad(ErrInvalidBlock, "%v", err)
	}
	if s.isNull {
		if err := s.checkCount(count, size); err != nil {
			return bad(ErrInvalidBlock, "%v", err)
		}
	}
	b.info.Count, b.info.Size, b.headLen = count, size, n1+n2
	if load {
		b.raw, err = s.readBytes(b.raw, size)
	} else {
		err = s.discard(size)
	}
	if err != nil && !isEnd(err) {
		return sourceErr(s.offset, err)
	}
	if err != nil {
		if s.cfg.follow {
			return io.EOF // the block is not yet all written
		}
		return fmt.Errorf("ocf: input ends inside block %d at offset %d (%d bytes declared): %w",
			b.index, b.info.Offset, size, ErrTruncated)
	}
	var sync [SyncSize]byte
	n, err := s.readFull(sync[:])
	if err != nil && !isEnd(err) {
		return sourceErr(s.offset, err)
	}
	if !bytes.Equal(sync[:n], s.sync[:n]) {
		return bad(ErrSyncMismatch, "found %x, want %x", sync[:n], s.sync[:n])
	}
	if err != nil {
		if s.cfg.follow {
			return io.EOF
		}
		b.pending = fmt.Errorf("ocf: input ends inside the sync marker of block %d at offset %d (%d of %d bytes): %w",
			b.index, b.info.Offset, n, SyncSize, ErrTruncated)
	}
	return nil
}

// unpack decompresses a loaded block's data, within the block size
// limit, and checks its count against what it decompressed to.
func (s *blockSource) unpack(b *block) {
	b.unpackErr = s.unpackData(b)
}

func (s *blockSource) unpackData(b *block) error {
	if b.err != nil || !b.loaded {
		return nil
	}
	b.data = b.raw
	if s.isNull {
		return nil
	}
	var err error
	b.dec, err = s.codec.Decompress(b.dec[:0], b.raw, int(s.cfg.maxBlock))
	if err != nil {
		sentinel := ErrCorruptBlock
		switch {
		case errors.Is(err, ErrTooLarge):
			return fmt.Errorf("ocf: block %d at offset %d (%s): %w", b.index, b.info.Offset, s.cname, err)
		case errors.Is(err, avro.ErrLimit):
			sentinel = ErrTooLarge
		}
		return fmt.Errorf("%w: block %d at offset %d (%s): %w", sentinel, b.index, b.info.Offset, s.cname, err)
	}
	b.data = b.dec
	if err := s.checkCount(b.info.Count, int64(len(b.data))); err != nil {
		return blockErr(ErrInvalidBlock, b.index, b.info.Offset, "%v", err)
	}
	return nil
}

// The ways a Reader asks for its next block.
type blockUse uint8

const (
	// skipped: only its header is wanted (SkipBlock), so its data is
	// sought over or read past.
	skipped blockUse = iota
	// stored: its data as stored (ReadRawBlock).
	stored
	// records: its records, decompressed (Next, ReadBlock).
	records
)

// enter makes b, the next block of the file, the Reader's current block,
// after the checks that depend on the blocks before it: the file's
// budgets earned by its bytes, and, when its records are wanted, the
// records of a schema that may take no bytes spent from the budget of
// zero-size items.
func (r *Reader) enter(b *block, use blockUse) error {
	r.pos = b.end
	if b.err != nil {
		return b.err
	}
	r.whole = b.end
	if use == records && b.unpackErr != nil {
		return b.unpackErr
	}
	per := r.perDatum()
	// Every byte of the block earns, its header and sync marker too: a
	// file of records that take no bytes has nothing else.
	stored := b.info.Size + int64(b.headLen) + SyncSize
	r.zero.Earn(per.Zero, stored, wire.ZeroItemsRate(per.Zero))
	r.defaults.Earn(per.Defaults, stored, avro.DefaultAllocPerByte)
	if use == records && r.minSize == 0 {
		// Records that take no bytes are zero-size items of the file
		// too: a 21-byte block header could otherwise hold 2^20 of them,
		// and a kilobyte of blocks 50 million records to iterate.
		if b.info.Count > r.zero.Budget(per.Zero) {
			return blockErr(ErrInvalidBlock, b.index, b.info.Offset, "%d records of a schema that may encode to zero bytes exceed what is left of the file's budget of zero-size items", b.info.Count)
		}
		r.zero.Spend(b.info.Count)
	}
	r.cur, r.block, r.pending, r.records = b, b.info, b.pending, 0
	r.rest, r.left, r.inBlock = nil, 0, false
	if use == records {
		r.rest, r.left, r.inBlock = b.data, b.info.Count, true
	}
	return nil
}

// nextBlock enters the next block of the file for use: read (and
// unpacked) here, or taken from the workers when reading in parallel,
// which read and unpack every block.
func (r *Reader) nextBlock(use blockUse) error {
	if r.workers > 1 {
		return r.enter(r.pipelined(), use)
	}
	b := &r.one
	r.fetch(b, use != skipped)
	if use == records {
		r.unpack(b)
	}
	return r.enter(b, use)
}

// storedLimit is the largest block the Reader accepts as stored: the
// limit itself for the null codec, and with a compressing codec the limit
// plus a sixth and 1 KiB, more than any of the codecs adds to data that
// does not compress (snappy adds the most, 32 bytes and a sixth). A
// Writer's block within the same limit, compressed, stayed over it: 1,007
// bytes for 996 random bytes with snappy.
func (s *blockSource) storedLimit() int64 {
	if s.isNull {
		return s.cfg.maxBlock
	}
	return s.cfg.maxBlock + min(s.cfg.maxBlock/6+1024, math.MaxInt64-s.cfg.maxBlock)
}

// checkCount checks that count records can fit in size bytes: each takes
// at least the schema's minimum encoded size, and records that may take
// zero bytes draw from the zero-size budget.
func (s *blockSource) checkCount(count, size int64) error {
	if s.minSize == 0 {
		budget := s.cfg.decode.MaxZeroSizeItems
		if budget <= 0 {
			budget = avro.DefaultMaxZeroSizeItems
		}
		if count > budget {
			return fmt.Errorf("%d records of a schema that may encode to zero bytes exceed the budget of %d", count, budget)
		}
		return nil
	}
	if count > size/s.minSize {
		return fmt.Errorf("%d records of at least %d bytes cannot fit in %d bytes", count, s.minSize, size)
	}
	return nil
}

// finishBlock ends the current block: its bytes must all have been
// records.
func (r *Reader) finishBlock() error {
	if r.inBlock && len(r.rest) != 0 {
		r.inBlock = false
		return blockErr(ErrInvalidBlock, r.cur.index, r.block.Offset, "%d bytes after its %d records", len(r.rest), r.block.Count)
	}
	r.inBlock = false
	r.rest = nil
	if r.pending != nil {
		err := r.pending
		r.pending = nil
		return err
	}
	return nil
}
