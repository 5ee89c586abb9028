package value

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// String formats v in a JSON-like form for people: null, true, 42, 1.5,
// "text", bytes and fixed as strings of code points 0-255 (as Avro's JSON
// encoding writes them), enums as their symbol in quotes (or their index
// when the Value has no schema), arrays as [...], maps and records as
// {"name": value, ...} in entry and field order. NaN and infinities print
// as NaN, +Inf and -Inf. Union branches are not shown. Nesting deeper than
// 1,000 levels, and a Value inside itself, print as "...".
func (v Value) String() string {
	var p printer
	p.format(v)
	return p.b.String()
}

// printer formats a Value. path holds the arrays, maps and records being
// printed, outermost first: a Value that contains itself (built with the
// Set methods) prints as "..." where it recurs. Bounding the depth alone
// did not make that safe: a record whose two fields were itself took
// 2^1000 steps to reach the bound.
type printer struct {
	b    strings.Builder
	path []identity
}

// identity is what makes a container the same Value: its two words.
type identity struct {
	p pointer
	w uint64
}

func (pr *printer) format(v Value) {
	v = v.unbox()
	b := &pr.b
	switch v.Kind() {
	case KindArray, KindMap, KindRecord:
		id := identity{v.p, v.w}
		if len(pr.path) >= maxDepth || slices.Contains(pr.path, id) {
			b.WriteString("...")
			return
		}
		pr.path = append(pr.path, id)
		defer func() { pr.path = pr.path[:len(pr.path)-1] }()
	}
	switch v.Kind() {
	case KindNull:
		b.WriteString("null")
	case KindBoolean:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case KindInt:
		b.WriteString(strconv.FormatInt(int64(v.Int()), 10))
	case KindLong:
		b.WriteString(strconv.FormatInt(v.Long(), 10))
	case KindFloat:
		formatFloat(b, float64(v.Float()), 32)
	case KindDouble:
		formatFloat(b, v.Double(), 64)
	case KindString:
		quote(b, v.Str())
	case KindBytes, KindFixed:
		quoteBytes(b, v.Bytes())
	case KindEnum:
		if s := v.Symbol(); s != "" {
			quote(b, s)
		} else {
			b.WriteString(strconv.Itoa(v.EnumIndex()))
		}
	case KindArray:
		b.WriteByte('[')
		for i := range v.n() {
			if i > 0 {
				b.WriteString(", ")
			}
			pr.format(v.Index(i))
		}
		b.WriteByte(']')
	case KindMap:
		m := v.Map()
		b.WriteByte('{')
		vals := m.Values()
		for i, k := range m.Keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			quote(b, k)
			b.WriteString(": ")
			pr.format(vals[i])
		}
		b.WriteByte('}')
	case KindRecord:
		r := v.Record()
		b.WriteByte('{')
		for i, f := range r.Fields() {
			if i > 0 {
				b.WriteString(", ")
			}
			quote(b, r.name(i))
			b.WriteString(": ")
			pr.format(f)
		}
		b.WriteByte('}')
	}
}

func formatFloat(b *strings.Builder, f float64, bits int) {
	switch {
	case math.IsNaN(f):
		b.WriteString("NaN")
	case math.IsInf(f, 1):
		b.WriteString("+Inf")
	case math.IsInf(f, -1):
		b.WriteString("-Inf")
	default:
		b.WriteString(strconv.FormatFloat(f, 'g', -1, bits))
	}
}

// quote writes s as a JSON string.
func quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
		} else {
			writeRune(b, r, false)
		}
		i += size
	}
	b.WriteByte('"')
}

// quoteBytes writes each byte as the code point of the same value.
func quoteBytes(b *strings.Builder, p []byte) {
	b.WriteByte('"')
	for _, c := range p {
		writeRune(b, rune(c), true)
	}
	b.WriteByte('"')
}

// writeRune writes r JSON-escaped; asBytes escapes 0x7f-0xff too (code
// points standing for bytes).
func writeRune(b *strings.Builder, r rune, asBytes bool) {
	switch {
	case r == '"' || r == '\\':
		b.WriteByte('\\')
		b.WriteByte(byte(r))
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r == '\t':
		b.WriteString(`\t`)
	case r < 0x20 || r == 0x7f || asBytes && r > 0x7f:
		const hex = "0123456789abcdef"
		b.WriteString(`\u00`)
		b.WriteByte(hex[r>>4])
		b.WriteByte(hex[r&0xf])
	default:
		b.WriteRune(r)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
