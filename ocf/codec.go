package ocf

import (
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// Names of the codecs this package registers. "null", "deflate", "snappy"
// and "zstandard" read and write; "bzip2" and "xz" only read (Go has no
// bzip2 compressor in its standard library, and xz writing is not
// provided).
const (
	CodecNull      = "null"
	CodecDeflate   = "deflate"
	CodecSnappy    = "snappy"
	CodecZstandard = "zstandard"
	CodecBzip2     = "bzip2"
	CodecXZ        = "xz"
)

// A Codec compresses and decompresses the data of container blocks. The
// Writer calls Compress once per block with the encoded records; the Reader
// calls Decompress once per block. A Codec must be safe for concurrent use
// by several Readers and Writers.
type Codec interface {
	// Compress appends the compressed form of src to dst and returns the
	// extended slice.
	Compress(dst, src []byte) ([]byte, error)
	// Decompress appends the decompressed form of src to dst and returns
	// the extended slice. If the decompressed data would be longer than
	// limit bytes it must stop and return an error that wraps ErrTooLarge
	// (or avro.ErrLimit), having allocated not much more than limit bytes:
	// this is what makes a compression bomb an error rather than an
	// out-of-memory crash. Any other failure is reported as corrupt data.
	Decompress(dst, src []byte, limit int) ([]byte, error)
}

// A LevelCodec is a Codec with compression levels. WithCompressionLevel
// calls WithLevel to get the Codec a Writer uses.
type LevelCodec interface {
	Codec
	// WithLevel returns a Codec that compresses at the given level, or an
	// error if the level is out of range.
	WithLevel(level int) (Codec, error)
}

var registry = struct {
	sync.RWMutex
	m map[string]Codec
}{m: map[string]Codec{
	CodecNull:      nullCodec{},
	CodecDeflate:   newDeflateCodec(flate.DefaultCompression),
	CodecSnappy:    snappyCodec{},
	CodecZstandard: newZstdCodec(zstd.SpeedDefault),
	CodecBzip2:     bzip2Codec{},
	CodecXZ:        xzCodec{},
}}

// RegisterCodec makes a codec available under name (the value of the
// avro.codec metadata key) to Readers and Writers created afterwards,
// replacing any codec registered under that name, built-in ones included
// (except "null", which cannot be replaced). It panics if name is empty
// or "null", or c is nil.
func RegisterCodec(name string, c Codec) {
	if name == "" || name == CodecNull || c == nil {
		panic("ocf: RegisterCodec with an empty name, \"null\" or a nil codec")
	}
	registry.Lock()
	registry.m[name] = c
	registry.Unlock()
}

// LookupCodec returns the codec registered under name.
func LookupCodec(name string) (Codec, bool) {
	registry.RLock()
	c, ok := registry.m[name]
	registry.RUnlock()
	return c, ok
}

func lookupCodec(name string) (Codec, error) {
	c, ok := LookupCodec(name)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnsupportedCodec, name)
	}
	return c, nil
}

// limitError is the error a codec returns for output over the limit.
func limitError(limit int) error {
	return fmt.Errorf("%w: block decompresses to more than %d bytes", ErrTooLarge, limit)
}

// readLimited appends what r yields to dst, growing dst progressively, so
// that a short stream never causes a large allocation, and fails as soon as
// more than limit bytes come out.
func readLimited(dst []byte, r io.Reader, limit int) ([]byte, error) {
	start := len(dst)
	for {
		if len(dst) == cap(dst) {
			if len(dst)-start > limit {
				return dst[:start], limitError(limit)
			}
			// Double, up to limit+1 bytes (one past the limit shows that
			// the data is larger): a doubling that would reach the limit
			// takes the rest at once, so that a bomb that fills the limit
			// is not copied once more to learn that it has one byte more.
			size := max(2*(cap(dst)-start), 32<<10)
			if size >= limit {
				size = limit + 1
			}
			nb := make([]byte, len(dst), start+size)
			copy(nb, dst)
			dst = nb
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if len(dst)-start > limit {
			return dst[:start], limitError(limit)
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst[:start], err
		}
	}
}

// nullCodec stores blocks uncompressed.
type nullCodec struct{}

func (nullCodec) Compress(dst, src []byte) ([]byte, error) { return append(dst, src...), nil }

func (nullCodec) Decompress(dst, src []byte, limit int) ([]byte, error) {
	if len(src) > limit {
		return dst, limitError(limit)
	}
	return append(dst, src...), nil
}

// deflateCodec is raw RFC 1951 deflate (no zlib header or checksum), with
// pooled compressors and decompressors from klauspost/compress/flate.
type deflateCodec struct {
	level   int
	writers sync.Pool // *flate.Writer
}

var deflateReaders sync.Pool // io.ReadCloser implementing flate.Resetter

func newDeflateCodec(level int) *deflateCodec { return &deflateCodec{level: level} }

type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

func (c *deflateCodec) Compress(dst, src []byte) ([]byte, error) {
	aw := &appendWriter{b: dst}
	fw, _ := c.writers.Get().(*flate.Writer)
	if fw == nil {
		var err error
		if fw, err = flate.NewWriter(aw, c.level); err != nil {
			return dst, err
		}
	} else {
		fw.Reset(aw)
	}
	if _, err := fw.Write(src); err != nil {
		return dst, err
	}
	if err := fw.Close(); err != nil {
		return dst, err
	}
	fw.Reset(nil)
	c.writers.Put(fw)
	return aw.b, nil
}

func (c *deflateCodec) Decompress(dst, src []byte, limit int) ([]byte, error) {
	br := bytes.NewReader(src)
	fr, _ := deflateReaders.Get().(io.ReadCloser)
	if fr == nil {
		fr = flate.NewReader(br)
	} else if err := fr.(flate.Resetter).Reset(br, nil); err != nil {
		return dst, err
	}
	out, err := readLimited(dst, fr, limit)
	deflateReaders.Put(fr)
	return out, err
}

// WithLevel returns a deflate codec at level, from -2 (Huffman only) to 9
// (flate.HuffmanOnly to flate.BestCompression); -1 is the default (6).
func (c *deflateCodec) WithLevel(level int) (Codec, error) {
	if level < flate.HuffmanOnly || level > flate.BestCompression {
		return nil, fmt.Errorf("ocf: deflate level %d out of range [-2, 9]", level)
	}
	return newDeflateCodec(level), nil
}

// snappyCodec is a raw snappy block followed by the big-endian CRC-32
// (IEEE) of the uncompressed data.
type snappyCodec struct{}

func (snappyCodec) Compress(dst, src []byte) ([]byte, error) {
	n := s2.MaxEncodedLen(len(src))
	if n < 0 {
		return dst, fmt.Errorf("%w: block too large for snappy", ErrTooLarge)
	}
	start := len(dst)
	if cap(dst)-start < n+4 {
		nb := make([]byte, start, start+n+4)
		copy(nb, dst)
		dst = nb
	}
	enc := s2.EncodeSnappy(dst[start:start+n], src)
	dst = dst[:start+len(enc)]
	return binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(src)), nil
}

func (snappyCodec) Decompress(dst, src []byte, limit int) ([]byte, error) {
	if len(src) < 4 {
		return dst, errors.New("snappy block shorter than its CRC")
	}
	body, sum := src[:len(src)-4], binary.BigEndian.Uint32(src[len(src)-4:])
	n, err := s2.DecodedLen(body)
	if errors.Is(err, s2.ErrTooLarge) {
		// A length past what an int holds (on 32-bit platforms, 2^31 and
		// more) is past any limit too.
		return dst, limitError(limit)
	}
	if err != nil {
		return dst, err
	}
	if n > limit {
		return dst, limitError(limit)
	}
	start := len(dst)
	if cap(dst)-start < n {
		nb := make([]byte, start, start+n)
		copy(nb, dst)
		dst = nb
	}
	out, err := s2.Decode(dst[start:start+n], body)
	if err != nil {
		return dst[:start], err
	}
	if got := crc32.ChecksumIEEE(out); got != sum {
		return dst[:start], fmt.Errorf("snappy CRC-32 mismatch: block says %08x, data has %08x", sum, got)
	}
	return dst[:start+len(out)], nil
}

// zstdCodec is a Zstandard frame. Encoders are shared per level (EncodeAll
// is safe for concurrent use); decoders are shared per size limit.
type zstdCodec struct {
	level zstd.EncoderLevel
	once  sync.Once
	enc   *zstd.Encoder
	err   error
}

func newZstdCodec(level zstd.EncoderLevel) *zstdCodec { return &zstdCodec{level: level} }

func (c *zstdCodec) Compress(dst, src []byte) ([]byte, error) {
	c.once.Do(func() {
		c.enc, c.err = zstd.NewWriter(nil, zstd.WithEncoderLevel(c.level), zstd.WithEncoderCRC(false))
	})
	if c.err != nil {
		return dst, c.err
	}
	return c.enc.EncodeAll(src, dst), nil
}

// zstdDecoders pools decoders per size limit (the limit is fixed when a
// decoder is made). A decoder keeps buffers as large as the largest frame
// it decoded, so one that decoded a large block or failed is dropped
// rather than pooled: an idle pool then holds little memory.
var zstdDecoders = struct {
	sync.Mutex
	m map[int]*sync.Pool
}{m: map[int]*sync.Pool{}}

const zstdPoolMax = 4 << 20

func zstdPool(limit int) *sync.Pool {
	zstdDecoders.Lock()
	defer zstdDecoders.Unlock()
	p := zstdDecoders.m[limit]
	if p == nil {
		p = &sync.Pool{}
		if len(zstdDecoders.m) < 16 { // a process uses a few distinct limits
			zstdDecoders.m[limit] = p
		}
	}
	return p
}

// zstdDeclaresSize reports whether src starts with a zstd frame whose
// header declares its content size (a single-segment frame, or a frame
// content size field).
func zstdDeclaresSize(src []byte) bool {
	if len(src) < 5 || binary.LittleEndian.Uint32(src) != 0xfd2fb528 {
		return false
	}
	fhd := src[4]
	return fhd>>6 != 0 || fhd&0x20 != 0
}

func (c *zstdCodec) Decompress(dst, src []byte, limit int) ([]byte, error) {
	pool := zstdPool(limit)
	d, _ := pool.Get().(*zstd.Decoder)
	if d == nil {
		var err error
		if d, err = newZstdDecoder(limit, zstdPoolMax); err != nil {
			return dst, err
		}
	}
	out, err := zstdDecode(d, dst, src, limit)
	reusable := err == nil || errors.Is(err, zstd.ErrWindowSizeExceeded) // d refused, unharmed
	if errors.Is(err, zstd.ErrWindowSizeExceeded) && limit > zstdPoolMax {
		// A frame with a window larger than a pooled decoder may keep
		// (its history holds the window: an 11-byte frame may declare
		// 64 MiB): a decoder of its own, closed after.
		big, berr := newZstdDecoder(limit, limit)
		if berr != nil {
			return dst, berr
		}
		out, err = zstdDecode(big, dst, src, limit)
		big.Close()
	}
	if reusable && len(out)-len(dst) <= zstdPoolMax {
		pool.Put(d)
	} else {
		d.Close()
	}
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) || (err == nil && len(out)-len(dst) > limit) {
		return dst, limitError(limit)
	}
	if err != nil {
		return dst, err
	}
	return out, nil
}

// newZstdDecoder returns a decoder whose output is bounded by limit and
// whose window by window. DecodeAll writes straight into dst, so the
// window costs no memory of its own there; streaming keeps it as history.
// Neither is below 1 MiB: encoders declare windows of at least 1 KiB, and
// of more than the data for small blocks, so a limit of 1,000 bytes
// refused a block of 998 that the Writer made within it. The output is
// checked against the limit itself by the caller.
func newZstdDecoder(limit, window int) (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderMaxMemory(uint64(max(limit, 1<<20))),
		zstd.WithDecoderMaxWindow(uint64(max(window, 1<<20))), zstd.WithDecoderConcurrency(1))
}

// zstdDecode decompresses src after dst with d; on error it returns dst.
func zstdDecode(d *zstd.Decoder, dst, src []byte, limit int) ([]byte, error) {
	if zstdDeclaresSize(src) {
		// DecodeAll allocates the declared size once (after checking it
		// against the limit).
		out, err := d.DecodeAll(src, dst)
		if err != nil {
			return dst, err
		}
		return out, nil
	}
	// Without a declared size DecodeAll grows its output by append, which
	// copies about five times the output for a large block; a block that
	// decompresses past the limit (a bomb) would cost five times the
	// limit. Streaming into readLimited doubles instead.
	// Reset(nil) only lets go of src, so that the pooled decoder does not
	// keep the block alive; it has nothing to report.
	defer func() { _ = d.Reset(nil) }()
	if err := d.Reset(bytes.NewReader(src)); err != nil {
		return dst, err
	}
	out, err := readLimited(dst, d, limit)
	if errors.Is(err, ErrTooLarge) {
		err = zstd.ErrDecoderSizeExceeded
	}
	if err != nil {
		return dst, err
	}
	return out, nil
}

// WithLevel returns a Zstandard codec at level, on the zstd scale 1 to 22,
// mapped to the nearest level of klauspost/compress/zstd (fastest,
// default, better, best).
func (c *zstdCodec) WithLevel(level int) (Codec, error) {
	if level < 1 || level > 22 {
		return nil, fmt.Errorf("ocf: zstandard level %d out of range [1, 22]", level)
	}
	return newZstdCodec(zstd.EncoderLevelFromZstd(level)), nil
}

// bzip2Codec reads bzip2 blocks with compress/bzip2 (which allocates at
// most about 3.6 MB of working memory). It cannot write.
type bzip2Codec struct{}

func (bzip2Codec) Compress(dst, src []byte) ([]byte, error) {
	return dst, fmt.Errorf("%w: bzip2 can be read but not written", ErrUnsupportedCodec)
}

func (bzip2Codec) Decompress(dst, src []byte, limit int) ([]byte, error) {
	return readLimited(dst, bzip2.NewReader(bytes.NewReader(src)), limit)
}

func (bzip2Codec) readOnly() {}

// readOnlyCodec marks the built-in codecs that cannot write, so NewWriter
// rejects them before writing anything.
type readOnlyCodec interface{ readOnly() }
