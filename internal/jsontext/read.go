package jsontext

import (
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// Fault classifies a syntax error: the input ended inside a value, or the
// text is not JSON (or not the JSON the encoding allows), or it exceeds a
// limit.
type Fault uint8

// The faults of a Reader.
const (
	NoFault Fault = iota
	Truncated
	Invalid
	Limit
)

// Reader is a cursor over JSON text. Its methods record the first error
// with Fail and return zero values after it, so callers check Fault where
// they must stop; ErrPos is the offset of the byte that was wrong.
type Reader struct {
	Buf    []byte
	Pos    int
	Fault  Fault
	ErrMsg string
	ErrPos int
}

// Fail records an error at offset pos unless one is recorded.
func (r *Reader) Fail(f Fault, pos int, msg string) {
	if r.Fault == NoFault {
		r.Fault, r.ErrPos, r.ErrMsg = f, pos, msg
	}
}

// Failed reports whether an error was recorded.
func (r *Reader) Failed() bool { return r.Fault != NoFault }

// Peek skips white space and returns the next byte without consuming it,
// or 0 at the end of the input.
func (r *Reader) Peek() byte {
	for r.Pos < len(r.Buf) {
		c := r.Buf[r.Pos]
		if c > ' ' {
			return c
		}
		if c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			return c
		}
		r.Pos++
	}
	return 0
}

// HasPrefix reports whether the unread input starts with p.
func (r *Reader) HasPrefix(p []byte) bool {
	return len(r.Buf)-r.Pos >= len(p) && string(r.Buf[r.Pos:r.Pos+len(p)]) == string(p)
}

// Expect consumes the byte c after white space, or fails.
func (r *Reader) Expect(c byte) bool {
	if r.Peek() == c {
		r.Pos++
		return true
	}
	r.unexpected("'" + string(c) + "'")
	return false
}

// unexpected fails at the current byte: the end of the input (Truncated)
// or a byte other than what the caller wanted.
func (r *Reader) unexpected(want string) {
	if r.Peek() == 0 && r.Pos >= len(r.Buf) || cutWord(r.Buf[r.Pos:]) {
		r.Fail(Truncated, len(r.Buf), "unexpected end of JSON input, want "+want)
		return
	}
	r.Fail(Invalid, r.Pos, "invalid character "+quoteByte(r.Buf[r.Pos])+", want "+want)
}

// words are the words a JSON value may be, with the non-finite numbers.
var words = [...]string{"null", "true", "false", "NaN", "Infinity", "-Infinity"}

// cutWord reports whether rest, the input left, is the start of a word
// a value may be: the input ended inside it.
func cutWord(rest []byte) bool {
	for _, w := range words[:] {
		if len(rest) < len(w) && string(rest) == w[:len(rest)] {
			return true
		}
	}
	return false
}

// BadEnd returns how far a reader must see of buf, where a skip found
// the text at pos is not JSON, to find so too on its own: past every
// start of a word (the input may have been cut inside one) and one byte
// past a whole word (a word with letters after it is none).
func BadEnd(buf []byte, pos int) int {
	end := pos + 1
	for end < len(buf) && cutWord(buf[pos:end]) {
		end++
	}
	if end < len(buf) && slices.Contains(words[:], string(buf[pos:end])) {
		end++
	}
	return end
}

// Unexpected fails at the current byte, saying what was wanted there.
func (r *Reader) Unexpected(want string) { r.unexpected(want) }

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7F && c != '\'' {
		return "'" + string(c) + "'"
	}
	return "0x" + string(hex[c>>4]) + string(hex[c&0xF])
}

// More is called after a member or element of an object or array: it
// consumes a comma and reports true, or consumes the closing byte end and
// reports false.
func (r *Reader) More(end byte) bool {
	switch r.Peek() {
	case ',':
		r.Pos++
		return true
	case end:
		r.Pos++
		return false
	}
	r.unexpected("',' or '" + string(end) + "'")
	return false
}

// Empty is called after the opening byte of an object or array: it
// consumes end and reports true if the container is empty.
func (r *Reader) Empty(end byte) bool {
	if r.Peek() == end {
		r.Pos++
		return true
	}
	return false
}

// ReadString reads a JSON string at the cursor (white space first) and
// returns its text between the quotes, undecoded, and whether it holds
// escapes (then Unquote decodes it). The text aliases the input.
func (r *Reader) ReadString() (raw []byte, escaped bool) {
	if r.Peek() != '"' {
		r.unexpected("string")
		return nil, false
	}
	start := r.Pos + 1
	buf := r.Buf
	for i := start; i < len(buf); i++ {
		if n := plainRun(buf, i); n > 0 {
			i += n
			if i >= len(buf) {
				break
			}
		}
		c := buf[i]
		if safe[c] {
			continue
		}
		switch c {
		case '"':
			r.Pos = i + 1
			return buf[start:i], escaped
		case '\\':
			escaped = true
			i++ // the escaped byte cannot end the string
		default:
			r.Fail(Invalid, i, "invalid control character "+quoteByte(c)+" in string")
			return nil, false
		}
	}
	r.Fail(Truncated, len(buf), "unexpected end of JSON input in string")
	return nil, false
}

// Unquote appends the text of a string read with ReadString, its escapes
// decoded, to dst. start is the offset of raw in the input, for errors.
// An escaped lone surrogate becomes U+FFFD, as encoding/json decodes it.
func (r *Reader) Unquote(dst, raw []byte, start int) []byte {
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && raw[j] != '\\' {
			j++
		}
		dst = append(dst, raw[i:j]...)
		if j == len(raw) {
			break
		}
		if j+1 >= len(raw) {
			r.Fail(Invalid, start+j, "invalid escape in string")
			return dst
		}
		i = j + 2
		switch e := raw[j+1]; e {
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			cp, ok := hex4(raw[j+2:])
			if !ok {
				r.Fail(Invalid, start+j, "invalid \\u escape in string")
				return dst
			}
			i = j + 6
			if utf16.IsSurrogate(cp) {
				lo, ok := rune(-1), false
				if i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					lo, ok = hex4(raw[i+2:])
				}
				if ok {
					if dec := utf16.DecodeRune(cp, lo); dec != utf8.RuneError {
						cp = dec
						i += 6
					} else {
						cp = utf8.RuneError
					}
				} else {
					cp = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, cp)
		default:
			r.Fail(Invalid, start+j, "invalid escape "+quoteByte(e)+" in string")
			return dst
		}
	}
	return dst
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var v rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// ReadNumber reads a JSON number at the cursor and returns its text, which
// aliases the input, and whether it is an integer (no fraction, no
// exponent). A number longer than maxLen bytes is a Limit error.
func (r *Reader) ReadNumber(maxLen int) (lit []byte, integer bool) {
	c := r.Peek()
	start := r.Pos
	buf := r.Buf
	i := start
	if c == '-' {
		i++
	}
	digits := i
	for i < len(buf) && '0' <= buf[i] && buf[i] <= '9' {
		i++
	}
	if i == digits {
		r.Pos = i
		r.unexpected("number")
		return nil, false
	}
	if buf[digits] == '0' && i-digits > 1 {
		r.Fail(Invalid, digits, "invalid number: leading zero")
		return nil, false
	}
	integer = true
	if i < len(buf) && buf[i] == '.' {
		integer = false
		i++
		d := i
		for i < len(buf) && '0' <= buf[i] && buf[i] <= '9' {
			i++
		}
		if i == d {
			r.Pos = i
			r.unexpected("digit")
			return nil, false
		}
	}
	if i < len(buf) && (buf[i] == 'e' || buf[i] == 'E') {
		integer = false
		i++
		if i < len(buf) && (buf[i] == '+' || buf[i] == '-') {
			i++
		}
		d := i
		for i < len(buf) && '0' <= buf[i] && buf[i] <= '9' {
			i++
		}
		if i == d {
			r.Pos = i
			r.unexpected("digit")
			return nil, false
		}
	}
	if i-start > maxLen {
		r.Fail(Limit, start, "number longer than the limit")
		return nil, false
	}
	r.Pos = i
	return buf[start:i], integer
}

// ReadWord consumes the literal word (true, false, null, or a name such as
// NaN) at the cursor if it is there, and reports whether it was.
func (r *Reader) ReadWord(word string) bool {
	if r.Peek() == 0 || len(r.Buf)-r.Pos < len(word) || string(r.Buf[r.Pos:r.Pos+len(word)]) != word {
		return false
	}
	end := r.Pos + len(word)
	if end < len(r.Buf) && isNameByte(r.Buf[end]) {
		return false
	}
	r.Pos = end
	return true
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// End reports whether only white space is left.
func (r *Reader) End() bool {
	r.Peek()
	return r.Pos >= len(r.Buf)
}

// CodePoints appends the bytes that the text of a string read with
// ReadString stands for in Avro's JSON encoding of bytes, each character
// U+0000 to U+00FF one byte, decoding escapes on the way; it reports false
// for a character above U+00FF, or text that is not UTF-8. start is the
// offset of raw in the input, for errors.
func (r *Reader) CodePoints(dst, raw []byte, start int) ([]byte, bool) {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c < 0x80 && c != '\\':
			dst = append(dst, c)
			i++
		case c == 0xC2 || c == 0xC3:
			if i+1 >= len(raw) || raw[i+1]&0xC0 != 0x80 {
				return dst, false
			}
			dst = append(dst, (c&0x1F)<<6|raw[i+1]&0x3F)
			i += 2
		case c >= 0x80:
			return dst, false
		default: // an escape
			if i+1 < len(raw) && raw[i+1] == 'u' {
				cp, ok := hex4(raw[i+2:])
				if !ok {
					r.Fail(Invalid, start+i, "invalid \\u escape in string")
					return dst, true
				}
				if cp > 0xFF {
					return dst, false
				}
				dst = append(dst, byte(cp))
				i += 6
				continue
			}
			// A one-letter escape: Unquote decodes it.
			dst = r.Unquote(dst, raw[i:i+2], start+i)
			i += 2
		}
	}
	return dst, true
}
