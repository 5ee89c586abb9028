package codec

import (
	"encoding/base64"
	"math"
	"time"
	"unicode/utf8"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/schema"
)

// The JSON encoding of generic values (map[string]any, []any and the
// scalars, in an any) is compiled from the tree of any nodes, as that of
// other Go types is from their encoders: records, arrays and maps held in
// their generic shapes, unions, and the primitive kinds held in their
// usual Go types are written straight from the value; every other value
// (a typed slice, an int for a double, a logical type) is encoded in
// binary by its node and rendered, so both agree on every value.

// jsonAnyEncoder appends the JSON text of v, a generic value of its
// schema node.
type jsonAnyEncoder interface {
	encodeJSONAny(v any, j *jsonState)
}

// anyEncoder converts the any node n of s.
func (c *jsonCompiler) anyEncoder(s *schema.Schema, n anyNode) jsonAnyEncoder {
	fb := &jaRendered{bin: c.rendered(s, anyCodec{n: n})}
	if s.Kind() != schema.Union && !c.st.Direct(s) {
		return fb
	}
	switch e := n.(type) {
	case *anyRecord:
		return c.anyRecord(s, e)
	case *anyArray:
		return &jaArray{items: c.anyEncoder(s.Items(), e.items), bin: fb}
	case *anyMap:
		return &jaMap{values: c.anyEncoder(s.Values(), e.values), bin: fb}
	case *anyUnion:
		k := len(e.branches)
		u := &jaUnion{u: e, open: make([][]byte, k), nonFinite: make([][]byte, k), numberOpen: make([][]byte, k), elems: make([]jsonAnyEncoder, k), bin: fb}
		for i, b := range s.Branches() {
			u.open[i] = c.st.BranchOpen(s, i)
			u.nonFinite[i] = c.st.NonFiniteOpen(s, i)
			u.numberOpen[i] = c.st.NumberOpen(s, i)
			u.elems[i] = c.anyEncoder(b, e.branches[i])
		}
		return u
	}
	if ts, ok := n.(anyTimestamp); ok && s.Kind() == schema.Long {
		return &jaTimestamp{l: ts.l, base: c.anyEncoder(s, ts.base), bin: fb}
	}
	if op := anyLeafOp(s, n, c.st.Base64()); op != jopOther {
		return &jaScalar{op: op, bin: fb}
	}
	return fb
}

func (c *jsonCompiler) anyRecord(s *schema.Schema, n *anyRecord) jsonAnyEncoder {
	if r, ok := c.anyRecords[n]; ok {
		return r
	}
	r := &jaRecord{name: s.FullName(), fields: make([]jaField, len(n.fields)), bin: &jaRendered{bin: c.rendered(s, anyCodec{n: n})}}
	c.anyRecords[n] = r
	r.table = n.table
	for i := range n.fields {
		f := &n.fields[i]
		jf := &r.fields[i]
		jf.name = f.name
		jf.key = jsontext.NewKey(f.name, i == 0)
		jf.enc = c.anyEncoder(f.f.Type(), f.n)
		if sc, ok := jf.enc.(*jaScalar); ok {
			jf.op = sc.op
		}
		if f.f.HasDefault() {
			jf.def, jf.hasDef = c.defaultText(s, f.f), true
		}
	}
	return r
}

// jaRendered writes a value through its node's binary encoding.
type jaRendered struct{ bin *jsonRendered }

func (c *jaRendered) encodeJSONAny(v any, j *jsonState) {
	x := v
	c.bin.encodeJSON(pointerTo(&x), j)
}

// jaScalar writes a primitive value held in its usual Go type.
type jaScalar struct {
	op  jsonOp
	bin *jaRendered
}

func (c *jaScalar) encodeJSONAny(v any, j *jsonState) {
	if !j.anyScalar(c.op, v) {
		c.bin.encodeJSONAny(v, j)
	}
}

// anyScalar writes v for op when v has the Go type the op writes, and
// reports whether it did.
func (j *jsonState) anyScalar(op jsonOp, v any) bool {
	switch op {
	case jopString:
		s, ok := v.(string)
		if ok {
			j.appendString(s)
		}
		return ok
	case jopInt64:
		switch x := v.(type) {
		case int64:
			j.Buf = jsontext.AppendInt(j.Buf, x)
			return true
		case int:
			j.Buf = jsontext.AppendInt(j.Buf, int64(x))
			return true
		}
	case jopDouble:
		x, ok := v.(float64)
		if ok {
			j.Buf = jsontext.AppendNumber(j.Buf, x, 64)
		}
		return ok
	case jopInt32:
		switch x := v.(type) {
		case int32:
			j.Buf = jsontext.AppendInt(j.Buf, int64(x))
			return true
		case int:
			if x == int(int32(x)) {
				j.Buf = jsontext.AppendInt(j.Buf, int64(x))
				return true
			}
		}
	case jopBool:
		x, ok := v.(bool)
		if ok {
			j.appendBool(x)
		}
		return ok
	case jopFloat:
		x, ok := v.(float32)
		if ok {
			j.Buf = jsontext.AppendNumber(j.Buf, float64(x), 32)
		}
		return ok
	case jopNull:
		if v == nil {
			j.Buf = append(j.Buf, "null"...)
			return true
		}
	case jopCodePoints:
		b, ok := v.([]byte)
		if ok {
			j.Buf = jsontext.AppendCodePoints(j.Buf, b)
		}
		return ok
	case jopBase64:
		b, ok := v.([]byte)
		if ok {
			j.Buf = append(j.Buf, '"')
			j.Buf = base64.StdEncoding.AppendEncode(j.Buf, b)
			j.Buf = append(j.Buf, '"')
		}
		return ok
	}
	return false
}

// jaTimestamp writes a time.Time as the long of its timestamp type; a
// time out of its range goes to the binary encoder for its error, and
// other values to the long's writer.
type jaTimestamp struct {
	l    schema.Logical
	base jsonAnyEncoder
	bin  *jaRendered
}

func (c *jaTimestamp) encodeJSONAny(v any, j *jsonState) {
	t, ok := v.(time.Time)
	if !ok {
		c.base.encodeJSONAny(v, j)
		return
	}
	u, local := timeUnitOf(c.l)
	x, ok := timeToUnits(t, u, local)
	if !ok {
		c.bin.encodeJSONAny(v, j)
		return
	}
	j.Buf = jsontext.AppendInt(j.Buf, x)
}

// jaRecord writes a record held in a map[string]any.
type jaRecord struct {
	name   string
	fields []jaField
	table  *fieldTable // nil: the fields are looked up
	bin    *jaRendered
}

type jaField struct {
	name string
	key  jsontext.Key
	op   jsonOp
	enc  jsonAnyEncoder
	// def is the text of the field's default, when hasDef.
	def    []byte
	hasDef bool
}

func (c *jaRecord) encodeJSONAny(v any, j *jsonState) {
	m, ok := v.(map[string]any)
	if !ok {
		c.bin.encodeJSONAny(v, j)
		return
	}
	if !j.Enter() {
		return
	}
	var cur fieldCursor
	cur.start(m, c.table)
	c.write(&cur, j)
}

// write writes the record whose fields cur finds.
func (c *jaRecord) write(cur *fieldCursor, j *jsonState) {
	j.Buf = append(j.Buf, '{')
	for i := range c.fields {
		f := &c.fields[i]
		j.Buf = f.key.Append(j.Buf)
		x, ok := cur.field(i, f.name)
		switch {
		case !ok && f.hasDef:
			j.Buf = append(j.Buf, f.def...)
			continue
		case !ok:
			j.Failf(ErrRange, "missing field %q of record %s, which has no default", f.name, c.name)
		case f.op != jopOther && j.anyScalar(f.op, x):
		default:
			f.enc.encodeJSONAny(x, j)
		}
		if j.Err != nil {
			j.AddField(f.name)
			return
		}
	}
	j.Buf = append(j.Buf, '}')
	if j.grown() {
		j.Leave()
	}
}

// jaArray writes an array held in a []any.
type jaArray struct {
	items jsonAnyEncoder
	bin   *jaRendered
}

func (c *jaArray) encodeJSONAny(v any, j *jsonState) {
	xs, ok := v.([]any)
	if !ok {
		c.bin.encodeJSONAny(v, j)
		return
	}
	if !j.Enter() {
		return
	}
	j.Buf = append(j.Buf, '[')
	for i, x := range xs {
		if i > 0 {
			j.Buf = append(j.Buf, ',')
		}
		c.items.encodeJSONAny(x, j)
		if j.Err != nil || !j.grown() {
			j.AddIndex(i)
			return
		}
	}
	j.Buf = append(j.Buf, ']')
	j.Leave()
}

// jaMap writes a map held in a map[string]any, a small map in the order
// of its group, as the binary encoder walks it.
type jaMap struct {
	values jsonAnyEncoder
	bin    *jaRendered
}

func (c *jaMap) encodeJSONAny(v any, j *jsonState) {
	m, ok := v.(map[string]any)
	if !ok {
		c.bin.encodeJSONAny(v, j)
		return
	}
	if !j.Enter() {
		return
	}
	j.Buf = append(j.Buf, '{')
	first := true
	entry := func(k string, x any) bool {
		if !first {
			j.Buf = append(j.Buf, ',')
		}
		first = false
		if j.validateUTF && !utf8.ValidString(k) {
			j.Failf(ErrInvalid, "map key is not valid UTF-8")
			return false
		}
		j.Buf = jsontext.AppendString(j.Buf, k)
		j.Buf = append(j.Buf, ':')
		c.values.encodeJSONAny(x, j)
		if j.Err != nil || !j.grown() {
			j.AddKey(k)
			return false
		}
		return true
	}
	if w, ok := walkSmallMap(pointerTo(&m)); ok {
		size, off := slotLayout[any]()
		for s := w.next(size); !s.isNil(); s = w.next(size) {
			if !entry(*as[string](s), *as[any](s.add(off))) {
				return
			}
		}
	} else {
		for k, x := range m {
			if !entry(k, x) {
				return
			}
		}
	}
	j.Buf = append(j.Buf, '}')
	j.Leave()
}

// jaUnion writes the branch the binary encoder picks for v, opened by its
// tag; values that fit no branch go to it for their error.
type jaUnion struct {
	u    *anyUnion
	open [][]byte
	// nonFinite opens the bare float branches that NaN and the
	// infinities are written tagged in (see JSONStyle.NonFiniteOpen).
	nonFinite [][]byte
	// numberOpen opens the bare timestamps, dates and times that are
	// tagged when written as numbers (see JSONStyle.NumberOpen).
	numberOpen [][]byte
	elems      []jsonAnyEncoder
	bin        *jaRendered
}

func (c *jaUnion) encodeJSONAny(v any, j *jsonState) {
	i, x := c.u.pick(v)
	if i < 0 {
		c.bin.encodeJSONAny(v, j)
		return
	}
	open := c.open[i]
	if open == nil && c.nonFinite[i] != nil && nonFiniteAny(x) {
		open = c.nonFinite[i]
	}
	if open == nil {
		start := len(j.Buf)
		c.elems[i].encodeJSONAny(x, j)
		if c.numberOpen[i] != nil {
			j.Buf = jsontext.TagNumber(j.Buf, start, c.numberOpen[i])
		}
		return
	}
	j.Buf = append(j.Buf, open...)
	c.elems[i].encodeJSONAny(x, j)
	j.Buf = append(j.Buf, '}')
}

// nonFiniteAny reports whether x is a float that is NaN or an infinity.
func nonFiniteAny(x any) bool {
	switch f := x.(type) {
	case float64:
		return nonFinite(f)
	case float32:
		return nonFinite(float64(f))
	}
	return false
}

func nonFinite(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }

// jsonAnyField writes an any held in a struct field or a slice.
type jsonAnyField struct{ enc jsonAnyEncoder }

func (c *jsonAnyField) encodeJSON(p pointer, j *jsonState) { c.enc.encodeJSONAny(*as[any](p), j) }
