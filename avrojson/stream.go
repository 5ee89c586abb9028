package avrojson

import (
	"errors"
	"fmt"
	"io"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/jsoncodec"
	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// An Encoder writes the JSON text of datums of one schema to a stream,
// one value a line (JSON Lines). An Encoder is not safe for concurrent
// use.
type Encoder struct {
	w   io.Writer
	s   *schema.Schema
	o   Options
	buf []byte
}

// NewEncoder returns an Encoder of datums of schema s in the
// specification's JSON encoding.
func NewEncoder(w io.Writer, s *schema.Schema) *Encoder { return Options{}.NewEncoder(w, s) }

// NewEncoder returns an Encoder that writes in the options' style.
func (o Options) NewEncoder(w io.Writer, s *schema.Schema) *Encoder {
	return &Encoder{w: w, s: s, o: o}
}

// Encode writes the JSON text of v and a newline with one Write call.
func (e *Encoder) Encode(v any) error {
	out, err := e.o.Append(e.buf[:0], e.s, v)
	if err != nil {
		return err
	}
	out = append(out, '\n')
	e.buf = out
	_, err = e.w.Write(out)
	return err
}

// A Decoder reads JSON values of one schema from a stream: JSON Lines, or
// any JSON values one after the other with white space between them or
// none. A Decoder is not safe for concurrent use.
type Decoder struct {
	r      io.Reader
	s      *schema.Schema
	o      Options
	buf    []byte
	start  int
	eof    bool
	offset int64 // of buf[0] in the stream
	datums codec.DatumReader
	// zero and defaults are the budgets that the stream's datums share
	// (see avro.DecodeOptions): the items that take no bytes, and the
	// defaults filled in for missing fields and by a resolved schema.
	zero, defaults wire.Credit
	err            error
	// skip frames the value being read; framing goes on where the last
	// read of the stream ended inside it.
	skip    jsontext.Skipper
	closers [32]byte
}

// NewDecoder returns a Decoder of datums of schema s in the
// specification's JSON encoding.
func NewDecoder(r io.Reader, s *schema.Schema) *Decoder { return Options{}.NewDecoder(r, s) }

// NewDecoder returns a Decoder that reads the options' style.
func (o Options) NewDecoder(r io.Reader, s *schema.Schema) *Decoder {
	// The binary datums decoded are scratch.
	o.Decode.ZeroCopy = false
	d := &Decoder{r: r, s: s, o: o}
	d.datums = codec.NewDatumReader(d.o.decodeOptions(), s)
	return d
}

const decoderChunk = 32 << 10

// decoderKeep is the largest buffer a Decoder keeps once the value that
// needed it has been read.
const decoderKeep = 1 << 20

// Decode reads the next JSON value into the value v points at. It returns
// io.EOF when the stream ends between values, and an *avro.Error wrapping
// avro.ErrTruncated when it ends inside one. Error offsets are in the
// stream. A value may be as long as Decode.MaxLength; the Decoder buffers
// one value at a time, growing its buffer only as the bytes arrive, so
// a stream that never closes a string costs memory in proportion to what
// it sends, up to that limit (1 GiB by default: lower it to read streams
// from untrusted peers in less memory).
//
// A value that is JSON but does not fit the schema (a string where the
// schema has an int) is an *avro.Error, and the Decoder moves past it:
// the next Decode reads the value after it, as encoding/json's Decoder
// does after an *json.UnmarshalTypeError, so a reader of JSON Lines can
// skip bad lines and go on. After text that is not JSON, a value longer
// than Decode.MaxLength or a stream that ends inside a value, the values
// that follow cannot be found: the error, an *avro.Error, also wraps
// ErrStopped, and every later Decode returns it again, as it does an
// error of the underlying reader. A Go target that cannot hold the
// schema (*avro.TypeError, *avro.InvalidUnmarshalError) consumes
// nothing, so the same value can be decoded again into another target.
//
// The values of a stream share the budget of the defaults filled in for
// missing fields, and of items that take no bytes in binary, as the
// datums of an avro.Decoder do.
func (d *Decoder) Decode(v any) error {
	if err := d.o.check(d.s); err != nil {
		return err
	}
	if d.err != nil {
		return d.err
	}
	end, bad, err := d.frame()
	if err != nil {
		if err != io.EOF {
			d.err = err
		}
		return err
	}
	if bad != nil {
		return d.badText(end, bad, v)
	}
	return d.decode(end, v)
}

// badText returns the error of a value whose text, up to end, is not
// JSON: the error of reading that text as a value of the schema, which
// says what the schema wanted, as Unmarshal would; or syntax, the
// framing's error, if that read wants more text.
func (d *Decoder) badText(end int, syntax *codec.Error, v any) error {
	err := d.decode(end, v)
	if err == nil || errors.Is(err, avro.ErrTruncated) {
		return d.fail(syntax, 0)
	}
	// The text after a value that is not JSON may be the rest of it.
	return d.stop(err)
}

// decode reads the value that ends at end of the buffer into v.
func (d *Decoder) decode(end int, v any) error {
	text := d.buf[d.start:end]
	per := d.perDatum()
	if d.s.Writer() == nil {
		return d.decodeDirect(text, end, per, v)
	}
	ro := d.o.readOptions()
	parts := wire.Budgets{Defaults: d.defaults.Budget(per.Defaults)}
	ro.Budgets = &parts
	buf := getBuffer()
	defer putBuffer(buf)
	bin, _, err := d.o.program(writerOf(d.s)).FromJSON((*buf)[:0], text, 0, &ro)
	*buf = bin
	d.defaults.Spend(parts.Defaults)
	if err != nil {
		return d.misfit(err, int64(d.start), per, end)
	}
	_, used, err := d.datums.Next(bin, v, wire.Budgets{Zero: d.zero.Budget(per.Zero), Defaults: d.defaults.Budget(per.Defaults)})
	d.zero.Spend(used.Zero)
	d.defaults.Spend(used.Defaults)
	if err != nil {
		var ce *codec.Error
		if errors.As(err, &ce) {
			ce.Offset = -1
			return d.misfit(err, 0, per, end)
		}
		return publicError(err, true)
	}
	d.earn(per, end)
	return nil
}

// decodeDirect decodes the value text, which ends at end of the buffer,
// straight into v.
func (d *Decoder) decodeDirect(text []byte, end int, per wire.Budgets, v any) error {
	ro := d.o.readOptions()
	budgets := wire.Budgets{Zero: d.zero.Budget(per.Zero), Defaults: d.defaults.Budget(per.Defaults)}
	ro.Budgets = &budgets
	err := codec.UnmarshalJSON(d.s, text, v, jsoncodec.StyleOf(d.o.flavor()), &ro)
	d.zero.Spend(budgets.Zero)
	d.defaults.Spend(budgets.Defaults)
	if err != nil {
		var ce *codec.Error
		if errors.As(err, &ce) {
			return d.misfit(err, int64(d.start), per, end)
		}
		return publicError(err, true)
	}
	d.earn(per, end)
	return nil
}

// misfit returns the error of a value that is JSON but does not fit the
// schema, with its offset moved by base into the stream, and moves past
// the value: its end is known, so the values after it can be read.
func (d *Decoder) misfit(err error, base int64, per wire.Budgets, end int) error {
	d.earn(per, end)
	return d.inStream(err, base)
}

// earn credits the budgets with the value that ends at end, and moves
// past it.
func (d *Decoder) earn(per wire.Budgets, end int) {
	n := int64(end - d.start)
	d.zero.Earn(per.Zero, n, wire.ItemsPerByte)
	d.defaults.Earn(per.Defaults, n, wire.ItemsPerByte)
	d.start = end
}

// fail returns err with its offset moved by base, into the stream; a
// decoder stops at bad data, as the values after it cannot be found.
func (d *Decoder) fail(err error, base int64) error {
	return d.stop(d.inStream(err, base))
}

// stop makes err the error of every later Decode.
func (d *Decoder) stop(err error) error {
	if pe, ok := err.(*avro.Error); ok {
		pe.Err = stopped{pe.Err}
	}
	d.err = err
	return err
}

// ErrStopped is wrapped by the errors after which a Decoder cannot read
// on, since the end of the value that failed, and so the start of the
// next, is not known.
var ErrStopped = errors.New("avrojson: the stream cannot be read past this error")

// stopped is an error a Decoder cannot read past: it reads as the error
// it wraps, and matches ErrStopped too.
type stopped struct{ err error }

func (e stopped) Error() string   { return e.err.Error() }
func (e stopped) Unwrap() []error { return []error{e.err, ErrStopped} }

// inStream returns err as the avro package's error, with its offset
// moved by base into the stream.
func (d *Decoder) inStream(err error, base int64) error {
	var ce *codec.Error
	if errors.As(err, &ce) {
		pe := (*avro.Error)(ce)
		if pe.Offset >= 0 {
			pe.Offset += d.offset + base
		}
		return pe
	}
	return err
}

func (d *Decoder) perDatum() wire.Budgets { return d.o.decodeOptions().PerDatum() }

// frame finds the end of the next value, reading until the buffer holds
// all of it. Each byte of the value is framed once, however the reads of
// the stream cut it. A value that is not JSON ends where a reader of the
// text sees that it is not, whatever is read after, and bad is the
// framing's error.
func (d *Decoder) frame() (end int, bad *codec.Error, err error) {
	maxLen := d.o.Decode.MaxLength
	if maxLen <= 0 {
		maxLen = avro.DefaultMaxLength
	}
	maxDepth := d.o.Decode.MaxDepth
	if maxDepth <= 0 {
		maxDepth = avro.DefaultMaxDepth
	}
	maxNumber := d.o.readOptions().MaxNumberLength
	skipping := false
	for {
		r := jsontext.Reader{Buf: d.buf, Pos: d.start}
		if !skipping {
			if r.Peek() == 0 && r.Pos >= len(d.buf) {
				// Only white space is buffered.
				d.offset += int64(r.Pos)
				d.buf, d.start = d.buf[:0], 0
				if d.eof {
					return 0, nil, io.EOF
				}
				if err := d.fill(); err != nil {
					return 0, nil, err
				}
				continue
			}
			d.start = r.Pos
			d.skip.Init(d.closers[:0])
			skipping = true
		}
		scalar := r.Peek() != '{' && r.Peek() != '[' && r.Peek() != '"'
		// A union's tag is one more level of objects than the schema's
		// nesting; the read itself applies MaxDepth.
		d.skip.Resume(&r, 2*maxDepth+2, maxNumber)
		switch {
		case !r.Failed() && (!scalar || r.Pos < len(d.buf) || d.eof):
			return r.Pos, nil, nil
		case !r.Failed():
			// A number or word that reaches the end of what was read
			// may go on in what is not read yet: read it again.
			skipping = false
		case r.Fault == jsontext.Invalid:
			// A bad escape is found at the end of its string, which
			// the reader must see too.
			return max(jsontext.BadEnd(d.buf, r.ErrPos), r.Pos), d.syntaxError(&r), nil
		case r.Fault != jsontext.Truncated || d.eof:
			return 0, nil, d.fail(d.syntaxError(&r), 0)
		}
		if int64(len(d.buf)-d.start) >= maxLen {
			return 0, nil, d.fail(&codec.Error{Op: "unmarshal", Offset: int64(d.start), Err: fmt.Errorf("%w: JSON value longer than %d bytes", avro.ErrLimit, maxLen)}, 0)
		}
		start := d.start
		if err := d.fill(); err != nil {
			return 0, nil, err
		}
		d.skip.Shift(d.start - start)
	}
}

// syntaxError is the framing's error, with its offset in the buffer.
func (d *Decoder) syntaxError(r *jsontext.Reader) *codec.Error {
	sentinel := avro.ErrInvalid
	switch r.Fault {
	case jsontext.Truncated:
		sentinel = avro.ErrTruncated
	case jsontext.Limit:
		sentinel = avro.ErrLimit
	}
	return &codec.Error{Op: "unmarshal", Offset: int64(r.ErrPos), Err: fmt.Errorf("%w: %s", sentinel, r.ErrMsg)}
}

// fill reads more of the stream, moving the unread text to the front and
// growing the buffer as a value needs.
func (d *Decoder) fill() error {
	if d.start > 0 {
		n := copy(d.buf, d.buf[d.start:])
		d.offset += int64(d.start)
		d.buf, d.start = d.buf[:n], 0
	}
	switch {
	case cap(d.buf)-len(d.buf) < decoderChunk/2:
		grown := make([]byte, len(d.buf), max(2*cap(d.buf), decoderChunk))
		copy(grown, d.buf)
		d.buf = grown
	case cap(d.buf) > decoderKeep && len(d.buf) < cap(d.buf)/4:
		// The buffer grew for a large value that has been read: values
		// after it get one of their own size, so that one large value
		// does not hold its memory for the rest of the stream.
		shrunk := make([]byte, len(d.buf), max(2*len(d.buf), decoderChunk))
		copy(shrunk, d.buf)
		d.buf = shrunk
	}
	for range 100 {
		n, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
		d.buf = d.buf[:len(d.buf)+n]
		if err == io.EOF {
			d.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
	return io.ErrNoProgress
}
