package jsoncodec

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// unionNode writes a union's branch: null bare, another branch tagged as
// {"name": value}, or bare in the Bare flavour. Reading takes the tag, or
// in the Bare flavour picks the branch from the JSON type of the value.
type unionNode struct {
	branches []node
	// names[i] are the names that select branch i when reading, the
	// written one first; open[i] is `{"name":`.
	names     [][]string
	open      [][]byte
	nullIndex int
	bare      bool
	// bucket[b] is the branch that a bare value of JSON type b selects,
	// noBranch when none does, and ambiguous when several do.
	bucket [buckets]int
	// buckets[i] is the JSON type of branch i.
	buckets []int
	// numberAlso is the branch that takes a bare number no number branch
	// takes: a readable timestamp, date or time, which is written as its
	// number outside the range of its text. nonFinite is the float or
	// double branch, which a bare "NaN" or infinity selects. Each is
	// noBranch or ambiguous as bucket is.
	numberAlso, nonFinite int
	// decimalNumber and decimalString are the decimal branches that read
	// the other form of their text, a number where strings are written
	// and a string where numbers are, when no branch takes that form.
	decimalNumber, decimalString int
	// decimal[i] reports whether branch i is a readable decimal.
	decimal []bool
	// also holds the branches that numberAlso may be, with the
	// numbers they write; numberOpen[i], when numberOpen is not nil, opens
	// branch i when it is written as a number that a bare reader would
	// take for another branch's.
	also       []numberWriter
	numberOpen [][]byte
	// kinds[i] is the type of branch i.
	kinds []schema.Kind
	// desc describes the union in errors.
	desc string
}

// The JSON types of a bare value.
const (
	bucketNull = iota
	bucketBool
	bucketNumber
	bucketString
	bucketObject
	bucketArray
	buckets
)

const (
	noBranch  = -1
	ambiguous = -2
)

// bucketOf returns the JSON type that the values of branch b take in the
// flavour fl.
func bucketOf(b *schema.Schema, fl Flavor) int {
	if fl.Readable && readableAsString(b, fl) {
		return bucketString
	}
	switch b.Kind() {
	case schema.Null:
		return bucketNull
	case schema.Boolean:
		return bucketBool
	case schema.Int, schema.Long, schema.Float, schema.Double:
		return bucketNumber
	case schema.String, schema.Bytes, schema.Enum, schema.Fixed:
		if (b.Logical() == schema.Decimal || b.Logical() == schema.BigDecimal) && fl.Readable && !fl.DecimalStrings {
			return bucketNumber
		}
		return bucketString
	case schema.Record, schema.Map:
		return bucketObject
	case schema.Array:
		return bucketArray
	}
	return bucketString
}

// branchName is the name of a union branch in the specification: the full
// name of a named type, else the name of its type.
func branchName(b *schema.Schema) string {
	if b.Kind().IsNamed() {
		return b.FullName()
	}
	return b.Kind().String()
}

func (n *unionNode) toJSON(t *toState) {
	i := t.ReadBranch(len(n.branches))
	if i < 0 {
		return
	}
	if i != n.nullIndex && (!n.bare || n.tagsNonFinite(i) && nonFiniteNext(t, n.kinds[i])) {
		t.out = append(t.out, n.open[i]...)
		n.branches[i].toJSON(t)
		t.out = append(t.out, '}')
		return
	}
	if n.numberOpen == nil {
		n.branches[i].toJSON(t)
		return
	}
	start := len(t.out)
	n.branches[i].toJSON(t)
	if open := n.numberOpen[i]; open != nil {
		t.out = jsontext.TagNumber(t.out, start, open)
	}
}

// numberWriter is a readable logical type that writes a value its text
// cannot hold as its number.
type numberWriter interface {
	writesNumber(v int64) bool
}

// tagsNonFinite reports whether branch i, a float or double in a bare
// union with a branch that reads strings, is written tagged when its value
// is NaN or an infinity, which are written as strings. With a record or
// map branch, which would read the tagged value, it is written bare, and
// reading it back is an error.
func (n *unionNode) tagsNonFinite(i int) bool {
	k := n.kinds[i]
	return n.bare && (k == schema.Float || k == schema.Double) && n.bucket[bucketString] != noBranch &&
		n.bucket[bucketObject] == noBranch
}

// tagNumbers sets numberOpen: in a bare union, a readable timestamp,
// date or time written as a number is tagged when a bare reader would not
// take the number as this branch (a number branch, another such branch,
// or a decimal written as a string, which reads numbers too, would). As with NaN, it is bare where a record
// or map branch would read the tagged value.
func (n *unionNode) tagNumbers() {
	othersNumber := n.bucket[bucketNumber] != noBranch || n.numberAlso == ambiguous || n.decimalNumber != noBranch
	if !n.bare || !othersNumber || n.bucket[bucketObject] != noBranch {
		return
	}
	n.numberOpen = make([][]byte, len(n.branches))
	for i, b := range n.branches {
		if _, ok := b.(numberWriter); ok {
			n.numberOpen[i] = n.open[i]
		}
	}
}

// numberTag returns numberOpen[i], or nil.
func (n *unionNode) numberTag(i int) []byte {
	if n.numberOpen == nil {
		return nil
	}
	return n.numberOpen[i]
}

// alsoNumber reports whether the number at f's cursor is an integer that
// a branch of numberAlso writes as its number, and so could be that
// branch as well as the number branch.
func (n *unionNode) alsoNumber(f *fromState) bool {
	for _, w := range n.also {
		if writesNumberAt(w, f.Buf[f.Pos:]) {
			return true
		}
	}
	return false
}

// writesNumberAt reports whether b starts with an integer that w writes
// as its number.
func writesNumberAt(w numberWriter, b []byte) bool {
	end := 0
	if end < len(b) && b[end] == '-' {
		end++
	}
	for end < len(b) && end <= 20 && '0' <= b[end] && b[end] <= '9' {
		end++
	}
	if end < len(b) && (b[end] == '.' || b[end] == 'e' || b[end] == 'E') {
		return false
	}
	v, err := strconv.ParseInt(string(b[:end]), 10, 64)
	return err == nil && w.writesNumber(v)
}

// nonFiniteNext reports whether the float or double (kind k) at the
// cursor is NaN or an infinity.
func nonFiniteNext(t *toState, k schema.Kind) bool {
	rest := t.Buf[t.Pos:]
	if k == schema.Float {
		return len(rest) >= 4 && nonFinite64(float64(math.Float32frombits(binary.LittleEndian.Uint32(rest))))
	}
	return len(rest) >= 8 && nonFinite64(math.Float64frombits(binary.LittleEndian.Uint64(rest)))
}

func nonFinite64(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }

func (n *unionNode) fromJSON(f *fromState) {
	c := f.Peek()
	if c == 'n' && n.nullIndex >= 0 {
		f.out = appendVarint(f.out, int64(n.nullIndex))
		n.branches[n.nullIndex].fromJSON(f)
		return
	}
	if n.bare {
		if c == 0 {
			f.Unexpected("a value for union " + n.desc)
			return
		}
		if i := n.bareBranch(f, c); i >= 0 {
			f.out = appendVarint(f.out, int64(i))
			n.branches[i].fromJSON(f)
			return
		} else if i == ambiguous || c != '{' {
			switch {
			case f.failed():
			case i == ambiguous:
				f.fail(wire.ErrInvalid, f.Pos, "JSON value matches %s of union %s; write it tagged", n.matches(f, c), n.desc)
			case jsonTypeOf(c) == "":
				f.Unexpected("a value for union " + n.desc)
			default:
				f.fail(wire.ErrInvalid, f.Pos, "a JSON %s matches no branch of union %s", jsonTypeOf(c), n.desc)
			}
			return
		}
		// An object where no branch takes one may be a tagged value.
	}
	if c != '{' {
		if c == 'n' {
			f.fail(wire.ErrInvalid, f.Pos, "null for union %s, which has no null", n.desc)
			return
		}
		f.Unexpected(`null or {"branch": value} for union ` + n.desc)
		return
	}
	f.Pos++
	key, pos := f.readString()
	if f.failed() {
		return
	}
	i := n.lookup(key)
	if i < 0 {
		f.fail(wire.ErrInvalid, pos, "%q is not a branch of union %s", key, n.desc)
		return
	}
	if !f.Expect(':') {
		return
	}
	f.out = appendVarint(f.out, int64(i))
	n.branches[i].fromJSON(f)
	if f.failed() {
		return
	}
	if f.Peek() != '}' {
		f.Unexpected(`'}' after the one member of a union value`)
		return
	}
	f.Pos++
}

func (n *unionNode) lookup(key []byte) int {
	for i, names := range n.names {
		for _, name := range names {
			if name == string(key) {
				return i
			}
		}
	}
	return -1
}

// bareBranch returns the branch a bare value starting with c selects.
func (n *unionNode) bareBranch(f *fromState, c byte) int {
	switch c {
	case 'n':
		return n.bucket[bucketNull]
	case 't', 'f':
		return n.bucket[bucketBool]
	case '"':
		i := n.bucket[bucketString]
		if n.nonFinite != noBranch && nonFiniteText(f.Buf[f.Pos:]) {
			// A float branch reads "NaN" and the infinities, and so would
			// a string branch.
			if i != noBranch {
				return ambiguous
			}
			return n.nonFinite
		}
		if i == noBranch {
			return n.decimalString
		}
		return i
	case '{':
		return n.bucket[bucketObject]
	case '[':
		return n.bucket[bucketArray]
	case 'N', 'I':
		return n.bucket[bucketNumber]
	}
	if c == '-' || '0' <= c && c <= '9' {
		i := n.bucket[bucketNumber]
		if i == noBranch {
			switch {
			case n.decimalNumber == noBranch:
				return n.numberAlso
			case n.numberAlso == noBranch:
				return n.decimalNumber
			}
			return ambiguous
		}
		// Where the writer tags the numbers of numberAlso, a bare number
		// is the number branch's; where it cannot, one that numberAlso
		// would write is either's.
		if i >= 0 && n.bucket[bucketObject] != noBranch && n.alsoNumber(f) {
			return ambiguous
		}
		return i
	}
	return noBranch
}

// nonFiniteText reports whether b starts with a string that a float reads
// as NaN or an infinity, escaped or not.
func nonFiniteText(b []byte) bool {
	const longest = len(`"-Infinity"`)
	if len(b) < 2 || b[0] != '"' {
		return false
	}
	head := b[1:min(len(b), longest)]
	end := bytes.IndexByte(head, '"')
	escape := bytes.IndexByte(head, '\\')
	if escape < 0 || end >= 0 && end < escape {
		if end < 0 {
			return false
		}
		_, ok := nonFinite(head[:end])
		return ok
	}
	// The window holds the longest name with every character escaped as
	// \uXXXX, and bounds the work on a long string.
	r := jsontext.Reader{Buf: b[:min(len(b), 2+6*(longest-2))]}
	raw, _ := r.ReadString()
	if r.Failed() {
		return false
	}
	var tmp [longest]byte
	text := r.Unquote(tmp[:0], raw, 1)
	_, ok := nonFinite(text)
	return ok && !r.Failed()
}

// jsonTypeOf names the type of the JSON value that starts with c, or is
// "" when no value starts with c.
func jsonTypeOf(c byte) string {
	switch c {
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case '[':
		return "array"
	case '{':
		return "object"
	case 'n':
		return "null"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "number"
	}
	return ""
}

// matches describes the branches that a bare value starting with c, at
// f's cursor, could be, for an error.
func (n *unionNode) matches(f *fromState, c byte) string {
	var b int
	switch c {
	case 'n':
		b = bucketNull
	case 't', 'f':
		b = bucketBool
	case '"':
		b = bucketString
	case '{':
		b = bucketObject
	case '[':
		b = bucketArray
	default:
		b = bucketNumber
	}
	nonFinite := c == '"' && nonFiniteText(f.Buf[f.Pos:])
	var names []string
	for i, bk := range n.buckets {
		k := n.kinds[i]
		w, also := n.branches[i].(numberWriter)
		switch {
		case bk == b,
			nonFinite && (k == schema.Float || k == schema.Double),
			n.decimal[i] && n.bucket[b] == noBranch && (b == bucketNumber || b == bucketString),
			b == bucketNumber && also && (n.bucket[b] == noBranch || writesNumberAt(w, f.Buf[f.Pos:])):
			names = append(names, n.names[i][0])
		}
	}
	if len(names) == 0 {
		return "no branch"
	}
	return strings.Join(names, " and ")
}

func newUnionNode(s *schema.Schema, fl Flavor, branches []node) *unionNode {
	n := &unionNode{branches: branches, nullIndex: -1, bare: fl.Unions == Bare,
		numberAlso: noBranch, nonFinite: noBranch, decimalNumber: noBranch, decimalString: noBranch}
	one := func(at *int, i int) {
		if *at == noBranch {
			*at = i
		} else {
			*at = ambiguous
		}
	}
	for i := range n.bucket {
		n.bucket[i] = noBranch
	}
	var descs []string
	for i, b := range s.Branches() {
		name := branchName(b)
		logical := ""
		if b.Logical() != schema.NoLogical && !b.Kind().IsNamed() {
			logical = name + "." + b.Logical().String()
		}
		names := []string{name}
		if logical != "" {
			if fl.Unions == TaggedLogical {
				names = []string{logical, name}
			} else {
				names = append(names, logical)
			}
		}
		n.names = append(n.names, names)
		open := append([]byte{'{'}, jsontext.AppendString(nil, names[0])...)
		n.open = append(n.open, append(open, ':'))
		if b.Kind() == schema.Null {
			n.nullIndex = i
		}
		bk := bucketOf(b, fl)
		n.buckets = append(n.buckets, bk)
		n.kinds = append(n.kinds, b.Kind())
		one(&n.bucket[bk], i)
		if k := b.Kind(); k == schema.Float || k == schema.Double {
			one(&n.nonFinite, i)
		}
		l := b.Logical()
		isDecimal := fl.Readable && (l == schema.Decimal || l == schema.BigDecimal)
		n.decimal = append(n.decimal, isDecimal)
		if isDecimal {
			if bk == bucketString {
				one(&n.decimalNumber, i)
			} else {
				one(&n.decimalString, i)
			}
		}
		if w, ok := branches[i].(numberWriter); ok {
			// A readable timestamp, date or time, a string but for
			// values its text cannot hold.
			one(&n.numberAlso, i)
			n.also = append(n.also, w)
		}
		descs = append(descs, names[0])
	}
	n.desc = "[" + strings.Join(descs, ",") + "]"
	n.tagNumbers()
	return n
}
