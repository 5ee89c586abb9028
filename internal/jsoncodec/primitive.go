package jsoncodec

import (
	"bytes"
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
)

type nullNode struct{}

func (nullNode) toJSON(t *toState) { t.out = append(t.out, "null"...) }

func (nullNode) fromJSON(f *fromState) {
	if !f.ReadWord("null") {
		f.Unexpected("null")
	}
}

type boolNode struct{}

func (boolNode) toJSON(t *toState) {
	if t.ReadBool() {
		t.out = append(t.out, "true"...)
	} else {
		t.out = append(t.out, "false"...)
	}
}

func (boolNode) fromJSON(f *fromState) {
	switch {
	case f.ReadWord("true"):
		f.out = append(f.out, 1)
	case f.ReadWord("false"):
		f.out = append(f.out, 0)
	default:
		f.Unexpected("true or false")
	}
}

// intNode is int (long false) or long.
type intNode struct{ long bool }

func (n intNode) toJSON(t *toState) {
	if n.long {
		t.out = jsontext.AppendInt(t.out, t.ReadLong())
	} else {
		t.out = jsontext.AppendInt(t.out, int64(t.ReadInt()))
	}
}

func (n intNode) fromJSON(f *fromState) {
	if v, ok := f.readInteger(n.long); ok {
		f.out = appendVarint(f.out, v)
	}
}

// readInteger reads a JSON integer of the range of an int, or of a long,
// exactly: digits are accumulated in an int64, never through a float.
func (f *fromState) readInteger(long bool) (int64, bool) {
	lit, integer := f.ReadNumber(f.maxNumber)
	if f.failed() {
		return 0, false
	}
	start := f.Pos - len(lit)
	neg := lit[0] == '-'
	digits := lit
	if neg {
		digits = lit[1:]
	}
	if !integer {
		// 1.0 and 1e3 are integers too, as Java reads them; 1.5 is not.
		var ok bool
		if digits, ok = integralDigits(digits, f.tmp[:0]); !ok {
			f.fail(wire.ErrInvalid, start, "%s is not an integer", lit)
			return 0, false
		}
		f.tmp = digits
	}
	var u uint64
	if len(digits) <= 19 {
		// 19 digits cannot overflow a uint64.
		for _, c := range digits {
			u = u*10 + uint64(c-'0')
		}
	} else {
		for _, c := range digits {
			d := uint64(c - '0')
			if u > (math.MaxUint64-d)/10 {
				u = math.MaxUint64
				break
			}
			u = u*10 + d
		}
	}
	lo, hi := uint64(math.MaxInt32), uint64(1<<31)
	if long {
		lo, hi = math.MaxInt64, 1<<63
	}
	if !neg && u > lo || neg && u > hi {
		kind := "int"
		if long {
			kind = "long"
		}
		f.fail(wire.ErrRange, start, "%s overflows %s", lit, kind)
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// splitNumber appends the digits of the JSON number lit (without its
// sign), integer and fraction parts together, to buf, and returns them
// with the length of the fraction and the exponent. An exponent beyond
// the int64 range is returned as ±2^62, out of every range callers take.
func splitNumber(lit, buf []byte) (digits []byte, fracLen int, exp int64) {
	i := 0
	for i < len(lit) && lit[i] >= '0' && lit[i] <= '9' {
		i++
	}
	digits = append(buf, lit[:i]...)
	if i < len(lit) && lit[i] == '.' {
		j := i + 1
		for j < len(lit) && lit[j] >= '0' && lit[j] <= '9' {
			j++
		}
		digits = append(digits, lit[i+1:j]...)
		fracLen = j - i - 1
		i = j
	}
	if i < len(lit) {
		e, err := strconv.ParseInt(string(lit[i+1:]), 10, 64)
		if err != nil {
			e = 1 << 62
			if lit[i+1] == '-' {
				e = -e
			}
		}
		exp = e
	}
	return digits, fracLen, exp
}

// integralDigits returns the digits of the integer that the JSON number
// lit (without its sign) stands for, appended to buf, or false when it
// has a fractional part. An integer of more than 20 digits is returned as
// 20 nines, which overflows every integer type.
func integralDigits(lit, buf []byte) ([]byte, bool) {
	all, fracLen, e := splitNumber(lit, buf)
	// In int64: an int is 32 bits on some platforms, where a clamped
	// exponent plus the digits' count would wrap.
	exp := max(min(e, math.MaxInt32), math.MinInt32) - int64(fracLen)
	all = trimLeadingZeros(all)
	if exp < 0 {
		cut := int(min(-exp, int64(len(all))))
		if !allZeros(all[len(all)-cut:]) {
			return nil, false
		}
		all = all[:len(all)-cut]
		exp = 0
	}
	if len(all) == 0 {
		return append(all, '0'), true
	}
	if int64(len(all))+exp > 20 {
		return append(all[:0], "99999999999999999999"...), true
	}
	for range exp {
		all = append(all, '0')
	}
	return all, true
}

// floatNode is float (bits 32) or double (bits 64). NaN and the
// infinities, which JSON numbers cannot hold, are written as the strings
// "NaN", "Infinity" and "-Infinity".
type floatNode struct{ bits int }

func (n floatNode) toJSON(t *toState) {
	var v float64
	if n.bits == 32 {
		v = float64(t.ReadFloat())
	} else {
		v = t.ReadDouble()
	}
	if t.Err != nil {
		return
	}
	t.out = jsontext.AppendNumber(t.out, v, n.bits)
}

func (n floatNode) fromJSON(f *fromState) {
	v, ok := f.readFloat(n.bits)
	if !ok {
		return
	}
	if n.bits == 32 {
		f.out = appendFloat32(f.out, float32(v))
	} else {
		f.out = appendFloat64(f.out, v)
	}
}

// readFloat reads a JSON number, or one of the names of NaN and the
// infinities as a string or a bare word (Python writes them bare).
func (f *fromState) readFloat(bits int) (float64, bool) {
	switch f.Peek() {
	case 'n':
		// avsc and goavro write NaN as null.
		if f.ReadWord("null") {
			return math.NaN(), true
		}
	case '"':
		text, start := f.readString()
		if v, ok := nonFinite(text); ok {
			return v, true
		}
		if !f.failed() {
			f.fail(wire.ErrInvalid, start, "%q is not a number", text)
		}
		return 0, false
	case 'N':
		if f.ReadWord("NaN") {
			return math.NaN(), true
		}
	case 'I':
		if f.ReadWord("Infinity") {
			return math.Inf(1), true
		}
	case '-':
		if f.ReadWord("-Infinity") {
			return math.Inf(-1), true
		}
	}
	lit, _ := f.ReadNumber(f.maxNumber)
	if f.failed() {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(lit), bits)
	if err != nil && !isRangeErr(err) {
		f.fail(wire.ErrInvalid, f.Pos-len(lit), "%s is not a number", lit)
		return 0, false
	}
	// A literal beyond the range of the type reads as an infinity, as
	// strconv and JavaScript round it.
	return v, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func nonFinite(text []byte) (float64, bool) {
	switch string(text) {
	case "NaN":
		return math.NaN(), true
	case "Infinity", "+Infinity", "INF", "+INF":
		return math.Inf(1), true
	case "-Infinity", "-INF":
		return math.Inf(-1), true
	}
	return 0, false
}

func appendFloat32(b []byte, v float32) []byte {
	u := math.Float32bits(v)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
}

func appendFloat64(b []byte, v float64) []byte {
	u := math.Float64bits(v)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24),
		byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
}

type stringNode struct{}

func (stringNode) toJSON(t *toState) {
	b := t.ReadStringBytes()
	if t.Err != nil {
		return
	}
	if t.ValidateUTF && !utf8.Valid(b) {
		t.Failf(wire.ErrInvalid, "string is not valid UTF-8")
		return
	}
	t.out = jsontext.AppendString(t.out, b)
}

func (stringNode) fromJSON(f *fromState) {
	text, start := f.readString()
	if f.failed() {
		return
	}
	f.appendString(text, start)
}

// appendString writes text as an Avro string (or bytes), checked against
// the limits.
func (f *fromState) appendString(text []byte, start int) {
	if int64(len(text)) > f.maxLength {
		f.fail(wire.ErrLimit, start, "string of %d bytes longer than the maximum length", len(text))
		return
	}
	if f.validateUTF8 && !utf8.Valid(text) {
		f.fail(wire.ErrInvalid, start, "string is not valid UTF-8")
		return
	}
	f.out = appendVarint(f.out, int64(len(text)))
	f.out = append(f.out, text...)
}

// bytesNode is bytes (size -1) or a fixed of size bytes, written as a
// string of code points or in base64.
type bytesNode struct {
	size   int
	base64 bool
}

func (n bytesNode) toJSON(t *toState) {
	b := t.ReadSized(n.size)
	if t.Err != nil {
		return
	}
	t.out = appendBytes(t.out, b, n.base64)
}

func appendBytes(dst, b []byte, b64 bool) []byte {
	if !b64 {
		return jsontext.AppendCodePoints(dst, b)
	}
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

func (n bytesNode) fromJSON(f *fromState) {
	b, start := f.readBytes(n.base64)
	if f.failed() {
		return
	}
	if n.size < 0 {
		if int64(len(b)) > f.maxLength {
			f.fail(wire.ErrLimit, start, "bytes of %d longer than the maximum length", len(b))
			return
		}
		f.out = appendVarint(f.out, int64(len(b)))
	} else if len(b) != n.size {
		f.fail(wire.ErrInvalid, start, "fixed of size %d given %d bytes", n.size, len(b))
		return
	}
	f.out = append(f.out, b...)
}

// readBytes reads a string of code points U+0000 to U+00FF (or base64)
// as the bytes it stands for, in f.tmp.
func (f *fromState) readBytes(b64 bool) ([]byte, int) {
	raw, esc := f.ReadString()
	start := f.Pos - len(raw) - 2
	if f.failed() {
		return nil, start
	}
	if b64 {
		text := raw
		if esc {
			f.scratch = f.Unquote(f.scratch[:0], raw, start+1)
			text = f.scratch
			// The decoder skips line breaks, which base64 in JSON never
			// has (and the text back would not have).
			if bytes.ContainsAny(text, "\r\n") {
				f.fail(wire.ErrInvalid, start, "bytes are not base64: a line break")
				return nil, start
			}
		}
		var err error
		f.tmp, err = base64.StdEncoding.AppendDecode(f.tmp[:0], text)
		if err != nil {
			f.tmp, err = base64.RawStdEncoding.AppendDecode(f.tmp[:0], text)
		}
		if err != nil {
			f.fail(wire.ErrInvalid, start, "bytes are not base64")
			return nil, start
		}
		return f.tmp, start
	}
	if !esc && jsontext.ASCII(raw) {
		return raw, start
	}
	out, ok := f.CodePoints(f.tmp[:0], raw, start+1)
	f.tmp = out
	if !ok {
		f.fail(wire.ErrInvalid, start, "bytes hold a character above U+00FF")
		return nil, start
	}
	return out, start
}

// enumNode writes the symbol of an enum.
type enumNode struct {
	name    string
	quoted  [][]byte
	symbols []string
	index   map[string]int
}

func newEnumNode(name string, symbols []string) *enumNode {
	n := &enumNode{name: name, symbols: symbols}
	for _, s := range symbols {
		n.quoted = append(n.quoted, jsontext.AppendString(nil, s))
	}
	if len(symbols) > 8 {
		n.index = make(map[string]int, len(symbols))
		for i, s := range symbols {
			n.index[s] = i
		}
	}
	return n
}

func (n *enumNode) toJSON(t *toState) {
	i := t.ReadSymbol(len(n.symbols), n.name)
	if t.Err != nil {
		return
	}
	t.out = append(t.out, n.quoted[i]...)
}

func (n *enumNode) fromJSON(f *fromState) {
	text, start := f.readString()
	if f.failed() {
		return
	}
	i := n.lookup(text)
	if i < 0 {
		f.fail(wire.ErrInvalid, start, "%q is not a symbol of enum %s", text, n.name)
		return
	}
	f.out = appendVarint(f.out, int64(i))
}

func (n *enumNode) lookup(text []byte) int {
	if n.index != nil {
		if i, ok := n.index[string(text)]; ok {
			return i
		}
		return -1
	}
	for i, s := range n.symbols {
		if s == string(text) {
			return i
		}
	}
	return -1
}
