package codec

import (
	"errors"
	"fmt"
	"io"

	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// Unmarshal decodes one datum of schema s from data into the value v
// points at. v must be a non-nil pointer. Bytes left over after the datum
// are an error (ErrInvalid); to read datums back to back use a Decoder.
//
// See the package documentation for how Avro types map to Go types. Bad
// input returns an *Error wrapping ErrTruncated, ErrInvalid, ErrLimit or
// ErrRange, with the path of the value and the byte offset; a Go type that
// cannot represent the schema returns a *TypeError before any byte is
// read. Unmarshal applies the default DecodeOptions limits.
func Unmarshal(s *schema.Schema, data []byte, v any) error {
	return unmarshal(&defaultDecodeOptions, s, data, v)
}

func unmarshal(o *DecodeOptions, s *schema.Schema, data []byte, v any) error {
	dec, p, err := topDecoder(s, &v)
	if err != nil {
		return err
	}
	d := newDecodeState(o, data)
	dec.decode(p, d)
	if d.Err == nil && d.Pos != len(data) {
		d.Failf(ErrInvalid, "%d bytes after the datum", len(data)-d.Pos)
	}
	err = d.toError()
	d.release()
	return err
}

// A Decoder reads datums of one schema written back to back on a stream,
// with no header and no framing (the "raw" Avro stream of, for example,
// Avro's own person-10.avro.raw test file). A Decoder is not safe for
// concurrent use.
type Decoder struct {
	r      io.Reader
	s      *schema.Schema
	opts   DecodeOptions
	buf    []byte
	start  int
	end    int
	offset int64 // stream offset of buf[0]
	eof    bool
	rerr   error
	// attempts counts decode attempts, retries after a refill included
	// (tests check that a large datum is not decoded once per chunk).
	attempts int
	// budgets are the stream's budgets of zero-size items and reader
	// defaults.
	budgets streamBudgets
	// datums holds the decode state, kept from one datum to the next.
	datums *datumReader
	// skipper frames the datums of Raw, made on first use.
	skipper skipDecoder
}

const decoderChunk = 64 << 10

// NewDecoder returns a Decoder that reads datums of schema s from r with
// the default limits.
func NewDecoder(r io.Reader, s *schema.Schema) *Decoder {
	return DecodeOptions{}.NewDecoder(r, s)
}

// NewDecoder returns a Decoder that uses these options.
func (o DecodeOptions) NewDecoder(r io.Reader, s *schema.Schema) *Decoder {
	dec := &Decoder{r: r, s: s, opts: o}
	dec.datums = newDatumReader(&dec.opts, s)
	dec.budgets = newStreamBudgets(&dec.opts)
	return dec
}

// Decode reads the next datum into the value v points at. It returns
// io.EOF when the stream ends between datums, and an *Error wrapping
// ErrTruncated (which matches io.ErrUnexpectedEOF) when it ends inside
// one. A datum may be as large as DecodeOptions.MaxLength; the Decoder
// buffers one datum at a time.
//
// The datums of one Decoder share a budget of zero-size items: each may
// use MaxZeroSizeItems, and the stream as a whole MaxZeroSizeItems plus
// 64 (or MaxZeroSizeItems/16384 when that is more) per byte decoded, so
// that a stream of five-byte datums that each declare a million nulls is
// ErrLimit after a few of them rather than a million items per five bytes.
// Likewise for the reader defaults that a resolved schema fills in (see
// DecodeOptions.MaxAlloc).
func (dec *Decoder) Decode(v any) error {
	codec, p, err := dec.datums.decoderFor(&v)
	if err != nil {
		return err
	}
	_, err = dec.next(codec, p)
	return err
}

// Raw reads the next datum without decoding it and returns its bytes, the
// binary datum as the stream holds it (in the writer's schema when the
// Decoder's schema is resolved), with the errors and limits of Decode:
// the datum is framed by reading past it, which checks its lengths,
// counts, union indexes and enum symbols. The bytes are the Decoder's
// buffer, valid until the next call of Decode or Raw.
func (dec *Decoder) Raw() ([]byte, error) {
	if dec.skipper.sk == nil {
		dec.skipper = skipDecoder{skip.New(writerOf(dec.s))}
	}
	n, err := dec.next(dec.skipper, pointer{})
	if err != nil {
		return nil, err
	}
	return dec.buf[dec.start-n : dec.start : dec.start], nil
}

// next reads the next datum with codec into p and returns its length,
// reading the stream as the datum needs.
func (dec *Decoder) next(codec decoder, p pointer) (int, error) {
	truncations := 0
	for {
		if dec.start == dec.end {
			if err := dec.fill(); err != nil {
				return 0, err
			}
			if dec.start == dec.end {
				return 0, io.EOF
			}
		}
		d := dec.datums.start(dec.buf[dec.start:dec.end], dec.budgets.next())
		budget := wire.Budgets{Zero: d.ZeroLeft, Defaults: d.DefaultsLeft}
		dec.attempts++
		codec.decode(p, d)
		if d.Err == nil && d.Pos == 0 {
			// Only a schema whose every datum is zero bytes (null, an
			// empty record, fixed of size 0) reads nothing, and then the
			// bytes buffered belong to no datum: Decode would return a
			// datum forever and never reach them or the end.
			d.Failf(ErrInvalid, "datums of this schema take no bytes: %d bytes of the stream belong to none", dec.end-dec.start)
		}
		if d.Err == nil {
			n := d.Pos
			dec.start += n
			dec.budgets.spend(d.used(budget))
			dec.budgets.earn(int64(n))
			d.clear()
			return n, nil
		}
		if errors.Is(d.Err, ErrTruncated) && !dec.eof {
			need := max(d.Need, int64(dec.end-dec.start)+1)
			d.clear()
			// The second time, the datum is framed (skip.Framer) so
			// that it is decoded only once more; should that decode
			// still run short, the framer and the decoder disagree, and
			// the Decoder goes back to reading what the decode needs.
			var err error
			if truncations++; truncations == 2 {
				err = dec.frame(budget.Zero)
			} else {
				err = dec.fillTo(need)
			}
			if err != nil {
				return 0, err
			}
			continue
		}
		e := d.toError().(*Error)
		e.Offset += dec.offset + int64(dec.start)
		d.clear()
		return 0, e
	}
}

// frame reads until the datum at dec.start is buffered whole (a framer
// finds its end), the framer stops at something the decode will report,
// or the stream ends.
func (dec *Decoder) frame(zeroBudget int64) error {
	f := skip.NewFramer(dec.s, zeroBudget, &dec.datums.limits)
	for f.Feed(dec.buf[dec.start:dec.end]) == skip.FrameMore && !dec.eof {
		if err := dec.fill(); err != nil {
			return err
		}
	}
	return nil
}

// fillTo reads until at least need bytes are buffered after dec.start, or
// the stream ends. The buffer grows at most by doubling, as the bytes
// arrive, so a datum that declares a huge length allocates in proportion
// to the bytes actually read.
func (dec *Decoder) fillTo(need int64) error {
	for int64(dec.end-dec.start) < need && !dec.eof {
		if err := dec.fill(); err != nil {
			return err
		}
	}
	return nil
}

// fill reads more of the stream, keeping the unread bytes and growing the
// buffer when a datum does not fit in it.
func (dec *Decoder) fill() error {
	if dec.eof {
		if dec.rerr != nil {
			return dec.rerr
		}
		return nil
	}
	if dec.start > 0 {
		n := copy(dec.buf, dec.buf[dec.start:dec.end])
		dec.offset += int64(dec.start)
		dec.start, dec.end = 0, n
	}
	if dec.end == len(dec.buf) {
		size := max(2*len(dec.buf), decoderChunk)
		if int64(size) > dec.opts.maxLength()+decoderChunk {
			if int64(len(dec.buf)) >= dec.opts.maxLength() {
				return &Error{Op: "unmarshal", Offset: dec.offset, Err: fmt.Errorf("%w: datum larger than %d bytes", ErrLimit, dec.opts.maxLength())}
			}
			size = int(dec.opts.maxLength())
		}
		nb := make([]byte, size)
		copy(nb, dec.buf[:dec.end])
		dec.buf = nb
	}
	// An io.Reader may return no bytes and no error, but one that keeps
	// doing so would hold Decode in this loop forever: after as many
	// empty reads in a row as bufio allows, it is io.ErrNoProgress.
	for empty := 0; ; empty++ {
		if empty == maxEmptyReads {
			dec.eof, dec.rerr = true, io.ErrNoProgress
			return io.ErrNoProgress
		}
		n, err := dec.r.Read(dec.buf[dec.end:])
		dec.end += n
		if err != nil {
			dec.eof = true
			if err != io.EOF {
				dec.rerr = err
				return err
			}
			return nil
		}
		if n > 0 {
			return nil
		}
	}
}

// maxEmptyReads is the number of reads in a row that may return no bytes
// and no error before the Decoder gives up, as bufio.Reader does.
const maxEmptyReads = 100
