package ocf

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// DefaultBlockSize is the uncompressed size at which a Writer flushes a
// block by default (64 KiB, close to Java's default sync interval).
const DefaultBlockSize = 64 << 10

// A WriterOption configures a Writer: one of the With functions that return
// a WriterOption.
type WriterOption interface{ applyWriter(*writerConfig) }

// writerOption is a WriterOption made of a function.
type writerOption func(*writerConfig)

func (f writerOption) applyWriter(c *writerConfig) { f(c) }

type writerConfig struct {
	codec      string
	codecSet   bool
	level      int
	levelSet   bool
	blockSize  int
	blockCount int64
	maxBlock   int
	meta       map[string][]byte
	sync       *[SyncSize]byte
	encode     avro.EncodeOptions
	errs       []error
	workers    int
}

// WithCodec sets the codec by its registered name: CodecNull (the
// default), CodecDeflate, CodecSnappy, CodecZstandard, or one added with
// RegisterCodec.
func WithCodec(name string) WriterOption {
	return writerOption(func(c *writerConfig) { c.codec, c.codecSet = name, true })
}

// WithCompressionLevel sets the codec's compression level: -2 to 9 for
// deflate (-1, the default, is 6), 1 to 22 for zstandard (default 3). A
// codec without levels (null, snappy) makes NewWriter fail.
func WithCompressionLevel(level int) WriterOption {
	return writerOption(func(c *writerConfig) { c.level, c.levelSet = level, true })
}

// WithBlockSize sets the uncompressed size in bytes at which a block is
// flushed (default DefaultBlockSize). A block holds at least one record,
// so a record larger than this makes a block of its own.
func WithBlockSize(n int) WriterOption {
	return writerOption(func(c *writerConfig) {
		if n > 0 {
			c.blockSize = n
		}
	})
}

// WithBlockCount flushes a block when it holds n records, whatever its
// size (default: no record limit, only the block size).
func WithBlockCount(n int) WriterOption {
	return writerOption(func(c *writerConfig) {
		if n > 0 {
			c.blockCount = int64(n)
		}
	})
}

// WithBlockLimit sets the largest uncompressed block the Writer makes
// (default DefaultMaxBlockSize, the Reader's default limit, so that files
// written with the defaults read with the defaults). Encoding a record
// larger than this is an error wrapping ErrTooLarge.
func WithBlockLimit(n int) WriterOption {
	return writerOption(func(c *writerConfig) {
		if n > 0 {
			c.maxBlock = n
		}
	})
}

// WithMetadata adds a user metadata entry to the header. Keys starting
// with "avro." are reserved by the specification and make NewWriter fail.
func WithMetadata(key string, value []byte) WriterOption {
	return writerOption(func(c *writerConfig) {
		if strings.HasPrefix(key, "avro.") {
			c.errs = append(c.errs, fmt.Errorf("ocf: metadata key %q is reserved", key))
			return
		}
		if c.meta == nil {
			c.meta = map[string][]byte{}
		}
		c.meta[key] = slices.Clone(value)
	})
}

// WithSyncMarker sets the sync marker instead of a random one, for
// reproducible output in tests. Real files should use random markers.
func WithSyncMarker(sync [SyncSize]byte) WriterOption {
	return writerOption(func(c *writerConfig) { c.sync = &sync })
}

// WithEncodeOptions sets the options used to encode each record.
func WithEncodeOptions(o avro.EncodeOptions) WriterOption {
	return writerOption(func(c *writerConfig) { c.encode = o })
}

// A Writer writes an object container file: the header when it is
// created, then records in blocks. Records are buffered until the block
// is full (WithBlockSize, WithBlockCount), then compressed and written;
// Flush and Close write a partial block. Memory use is bounded by the
// block size.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	w         io.Writer
	s         *schema.Schema
	codec     Codec
	sync      [SyncSize]byte
	enc       avro.EncodeOptions
	blockSize int
	maxCount  int64
	maxBlock  int

	// framer checks the datums given to EncodeRaw and WriteBlock, with
	// the default limits of frameOpts.
	framer    codec.DatumReader
	frameOpts codec.DecodeOptions

	buf   []byte // encoded records of the pending block
	count int64  // records in buf
	comp  []byte // compressed block being written
	err   error  // sticky: a failed Write, or ErrClosed

	// sink frames and writes the blocks; pipe compresses and writes them
	// on other goroutines, for a Writer made WithWorkers.
	sink *blockSink
	pipe *writePipeline
}

func (c *writerConfig) resolveCodec() (Codec, error) {
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	codec, err := lookupCodec(c.codec)
	if err != nil {
		return nil, err
	}
	if _, ro := codec.(readOnlyCodec); ro {
		return nil, fmt.Errorf("%w: %q can be read but not written", ErrUnsupportedCodec, c.codec)
	}
	if c.levelSet {
		lc, ok := codec.(LevelCodec)
		if !ok {
			return nil, fmt.Errorf("ocf: codec %q has no compression levels", c.codec)
		}
		if codec, err = lc.WithLevel(c.level); err != nil {
			return nil, err
		}
	}
	return codec, nil
}

func newConfig(opts []WriterOption) writerConfig {
	c := writerConfig{codec: CodecNull, blockSize: DefaultBlockSize, maxBlock: DefaultMaxBlockSize}
	for _, o := range opts {
		o.applyWriter(&c)
	}
	return c
}

// NewWriter writes the header of a container file for records of schema s
// to w and returns a Writer for the records. The header holds avro.schema
// (s.String(), the full JSON), avro.codec and the user metadata, and a
// random sync marker from crypto/rand.
func NewWriter(w io.Writer, s *schema.Schema, opts ...WriterOption) (*Writer, error) {
	if s == nil {
		return nil, errors.New("ocf: nil schema")
	}
	cfg := newConfig(opts)
	codec, err := cfg.resolveCodec()
	if err != nil {
		return nil, err
	}
	wr := &Writer{w: w, s: s, codec: codec}
	wr.configure(&cfg)
	if cfg.sync != nil {
		wr.sync = *cfg.sync
	} else if _, err := rand.Read(wr.sync[:]); err != nil {
		return nil, err
	}
	meta := map[string][]byte{"avro.schema": []byte(s.String()), "avro.codec": []byte(cfg.codec)}
	for k, v := range cfg.meta {
		meta[k] = v
	}
	// avro.schema and avro.codec first, then user keys in sorted order.
	keys := []string{"avro.schema", "avro.codec"}
	user := make([]string, 0, len(cfg.meta))
	for k := range cfg.meta {
		user = append(user, k)
	}
	slices.Sort(user)
	keys = append(keys, user...)
	h := append([]byte(nil), Magic...)
	h = appendLong(h, int64(len(keys)))
	for _, k := range keys {
		h = appendLong(h, int64(len(k)))
		h = append(h, k...)
		h = appendLong(h, int64(len(meta[k])))
		h = append(h, meta[k]...)
	}
	h = appendLong(h, 0)
	h = append(h, wr.sync[:]...)
	if _, err := w.Write(h); err != nil {
		return nil, err
	}
	wr.start(cfg.workers)
	return wr, nil
}

func (wr *Writer) configure(cfg *writerConfig) {
	wr.enc = cfg.encode
	wr.blockSize = min(cfg.blockSize, cfg.maxBlock)
	wr.maxCount = cfg.blockCount
	wr.maxBlock = cfg.maxBlock
	wr.framer = codec.NewDatumReader(&wr.frameOpts, wr.s)
	if wr.s.MinEncodedSize() == 0 && (wr.maxCount == 0 || wr.maxCount > zeroSizeBlockCount) {
		// Records that may take no bytes never fill a block; all of them
		// went into one, which the Reader refuses past 2^20 records (and
		// a file past what its bytes earn: see the Reader's budget).
		wr.maxCount = zeroSizeBlockCount
	}
}

// zeroSizeBlockCount is the most records the Writer puts in a block when
// the schema's records may take no bytes: fewer than the 64 a byte that
// the Reader's budget of zero-size items earns from the 19 bytes of such a
// block's count, size and sync marker.
const zeroSizeBlockCount = 1024

// NewAppender opens the container file in f for appending: it reads the
// header (schema, codec, sync marker), walks the blocks to the end of the
// data (seeking over their contents), and returns a Writer that adds
// blocks at the end. The file must end exactly after its last block:
// anything else (a stray byte, a truncated block) is an error, since
// appending after it would make the new blocks unreadable.
//
// The options may set the compression level, block size and count and
// encode options; a codec other than the file's, metadata or a sync
// marker are errors, as the header cannot change. Read options (limits)
// are the defaults.
func NewAppender(f io.ReadWriteSeeker, opts ...WriterOption) (*Writer, error) {
	cfg := newConfig(opts)
	if cfg.meta != nil || cfg.sync != nil {
		return nil, errors.New("ocf: an appender cannot change the header (metadata, sync marker)")
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	r, err := NewReader(f)
	if err != nil {
		return nil, err
	}
	if cfg.codecSet && cfg.codec != r.Codec() {
		return nil, fmt.Errorf("ocf: cannot append with codec %q to a %q file", cfg.codec, r.Codec())
	}
	cfg.codec = r.Codec()
	codec, err := cfg.resolveCodec()
	if err != nil {
		return nil, err
	}
	for {
		if _, err := r.SkipBlock(); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("ocf: cannot append: %w", err)
		}
	}
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	if end != r.Offset() {
		return nil, fmt.Errorf("ocf: cannot append: %w (%d bytes after the last block at offset %d)",
			ErrTrailingData, end-r.Offset(), r.Offset())
	}
	wr := &Writer{w: f, s: r.Schema(), codec: codec, sync: r.SyncMarker()}
	wr.configure(&cfg)
	wr.start(cfg.workers)
	return wr, nil
}

// Schema returns the schema of the records.
func (wr *Writer) Schema() *schema.Schema { return wr.s }

// Encode adds a record: any value avro.Append accepts for the schema
// (a struct, a map, a value.Value, an any). A value that does not fit the
// schema is an error that leaves the Writer usable; the block is flushed
// when it reaches the block size or record count.
func (wr *Writer) Encode(v any) error {
	if err := wr.failed(); err != nil {
		return err
	}
	start := len(wr.buf)
	buf, err := wr.enc.Append(wr.buf, wr.s, v)
	if err != nil {
		return err
	}
	wr.buf = buf
	return wr.added(start)
}

// added finishes adding the record at wr.buf[start:]: a record that takes
// the block past the largest size goes into the next block, and a block
// that reaches its size or record count is flushed.
func (wr *Writer) added(start int) error {
	buf := wr.buf
	if len(buf) > wr.maxBlock {
		if len(buf)-start > wr.maxBlock {
			wr.buf = buf[:start]
			return fmt.Errorf("%w: record of %d bytes is larger than the maximum block size %d",
				ErrTooLarge, len(buf)-start, wr.maxBlock)
		}
		// Write the records before this one, then keep it pending.
		if err := wr.emit(start, wr.count); err != nil {
			return err
		}
		wr.count = 0
	}
	wr.count++
	if len(wr.buf) >= wr.blockSize || (wr.maxCount > 0 && wr.count >= wr.maxCount) {
		return wr.flush(false)
	}
	return nil
}

// failed returns the error that stops the Writer: its own, or one its
// workers met writing a block.
func (wr *Writer) failed() error {
	if wr.err == nil && wr.pipe != nil {
		wr.err = wr.pipe.error()
	}
	return wr.err
}

// Flush writes the pending records, if any, as a block. With workers, it
// returns once every block before it is written.
func (wr *Writer) Flush() error { return wr.flush(true) }

// flush writes the pending records as a block; wait waits for the workers
// to write every block.
func (wr *Writer) flush(wait bool) error {
	if err := wr.failed(); err != nil {
		return err
	}
	if wr.count > 0 {
		if err := wr.emit(len(wr.buf), wr.count); err != nil {
			return err
		}
		wr.count = 0
	}
	if wait && wr.pipe != nil {
		if err := wr.pipe.wait(); err != nil {
			wr.err = err
			return err
		}
	}
	return nil
}

// writeBlock compresses and writes a block of count records.
func (wr *Writer) writeBlock(data []byte, count int64) error {
	payload, err := wr.sink.compress(wr.comp, data)
	if err != nil {
		return err
	}
	if !wr.sink.isNull {
		wr.comp = payload
	}
	return wr.writeFramed(payload, count)
}

// writeFramed writes a block of count records whose data, as stored, is
// payload; a failed write stops the Writer.
func (wr *Writer) writeFramed(payload []byte, count int64) error {
	if err := wr.sink.write(payload, count); err != nil {
		wr.err = err
		return err
	}
	return nil
}

// Close flushes the pending records. It does not close the underlying
// writer. After Close, Encode and Flush return ErrClosed; Close itself
// returns nil again.
func (wr *Writer) Close() error {
	if wr.err == ErrClosed {
		return nil
	}
	err := wr.Flush()
	if wr.pipe != nil {
		wr.pipe.stop()
		if err == nil {
			err = wr.pipe.error()
		}
		wr.pipe = nil
	}
	if wr.err == nil {
		wr.err = ErrClosed
	}
	return err
}

func appendLong(b []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}
