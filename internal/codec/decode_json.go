package codec

import (
	"errors"
	"fmt"
	"sync"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// The JSON decoding of Go values is compiled from their binary decoders,
// as the encoding is from the encoders. Structs, slices, maps of strings,
// nullable pointers and the primitive kinds read the text straight into
// the Go value; every other node reads its text as a binary datum, with
// the JSON family's program of its schema, and decodes that with its
// binary decoder. A direct node takes only the text the encoders write
// (compact or spaced, the fields of a record in schema order, the plain
// forms of numbers and strings). Given anything else (fields out of order
// or missing, unknown members, a number in exponent form, a syntax error)
// it reads its value again through its program from the value's start,
// so that both paths accept the same text, give the same Go value and
// fail with the same errors.

// A node that read part of its value directly and then reads it again
// through its program goes back over that part; in a recursive record
// where every level does so after its children (a key with an escape, an
// unknown member, a missing field at its end), each level reads its whole
// subtree again, and a text of depth d costs d times its length. The
// bytes read again are counted, and when they pass the length of the text
// the decode starts over and reads the whole text through the program of
// its schema, once.

// errReadAgain stops a direct decode that went back over more than its
// text; UnmarshalJSON then reads the text through the program.
var errReadAgain = errors.New("read again through the program")

// JSONTextReader reads the JSON text of the values of one schema node as
// binary datums. Package jsoncodec implements it.
type JSONTextReader interface {
	// FromJSON reads one JSON value from text, starting at offset start,
	// and appends its binary datum to dst. It returns the offset after
	// the value. Errors are *Error with the offset in text.
	FromJSON(dst, text []byte, start int, o *JSONReadOptions) ([]byte, int, error)
}

// JSONReadOptions are the options of reading JSON text.
type JSONReadOptions struct {
	// Decode gives the limits: depth, string length, items, the
	// allocation limit (which bounds the defaults filled in for missing
	// fields), the decimal scale, and UTF-8 validation.
	Decode *DecodeOptions
	// MaxNumberLength bounds the text of one number.
	MaxNumberLength int
	// AllowUnknownFields skips object members that name no field of
	// their record instead of failing.
	AllowUnknownFields bool
	// DepthUsed is the nesting already entered around the value read; it
	// is taken from Decode.MaxDepth.
	DepthUsed int
	// Budgets, when set, are what the read may use of the budgets it
	// shares with other reads (the values of a stream, the parts of one
	// text read in parts): items that take no bytes in binary, and the
	// defaults filled in for missing fields, which are otherwise bounded
	// by MaxAlloc for the text. The read sets it to what it used. A read
	// of JSON as binary uses only the defaults.
	Budgets *wire.Budgets
}

// jsonDecoder reads the JSON text at the cursor of j into the Go value at
// p. Errors are recorded in j.d, with their offset in j.errPos.
type jsonDecoder interface {
	decodeJSON(p pointer, j *jsonDecodeState)
}

// jsonDecodeState is the state of one JSON decode: the cursor over the
// text, and the binary decode state that keeps the limits, the error and
// its path, and decodes the nodes read through their programs.
type jsonDecodeState struct {
	jsontext.Reader
	d  *decodeState
	ro JSONReadOptions
	// parts is the budget of the defaults that a node read through its
	// program may fill in: what is left of the decode's.
	parts    wire.Budgets
	dopts    DecodeOptions
	maxDepth int
	// errPos is the offset in the text of the error in d.Err.
	errPos int
	// bin holds the binary datum of a node read through its program;
	// scratch the unescaped text of a string; tmp the bytes of a bytes
	// value.
	bin, scratch, tmp []byte
	// The items of primitive arrays, read before the slice is sized.
	i64s  []int64
	i32s  []int32
	f64s  []float64
	f32s  []float32
	bools []bool
	strs  []string
	// anys is the stack of the items of the generic arrays being read.
	anys []any
	// readAgain counts the bytes that nodes read directly and then again
	// through their programs.
	readAgain int
}

var jsonDecodePool = sync.Pool{New: func() any { return new(jsonDecodeState) }}

// failAt records an error wrapping sentinel at offset pos of the text.
func (j *jsonDecodeState) failAt(pos int, sentinel error, msg string) {
	if j.d.Err == nil {
		j.d.Failf(sentinel, "%s", msg)
		j.errPos = pos
	}
}

// placed gives an error that a binary decode step recorded (an allocation
// refused) the offset pos, and reports whether there is one.
func (j *jsonDecodeState) placed(pos int) bool {
	if j.d.Err != nil {
		j.errPos = pos
		return true
	}
	return false
}

// jsonFallback is how a node reads what its direct decoder does not take:
// the program of its schema, and the binary decoder of its Go type.
type jsonFallback struct {
	r   JSONTextReader
	dec decoder
}

// fallback reads the value that starts at offset start through fb into p.
// A binary decode error takes the value's offset.
func (j *jsonDecodeState) fallback(fb *jsonFallback, p pointer, start int) {
	start, ok := j.readBinary(fb.r, start)
	if !ok {
		return
	}
	fb.dec.decode(p, j.d)
	j.d.Buf = nil
	j.placed(start)
}

// readBinary reads the value that starts at offset start (or after the
// white space there) with r, and points j.d at its binary datum. It
// returns the offset of the value, or false after an error.
func (j *jsonDecodeState) readBinary(r JSONTextReader, start int) (int, bool) {
	if again := j.Pos - start; again > 0 {
		if j.readAgain += again; j.readAgain > len(j.Buf) {
			j.d.Err, j.errPos = errReadAgain, start
			return start, false
		}
	}
	j.Fault = jsontext.NoFault
	j.Pos = start
	j.Peek()
	start = j.Pos
	j.ro.DepthUsed = j.maxDepth - j.d.DepthLeft
	j.parts = wire.Budgets{Defaults: j.d.DefaultsLeft}
	j.ro.Budgets = &j.parts
	bin, n, err := r.FromJSON(j.bin[:0], j.Buf, start, &j.ro)
	j.bin = bin
	j.d.DefaultsLeft -= j.parts.Defaults
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			j.failAt(start, ErrInvalid, err.Error())
			return start, false
		}
		j.d.Err, j.errPos = e.Err, int(e.Offset)
		if e.Path != "" {
			j.d.Path = append(j.d.Path, e.Path)
		}
		return start, false
	}
	j.Pos = n
	j.d.Buf, j.d.Pos = bin, 0
	return start, true
}

type jsonDecCompiled struct {
	dec jsonDecoder
	// bin is the binary decoder dec was compiled from, or err its
	// compile's error.
	bin decoder
	err error
}

// UnmarshalJSON reads the one JSON value of text, a datum of s written in
// style st, into the value v points at, as Unmarshal decodes its binary
// datum. White space may surround the value. s must not be a resolved
// schema. Errors are *Error, with the path of the value and its offset in
// text, *TypeError and *InvalidUnmarshalError.
func UnmarshalJSON(s *schema.Schema, text []byte, v any, st JSONStyle, o *JSONReadOptions) error {
	p, err := targetOf(s, &v)
	if err != nil {
		return err
	}
	// The binary decoder is looked up only to compile the JSON one.
	entry := cachedFor(s, familyJSONDecoder, efaceOf(&v).typ, func() *StyleSlots[jsonDecCompiled] { return new(StyleSlots[jsonDecCompiled]) })
	jc := (*entry).Get(st.Index(), func() *jsonDecCompiled {
		dec, _, err := topDecoder(s, &v)
		if err != nil {
			return &jsonDecCompiled{err: err}
		}
		return &jsonDecCompiled{dec: newJSONDecCompiler(st).convert(s, dec), bin: dec}
	})
	if jc.err != nil {
		return jc.err
	}
	dec := jc.bin
	j := jsonDecodePool.Get().(*jsonDecodeState)
	j.start(text, o)
	jc.dec.decodeJSON(p, j)
	if j.d.Err == errReadAgain {
		j.d.release()
		j.start(text, o)
		j.fallback(&jsonFallback{r: st.TextReader(s), dec: dec}, p, 0)
	}
	if b := o.Budgets; b != nil {
		*b = j.d.used(*b)
	}
	if j.d.Err == nil && !j.End() {
		j.failAt(j.Pos, ErrInvalid, "data after the JSON value")
	}
	if j.d.Err != nil {
		err = &Error{Op: "unmarshal", Path: formatPath(j.d.Path), Offset: int64(j.errPos), Err: j.d.Err}
		// As encoding/json does, a syntax error anywhere in the text is
		// the error, before one of a Go value read earlier.
		if terr := checkText(st.TextReader(s), text, o); terr != nil {
			err = terr
		}
	}
	j.d.release()
	j.release()
	return err
}

// start readies j to decode text.
func (j *jsonDecodeState) start(text []byte, o *JSONReadOptions) {
	j.Reader = jsontext.Reader{Buf: text}
	// Nothing decoded may alias the binary datums, which are scratch.
	j.dopts = *o.Decode
	j.dopts.ZeroCopy = false
	j.ro = JSONReadOptions{Decode: &j.dopts, MaxNumberLength: o.MaxNumberLength, AllowUnknownFields: o.AllowUnknownFields}
	j.maxDepth = j.dopts.maxDepth()
	j.d = newDecodeState(&j.dopts, text)
	j.d.Buf = nil
	if o.Budgets != nil {
		j.d.ZeroLeft, j.d.DefaultsLeft = o.Budgets.Zero, o.Budgets.Defaults
	}
	j.readAgain = 0
	j.anys = j.anys[:0]
}

// checkText returns the error of reading text as one JSON value of the
// reader's schema, or nil.
func checkText(r JSONTextReader, text []byte, o *JSONReadOptions) error {
	ro := *o
	ro.DepthUsed, ro.Budgets = 0, nil
	bin := jsonCheckPool.Get().(*[]byte)
	out, n, err := r.FromJSON((*bin)[:0], text, 0, &ro)
	*bin = trimScratch(out)
	jsonCheckPool.Put(bin)
	if err != nil {
		return err
	}
	tr := jsontext.Reader{Buf: text, Pos: n}
	if !tr.End() {
		return &Error{Op: "unmarshal", Offset: int64(tr.Pos), Err: fmt.Errorf("%w: data after the JSON value", ErrInvalid)}
	}
	return nil
}

var jsonCheckPool = sync.Pool{New: func() any { return new([]byte) }}

// release returns the state to the pool, keeping its buffers unless they
// grew large.
func (j *jsonDecodeState) release() {
	j.Reader = jsontext.Reader{}
	j.d = nil
	j.ro = JSONReadOptions{}
	j.bin, j.scratch, j.tmp = trimScratch(j.bin), trimScratch(j.scratch), trimScratch(j.tmp)
	j.i64s, j.i32s, j.f64s = trimScratch(j.i64s), trimScratch(j.i32s), trimScratch(j.f64s)
	j.f32s, j.bools, j.strs, j.anys = trimScratch(j.f32s), trimScratch(j.bools), trimScratch(j.strs), trimScratch(j.anys)
	jsonDecodePool.Put(j)
}

// trimScratch returns b emptied, or nil when it grew past the size that
// a pooled state keeps.
func trimScratch[T any](b []T) []T {
	if uintptr(cap(b))*sizeOf[T]() > maxPooledBuffer {
		return nil
	}
	return b[:0]
}
