package jsontext

import (
	"encoding/binary"
	"math"
	"slices"
)

// safe[c] is true for the bytes a JSON string may hold unescaped.
var safe = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string.
func AppendString[T ~string | ~[]byte](dst []byte, s T) []byte {
	if plain(s) {
		if n0 := len(dst); cap(dst)-n0 >= len(s)+2 {
			dst = dst[:n0+len(s)+2]
			dst[n0] = '"'
			copy(dst[n0+1:], s)
			dst[n0+1+len(s)] = '"'
			return dst
		}
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		if n := plainRun(s, i); n > 0 {
			i += n
			if i >= len(s) {
				break
			}
		}
		c := s[i]
		if safe[c] {
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscape(dst, c)
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}

// codePointText[c] is the text of code point c in a JSON string: c
// itself, its two bytes of UTF-8 or its escape, in the low bytes of a word
// as one little-endian store writes them, with its length in the top byte.
var codePointText = func() (t [256]uint64) {
	for c := range 256 {
		var text []byte
		switch {
		case c >= 0x80:
			text = []byte{0xC0 | byte(c)>>6, 0x80 | byte(c)&0x3F}
		case safe[c]:
			text = []byte{byte(c)}
		default:
			text = appendEscape(nil, byte(c))
		}
		var w uint64
		for i, x := range text {
			w |= uint64(x) << (8 * i)
		}
		t[c] = w | uint64(len(text))<<56
	}
	return t
}()

// codePointChunk is how many bytes AppendCodePoints writes from the table
// between two looks for a run of plain ASCII, which it copies instead.
const codePointChunk = 16

// AppendCodePoints appends b as the JSON string that Avro's JSON encoding
// gives bytes and fixed values: each byte is the code point of the same
// number, U+0000 to U+00FF, so bytes from 0x80 take two bytes of UTF-8.
func AppendCodePoints(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(b); {
		if n := asciiPlainRun(b, i); n > 0 {
			dst = append(dst, b[i:i+n]...)
			i += n
			continue
		}
		// Binary data: every byte from the table, one store each, in room
		// for the longest text (an escape, six bytes) and the last store.
		end := min(len(b), i+codePointChunk)
		dst = slices.Grow(dst, 6*(end-i)+8)
		out := dst[len(dst):cap(dst)]
		j := 0
		for ; i < end; i++ {
			w := codePointText[b[i]]
			binary.LittleEndian.PutUint64(out[j:], w)
			j += int(w >> 56)
		}
		dst = dst[:len(dst)+j]
	}
	return append(dst, '"')
}

// AppendFloat appends the shortest decimal that reads back as f in the
// given precision (32 or 64 bits), as JavaScript and encoding/json write
// numbers: plain digits from 1e-6 up to 1e21, an exponent outside. f must
// be finite.
func AppendFloat(dst []byte, f float64, bits int) []byte {
	switch bits {
	case 64:
		return appendFloat64(dst, f)
	case 32:
		return appendFloat32(dst, f)
	}
	panic("jsontext: AppendFloat needs 32 or 64 bits")
}

// AppendNumber appends f as AppendFloat does, and NaN and the infinities,
// which JSON numbers cannot hold, as the strings "NaN", "Infinity" and
// "-Infinity", as Java's Avro JSON encoder writes them.
func AppendNumber(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	return AppendFloat(dst, f, bits)
}

// Member returns the text that starts the member name of an object: the
// name as a JSON string and its colon, after a comma unless first.
func Member(name string, first bool) []byte {
	var b []byte
	if !first {
		b = append(b, ',')
	}
	b = AppendString(b, name)
	return append(b, ':')
}

// TagNumber encloses the value written at b[start:] in open (`{"name":`)
// and '}' unless it is a string: a union branch of text for people that
// a bare reader would take for another branch when it is a number.
func TagNumber(b []byte, start int, open []byte) []byte {
	if start >= len(b) || b[start] == '"' {
		return b
	}
	end := len(b)
	b = append(b, open...)
	copy(b[start+len(open):], b[start:end])
	copy(b[start:], open)
	return append(b, '}')
}
