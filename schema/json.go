package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of JSON arrays and objects that Parse
// accepts, so that schema text from registries and container file headers
// cannot drive the parser, or any walk of the result, arbitrarily deep. A
// record nested in a record costs three levels (object, "fields" array,
// field object), so this still allows schemas more than 300 records deep.
const MaxDepth = 1000

// object is a decoded JSON object that keeps its members in the order
// they were written: Avro properties are metadata whose order the user
// chose, and String must write them back the same way.
type object struct {
	members []member
}

// member is a member of a decoded object.
type member struct {
	key string
	val any
}

func (o *object) get(key string) (any, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// decoder is a strict RFC 8259 decoder producing nil, bool, json.Number,
// string, []any and *object. It is written here rather than borrowed from
// encoding/json for two reasons: member order (see object) and a nesting
// bound that is checked before recursing.
type decoder struct {
	s   string
	pos int
	// depth is the current nesting of arrays and objects.
	depth int
	// keys and vals are stacks shared by all objects and arrays being
	// decoded: members collect here and are copied out once, at the
	// exact size, when their object or array ends, instead of growing a
	// slice per container.
	keys []string
	vals []any
	// nests counts the objects and the array items decoded: about the
	// number of places the parser descends into (see parseState.key).
	nests int
	// defaults counts the members named "default": about the number of
	// field defaults, so that the parser sizes its queue of them once.
	defaults int
	// named counts the members "type" whose value is "record", "error",
	// "enum" or "fixed": about the number of named types defined.
	named int
	// objs, memberSlab and valSlab are chunks the decoded objects, their
	// members and the arrays' items are cut from: the tree is garbage once
	// the schema is built (defaults are cloned out of it, see cloneJSON),
	// so that one allocation serves many objects instead of three each.
	objs       []object
	memberSlab []member
	valSlab    []any
	// arrays are the arrays of keywords decoded so far (see
	// keywordArray).
	arrays []keywordArray
}

// keywordArray is a short array whose items are all keywords, such as
// the union ["null","string"], with its value in the decoded tree: a text
// that repeats one, as a record of nullable fields does, gets one array
// and one interface for all its uses. The tree is only read, so that they
// can be shared.
type keywordArray struct {
	n     int
	items [4]string
	val   any
}

// maxKeywordArrays bounds the arrays of keywords a decoder keeps: a text
// uses a few, and past them an array is decoded as any other.
const maxKeywordArrays = 16

// keywordArray returns the shared value of the array of items when they
// are keywords, and whether they are.
func (d *decoder) keywordArray(items []any) (any, bool) {
	var k keywordArray
	if len(items) > len(k.items) {
		return nil, false
	}
	k.n = len(items)
	for i, v := range items {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		if _, ok := boxedKeywords[s]; !ok {
			return nil, false
		}
		k.items[i] = s
	}
	for i := range d.arrays {
		if a := &d.arrays[i]; a.n == k.n && a.items == k.items {
			return a.val, true
		}
	}
	if len(d.arrays) == maxKeywordArrays {
		return nil, false
	}
	k.val = d.cutVals(items)
	d.arrays = append(d.arrays, k)
	return k.val, true
}

// slabChunk is the size of the next chunk of a slab that holds cur items
// and needs need more.
func slabChunk(cur, need int) int { return max(need, min(max(2*cur, 16), maxSlabChunk)) }

// maxSlabChunk bounds the chunks of the decoder's slabs and of the
// parser's paths, unless one object needs more.
const maxSlabChunk = 1024

func (d *decoder) newObject(keys []string, vals []any) *object {
	if len(d.objs) == cap(d.objs) {
		// This object is cut after its '}', and every later one needs a
		// '}' of its own: a chunk longer than that would be waste, a
		// third of what a deeply nested text allocates for its objects.
		d.objs = make([]object, 0, min(slabChunk(cap(d.objs), 1), 1+len(d.s)-d.pos))
	}
	d.objs = append(d.objs, object{members: d.cutMembers(keys, vals)})
	return &d.objs[len(d.objs)-1]
}

// cutMembers and cutVals copy members and items into their slab (see
// cut). Besides the items being cut, at most those on the stack and one
// for every 4 bytes (a member, "":0) or every 2 bytes (a value and a
// comma) of the text left are still to be cut, which bounds the chunks.
func (d *decoder) cutMembers(keys []string, vals []any) []member {
	if len(keys) == 0 {
		return nil
	}
	slab := &d.memberSlab
	if cap(*slab)-len(*slab) < len(keys) {
		*slab = make([]member, 0, max(len(keys), min(slabChunk(cap(*slab), len(keys)), len(d.keys)+(len(d.s)-d.pos)/4)))
	}
	start := len(*slab)
	for i, k := range keys {
		*slab = append(*slab, member{key: k, val: vals[i]})
	}
	return (*slab)[start:len(*slab):len(*slab)]
}

func (d *decoder) cutVals(vals []any) []any {
	return cut(&d.valSlab, vals, len(d.vals)+(len(d.s)-d.pos)/2)
}

// cut copies items into *slab, starting a new chunk when they do not fit,
// and returns the copy capped at its length, so that an append to one cut
// cannot write over the next. left bounds the items still to be cut,
// these included: a new chunk is no longer.
func cut[T any](slab *[]T, items []T, left int) []T {
	if len(items) == 0 {
		return nil
	}
	if cap(*slab)-len(*slab) < len(items) {
		*slab = make([]T, 0, max(len(items), min(slabChunk(cap(*slab), len(items)), left)))
	}
	start := len(*slab)
	*slab = append(*slab, items...)
	return (*slab)[start:len(*slab):len(*slab)]
}

// grow makes room for one more item on a decoder's stack, doubling it
// when full: append grows a large slice by a quarter at a time, which for
// an array of a million items copies the stack over and over.
func grow[T any](stack []T) []T {
	if len(stack) < cap(stack) {
		return stack
	}
	return slices.Grow(stack, max(len(stack), 8))
}

// cloneJSON deep-copies a decoded value, so that what a schema keeps of
// the decoded tree does not hold the slabs of the whole tree alive, nor
// the text (object keys are slices of it; string values are copies
// already).
func cloneJSON(v any) any {
	switch v := v.(type) {
	case *object:
		o := &object{members: make([]member, len(v.members))}
		for i, m := range v.members {
			o.members[i] = member{key: strings.Clone(m.key), val: cloneJSON(m.val)}
		}
		return o
	case []any:
		if len(v) == 0 {
			return emptyArray
		}
		if len(v) > maxSlabChunk && scalars(v) {
			// A long array is an allocation of its own, not part of a
			// slab (see cut and array), and scalars hold nothing of
			// the tree or the text: it can be kept as it is.
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cloneJSON(e)
		}
		return out
	}
	return v
}

// scalars reports whether no item of a decoded array is an object or an
// array.
func scalars(items []any) bool {
	for _, e := range items {
		switch e.(type) {
		case *object, []any:
			return false
		}
	}
	return true
}

// jsonCounts are what the decoder counted of a text, for the parser to
// size its slices once (see decoder.nests, decoder.defaults and
// decoder.named).
type jsonCounts struct{ nests, defaults, named int }

// decodeJSON decodes one JSON value that must fill the whole text, and
// returns what it counted of it.
func decodeJSON(text string) (any, jsonCounts, error) {
	d := decoder{s: text}
	d.skipSpace()
	v, err := d.value()
	if err == nil {
		d.skipSpace()
		if d.pos < len(d.s) {
			err = d.syntaxError("unexpected data after the top-level value")
		}
	}
	if err != nil {
		return nil, jsonCounts{}, err
	}
	return v, jsonCounts{nests: d.nests, defaults: d.defaults, named: d.named}, nil
}

// syntaxError reports malformed JSON. When encoding/json agrees that the
// text is malformed, its *json.SyntaxError is wrapped so that callers can
// use errors.As as with any other JSON error; the check runs only on this
// error path, so it costs nothing for valid schemas.
func (d *decoder) syntaxError(msg string) error {
	e := &Error{Msg: fmt.Sprintf("invalid JSON at offset %d: %s", d.pos, msg)}
	var raw json.RawMessage
	if err := json.Unmarshal([]byte(d.s), &raw); err != nil {
		e.Err = err
	}
	return e
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.s) {
		switch d.s[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value() (any, error) {
	if d.pos >= len(d.s) {
		return nil, d.syntaxError("unexpected end of input")
	}
	switch c := d.s[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		s, fresh, err := d.str()
		switch {
		case err != nil:
			return nil, err
		case fresh:
			return s, nil
		}
		if k, ok := boxedKeywords[s]; ok {
			return k, nil
		}
		return strings.Clone(s), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case d.literal("true"):
		return true, nil
	case d.literal("false"):
		return false, nil
	case d.literal("null"):
		return nil, nil
	}
	return nil, d.syntaxError(fmt.Sprintf("unexpected character %q", d.s[d.pos]))
}

func (d *decoder) literal(lit string) bool {
	if len(d.s)-d.pos >= len(lit) && d.s[d.pos:d.pos+len(lit)] == lit {
		d.pos += len(lit)
		return true
	}
	return false
}

func (d *decoder) enter() error {
	d.depth++
	if d.depth > MaxDepth {
		return &Error{Msg: fmt.Sprintf("JSON nesting deeper than %d levels at offset %d", MaxDepth, d.pos), Err: ErrLimit}
	}
	return nil
}

func (d *decoder) object() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // '{'
	d.nests++
	mark := len(d.keys)
	var index map[string]struct{} // duplicate detection for large objects
	d.skipSpace()
	if d.pos < len(d.s) && d.s[d.pos] == '}' {
		d.pos++
		d.depth--
		return d.newObject(nil, nil), nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.s) || d.s[d.pos] != '"' {
			return nil, d.syntaxError("expected a string for an object key")
		}
		keyPos := d.pos
		key, _, err := d.str()
		if err != nil {
			return nil, err
		}
		// Duplicate keys are rejected: JSON leaves their meaning open, and
		// two "type" or "name" members would make the schema ambiguous.
		dup := false
		if index != nil {
			_, dup = index[key]
		} else {
			for _, prev := range d.keys[mark:] {
				if prev == key {
					dup = true
					break
				}
			}
		}
		if dup {
			d.pos = keyPos
			return nil, &Error{Msg: fmt.Sprintf("duplicate JSON object key %q at offset %d", key, keyPos)}
		}
		d.skipSpace()
		if d.pos >= len(d.s) || d.s[d.pos] != ':' {
			return nil, d.syntaxError("expected ':' after an object key")
		}
		d.pos++
		d.skipSpace()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		switch key {
		case "default":
			d.defaults++
		case "type":
			switch v {
			case "record", "error", "enum", "fixed":
				d.named++
			}
		}
		d.keys = grow(d.keys)
		d.vals = grow(d.vals)
		d.keys = append(d.keys, key)
		d.vals = append(d.vals, v)
		if n := len(d.keys) - mark; n == 16 {
			index = make(map[string]struct{}, 32)
			for _, k := range d.keys[mark:] {
				index[k] = struct{}{}
			}
		} else if index != nil {
			index[key] = struct{}{}
		}
		d.skipSpace()
		if d.pos >= len(d.s) {
			return nil, d.syntaxError("unexpected end of input in an object")
		}
		switch d.s[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			n := len(d.keys) - mark
			o := d.newObject(d.keys[mark:], d.vals[len(d.vals)-n:])
			clear(d.vals[len(d.vals)-n:])
			d.vals = d.vals[:len(d.vals)-n]
			clear(d.keys[mark:])
			d.keys = d.keys[:mark]
			return o, nil
		default:
			return nil, d.syntaxError("expected ',' or '}' in an object")
		}
	}
}

func (d *decoder) array() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // '['
	mark := len(d.vals)
	d.skipSpace()
	if d.pos < len(d.s) && d.s[d.pos] == ']' {
		d.pos++
		d.depth--
		return emptyArray, nil
	}
	for {
		d.skipSpace()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		d.vals = grow(d.vals)
		d.vals = append(d.vals, v)
		d.nests++
		d.skipSpace()
		if d.pos >= len(d.s) {
			return nil, d.syntaxError("unexpected end of input in an array")
		}
		if len(d.vals)-mark == maxSlabChunk && d.s[d.pos] == ',' {
			// A long array: the stack is made room for all of it at
			// once, rather than doubled on the way, which allocates
			// twice what it holds.
			if rest := countItems(d.s, d.pos+1); rest > cap(d.vals)-len(d.vals) {
				d.vals = slices.Grow(d.vals, rest)
			}
		}
		switch d.s[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			if a, ok := d.keywordArray(d.vals[mark:]); ok {
				clear(d.vals[mark:])
				d.vals = d.vals[:mark]
				return a, nil
			}
			if n := len(d.vals) - mark; n > maxSlabChunk && n > mark {
				// A long array takes the stack it was collected on, and
				// the stack starts again with what lay below it: that
				// copies less than the array would.
				a := d.vals[mark:len(d.vals):len(d.vals)]
				below := d.vals[:mark]
				d.vals = append(make([]any, 0, max(2*mark, 16)), below...)
				clear(below) // the array must not keep them alive
				return a, nil
			}
			a := d.cutVals(d.vals[mark:])
			clear(d.vals[mark:])
			d.vals = d.vals[:mark]
			return a, nil
		default:
			return nil, d.syntaxError("expected ',' or ']' in an array")
		}
	}
}

// countItems counts the items of the array whose next item starts at
// pos, from there to its end, by their commas; it returns -1 when the
// array does not end. Only brackets and strings are looked at: the
// decoder checks the rest.
func countItems(s string, pos int) int {
	n, depth := 1, 0
	for i := pos; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case '}':
			depth--
		case ']':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return -1
}

// boxedKeywords are the strings that fill most schema texts, each already
// in an interface: a value that is one of them goes into the decoded tree
// without a copy of the string or an allocation for the interface.
var boxedKeywords = map[string]any{}

func init() {
	for _, k := range []string{"null", "boolean", "int", "long", "float", "double",
		"bytes", "string", "record", "error", "enum", "array", "map", "fixed",
		"ascending", "descending", "ignore", "decimal", "uuid", "date",
		"time-millis", "time-micros", "timestamp-millis", "timestamp-micros",
		"timestamp-nanos", "local-timestamp-millis", "local-timestamp-micros",
		"local-timestamp-nanos", "big-decimal", "duration", ""} {
		boxedKeywords[k] = k
	}
}

// str decodes a string. Without escapes or non-ASCII bytes it is a slice
// of the text (fresh false): keys are only compared, or copied by the
// caller when kept as property names; values are copied by value, so that
// a parsed schema does not keep the whole text alive.
// Invalid UTF-8 and unpaired surrogates become U+FFFD, as in encoding/json,
// so that everything the schema writes back is valid UTF-8.
func (d *decoder) str() (s string, fresh bool, err error) {
	d.pos++ // opening quote
	start := d.pos
	for d.pos < len(d.s) {
		c := d.s[d.pos]
		if c == '"' {
			s := d.s[start:d.pos]
			d.pos++
			return s, false, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		d.pos++
	}
	// Slow path: escapes or non-ASCII.
	buf := make([]byte, 0, d.pos-start+16)
	buf = append(buf, d.s[start:d.pos]...)
	for d.pos < len(d.s) {
		c := d.s[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(buf), true, nil
		case c < 0x20:
			return "", false, d.syntaxError("control character in a string")
		case c == '\\':
			if d.pos+1 >= len(d.s) {
				return "", false, d.syntaxError("unexpected end of input in a string escape")
			}
			e := d.s[d.pos+1]
			d.pos += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", false, d.syntaxError("invalid \\u escape")
				}
				if utf16.IsSurrogate(r) {
					if len(d.s)-d.pos >= 6 && d.s[d.pos] == '\\' && d.s[d.pos+1] == 'u' {
						save := d.pos
						d.pos += 2
						r2, ok2 := d.hex4()
						if !ok2 {
							return "", false, d.syntaxError("invalid \\u escape")
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							r = dec
						} else {
							d.pos = save // not a pair: decode the second escape on its own
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				d.pos -= 2
				return "", false, d.syntaxError("invalid escape in a string")
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			d.pos++
		default:
			r, size := utf8.DecodeRuneInString(d.s[d.pos:])
			buf = utf8.AppendRune(buf, r)
			d.pos += size
		}
	}
	return "", false, d.syntaxError("unexpected end of input in a string")
}

func (d *decoder) hex4() (rune, bool) {
	if len(d.s)-d.pos < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := d.s[d.pos+i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	d.pos += 4
	return r, true
}

// number checks the JSON number grammar and returns the text as a
// json.Number, so that integers keep every digit and the schema can write
// the number back exactly as it was written.
func (d *decoder) number() (any, error) {
	start := d.pos
	if d.s[d.pos] == '-' {
		d.pos++
	}
	digits := func() int {
		n := 0
		for d.pos < len(d.s) && d.s[d.pos] >= '0' && d.s[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	if d.pos < len(d.s) && d.s[d.pos] == '0' {
		d.pos++
	} else if digits() == 0 {
		return nil, d.syntaxError("invalid number")
	}
	if d.pos < len(d.s) && d.s[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return nil, d.syntaxError("invalid number")
		}
	}
	if d.pos < len(d.s) && (d.s[d.pos] == 'e' || d.s[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.s) && (d.s[d.pos] == '+' || d.s[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return nil, d.syntaxError("invalid number")
		}
	}
	if d.pos-start == 1 {
		return boxedDigits[d.s[start]-'0'], nil
	}
	return json.Number(string([]byte(d.s[start:d.pos]))), nil
}

// boxedDigits are the numbers 0 to 9, each already in an interface, as
// boxedKeywords are: the items of a long default array of small counts or
// flags then cost no allocation each.
var boxedDigits = func() (out [10]any) {
	for i := range out {
		out[i] = json.Number(strconv.Itoa(i))
	}
	return out
}()

// toGo converts a decoded value to the form encoding/json with UseNumber
// produces (objects become map[string]any), which is how Prop values are
// documented.
func toGo(v any) any {
	switch v := v.(type) {
	case *object:
		m := make(map[string]any, len(v.members))
		for _, e := range v.members {
			m[e.key] = toGo(e.val)
		}
		return m
	case []any:
		if len(v) == 0 {
			return emptyArray
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toGo(e)
		}
		return out
	}
	return v
}

// emptyArray is every empty JSON array, boxed once: an empty slice cannot
// be written through, and boxing one allocates, so a text of "[]" after
// "[]" would otherwise cost 32 bytes for each 3.
var emptyArray any = []any{}

// appendJSON writes a value of the decoded or generic model as compact
// JSON: *object members in their order, map members sorted by key (so the
// output is deterministic), strings as UTF-8 with only the escapes JSON
// requires (unlike encoding/json, which also escapes <, > and &, which
// would change the canonical form).
func appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case json.Number:
		return append(b, v...)
	case string:
		return appendString(b, v)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case *object:
		b = append(b, '{')
		for i, m := range v.members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.key)
			b = append(b, ':')
			b = appendJSON(b, m.val)
		}
		return append(b, '}')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendJSON(b, v[k])
		}
		return append(b, '}')
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case int32:
		return strconv.AppendInt(b, int64(v), 10)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case float32:
		return appendFloat(b, float64(v), 32)
	case float64:
		return appendFloat(b, v, 64)
	}
	// Values a caller put in a Prop by hand; decoded values never get here.
	out, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, out...)
}

func appendFloat(b []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}

const hexDigits = "0123456789abcdef"

func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
