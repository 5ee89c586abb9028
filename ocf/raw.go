package ocf

import (
	"fmt"
	"io"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/wire"
)

// A Block is the records of one data block, for code that moves records
// without decoding them: copying blocks between files, rendering records
// with avrojson.BinaryToJSON.
type Block struct {
	// BlockInfo describes the block as the file holds it; Count is the
	// number of records in Data.
	BlockInfo
	// Data is the records, one binary datum of the writer's schema after
	// another: decompressed from ReadBlock, as stored (compressed with the
	// file's codec) from ReadRawBlock.
	Data []byte
}

// Raw returns the next record as the file holds it, the binary datum of
// the writer's schema (Schema(), whatever WithReaderSchema says), and
// consumes it, without decoding it into a Go value: Raw frames the record
// by reading past it, which checks its lengths, counts, union indexes and
// enum symbols under the decode limits, but not its strings or logical
// values. It returns io.EOF after the last record, and the error Err
// reports if the file is bad.
//
// The bytes are the Reader's buffer: they stay valid until the next call
// of Next, Decode, Raw, ReadBlock, ReadRawBlock or SkipBlock.
func (r *Reader) Raw() ([]byte, error) {
	if !r.Next() {
		return nil, r.stop()
	}
	per := r.perDatum()
	rest, used, err := r.datums.Skip(r.rest, wire.Budgets{Zero: r.zero.Budget(per.Zero)})
	r.zero.Spend(used.Zero)
	if err != nil {
		return nil, r.recordErr(err)
	}
	n := len(r.rest) - len(rest)
	rec := r.rest[:n:n]
	r.rest, r.left = rest, r.left-1
	r.records++
	return rec, nil
}

// stop returns what a read returns when Next found no record: io.EOF at
// the clean end, or the Reader's error.
func (r *Reader) stop() error {
	if r.err == io.EOF {
		return io.EOF
	}
	return r.err
}

// recordErr makes err, the failure of the current record, the Reader's
// error, with the block, its offset and the record's index.
func (r *Reader) recordErr(err error) error {
	if e, ok := err.(*codec.Error); ok {
		err = (*avro.Error)(e)
	}
	r.err = fmt.Errorf("ocf: block %d at offset %d, record %d: %w", r.cur.index, r.block.Offset, r.records, err)
	return r.err
}

// ReadBlock returns the records of the block the next record would come
// from, decompressed, and consumes them: the records left in the current
// block if some were read from it (Count says how many), otherwise the
// next block of the file. The block's header, size limits and sync marker
// are checked as Next checks them, and its data decompressed within
// WithMaxBlockSize; its records are not framed, so whether they fill the
// block exactly is known only to code that reads them (Raw does). It
// returns io.EOF at the end of the file.
//
// Data is the Reader's buffer: it stays valid until the next call of
// Next, Decode, Raw, ReadBlock, ReadRawBlock or SkipBlock.
func (r *Reader) ReadBlock() (Block, error) {
	if r.err != nil && !r.followed() {
		return Block{}, r.stop()
	}
	if r.left == 0 {
		if err := r.finishBlock(); err != nil {
			r.err = err
			return Block{}, err
		}
		if err := r.nextBlock(records); err != nil {
			r.err = err
			return Block{}, r.stop()
		}
	}
	b := Block{BlockInfo: r.block, Data: r.rest[:len(r.rest):len(r.rest)]}
	b.Count = r.left
	r.left, r.rest, r.inBlock = 0, nil, false
	return b, nil
}

// ReadRawBlock returns the next block of the file as stored, its data
// compressed with the file's codec (Codec()), for copying it into a file
// of the same schema and codec with Writer.WriteRawBlock. Its header, size
// limits and sync marker are checked; its data is neither decompressed nor
// decoded. It returns io.EOF at the end of the file, and an error if some
// records of the current block were read but not all (a block cannot be
// handed out in part as stored); after Next alone it returns the block
// Next loaded.
//
// Data is the Reader's buffer: it stays valid until the next call of
// Next, Decode, Raw, ReadBlock, ReadRawBlock or SkipBlock.
func (r *Reader) ReadRawBlock() (Block, error) {
	if r.err != nil && !r.followed() {
		return Block{}, r.stop()
	}
	if r.left > 0 {
		if r.records > 0 {
			return Block{}, fmt.Errorf("ocf: ReadRawBlock in block %d, after %d of its %d records", r.cur.index, r.records, r.block.Count)
		}
		// Next loaded the block, and none of it was read.
		r.left, r.rest, r.inBlock = 0, nil, false
		return Block{BlockInfo: r.block, Data: r.cur.raw[:len(r.cur.raw):len(r.cur.raw)]}, nil
	}
	if err := r.finishBlock(); err != nil {
		r.err = err
		return Block{}, err
	}
	if err := r.nextBlock(stored); err != nil {
		r.err = err
		return Block{}, r.stop()
	}
	raw := r.cur.raw
	return Block{BlockInfo: r.block, Data: raw[:len(raw):len(raw)]}, nil
}

// EncodeRaw adds a record given as its binary datum of the Writer's
// schema, as Reader.Raw returns it or avro.Marshal writes it, without
// decoding it: it is framed by reading past it, which checks its lengths,
// counts, union indexes and enum symbols (under the default decode
// limits), and must fill datum exactly. A datum that does not is an
// *avro.Error wrapping avro.ErrInvalid or avro.ErrTruncated, and leaves
// the Writer usable. The bytes are copied.
func (wr *Writer) EncodeRaw(datum []byte) error {
	if err := wr.failed(); err != nil {
		return err
	}
	rest, _, err := wr.frame(datum, avro.DefaultMaxZeroSizeItems)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return fmt.Errorf("ocf: %d bytes after the datum: %w", len(rest), avro.ErrInvalid)
	}
	start := len(wr.buf)
	wr.buf = append(wr.buf, datum...)
	return wr.added(start)
}

// WriteBlock writes records given as binary datums of the Writer's schema,
// one after another in data (a Block from Reader.ReadBlock, say), as one
// block of their own, compressed with the Writer's codec: the pending
// records are flushed first, so that the order is kept. The datums are
// framed, as EncodeRaw frames one, and must be Count of them and fill
// Data exactly (else an error wrapping ErrInvalidBlock or an *avro.Error);
// the block may not exceed WithBlockLimit (ErrTooLarge). Only Count and
// Data of b are used.
func (wr *Writer) WriteBlock(b Block) error {
	if err := wr.failed(); err != nil {
		return err
	}
	if err := wr.checkBlock(b, int64(wr.maxBlock)); err != nil {
		return err
	}
	// The count is bounded before the records are walked.
	if err := wr.checkCount(b.Count, int64(len(b.Data))); err != nil {
		return err
	}
	rest, zero := b.Data, int64(avro.DefaultMaxZeroSizeItems)
	for i := int64(0); i < b.Count; i++ {
		next, used, err := wr.frame(rest, zero)
		if err != nil {
			return fmt.Errorf("ocf: record %d of the block's %d: %w", i, b.Count, err)
		}
		rest, zero = next, zero-used
	}
	if len(rest) != 0 {
		return fmt.Errorf("%w: %d bytes after its %d records", ErrInvalidBlock, len(rest), b.Count)
	}
	if err := wr.flush(false); err != nil {
		return err
	}
	if b.Count == 0 {
		return nil
	}
	return wr.writeOwned(b.Data, b.Count, true)
}

// WriteRawBlock writes a block as stored, its data compressed with the
// Writer's codec already (a Block from Reader.ReadRawBlock of a file with
// the same schema and codec), after flushing the pending records. The data
// is written as it is, neither decompressed nor checked but for its size
// (what a Reader with WithMaxBlockSize of this Writer's WithBlockLimit
// accepts, else ErrTooLarge) and its count (that the records, at the
// schema's minimum size, fit in the data of the null codec or the block
// limit of others, else ErrInvalidBlock). Only
// Count and Data of b are used.
func (wr *Writer) WriteRawBlock(b Block) error {
	if err := wr.failed(); err != nil {
		return err
	}
	_, isNull := wr.codec.(nullCodec)
	limit := int64(wr.maxBlock)
	if !isNull {
		limit += limit/6 + 1024
	}
	if err := wr.checkBlock(b, limit); err != nil {
		return err
	}
	size := int64(wr.maxBlock) // what the records may take decompressed
	if isNull {
		size = int64(len(b.Data))
	}
	if err := wr.checkCount(b.Count, size); err != nil {
		return err
	}
	if err := wr.flush(false); err != nil {
		return err
	}
	if b.Count == 0 {
		return nil
	}
	return wr.writeOwned(b.Data, b.Count, false)
}

// checkBlock checks the count and size of a block given to WriteBlock or
// WriteRawBlock.
func (wr *Writer) checkBlock(b Block, limit int64) error {
	switch {
	case b.Count < 0:
		return fmt.Errorf("%w: negative record count %d", ErrInvalidBlock, b.Count)
	case b.Count == 0 && len(b.Data) > 0:
		return fmt.Errorf("%w: %d bytes of data for no records", ErrInvalidBlock, len(b.Data))
	case int64(len(b.Data)) > limit:
		return fmt.Errorf("%w: block of %d bytes is larger than the maximum block size %d", ErrTooLarge, len(b.Data), limit)
	}
	return nil
}

// checkCount checks, as a Reader does, that count records fit in size
// bytes: each takes at least the schema's minimum encoded size, and a
// block of records that may take no bytes holds at most
// avro.DefaultMaxZeroSizeItems of them.
func (wr *Writer) checkCount(count, size int64) error {
	m := int64(wr.s.MinEncodedSize())
	switch {
	case m > 0 && count > size/m:
		return fmt.Errorf("%w: %d records of at least %d bytes cannot fit in %d bytes", ErrInvalidBlock, count, m, size)
	case m == 0 && count > avro.DefaultMaxZeroSizeItems:
		return fmt.Errorf("%w: %d records of a schema that may encode to zero bytes exceed the budget of %d", ErrInvalidBlock, count, avro.DefaultMaxZeroSizeItems)
	}
	return nil
}

// frame reads past the datum at the start of data, which may hold up to
// zero items that take no bytes, and returns the bytes after it and how
// many such items it held.
func (wr *Writer) frame(data []byte, zero int64) ([]byte, int64, error) {
	rest, used, err := wr.framer.Skip(data, wire.Budgets{Zero: zero})
	if e, ok := err.(*codec.Error); ok {
		return data, used.Zero, (*avro.Error)(e)
	}
	return rest, used.Zero, err
}
