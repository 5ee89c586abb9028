package codec

import (
	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// The JSON decoding of generic values is compiled from the tree of any
// nodes, as that of other Go types is from their decoders: records into
// map[string]any, arrays into []any, maps, unions of null and one branch
// and the primitive kinds are read straight from the text, boxed as the
// binary decode boxes them; every other node, and any text the direct
// readers do not take, is read through its program and decoded by its
// node.

// jsonAnyDecoder reads the JSON text at the cursor of j as a generic
// value. Errors are recorded in j.d, with their offset in j.errPos.
type jsonAnyDecoder interface {
	decodeJSONAny(j *jsonDecodeState, b *anyBoxes) any
}

// anyDecoder converts the any node n of s.
func (c *jsonDecCompiler) anyDecoder(s *schema.Schema, n anyNode) jsonAnyDecoder {
	fb := &jdaFallback{r: c.st.TextReader(s), n: n}
	if s.Kind() != schema.Union && !c.st.Direct(s) {
		return fb
	}
	switch e := n.(type) {
	case *anyRecord:
		if r, ok := c.anyRecords[e]; ok {
			return r
		}
		r := &jdaRecord{fields: make([]jdaField, len(e.fields)), fb: fb}
		c.anyRecords[e] = r
		for i := range e.fields {
			f := &e.fields[i]
			r.fields[i] = jdaField{name: f.name, key: jsontext.Member(f.name, i == 0), dec: c.anyDecoder(f.f.Type(), f.n)}
		}
		return r
	case *anyArray:
		return &jdaArray{items: c.anyDecoder(s.Items(), e.items), fb: fb}
	case *anyMap:
		return &jdaMap{values: c.anyDecoder(s.Values(), e.values), fb: fb}
	case *anyUnion:
		if len(e.branches) == 2 && e.nullIndex >= 0 {
			other := 1 - e.nullIndex
			if b := s.Branches()[other]; c.st.Direct(b) && b.Kind() != schema.Null {
				return &jdaNullable{open: c.st.BranchOpen(s, other), lead: leadOf(b.Kind()), elem: c.anyDecoder(b, e.branches[other]), fb: fb}
			}
		}
		return fb
	}
	if ts, ok := n.(anyTimestamp); ok && s.Kind() == schema.Long {
		return &jdaTimestamp{l: ts.l, fb: fb}
	}
	op := directlyRead(anyLeafOp(s, n, c.st.Base64()))
	if op == jopOther {
		return fb
	}
	return &jdaScalar{op: op, fb: fb}
}

// jdaFallback reads a value through its program and its node.
type jdaFallback struct {
	r JSONTextReader
	n anyNode
}

func (c *jdaFallback) decodeJSONAny(j *jsonDecodeState, b *anyBoxes) any {
	return c.read(j, b, j.Pos)
}

// read reads the value that starts at offset start.
func (c *jdaFallback) read(j *jsonDecodeState, b *anyBoxes, start int) any {
	start, ok := j.readBinary(c.r, start)
	if !ok {
		return nil
	}
	v := c.n.decodeAny(j.d, b)
	j.d.Buf = nil
	j.placed(start)
	return v
}

// jdaScalar reads a primitive value, boxed.
type jdaScalar struct {
	op jsonOp
	fb *jdaFallback
}

func (c *jdaScalar) decodeJSONAny(j *jsonDecodeState, b *anyBoxes) any {
	start := j.Pos
	v, ok := j.anyScalar(c.op, b)
	if !ok {
		return c.fb.read(j, b, start)
	}
	return v
}

// anyScalar reads a primitive value for op, boxed as the binary decode
// boxes it; false, having recorded nothing, for text it does not take.
func (j *jsonDecodeState) anyScalar(op jsonOp, b *anyBoxes) (any, bool) {
	switch op {
	case jopString:
		var s string
		if !j.readString(&s) {
			return nil, false
		}
		return b.string(s), true
	case jopInt64:
		x, ok := j.readDigits()
		return b.int64(x), ok
	case jopDouble:
		x, ok := j.readNumber(64)
		return b.float64(x), ok
	case jopInt32:
		var x int32
		ok := j.readInt32(&x)
		return b.int32(x), ok
	case jopBool:
		var x bool
		ok := j.readBool(&x)
		return x, ok
	case jopFloat:
		x, ok := j.readNumber(32)
		return b.float32(float32(x)), ok
	case jopNull:
		return nil, j.ReadWord("null")
	case jopCodePoints:
		var x []byte
		ok := j.readCodePoints(&x)
		return x, ok
	}
	return nil, false
}

// jdaTimestamp reads the long of a timestamp as a time.Time.
type jdaTimestamp struct {
	l  schema.Logical
	fb *jdaFallback
}

func (c *jdaTimestamp) decodeJSONAny(j *jsonDecodeState, b *anyBoxes) any {
	start := j.Pos
	v, ok := j.readDigits()
	if !ok {
		return c.fb.read(j, b, start)
	}
	u, _ := timeUnitOf(c.l)
	return b.time(unitsToTime(v, u))
}

// jdaRecord reads a record's object into a map[string]any.
type jdaRecord struct {
	fields []jdaField
	fb     *jdaFallback
}

type jdaField struct {
	name string
	key  []byte
	dec  jsonAnyDecoder
}

func (c *jdaRecord) decodeJSONAny(j *jsonDecodeState, b *anyBoxes) any {
	start := j.Pos
	if j.d.DepthLeft <= 0 || j.Peek() != '{' {
		return c.fb.read(j, b, start)
	}
	allocLeft := j.d.AllocLeft
	if !j.d.Reserve(48 + 48*int64(len(c.fields))) {
		j.placed(start)
		return nil
	}
	j.Pos++
	j.d.DepthLeft--
	m := make(map[string]any, len(c.fields))
	for i := range c.fields {
		f := &c.fields[i]
		if j.HasPrefix(f.key) {
			j.Pos += len(f.key)
		} else if !j.member(f.name, i == 0) {
			return c.restart(j, b, start, allocLeft)
		}
		var v any
		if sc, ok := f.dec.(*jdaScalar); ok {
			// The leaves inline, without their interface call.
			at := j.Pos
			var read bool
			if v, read = j.anyScalar(sc.op, b); !read {
				v = sc.fb.read(j, b, at)
			}
		} else {
			v = f.dec.decodeJSONAny(j, b)
		}
		if j.d.Err != nil {
			j.d.AddField(f.name)
			return nil
		}
		m[f.name] = v
	}
	if j.Peek() != '}' {
		return c.restart(j, b, start, allocLeft)
	}
	j.Pos++
	j.d.DepthLeft++
	return m
}

// restart reads the record again from start through its program, with
// the allocation budget it had before (what its fields reserved is read
// again too, and must not count twice).
func (c *jdaRecord) restart(j *jsonDecodeState, b *anyBoxes, start int, allocLeft int64) any {
	j.d.DepthLeft++
	j.d.AllocLeft = allocLeft
	return c.fb.read(j, b, start)
}

// jdaArray reads an array into a []any.
type jdaArray struct {
	items jsonAnyDecoder
	fb    *jdaFallback
}

func (c *jdaArray) decodeJSONAny(j *jsonDecodeState, b *anyBoxes) any {
	start := j.Pos
	if j.d.DepthLeft <= 0 || j.Peek() != '[' {
		return c.fb.read(j, b, start)
	}
	j.Pos++
	j.d.DepthLeft--
	if j.Empty(']') {
		j.d.DepthLeft++
		return []any{}
	}
	// The items wait on the state's stack, which nested arrays share,
	// until their number is known: one allocation of the right size.
	base := len(j.anys)
	defer func() {
		clear(j.anys[base:])
		j.anys = j.anys[:base]
	}()
	for {
		n := len(j.anys) - base
		if int64(n) >= j.d.MaxItems {
			break
		}
		if !j.d.ReserveItems(1, int64(sizeOf[any]())) {
			j.placed(j.Pos)
			return nil
		}
		v := c.items.decodeJSONAny(j, b)
		if j.d.Err != nil {
			j.d.AddIndex(int64(n))
			return nil
		}
		j.anys = append(j.anys, v)
		if ch := j.Peek(); ch == ',' {
			j.Pos++
			continue
		} else if ch == ']' {
			j.Pos++
			j.d.DepthLeft++
			return append([]any(nil), j.anys[base:]...)
		}
		break
	}
	j.d.DepthLeft++
	return c.fb.read(j, b, start)
}

// jdaMap reads an object into a map[string]any; a key given twice shows
// in its length.
type jdaMap struct {
	values jsonAnyDecoder
	fb     *jdaFallback
}

func (c *jdaMap) decodeJSONAny(j *jsonDecodeState, b *anyBoxes) any {
	start := j.Pos
	if j.d.DepthLeft <= 0 || j.Peek() != '{' {
		return c.fb.read(j, b, start)
	}
	j.Pos++
	j.d.DepthLeft--
	m := map[string]any{}
	if !j.Empty('}') {
		for {
			var k string
			if int64(len(m)) >= j.d.MaxItems || !j.readString(&k) || j.d.Err != nil || j.Peek() != ':' {
				if j.d.Err != nil {
					j.d.AddIndex(int64(len(m)))
					return nil
				}
				break
			}
			j.Pos++
			if !j.d.ReserveItems(1, 48) {
				j.placed(j.Pos)
				return nil
			}
			v := c.values.decodeJSONAny(j, b)
			if j.d.Err != nil {
				j.d.AddKey(k)
				return nil
			}
			n := len(m)
			if m[k] = v; len(m) == n {
				break // a key given twice: the program says so
			}
			if ch := j.Peek(); ch == ',' {
				j.Pos++
				continue
			} else if ch == '}' {
				j.Pos++
				j.d.DepthLeft++
				return m
			}
			break
		}
		j.d.DepthLeft++
		return c.fb.read(j, b, start)
	}
	j.d.DepthLeft++
	return m
}

// jdaNullable reads a union of null and one other branch.
type jdaNullable struct {
	open []byte
	lead string
	elem jsonAnyDecoder
	fb   *jdaFallback
}

func (c *jdaNullable) decodeJSONAny(j *jsonDecodeState, b *anyBoxes) any {
	start := j.Pos
	switch j.openBranch(c.open, c.lead) {
	case branchNull:
		return nil
	case branchOther:
		return c.fb.read(j, b, start)
	}
	v := c.elem.decodeJSONAny(j, b)
	if j.d.Err == nil && !j.closeBranch(c.open) {
		return c.fb.read(j, b, start)
	}
	return v
}

// jdAny reads a generic value into an any, or into a map[string]any or
// []any as the binary decoder of that shape does.
type jdAny struct {
	dec   jsonAnyDecoder
	boxed bool
	shape *genericShapeCodec
}

func (c *jdAny) decodeJSON(p pointer, j *jsonDecodeState) {
	var b *anyBoxes
	if c.boxed && wire.SlabBoxing {
		b = &j.d.boxes
		b.d = j.d
	}
	v := c.dec.decodeJSONAny(j, b)
	if j.d.Err != nil {
		return
	}
	if c.shape == nil {
		*as[any](p) = v
		return
	}
	c.shape.store(p, v)
}
