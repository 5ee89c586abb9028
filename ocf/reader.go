package ocf

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"

	"github.com/avrogo/avro/internal/wire"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// Magic is the 4 bytes every object container file starts with.
const Magic = "Obj\x01"

// SyncSize is the length of the sync marker.
const SyncSize = 16

// Default reader limits.
const (
	// DefaultMaxBlockSize bounds a block's compressed size and its
	// decompressed size (64 MiB).
	DefaultMaxBlockSize = 64 << 20
	// DefaultMaxHeaderSize bounds the header: magic, metadata and sync
	// marker (16 MiB).
	DefaultMaxHeaderSize = 16 << 20
	// DefaultMaxSchemaSize bounds the file's schema, the avro.schema
	// metadata (4 MiB; Avro's own largest test schema is 385 KB). Parsing
	// a schema takes up to about 60 bytes of memory a byte of its text
	// (see schema.ParseOptions), so the schema of a file from an
	// untrusted source costs at most about 240 MiB to parse, in line with
	// the three blocks of DefaultMaxBlockSize a Reader may hold.
	DefaultMaxSchemaSize = 4 << 20
)

// A ReaderOption configures a Reader: one of the With functions that return
// a ReaderOption.
type ReaderOption interface{ applyReader(*readerConfig) }

// readerOption is a ReaderOption made of a function.
type readerOption func(*readerConfig)

func (f readerOption) applyReader(c *readerConfig) { f(c) }

type readerConfig struct {
	maxBlock   int64
	maxHeader  int64
	decode     avro.DecodeOptions
	parse      schema.ParseOptions
	strictTail bool
	reader     *schema.Schema
	workers    int
	follow     bool
}

// WithReaderSchema makes the Reader decode records into the shape of the
// reader schema s: the file's (writer) schema is resolved to s once, when
// the header is read (schema.Resolve: promotions, defaults for added
// fields, skipped removed fields, aliases, enum defaults). A writer schema
// that s cannot read makes NewReader fail with the *schema.CompatibilityError.
func WithReaderSchema(s *schema.Schema) ReaderOption {
	return readerOption(func(c *readerConfig) { c.reader = s })
}

// WithMaxBlockSize sets the largest block the Reader accepts once
// decompressed (default DefaultMaxBlockSize); as stored, a compressed block
// may exceed it by what compression adds to data that does not compress
// (a sixth and 1 KiB more; nothing for the null codec), so that a block the
// Writer made within its WithBlockLimit always reads. The Reader's memory is bounded by about three times this,
// plus what the decoded records hold. A larger block is an error wrapping
// ErrTooLarge.
func WithMaxBlockSize(n int64) ReaderOption {
	return readerOption(func(c *readerConfig) {
		if n > 0 {
			c.maxBlock = n
		}
	})
}

// WithMaxHeaderSize sets the largest header the Reader accepts (default
// DefaultMaxHeaderSize).
func WithMaxHeaderSize(n int64) ReaderOption {
	return readerOption(func(c *readerConfig) {
		if n > 0 {
			c.maxHeader = n
		}
	})
}

// WithParseOptions sets the limits used to parse the file's schema (see
// schema.ParseOptions). A zero MaxSize stands for DefaultMaxSchemaSize
// here, not for the schema package's default. A schema over a limit is an
// error wrapping ErrTooLarge and schema.ErrLimit.
func WithParseOptions(o schema.ParseOptions) ReaderOption {
	return readerOption(func(c *readerConfig) { c.parse = o })
}

// WithDecodeOptions sets the limits used to decode each record (see
// avro.DecodeOptions). ZeroCopy is ignored: decoded []byte values never
// alias the Reader's buffers, which are reused from block to block.
// MaxZeroSizeItems also bounds the records of one block when the schema
// lets a record encode to zero bytes, and the records of a file share one
// budget of zero-size items: each may use MaxZeroSizeItems, all of them
// together that plus 64 (or MaxZeroSizeItems/16384 when more) per byte
// of block data read, as the records of an avro.Decoder do. Records that
// may take no bytes count against that budget too, one each (not one per
// value they hold, as array items do: a file's record count is stored,
// and this Writer's files of such records always read), a block at a time.
// The reader defaults that WithReaderSchema fills in have a budget over
// the file likewise (see avro.DecodeOptions.MaxAlloc), earned by the
// bytes of the blocks as stored.
func WithDecodeOptions(o avro.DecodeOptions) ReaderOption {
	return readerOption(func(c *readerConfig) {
		c.decode = o
		c.decode.ZeroCopy = false
	})
}

// WithStrictTrailing(false) makes the Reader ignore bytes after the last
// block that are too short to form a block header, as avsc does. By
// default they are an error wrapping ErrTrailingData that gives their
// offset, reported by Err after the last record, as the Java, Python and
// C readers fail on them: bytes a reader cannot parse may be the start of
// an append that was cut short, and skipping them would hide it.
func WithStrictTrailing(strict bool) ReaderOption {
	return readerOption(func(c *readerConfig) { c.strictTail = strict })
}

// BlockInfo describes one data block.
type BlockInfo struct {
	// Count is the number of records the block holds.
	Count int64
	// Size is the size of the block's data as stored (compressed).
	Size int64
	// Offset is the offset in the file of the block's first byte (its
	// record count).
	Offset int64
}

// A Reader reads an object container file: the header when it is created,
// then the records block by block. Memory use is bounded by the block size
// limit, not the file size.
//
// Records are decoded with the writer's schema, Schema(), or, with
// WithReaderSchema, into the reader schema's shape through schema
// resolution.
//
// Use Next and Decode as with bufio.Scanner:
//
//	for r.Next() {
//		var rec T
//		if err := r.Decode(&rec); err != nil { ... }
//	}
//	if err := r.Err(); err != nil { ... }
//
// A Reader is not safe for concurrent use.
type Reader struct {
	// The source and what reading its blocks needs; when blocks are read
	// in parallel, the goroutine that reads them alone uses it.
	*blockSource

	schema *schema.Schema
	// decodeSchema is schema, or its resolution to the reader schema.
	decodeSchema *schema.Schema
	// datums decodes the records with decodeSchema and cfg.decode.
	datums codec.DatumReader
	// engineOpts are the decode options as the engine takes them.
	engineOpts codec.DecodeOptions
	meta       map[string][]byte

	// pos is the offset of the file consumed so far: the end of the
	// header, then of the blocks entered. whole is the end of the last
	// block entered whole, where a Reader WithFollow goes on from, and
	// dataStart the end of the header.
	pos, whole, dataStart int64
	// cur is the current block; one is its storage when blocks are read
	// on the Reader's goroutine.
	cur     *block
	one     block
	rest    []byte // undecoded records of the current block
	left    int64  // records left in the current block
	inBlock bool
	block   BlockInfo
	records int64 // records decoded from the current block

	pending error // reported once the current block is consumed
	err     error // sticky; io.EOF at the clean end

	// zero is the budget of zero-size items of the file's records: each
	// record may use MaxZeroSizeItems, all of them together that plus 64
	// a byte of block data read (see avro.Decoder.Decode). defaults is
	// the budget of reader defaults filled in, likewise.
	zero, defaults wire.Credit

	// workers is the number of goroutines that decompress blocks; pipe
	// runs them once the first block is wanted.
	workers int
	pipe    *pipeline
	// batcher decodes records on the workers, for Records.
	batcher batchDecoder
}

// blockSource is the input of a Reader and what reading and unpacking its
// blocks needs: the file's codec, sync marker and limits.
type blockSource struct {
	src     io.Reader
	br      *bufio.Reader
	seeker  io.Seeker // src as a Seeker, or nil
	offset  int64     // bytes consumed from src through br
	cfg     readerConfig
	codec   Codec
	cname   string
	isNull  bool
	sync    [SyncSize]byte
	minSize int64
	nblocks int64 // blocks read so far
	// end, when not negative, is the end of a split: a block whose sync
	// marker before it starts at or after end belongs to the next split.
	end int64
}

// perDatum returns what one record may use of the file's budgets: the
// limits of avro.DecodeOptions, MaxAlloc for an input of no bytes.
func (r *Reader) perDatum() wire.Budgets {
	return (*codec.DecodeOptions)(&r.cfg.decode).PerDatum()
}

// NewReader reads the header of the container file on r and returns a
// Reader positioned at the first record. If r is also an io.Seeker,
// SkipBlock seeks over block data instead of reading it.
//
// A bad header is an error wrapping ErrBadMagic, ErrLegacyFormat,
// ErrInvalidHeader, ErrUnsupportedCodec, ErrTooLarge or ErrTruncated. An
// error of r itself (other than io.EOF) is returned wrapped, here and by
// every later read, so that errors.Is finds it; it is never reported as
// bad data.
func NewReader(r io.Reader, opts ...ReaderOption) (*Reader, error) {
	return newReader(r, readerOptions(opts))
}

func readerOptions(opts []ReaderOption) readerConfig {
	cfg := readerConfig{maxBlock: DefaultMaxBlockSize, maxHeader: DefaultMaxHeaderSize, strictTail: true}
	for _, o := range opts {
		o.applyReader(&cfg)
	}
	cfg.decode.ZeroCopy = false
	return cfg
}

func newReader(r io.Reader, cfg readerConfig) (*Reader, error) {
	rd := &Reader{blockSource: &blockSource{src: r, br: bufio.NewReaderSize(r, 64<<10), cfg: cfg, end: -1}}
	rd.seeker, _ = r.(io.Seeker)
	if err := rd.readHeader(); err != nil {
		return nil, err
	}
	rd.pos, rd.workers = rd.offset, cfg.workers
	rd.dataStart, rd.whole = rd.pos, rd.pos
	if cfg.follow && rd.seeker == nil {
		return nil, fmt.Errorf("ocf: WithFollow: %w", ErrNotSeekable)
	}
	rd.decodeSchema = rd.schema
	if cfg.reader != nil {
		resolved, err := schema.Resolve(rd.schema, cfg.reader)
		if err != nil {
			return nil, fmt.Errorf("ocf: the reader schema cannot read this file: %w", err)
		}
		rd.decodeSchema = resolved
	}
	rd.engineOpts = codec.DecodeOptions(rd.cfg.decode)
	rd.datums = codec.NewDatumReader(&rd.engineOpts, rd.decodeSchema)
	return rd, nil
}

// Schema returns the writer's schema, from the avro.schema metadata.
func (r *Reader) Schema() *schema.Schema { return r.schema }

// Codec returns the name of the file's codec ("null" when the header has
// no avro.codec key).
func (r *Reader) Codec() string { return r.cname }

// SyncMarker returns the file's 16-byte sync marker.
func (r *Reader) SyncMarker() [SyncSize]byte { return r.sync }

// Metadata returns a copy of the file's metadata, avro.schema and
// avro.codec included.
func (r *Reader) Metadata() map[string][]byte {
	m := maps.Clone(r.meta)
	for k, v := range m {
		m[k] = bytes.Clone(v)
	}
	return m
}

// Offset returns the number of bytes of the file consumed so far: after
// NewReader, the header size; after the last block, the end of the data.
func (r *Reader) Offset() int64 { return r.pos }

// ---- low-level input, counting offsets ----

func (r *blockSource) readFull(p []byte) (int, error) {
	n, err := io.ReadFull(r.br, p)
	r.offset += int64(n)
	return n, err
}

// readLong reads a zig-zag varint. It returns n, the bytes read: with
// io.EOF and n == 0 the input ended cleanly before it.
func (r *blockSource) readLong() (v int64, n int, err error) {
	var u uint64
	for shift := uint(0); ; shift += 7 {
		b, err := r.br.ReadByte()
		if err != nil {
			if err == io.EOF && n > 0 {
				err = io.ErrUnexpectedEOF
			}
			return 0, n, err
		}
		r.offset++
		n++
		if n == 10 && b > 1 {
			return 0, n, errOverlong
		}
		u |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return int64(u>>1) ^ -int64(u&1), n, nil
		}
	}
}

var errOverlong = errors.New("varint longer than 10 bytes")

// readBytes reads n bytes into buf (reusing it), growing it as data
// arrives so that a declared length never allocates ahead of the input.
func (r *blockSource) readBytes(buf []byte, n int64) ([]byte, error) {
	buf = buf[:0]
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			grow := min(max(int64(cap(buf)), 64<<10), n-int64(len(buf)))
			nb := make([]byte, len(buf), int64(len(buf))+grow)
			copy(nb, buf)
			buf = nb
		}
		want := min(int64(cap(buf)), n)
		k, err := r.readFull(buf[len(buf):want])
		buf = buf[:len(buf)+k]
		if err != nil {
			return buf, endIsTruncation(err)
		}
	}
	return buf, nil
}

// discard skips n bytes, seeking when the source allows it.
func (r *blockSource) discard(n int64) error {
	if b := int64(r.br.Buffered()); n > b && r.seeker != nil {
		if _, err := r.br.Discard(int(b)); err != nil {
			return err
		}
		if pos, err := r.seeker.Seek(n-b, io.SeekCurrent); err == nil {
			r.br.Reset(r.src)
			// A seek past the end succeeds: the end is looked up to tell
			// a block cut short from one that is all there.
			end, err := r.seeker.Seek(0, io.SeekEnd)
			if err == nil && end < pos {
				r.offset += n - (pos - end)
				return io.ErrUnexpectedEOF
			}
			if err == nil {
				_, err = r.seeker.Seek(pos, io.SeekStart)
			}
			if err != nil {
				return err
			}
			r.offset += n
			return nil
		}
		r.offset += b
		n -= b
		r.seeker = nil // not really seekable (a pipe): read instead
	}
	k, err := io.CopyN(io.Discard, r.br, n)
	r.offset += k
	if err != nil {
		return endIsTruncation(err)
	}
	return nil
}

// endIsTruncation turns the end of the input inside something into
// io.ErrUnexpectedEOF and leaves any other error of the source as it is.
func endIsTruncation(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// isEnd reports whether err is the end of the input (clean or inside
// something), as opposed to an error of the source.
func isEnd(err error) bool { return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) }

// sourceErr reports an error of the io.Reader (a failed read, not bad
// data), wrapped so that errors.Is finds it, with where it happened.
func sourceErr(offset int64, err error) error {
	return fmt.Errorf("ocf: reading at offset %d: %w", offset, err)
}

// ---- header ----

func headerErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidHeader}, args...)...)
}

func truncatedHeader(what string) error {
	return fmt.Errorf("ocf: input ends inside the header (%s): %w", what, ErrTruncated)
}

// headerReadErr is the error of a failed read of part of the header.
func headerReadErr(offset int64, what string, err error) error {
	if isEnd(err) {
		return truncatedHeader(what)
	}
	return sourceErr(offset, err)
}

func (r *Reader) readHeader() error {
	var magic [4]byte
	if n, err := r.readFull(magic[:]); err != nil {
		if n >= 3 && string(magic[:3]) != "Obj" {
			return ErrBadMagic
		}
		if !isEnd(err) {
			return sourceErr(r.offset, err)
		}
		return truncatedHeader("magic")
	}
	if string(magic[:3]) != "Obj" {
		return ErrBadMagic
	}
	switch magic[3] {
	case 1:
	case 0:
		return ErrLegacyFormat
	default:
		return fmt.Errorf("%w: unknown version byte %d", ErrBadMagic, magic[3])
	}
	meta := map[string][]byte{}
	budget := func() int64 { return r.cfg.maxHeader - r.offset - SyncSize }
	tooLarge := func() error {
		return fmt.Errorf("%w: header larger than %d bytes", ErrTooLarge, r.cfg.maxHeader)
	}
	readLen := func(what string) (int64, error) {
		n, _, err := r.readLong()
		switch {
		case isEnd(err):
			return 0, truncatedHeader(what)
		case err == errOverlong:
			return 0, headerErr("%s: %v", what, err)
		case err != nil:
			return 0, sourceErr(r.offset, err)
		case n < 0:
			return 0, headerErr("negative %s length %d", what, n)
		case n > budget():
			return 0, tooLarge()
		}
		return n, nil
	}
	for {
		count, _, err := r.readLong()
		switch {
		case isEnd(err):
			return truncatedHeader("metadata")
		case err == errOverlong:
			return headerErr("metadata count: %v", err)
		case err != nil:
			return sourceErr(r.offset, err)
		}
		if count == 0 {
			break
		}
		// A block that gives its byte size must hold exactly its
		// entries, as in any Avro map: a reader that skips the block by
		// its size would see other metadata than one that reads it.
		blockEnd := int64(-1)
		if count < 0 {
			if count == -1<<63 {
				return headerErr("metadata count out of range")
			}
			count = -count
			size, err := readLen("metadata block size")
			if err != nil {
				return err
			}
			blockEnd = r.offset + size
		}
		if count > budget()/2 { // an entry takes at least 2 bytes
			return tooLarge()
		}
		pastBlock := func(n int64) bool { return blockEnd >= 0 && n > blockEnd-r.offset }
		for ; count > 0; count-- {
			kn, err := readLen("metadata key")
			if err != nil {
				return err
			}
			if pastBlock(kn) {
				return headerErr("metadata entries run past the end of their block")
			}
			kb, err := r.readBytes(nil, kn)
			if err != nil {
				return headerReadErr(r.offset, "metadata key", err)
			}
			vn, err := readLen("metadata value")
			if err != nil {
				return err
			}
			if pastBlock(vn) {
				return headerErr("metadata entries run past the end of their block")
			}
			vb, err := r.readBytes(nil, vn)
			if err != nil {
				return headerReadErr(r.offset, "metadata value", err)
			}
			key := string(kb)
			if _, dup := meta[key]; dup {
				return headerErr("duplicate metadata key %q", key)
			}
			meta[key] = vb[:len(vb):len(vb)]
		}
		if blockEnd >= 0 && r.offset != blockEnd {
			return headerErr("metadata entries do not end where their block's byte size says (offset %d, not %d)", r.offset, blockEnd)
		}
	}
	if budget() < 0 {
		return tooLarge()
	}
	if _, err := r.readFull(r.sync[:]); err != nil {
		return headerReadErr(r.offset, "sync marker", err)
	}
	text, ok := meta["avro.schema"]
	if !ok {
		return headerErr("no avro.schema metadata")
	}
	po := r.cfg.parse
	if po.MaxSize <= 0 {
		po.MaxSize = DefaultMaxSchemaSize
	}
	if len(text) > po.MaxSize {
		return fmt.Errorf("%w: avro.schema of %d bytes exceeds the limit of %d (WithParseOptions): %w", ErrTooLarge, len(text), po.MaxSize, schema.ErrLimit)
	}
	s, err := po.Parse(string(text))
	if err != nil {
		if errors.Is(err, schema.ErrLimit) {
			return fmt.Errorf("%w: avro.schema: %w", ErrTooLarge, err)
		}
		return fmt.Errorf("%w: avro.schema: %w", ErrInvalidHeader, err)
	}
	r.cname = CodecNull
	if c, ok := meta["avro.codec"]; ok && len(c) > 0 {
		r.cname = string(c)
	}
	if r.codec, err = lookupCodec(r.cname); err != nil {
		return err
	}
	_, r.isNull = r.codec.(nullCodec)
	r.schema, r.meta = s, meta
	r.minSize = int64(s.MinEncodedSize())
	return nil
}

// Next reports whether another record is available, reading (and
// decompressing) the next block when the current one is used up. It does
// not consume the record: Decode does. It returns false at the end of the
// file or on an error, which Err then reports.
func (r *Reader) Next() bool {
	if r.err != nil && !r.followed() {
		return false
	}
	for r.left == 0 {
		if err := r.finishBlock(); err != nil {
			r.err = err
			return false
		}
		if err := r.nextBlock(records); err != nil {
			r.err = err
			return false
		}
	}
	return true
}

// Decode decodes the next record into the value v points at (any target
// that avro.Unmarshal accepts for the writer's schema). It returns io.EOF
// after the last record, and the error Err reports if the file is bad. A
// record that does not decode (bad data) is an error that stops the
// Reader; a Go type that cannot hold the schema (*avro.TypeError) or an
// invalid v is returned without consuming the record.
func (r *Reader) Decode(v any) error {
	if !r.Next() {
		return r.stop()
	}
	per := r.perDatum()
	rest, used, err := r.datums.Next(r.rest, v, wire.Budgets{Zero: r.zero.Budget(per.Zero), Defaults: r.defaults.Budget(per.Defaults)})
	r.zero.Spend(used.Zero)
	r.defaults.Spend(used.Defaults)
	switch e := err.(type) {
	case nil:
	case *codec.Error:
		return r.recordErr(e)
	case *codec.TypeError:
		return (*avro.TypeError)(e)
	case *codec.InvalidUnmarshalError:
		return (*avro.InvalidUnmarshalError)(e)
	default:
		return err
	}
	r.rest, r.left = rest, r.left-1
	r.records++
	return nil
}

// Err returns the first error met by Next, Decode or SkipBlock, or nil at
// the clean end of the file.
func (r *Reader) Err() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

// SkipBlock discards the block the next record would come from and
// returns its description: the rest of the current block if it has
// records left, otherwise the next block of the file, which is read past
// without being decompressed or decoded (sought over when the source is an
// io.Seeker); its header and sync marker are still checked. It returns
// io.EOF at the end of the file. Counting a file's records this way costs
// one small read per block:
//
//	for {
//		b, err := r.SkipBlock()
//		if err == io.EOF { break }
//		if err != nil { return err }
//		n += b.Count
//	}
func (r *Reader) SkipBlock() (BlockInfo, error) {
	if r.err != nil && !r.followed() {
		return BlockInfo{}, r.err
	}
	if r.left > 0 {
		r.left, r.rest, r.inBlock = 0, nil, false
		return r.block, nil
	}
	if err := r.finishBlock(); err != nil {
		r.err = err
		return BlockInfo{}, err
	}
	if err := r.nextBlock(skipped); err != nil {
		r.err = err
		return BlockInfo{}, err
	}
	return r.block, nil
}

// Records returns an iterator over the records of r decoded into values of
// type T. It stops after the last record, or after yielding the first
// error with the zero T (a bad file, also reported by Err, or a T that
// cannot hold the schema). A Reader made WithWorkers decodes the records
// on its workers, ahead of the loop:
//
//	for rec, err := range ocf.Records[T](r) {
//		if err != nil { return err }
//		...
//	}
func Records[T any](r *Reader) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		if r.workers > 1 {
			r.decodeAhead(newBatchOf[T](r))
			defer r.decodeAhead(nil)
		}
		// One value decoded into and cleared each time keeps the records
		// off the heap: a value of its own would escape through Decode.
		var zero T
		p := new(T)
		for r.Next() {
			if v, ok := batched[T](r); ok {
				if !yield(v, nil) {
					return
				}
				continue
			}
			*p = zero
			if err := r.Decode(p); err != nil {
				yield(*p, err)
				return
			}
			if !yield(*p, nil) {
				return
			}
		}
		if err := r.Err(); err != nil {
			var zero T
			yield(zero, err)
		}
	}
}
