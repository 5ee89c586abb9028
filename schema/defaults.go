package schema

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// setDefault validates a field's default against the field's type (spec
// "Records", default table) and stores it two more ways (queueDefault kept
// the JSON as written, for String): the generic Go model (Default) and the
// Avro binary encoding (DefaultBinary), so that codecs filling a missing
// field need no conversion at read time.
//
// What the default expands to is charged to the text's default size. A
// record default that leaves a field out takes that field's default, whose
// own record defaults may do the same: each level can double the size, so
// the charge is checked before the bytes of a taken default are copied,
// not after the whole default is built.
func (st *parseState) setDefault(f *Field, v any, p *path) error {
	// A record default may need another field's default checked first,
	// in the middle of its own.
	outer := st.values
	defer func() { st.values = outer }()
	st.values = 0
	val, branch, enc, err := st.defaultValue(f.typ, v, make([]byte, 0, 8), p)
	if err != nil {
		return err
	}
	size := st.values + int64(len(enc))
	if size > st.maxDefSize-st.defSize {
		return st.tooLarge(p)
	}
	st.defSize += size
	d := f.dflt
	d.value, d.branch, d.binary, d.values = val, int32(branch), enc[:len(enc):len(enc)], st.values
	d.checked = true
	return nil
}

func (st *parseState) tooLarge(p *path) error {
	return p.limitf(fmt.Sprintf("the defaults of the schema expand to more than %d (bytes of their binary encoding plus one per value; ParseOptions.MaxDefaultSize)", st.maxDefSize))
}

// defaultValue checks the JSON value v against s, appends its binary
// encoding to b and returns its generic Go value. For a union, branch is
// the index of the branch that matched: the first one that matches, as
// Avro 1.12 specifies (AVRO-3649). Readers older than 1.12 require the
// default to match the first branch; schemas meant for them should be
// written that way. For other types branch is -1.
func (st *parseState) defaultValue(s *Schema, v any, b []byte, p *path) (val any, branch int, out []byte, err error) {
	st.steps++
	if st.steps > st.maxSteps {
		return nil, -1, nil, p.limitf(fmt.Sprintf("default values too complex to validate: more than %d checks (ParseOptions.MaxDefaultSteps)", st.maxSteps))
	}
	if s.kind != Union {
		st.values++
	}
	switch s.kind {
	case Null:
		if v != nil {
			return defaultMismatch(p, v, s)
		}
		return nil, -1, b, nil
	case Boolean:
		x, ok := v.(bool)
		if !ok {
			return defaultMismatch(p, v, s)
		}
		if x {
			return true, -1, append(b, 1), nil
		}
		return false, -1, append(b, 0), nil
	case Int, Long:
		n, ok := v.(json.Number)
		if !ok {
			return defaultMismatch(p, v, s)
		}
		bits := 64
		if s.kind == Int {
			bits = 32
		}
		x, err := strconv.ParseInt(string(n), 10, bits)
		if err != nil {
			return nil, -1, nil, p.errorf(fmt.Sprintf("default %s is not a valid %s (an integer in range)", n, s.kind))
		}
		b = appendLong(b, x)
		if s.kind == Int {
			return int32(x), -1, b, nil
		}
		return x, -1, b, nil
	case Float, Double:
		n, ok := v.(json.Number)
		if str, isStr := v.(string); isStr && !ok {
			// JSON has no number for these; Java writes them so.
			switch str {
			case "NaN", "Infinity", "-Infinity":
				n, ok = json.Number(str), true
			}
		}
		if !ok {
			return defaultMismatch(p, v, s)
		}
		// A float's default is read as a double and then narrowed, as
		// Java and Python read it: rounding the text to 32 bits at once
		// differs from that in the last bit for some texts.
		x, err := strconv.ParseFloat(string(n), 64)
		if err == nil && s.kind == Float && math.IsInf(float64(float32(x)), 0) && !math.IsInf(x, 0) {
			err = strconv.ErrRange
		}
		if err != nil {
			return nil, -1, nil, p.errorf(fmt.Sprintf("default %s is out of the range of %s", n, s.kind))
		}
		if s.kind == Float {
			return float32(x), -1, binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x))), nil
		}
		return x, -1, binary.LittleEndian.AppendUint64(b, math.Float64bits(x)), nil
	case Bytes, Fixed:
		str, ok := v.(string)
		if !ok {
			return defaultMismatch(p, v, s)
		}
		raw, ok := latin1(str)
		if !ok {
			return nil, -1, nil, p.errorf(fmt.Sprintf("default %s has a character above U+00FF; bytes defaults spell one byte per character", jsonText(v)))
		}
		if s.kind == Fixed {
			if len(raw) != s.nm().size {
				return nil, -1, nil, p.errorf(fmt.Sprintf("default has %d bytes, fixed %s has %d", len(raw), s.nm().fullName, s.nm().size))
			}
			return raw, -1, append(b, raw...), nil
		}
		b = appendLong(b, int64(len(raw)))
		return raw, -1, append(b, raw...), nil
	case String:
		str, ok := v.(string)
		if !ok {
			return defaultMismatch(p, v, s)
		}
		b = appendLong(b, int64(len(str)))
		return str, -1, append(b, str...), nil
	case Enum:
		str, ok := v.(string)
		if !ok {
			return defaultMismatch(p, v, s)
		}
		i := s.symbolPos(str)
		if i < 0 {
			return nil, -1, nil, p.errorf(fmt.Sprintf("default %q is not a symbol of %s", str, s.nm().fullName))
		}
		return str, -1, appendLong(b, int64(i)), nil
	case Array:
		arr, ok := v.([]any)
		if !ok {
			return defaultMismatch(p, v, s)
		}
		out := make([]any, len(arr))
		if len(arr) > 0 {
			b = appendLong(b, int64(len(arr)))
			// The items take at least this much: room for it at once,
			// rather than doubling the encoding on the way. Past the
			// limit on defaults, the check below fails anyway.
			if least := int64(len(arr)) * int64(s.elem.minSize); least <= st.maxDefSize-st.defSize {
				b = slices.Grow(b, int(least)+1)
			}
		}
		// One path serves every item: a path is read only to report an
		// error, at once, so an item's is done with when the next begins.
		ep := st.elem(p, 0)
		for i, e := range arr {
			ep.index = i
			out[i], _, b, err = st.defaultValue(s.elem, e, b, ep)
			if err != nil {
				return nil, -1, nil, err
			}
		}
		return out, -1, append(b, 0), nil
	case Map:
		o, ok := v.(*object)
		if !ok {
			return defaultMismatch(p, v, s)
		}
		out := make(map[string]any, len(o.members))
		if len(o.members) > 0 {
			b = appendLong(b, int64(len(o.members)))
		}
		ep := st.key(p, "") // one path for every member, as for array items
		for _, m := range o.members {
			k := m.key
			ep.name = k
			b = appendLong(b, int64(len(k)))
			b = append(b, k...)
			var ev any
			ev, _, b, err = st.defaultValue(s.elem, m.val, b, ep)
			if err != nil {
				return nil, -1, nil, err
			}
			out[string([]byte(k))] = ev
		}
		return out, -1, append(b, 0), nil
	case Record:
		o, ok := v.(*object)
		if !ok {
			return defaultMismatch(p, v, s)
		}
		var index map[string]int
		if len(o.members) > 8 {
			index = make(map[string]int, len(o.members))
			for i, m := range o.members {
				index[m.key] = i
			}
		}
		out := make(map[string]any, len(s.nm().fields))
		// Members that name no field are ignored, as in Java.
		for _, f := range s.nm().fields {
			var fv any
			found := false
			if index != nil {
				var i int
				if i, found = index[f.name]; found {
					fv = o.members[i].val
				}
			} else {
				fv, found = o.get(f.name)
			}
			if !found {
				// A missing member takes the field's own default.
				if f.dflt == nil {
					return nil, -1, nil, p.errorf(fmt.Sprintf("default for record %s lacks field %q, which has no default", s.nm().fullName, f.name))
				}
				if err := st.fieldDefault(f); err != nil {
					return nil, -1, nil, err
				}
				d := f.dflt
				if d.values+int64(len(d.binary)) > st.maxDefSize-st.defSize-st.values-int64(len(b)) {
					return nil, -1, nil, st.tooLarge(p)
				}
				st.values += d.values
				out[f.name] = d.value
				b = append(b, d.binary...)
				continue
			}
			out[f.name], _, b, err = st.defaultValue(f.typ, fv, b, st.key(p, f.name))
			if err != nil {
				return nil, -1, nil, err
			}
		}
		return out, -1, b, nil
	case Union:
		mark, values := len(b), st.values
		for i, br := range s.branches {
			if !mayHold(br.kind, v) {
				continue
			}
			st.values = values
			val, _, nb, err := st.defaultValue(br, v, appendLong(b[:mark], int64(i)), p)
			if err == nil {
				return val, i, nb, nil
			}
			var e *Error
			if errors.As(err, &e) && e.Err == ErrLimit {
				return nil, -1, nil, err
			}
		}
		if len(s.branches) == 0 {
			return nil, -1, nil, p.errorf("an empty union can have no default")
		}
		return nil, -1, nil, p.errorf(fmt.Sprintf("default %s matches no branch of the union %s", jsonText(v), unionNames(s)))
	}
	return defaultMismatch(p, v, s)
}

// mayHold reports whether a JSON value of v's kind can be a default of
// kind k at all, so that a union default is not checked against branches
// that cannot hold it.
func mayHold(k Kind, v any) bool {
	switch v.(type) {
	case nil:
		return k == Null
	case bool:
		return k == Boolean
	case json.Number:
		return k == Int || k == Long || k == Float || k == Double
	case string:
		return k == String || k == Bytes || k == Fixed || k == Enum
	case []any:
		return k == Array
	case *object:
		return k == Map || k == Record
	}
	return false
}

func unionNames(s *Schema) string {
	b := []byte{'['}
	for i, br := range s.branches {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, br.FullName())
	}
	return string(append(b, ']'))
}

// latin1 converts a bytes default: each character is one byte, U+0000 to
// U+00FF (spec: "values for bytes and fixed are JSON strings, where
// Unicode code points 0-255 are mapped to unsigned 8-bit byte values").
func latin1(s string) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return nil, false
		}
		out = append(out, byte(r))
	}
	return out, true
}

// appendLong appends the Avro encoding of an int or long: zig-zag, then a
// base-128 varint, low groups first. It is written here rather than
// imported so that the schema package depends on no other package of the
// module.
func appendLong(b []byte, x int64) []byte {
	u := uint64(x<<1) ^ uint64(x>>63)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// defaultMismatch reports a default value that is not of its type. (A
// closure capturing p would move every path the parser builds to the heap.)
func defaultMismatch(p *path, v any, s *Schema) (any, int, []byte, error) {
	return nil, -1, nil, p.errorf(fmt.Sprintf("default %s is not a valid %s", jsonText(v), s.FullName()))
}
