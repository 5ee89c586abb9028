package codec

import (
	"encoding/base64"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/schema"
)

// jsonCompiler converts one binary encoder tree to its JSON twin.
type jsonCompiler struct {
	st JSONStyle
	// structs are kept by schema and encoder, so that a recursive type
	// converts to a cycle.
	structs map[jsonStructKey]*jsonStruct
	// anyRecords are kept so too, for the generic values of a recursive
	// schema.
	anyRecords map[*anyRecord]*jaRecord
	// err is the first error of the compilation.
	err error
}

type jsonStructKey struct {
	s   *schema.Schema
	enc *structEncoder
}

func newJSONCompiler(st JSONStyle) *jsonCompiler {
	return &jsonCompiler{st: st, structs: map[jsonStructKey]*jsonStruct{}, anyRecords: map[*anyRecord]*jaRecord{}}
}

func compileJSON(s *schema.Schema, enc encoder, st JSONStyle) *jsonCompiled {
	c := newJSONCompiler(st)
	je := c.convert(s, enc)
	return &jsonCompiled{enc: je, err: c.err}
}

func compileJSONAny(s *schema.Schema, n anyNode, st JSONStyle) *jsonCompiled {
	c := newJSONCompiler(st)
	je := c.anyEncoder(s, n)
	return &jsonCompiled{any: je, err: c.err}
}

// convert returns the JSON encoder of the binary encoder enc of s.
func (c *jsonCompiler) convert(s *schema.Schema, enc encoder) jsonEncoder {
	if s.Kind() != schema.Union && !c.st.Direct(s) {
		return c.rendered(s, enc)
	}
	switch e := enc.(type) {
	case *structEncoder:
		if s.Kind() == schema.Record {
			return c.record(s, e)
		}
	case *unionEncoder:
		if s.Kind() == schema.Union {
			return c.union(s, e)
		}
	case *ptrEncoder:
		return &jsonPtr{elem: c.convert(s, e.enc), bin: c.rendered(s, e)}
	case *sliceEncoder:
		if s.Kind() == schema.Array && e.elemSize > 0 {
			return &jsonSlice{elemSize: e.elemSize, elem: c.convert(s.Items(), e.elem)}
		}
	case *typedMapCodec[string]:
		if s.Kind() == schema.Map && e.stringValues && c.st.Direct(s.Values()) {
			return &jsonStringMap{slotSize: e.slotSize, valueOff: e.valueOff}
		}
	case anyCodec:
		return &jsonAnyField{enc: c.anyEncoder(s, e.n)}
	}
	if s.Kind() == schema.Array && c.st.Direct(s.Items()) {
		if je := c.primSlice(s.Items(), enc); je != nil {
			return je
		}
	}
	if op := scalarOp(s, enc, c.st.Base64()); op != jopOther {
		return jsonScalar{op: op}
	}
	if tc, ok := enc.(timestampCodec); ok && s.Kind() == schema.Long {
		return &jsonTimestamp{l: tc.l, bin: c.rendered(s, enc)}
	}
	return c.rendered(s, enc)
}

// rendered is the JSON encoder that writes through the binary encoding.
func (c *jsonCompiler) rendered(s *schema.Schema, enc encoder) *jsonRendered {
	return &jsonRendered{enc: enc, r: c.st.Renderer(s)}
}

// scalarOp returns the op that writes and reads a value of s with the
// codec c of a primitive Go type, or jopOther; bytes are base64 when b64
// is set.
func scalarOp(s *schema.Schema, c any, b64 bool) jsonOp {
	k := s.Kind()
	switch e := c.(type) {
	case nullCodec:
		return jopNull
	case boolCodec:
		return jopBool
	case int32Codec:
		if k == schema.Int {
			return jopInt32
		}
	case int64Codec:
		if k == schema.Long {
			return jopInt64
		}
	case doubleCodec:
		if k == schema.Double {
			return jopDouble
		}
	case floatCodec:
		if k == schema.Float {
			return jopFloat
		}
	case stringCodec:
		if k == schema.String {
			return jopString
		}
	case bytesCodec:
		if k == schema.Bytes && !e.utf8 {
			return bytesOp(b64)
		}
	}
	return jopOther
}

// anyLeafOp is scalarOp for the any node n of s: the op that writes and
// reads the usual Go value of a primitive node.
func anyLeafOp(s *schema.Schema, n anyNode, b64 bool) jsonOp {
	switch n.(type) {
	case anyNull:
		return jopNull
	case anyBool:
		return jopBool
	case anyInt:
		return jopInt32
	case anyLong:
		return jopInt64
	case anyFloat:
		return jopFloat
	case anyDouble:
		return jopDouble
	case anyString:
		if s.Kind() == schema.String {
			return jopString
		}
	case anyBytes:
		if s.Kind() == schema.Bytes {
			return bytesOp(b64)
		}
	}
	return jopOther
}

func bytesOp(b64 bool) jsonOp {
	if b64 {
		return jopBase64
	}
	return jopCodePoints
}

// defaultText returns the JSON text of the default of field f of record
// s, recording an error when it has none.
func (c *jsonCompiler) defaultText(s *schema.Schema, f *schema.Field) []byte {
	text, err := c.st.Renderer(f.Type()).AppendJSON(nil, f.DefaultBinary(), &DecodeOptions{})
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("avro: the default of field %s of %s has no JSON text: %w", f.Name(), s.FullName(), err)
	}
	return text
}

func (c *jsonCompiler) primSlice(items *schema.Schema, enc encoder) jsonEncoder {
	switch enc.(type) {
	case *primSliceCodec[int64]:
		return jsonPrimSlice[int64]{op: jopInt64}
	case *primSliceCodec[int32]:
		return jsonPrimSlice[int32]{op: jopInt32}
	case *primSliceCodec[float64]:
		if items.Kind() == schema.Double {
			return jsonPrimSlice[float64]{op: jopDouble}
		}
	case *primSliceCodec[float32]:
		if items.Kind() == schema.Float {
			return jsonPrimSlice[float32]{op: jopFloat}
		}
	case *primSliceCodec[bool]:
		return jsonPrimSlice[bool]{op: jopBool}
	case *primSliceCodec[string]:
		return jsonPrimSlice[string]{op: jopString}
	}
	return nil
}

func (c *jsonCompiler) record(s *schema.Schema, e *structEncoder) jsonEncoder {
	key := jsonStructKey{s, e}
	if js, ok := c.structs[key]; ok {
		return js
	}
	js := &jsonStruct{fields: make([]jsonField, len(e.fields)), touch: e.touch}
	c.structs[key] = js
	fields := s.Fields()
	for i := range e.fields {
		fe := &e.fields[i]
		f := fields[i]
		jf := &js.fields[i]
		jf.name = fe.name
		jf.key = jsontext.NewKey(fe.name, i == 0)
		jf.offset = fe.offset
		if fe.op == fieldDefaultBytes {
			jf.op, jf.text = jopText, c.defaultText(s, f)
			continue
		}
		jf.enc = c.convert(f.Type(), fe.enc)
		if sc, ok := jf.enc.(jsonScalar); ok {
			jf.op = sc.op
		}
	}
	return js
}

func (c *jsonCompiler) union(s *schema.Schema, e *unionEncoder) jsonEncoder {
	if e.picks {
		return c.rendered(s, e)
	}
	ju := &jsonUnion{nilable: e.nilable, isPtr: e.isPtr, index: e.index, nullIndex: e.nullIndex, bin: c.rendered(s, e)}
	if e.index >= 0 {
		ju.open = c.st.BranchOpen(s, e.index)
		ju.elem = c.convert(s.Branches()[e.index], e.enc)
		ju.numberOpen = c.st.NumberOpen(s, e.index)
		if sc, ok := ju.elem.(jsonScalar); ok && (sc.op == jopDouble || sc.op == jopFloat) {
			ju.nonFinite, ju.floatOp = c.st.NonFiniteOpen(s, e.index), sc.op
		}
	}
	return ju
}

// jsonOp is what a jsonScalar, a struct field or a primitive slice
// writes; jopOther is a field with an encoder of its own.
type jsonOp uint8

const (
	jopOther jsonOp = iota
	jopText
	jopNull
	jopBool
	jopInt32
	jopInt64
	jopFloat
	jopDouble
	jopString
	jopCodePoints
	jopBase64
)

// jsonScalar writes a primitive value.
type jsonScalar struct{ op jsonOp }

func (c jsonScalar) encodeJSON(p pointer, j *jsonState) { j.scalar(c.op, p) }

// scalar writes the value of op at p; it is the one switch of the
// primitive kinds that structs inline for their fields.
func (j *jsonState) scalar(op jsonOp, p pointer) {
	switch op {
	case jopNull:
		j.Buf = append(j.Buf, "null"...)
	case jopBool:
		j.appendBool(*as[bool](p))
	case jopInt32:
		j.Buf = jsontext.AppendInt(j.Buf, int64(*as[int32](p)))
	case jopInt64:
		j.Buf = jsontext.AppendInt(j.Buf, *as[int64](p))
	case jopFloat:
		j.Buf = jsontext.AppendNumber(j.Buf, float64(*as[float32](p)), 32)
	case jopDouble:
		j.Buf = jsontext.AppendNumber(j.Buf, *as[float64](p), 64)
	case jopString:
		j.appendString(*as[string](p))
	case jopCodePoints:
		j.Buf = jsontext.AppendCodePoints(j.Buf, *as[[]byte](p))
	case jopBase64:
		j.Buf = append(j.Buf, '"')
		j.Buf = base64.StdEncoding.AppendEncode(j.Buf, *as[[]byte](p))
		j.Buf = append(j.Buf, '"')
	}
}

func (j *jsonState) appendBool(v bool) {
	if v {
		j.Buf = append(j.Buf, "true"...)
	} else {
		j.Buf = append(j.Buf, "false"...)
	}
}

func (j *jsonState) appendString(s string) {
	if j.validateUTF && !utf8.ValidString(s) {
		j.Failf(ErrInvalid, "string is not valid UTF-8")
		return
	}
	j.Buf = jsontext.AppendString(j.Buf, s)
}

// jsonStruct writes a struct as a record: the keys and the primitive
// fields inline, the rest through their encoders.
type jsonStruct struct {
	fields []jsonField
	// touch are the fields whose memory is loaded first (see touch).
	touch []touchField
}

type jsonField struct {
	name   string
	key    jsontext.Key // `"name":`, after a comma unless first
	offset uintptr
	op     jsonOp
	text   []byte // jopText: the default's text
	enc    jsonEncoder
}

func (c *jsonStruct) encodeJSON(p pointer, j *jsonState) {
	if !j.Enter() {
		return
	}
	j.touched += touch(p, c.touch)
	j.Buf = append(j.Buf, '{')
	for i := range c.fields {
		f := &c.fields[i]
		j.Buf = f.key.Append(j.Buf)
		switch f.op {
		case jopOther:
			f.enc.encodeJSON(p.add(f.offset), j)
		case jopText:
			j.Buf = append(j.Buf, f.text...)
			continue
		default:
			j.scalar(f.op, p.add(f.offset))
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

// jsonTimestamp writes a time.Time as the long of its timestamp type; a
// time out of its range goes to the binary encoder for its error.
type jsonTimestamp struct {
	l   schema.Logical
	bin *jsonRendered
}

func (c *jsonTimestamp) encodeJSON(p pointer, j *jsonState) {
	u, local := timeUnitOf(c.l)
	v, ok := timeToUnits(*as[time.Time](p), u, local)
	if !ok {
		c.bin.encodeJSON(p, j)
		return
	}
	j.Buf = jsontext.AppendInt(j.Buf, v)
}

// jsonPtr follows a pointer for a schema without null; a nil pointer is
// the binary encoder's error.
type jsonPtr struct {
	elem jsonEncoder
	bin  *jsonRendered
}

func (c *jsonPtr) encodeJSON(p pointer, j *jsonState) {
	ptr := p.elem()
	if ptr.isNil() {
		c.bin.encodeJSON(p, j)
		return
	}
	c.elem.encodeJSON(ptr, j)
}

// jsonUnion writes the union of a Go type that is not an interface: null
// for nil, else the branch the binary encoder picked, opened by its tag.
// The values the binary encoder refuses go to it for their error.
type jsonUnion struct {
	nilable, isPtr   bool
	index, nullIndex int
	open             []byte
	elem             jsonEncoder
	bin              *jsonRendered
	// nonFinite opens the branch, a bare float (floatOp), when its value
	// is NaN or an infinity (see JSONStyle.NonFiniteOpen).
	nonFinite []byte
	floatOp   jsonOp
	// numberOpen opens the branch, written bare, when it is written as
	// a number (see JSONStyle.NumberOpen).
	numberOpen []byte
}

func (c *jsonUnion) encodeJSON(p pointer, j *jsonState) {
	if c.nilable && p.elem().isNil() {
		if c.nullIndex < 0 {
			c.bin.encodeJSON(p, j)
			return
		}
		j.Buf = append(j.Buf, "null"...)
		return
	}
	if c.index < 0 {
		c.bin.encodeJSON(p, j)
		return
	}
	if c.isPtr {
		p = p.elem()
	}
	open := c.open
	if open == nil && c.nonFinite != nil && c.nonFiniteAt(p) {
		open = c.nonFinite
	}
	if open == nil {
		start := len(j.Buf)
		c.elem.encodeJSON(p, j)
		if c.numberOpen != nil {
			j.Buf = jsontext.TagNumber(j.Buf, start, c.numberOpen)
		}
		return
	}
	j.Buf = append(j.Buf, open...)
	c.elem.encodeJSON(p, j)
	j.Buf = append(j.Buf, '}')
}

// nonFiniteAt reports whether the float at p is NaN or an infinity.
func (c *jsonUnion) nonFiniteAt(p pointer) bool {
	if c.floatOp == jopFloat {
		return nonFinite(float64(*as[float32](p)))
	}
	return nonFinite(*as[float64](p))
}

// jsonSlice writes a slice as an array.
type jsonSlice struct {
	elemSize uintptr
	elem     jsonEncoder
}

func (c *jsonSlice) encodeJSON(p pointer, j *jsonState) {
	sh := as[sliceHeader](p)
	if !j.Enter() {
		return
	}
	j.Buf = append(j.Buf, '[')
	for i := 0; i < sh.len; i++ {
		if i > 0 {
			j.Buf = append(j.Buf, ',')
		}
		c.elem.encodeJSON(sh.data.add(uintptr(i)*c.elemSize), j)
		if j.Err != nil || !j.grown() {
			j.AddIndex(i)
			return
		}
	}
	j.Buf = append(j.Buf, ']')
	j.Leave()
}

// jsonPrimSlice writes a slice of a primitive kind in one loop.
type jsonPrimSlice[T any] struct{ op jsonOp }

func (c jsonPrimSlice[T]) encodeJSON(p pointer, j *jsonState) {
	s := *as[[]T](p)
	j.Buf = append(j.Buf, '[')
	for i := range s {
		if i > 0 {
			j.Buf = append(j.Buf, ',')
		}
		j.scalar(c.op, pointerTo(&s[i]))
		if j.Err != nil {
			j.AddIndex(i)
			return
		}
	}
	j.Buf = append(j.Buf, ']')
	j.grown()
}

// jsonStringMap writes a map[string]string, a small map in the order of
// its group, as the binary encoder walks it.
type jsonStringMap struct{ slotSize, valueOff uintptr }

func (c *jsonStringMap) encodeJSON(p pointer, j *jsonState) {
	if !j.Enter() {
		return
	}
	j.Buf = append(j.Buf, '{')
	first := true
	entry := func(k, v string) bool {
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
		j.appendString(v)
		if j.Err != nil {
			j.AddKey(k)
			return false
		}
		return true
	}
	if w, ok := walkSmallMap(p); ok && c.slotSize != 0 {
		for s := w.next(c.slotSize); !s.isNil(); s = w.next(c.slotSize) {
			if !entry(*as[string](s), *as[string](s.add(c.valueOff))) {
				return
			}
		}
	} else {
		for k, v := range *as[map[string]string](p) {
			if !entry(k, v) {
				return
			}
		}
	}
	j.Buf = append(j.Buf, '}')
	if j.grown() {
		j.Leave()
	}
}

// jsonRendered writes a value through its binary encoding and the
// style's renderer of its schema.
type jsonRendered struct {
	enc encoder
	r   JSONRenderer
}

func (c *jsonRendered) encodeJSON(p pointer, j *jsonState) {
	e := &j.bin
	e.Buf, e.Err, e.Path, e.DepthLeft = e.Buf[:0], nil, e.Path[:0], j.DepthLeft
	c.enc.encode(p, e)
	if e.Err != nil {
		j.failFrom(e.Err, formatPath(e.Path))
		return
	}
	out, err := c.r.AppendJSON(j.Buf, e.Buf, &j.dopts)
	if err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			j.failFrom(ce.Err, ce.Path)
		} else {
			j.failFrom(err, "")
		}
		return
	}
	j.Buf = out
	j.grown()
}

// failFrom records an error that a node met below its own path.
func (j *jsonState) failFrom(err error, path string) {
	if j.Err != nil {
		return
	}
	j.Err = err
	if path != "" {
		j.Path = append(j.Path, path)
	}
}
