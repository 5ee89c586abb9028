package jsoncodec

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/avrogo/avro/internal/codec"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
)

// node is the program of one schema node: toJSON reads its binary value
// from t and appends the JSON text; fromJSON reads the JSON text from f
// and appends the binary value. Both record errors in their state and
// return; containers add their path step as the error unwinds.
type node interface {
	toJSON(t *toState)
	fromJSON(f *fromState)
}

// toState is the state of one binary-to-JSON rewrite: the binary cursor,
// with its limits, and the text written.
type toState struct {
	wire.Decoder
	out []byte
	// outMax is the length out may reach: the text of a datum is bounded,
	// as the input cannot bound it (a record of a thousand null fields
	// takes no bytes, and an array may hold a million of them).
	outMax int
	// encoding is set when the datum is the binary encoding of a Go
	// value being marshalled: its offsets and the order of its map
	// entries mean nothing to the caller.
	encoding bool
}

// grown checks the output against its bound; containers call it per item.
func (t *toState) grown() bool {
	if len(t.out) > t.outMax {
		t.Failf(wire.ErrLimit, "JSON text larger than the allocation limit")
		return false
	}
	return true
}

// fromState is the state of one JSON-to-binary rewrite: the JSON cursor,
// the binary written, and the limits of the read.
type fromState struct {
	jsontext.Reader
	out []byte
	// err wraps the sentinel of a failure that the text's syntax did not
	// cause (a value out of range, a limit); errPos is its offset.
	err    error
	errPos int
	path   []string

	depthLeft       int
	maxLength       int64
	maxItems        int64
	maxNumber       int
	defaultsLeft    int64
	validateUTF8    bool
	maxDecimalScale int
	allowUnknown    bool

	// scratch holds unescaped strings; order holds the fields of records
	// read out of order (see record.go); keys the key spans of maps.
	scratch []byte
	order   []span
	keys    []span
	keySet  map[string]struct{}
	// keySetBusy is set while a map uses keySet.
	keySetBusy bool
	tmp        []byte
}

// span locates a value written in out.
type span struct{ start, end int }

func (f *fromState) failed() bool { return f.err != nil || f.Failed() }

// clearFault forgets the error of a read that was only a try.
func (f *fromState) clearFault() {
	f.err, f.Fault = nil, jsontext.NoFault
}

// fail records an error wrapping sentinel at offset pos. Text of the
// input among args ([]byte) is cut to its first quotedText bytes, so that
// a key of megabytes does not make a message of megabytes.
func (f *fromState) fail(sentinel error, pos int, format string, args ...any) {
	if f.failed() {
		return
	}
	for i, a := range args {
		if b, ok := a.([]byte); ok && len(b) > quotedText {
			args[i] = shortText(b)
		}
	}
	f.err = fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
	f.errPos = pos
}

// quotedText is how much of a piece of input text an error quotes.
const quotedText = 64

// shortText is the start of a long piece of input text, quoted with a
// mark of what is left out: "abc..." (1000000 bytes).
type shortText []byte

func (s shortText) Format(st fmt.State, verb rune) {
	cut := s[:quotedText]
	for !utf8.Valid(cut) && len(cut) > quotedText-utf8.UTFMax {
		cut = cut[:len(cut)-1]
	}
	_, _ = fmt.Fprintf(st, "%q... (%d bytes)", []byte(cut), len(s))
}

func (f *fromState) enter() bool {
	f.depthLeft--
	if f.depthLeft < 0 {
		f.fail(wire.ErrLimit, f.Pos, "nesting deeper than the maximum depth")
		return false
	}
	return true
}

func (f *fromState) leave() { f.depthLeft++ }

func (f *fromState) addField(name string) { f.path = append(f.path, name) }
func (f *fromState) addIndex(i int64)     { f.path = append(f.path, "["+strconv.FormatInt(i, 10)+"]") }
func (f *fromState) addKey(k []byte)      { f.path = append(f.path, "["+strconv.Quote(string(k))+"]") }

// error returns the error of the read, with its JSON offset, or nil.
func (f *fromState) error() (path string, offset int, err error) {
	if f.err != nil {
		return codec.FormatPath(f.path), f.errPos, f.err
	}
	if f.Failed() {
		var sentinel error
		switch f.Fault {
		case jsontext.Truncated:
			sentinel = wire.ErrTruncated
		case jsontext.Limit:
			sentinel = wire.ErrLimit
		default:
			sentinel = wire.ErrInvalid
		}
		return codec.FormatPath(f.path), f.ErrPos, fmt.Errorf("%w: %s", sentinel, f.ErrMsg)
	}
	return "", 0, nil
}

// readString reads a JSON string and returns its text, unescaped into
// the scratch buffer when it had escapes; the text must be used before
// the next readString. start is its offset.
func (f *fromState) readString() (text []byte, start int) {
	raw, esc := f.ReadString()
	start = f.Pos - len(raw) - 2
	if !esc {
		return raw, start
	}
	f.scratch = f.Unquote(f.scratch[:0], raw, start+1)
	return f.scratch, start
}

// appendVarint appends the zigzag varint of v.
func appendVarint(b []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// insertCount writes the zigzag varint of n at offset at of f.out, moving
// what follows: a collection's count is known only after its items.
func (f *fromState) insertCount(at int, n int64) {
	var tmp [10]byte
	c := appendVarint(tmp[:0], n)
	end := len(f.out)
	f.out = append(f.out, c...)
	copy(f.out[at+len(c):], f.out[at:end])
	copy(f.out[at:], c)
}
