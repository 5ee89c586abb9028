package codec

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// jsonDecCompiler converts one binary decoder tree to its JSON twin.
type jsonDecCompiler struct {
	st JSONStyle
	// structs are kept by schema and decoder, so that a recursive type
	// converts to a cycle.
	structs map[jsonDecStructKey]*jdStruct
	// anyRecords are kept so too, for the generic values of a recursive
	// schema.
	anyRecords map[*anyRecord]*jdaRecord
}

type jsonDecStructKey struct {
	s   *schema.Schema
	dec *structDecoder
}

func newJSONDecCompiler(st JSONStyle) *jsonDecCompiler {
	return &jsonDecCompiler{st: st, structs: map[jsonDecStructKey]*jdStruct{}, anyRecords: map[*anyRecord]*jdaRecord{}}
}

// convert returns the JSON decoder of the binary decoder dec of s.
func (c *jsonDecCompiler) convert(s *schema.Schema, dec decoder) jsonDecoder {
	if s.Kind() != schema.Union && !c.st.Direct(s) {
		return c.fallback(s, dec)
	}
	switch e := dec.(type) {
	case *structDecoder:
		if s.Kind() == schema.Record && e.defaults == nil && len(e.fields) == len(s.Fields()) && allDecoders(e.fields) {
			return c.record(s, e)
		}
	case *unionDecoder:
		if je := c.nullable(s, e); je != nil {
			return je
		}
	case *ptrDecoder:
		return &jdPtr{newElem: e.newElem, elem: c.convert(s, e.dec)}
	case *sliceDecoder:
		if s.Kind() == schema.Array && e.elemSize > 0 {
			return &jdSlice{typ: e, elem: c.convert(s.Items(), e.elem), fb: c.fb(s, dec)}
		}
	case *typedMapCodec[string]:
		if s.Kind() == schema.Map && e.stringValues && c.st.Direct(s.Values()) {
			return &jdStringMap{fb: c.fb(s, dec)}
		}
	case anyCodec:
		return &jdAny{dec: c.anyDecoder(s, e.n), boxed: e.boxed}
	case genericShapeCodec:
		return &jdAny{dec: c.anyDecoder(s, e.any.n), boxed: e.any.boxed, shape: &e}
	}
	if s.Kind() == schema.Array && c.st.Direct(s.Items()) {
		if je := c.primSlice(s, dec); je != nil {
			return je
		}
	}
	if op := c.scalarOp(s, dec); op != jopOther {
		return &jdScalar{op: op, fb: c.fb(s, dec)}
	}
	return c.fallback(s, dec)
}

func (c *jsonDecCompiler) fb(s *schema.Schema, dec decoder) jsonFallback {
	return jsonFallback{r: c.st.TextReader(s), dec: dec}
}

func (c *jsonDecCompiler) fallback(s *schema.Schema, dec decoder) *jdFallback {
	return &jdFallback{fb: c.fb(s, dec)}
}

// scalarOp returns the op that reads a value of s with dec, or jopOther:
// base64 bytes are read through the program.
func (c *jsonDecCompiler) scalarOp(s *schema.Schema, dec decoder) jsonOp {
	return directlyRead(scalarOp(s, dec, c.st.Base64()))
}

// directlyRead returns op, or jopOther for the ops that have no direct
// reader.
func directlyRead(op jsonOp) jsonOp {
	if op == jopBase64 {
		return jopOther
	}
	return op
}

func (c *jsonDecCompiler) record(s *schema.Schema, e *structDecoder) jsonDecoder {
	key := jsonDecStructKey{s, e}
	if js, ok := c.structs[key]; ok {
		return js
	}
	js := &jdStruct{fields: make([]jdField, len(e.fields)), fb: c.fb(s, e)}
	c.structs[key] = js
	for i, f := range s.Fields() {
		fd := &e.fields[i]
		jf := &js.fields[i]
		jf.name = f.Name()
		jf.key = jsontext.Member(f.Name(), i == 0)
		jf.offset = fd.offset
		jf.dec = c.convert(f.Type(), fd.dec)
		if sc, ok := jf.dec.(*jdScalar); ok {
			jf.op = sc.op
		}
	}
	return js
}

// allDecoders reports whether every field has a decoder of its own, as
// the fields of a record that is not resolved have.
func allDecoders(fields []fieldDecoder) bool {
	for i := range fields {
		if fields[i].dec == nil {
			return false
		}
	}
	return true
}

// nullable converts a union of null and one other branch decoded into a
// pointer, or returns nil.
func (c *jsonDecCompiler) nullable(s *schema.Schema, e *unionDecoder) jsonDecoder {
	if s.Kind() != schema.Union || len(e.branches) != 2 || e.newElem == nil {
		return nil
	}
	other := 0
	if e.branches[0] == nil {
		other = 1
	}
	null := 1 - other
	b := s.Branches()
	if e.branches[null] != nil || b[null].Kind() != schema.Null || e.branches[other] == nil || !c.st.Direct(b[other]) {
		return nil
	}
	return &jdNullable{
		open:    c.st.BranchOpen(s, other),
		lead:    leadOf(b[other].Kind()),
		newElem: e.newElem,
		elem:    c.convert(b[other], e.branches[other]),
		fb:      c.fb(s, e),
	}
}

// leadOf returns the bytes a bare JSON value of kind k starts with.
func leadOf(k schema.Kind) string {
	switch k {
	case schema.Boolean:
		return "tf"
	case schema.Int, schema.Long, schema.Float, schema.Double:
		return "-0123456789"
	case schema.String, schema.Bytes, schema.Enum, schema.Fixed:
		return `"`
	case schema.Record, schema.Map:
		return "{"
	case schema.Array:
		return "["
	}
	return ""
}

func (c *jsonDecCompiler) primSlice(s *schema.Schema, dec decoder) jsonDecoder {
	fb := c.fb(s, dec)
	switch k := s.Items().Kind(); e := dec.(type) {
	case *primSliceCodec[int64]:
		if k == schema.Long {
			return &jdPrimSlice[int64]{bin: e, fb: fb, read: (*jsonDecodeState).readInt64}
		}
	case *primSliceCodec[int32]:
		if k == schema.Int {
			return &jdPrimSlice[int32]{bin: e, fb: fb, read: (*jsonDecodeState).readInt32}
		}
	case *primSliceCodec[float64]:
		if k == schema.Double {
			return &jdPrimSlice[float64]{bin: e, fb: fb, read: (*jsonDecodeState).readDouble}
		}
	case *primSliceCodec[float32]:
		if k == schema.Float {
			return &jdPrimSlice[float32]{bin: e, fb: fb, read: (*jsonDecodeState).readFloat}
		}
	case *primSliceCodec[bool]:
		if k == schema.Boolean {
			return &jdPrimSlice[bool]{bin: e, fb: fb, read: (*jsonDecodeState).readBool}
		}
	case *primSliceCodec[string]:
		if k == schema.String {
			return &jdPrimSlice[string]{bin: e, fb: fb, read: (*jsonDecodeState).readString}
		}
	}
	return nil
}

// jdFallback reads its value through its program.
type jdFallback struct{ fb jsonFallback }

func (c *jdFallback) decodeJSON(p pointer, j *jsonDecodeState) { j.fallback(&c.fb, p, j.Pos) }

// jdScalar reads a primitive value.
type jdScalar struct {
	op jsonOp
	fb jsonFallback
}

func (c *jdScalar) decodeJSON(p pointer, j *jsonDecodeState) {
	start := j.Pos
	if !j.scalar(c.op, p) {
		j.fallback(&c.fb, p, start)
	}
}

// jdStruct reads a record's object into a struct.
type jdStruct struct {
	fields []jdField
	fb     jsonFallback
}

type jdField struct {
	offset uintptr
	// key is the member's key and colon as compact text writes it, with
	// the comma before it unless it is the first field.
	key  []byte
	name string
	op   jsonOp
	dec  jsonDecoder
}

func (c *jdStruct) decodeJSON(p pointer, j *jsonDecodeState) {
	start := j.Pos
	if j.d.DepthLeft <= 0 || j.Peek() != '{' {
		j.fallback(&c.fb, p, start)
		return
	}
	j.Pos++
	j.d.DepthLeft--
	for i := range c.fields {
		f := &c.fields[i]
		if j.HasPrefix(f.key) {
			j.Pos += len(f.key)
		} else if !j.member(f.name, i == 0) {
			j.d.DepthLeft++
			j.fallback(&c.fb, p, start)
			return
		}
		fp := p.add(f.offset)
		if f.op != jopOther {
			if !j.scalar(f.op, fp) {
				j.d.DepthLeft++
				j.fallback(&c.fb, p, start)
				return
			}
			if j.d.Err == nil {
				continue
			}
		} else {
			f.dec.decodeJSON(fp, j)
		}
		if j.d.Err != nil {
			j.d.AddField(f.name)
			return
		}
	}
	if j.Peek() != '}' {
		j.d.DepthLeft++
		j.fallback(&c.fb, p, start)
		return
	}
	j.Pos++
	j.d.DepthLeft++
}

// member reads the key of the member that holds field name, and the
// colon after it, in text that is not compact; it reports false for any
// other member, or none.
func (j *jsonDecodeState) member(name string, first bool) bool {
	if !first {
		if j.Peek() != ',' {
			return false
		}
		j.Pos++
	}
	if j.Peek() != '"' {
		return false
	}
	raw, esc := j.ReadString()
	if j.Failed() || esc || string(raw) != name || j.Peek() != ':' {
		return false
	}
	j.Pos++
	return true
}

// jdNullable reads a union of null and one branch into a pointer.
type jdNullable struct {
	// open is the text that opens the branch, nil when it is bare; lead
	// the bytes a bare value of the branch starts with.
	open    []byte
	lead    string
	newElem func(d *decodeState) pointer
	elem    jsonDecoder
	fb      jsonFallback
}

func (c *jdNullable) decodeJSON(p pointer, j *jsonDecodeState) {
	start := j.Pos
	switch j.openBranch(c.open, c.lead) {
	case branchNull:
		*as[pointer](p) = pointer{}
		return
	case branchOther:
		j.fallback(&c.fb, p, start)
		return
	}
	pp := as[pointer](p)
	if (*pp).isNil() {
		if *pp = c.newElem(j.d); j.placed(start) {
			return
		}
	}
	c.elem.decodeJSON(*pp, j)
	if j.d.Err == nil && !j.closeBranch(c.open) {
		j.fallback(&c.fb, p, start)
	}
}

// What openBranch read.
const (
	branchOther = iota
	branchNull
	branchOpen
)

// openBranch reads, for a union of null and one other branch, null or
// the opening of the branch: its tag open, or where it is bare (open nil)
// nothing before a value that starts with a byte of lead. For any other
// text it returns branchOther, and the union reads through its program.
func (j *jsonDecodeState) openBranch(open []byte, lead string) int {
	switch ch := j.Peek(); {
	case ch == 'n':
		if j.ReadWord("null") {
			return branchNull
		}
	case open != nil:
		if j.HasPrefix(open) {
			j.Pos += len(open)
			return branchOpen
		}
		if j.spacedOpen(open) {
			return branchOpen
		}
	case hasByte(lead, ch):
		return branchOpen
	}
	return branchOther
}

// closeBranch reads the brace that closes a tagged branch.
func (j *jsonDecodeState) closeBranch(open []byte) bool {
	if open == nil {
		return true
	}
	if j.Peek() != '}' {
		return false
	}
	j.Pos++
	return true
}

// spacedOpen reads the text open (`{"name":`) with white space in it.
func (j *jsonDecodeState) spacedOpen(open []byte) bool {
	if j.Peek() != '{' {
		return false
	}
	j.Pos++
	if j.Peek() != '"' {
		return false
	}
	raw, esc := j.ReadString()
	if j.Failed() || esc || string(raw) != string(open[2:len(open)-2]) || j.Peek() != ':' {
		return false
	}
	j.Pos++
	return true
}

func hasByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// jdPtr reads the value of a schema without null into a pointer.
type jdPtr struct {
	newElem func(d *decodeState) pointer
	elem    jsonDecoder
}

func (c *jdPtr) decodeJSON(p pointer, j *jsonDecodeState) {
	pp := as[pointer](p)
	if (*pp).isNil() {
		if *pp = c.newElem(j.d); j.placed(j.Pos) {
			return
		}
	}
	c.elem.decodeJSON(*pp, j)
}

// jdSlice reads an array into a slice that has no array yet, growing it
// as items come; into a slice that has one it reads through the program,
// so that the items reuse it as the binary decode's do.
type jdSlice struct {
	typ  *sliceDecoder
	elem jsonDecoder
	fb   jsonFallback
}

func (c *jdSlice) decodeJSON(p pointer, j *jsonDecodeState) {
	start := j.Pos
	sh := as[sliceHeader](p)
	if sh.cap > 0 || j.d.DepthLeft <= 0 || j.Peek() != '[' {
		j.fallback(&c.fb, p, start)
		return
	}
	was := *sh
	j.Pos++
	j.d.DepthLeft--
	n := 0
	if !j.Empty(']') {
		for {
			if int64(n) >= j.d.MaxItems || !growSlice(c.typ.typ, c.typ.elemSize, p, n, n+1, j.d) {
				if j.placed(j.Pos) {
					return
				}
				break // past MaxItems: the program says so
			}
			c.elem.decodeJSON(sh.data.add(uintptr(n)*c.typ.elemSize), j)
			if j.d.Err != nil {
				j.d.AddIndex(int64(n))
				return
			}
			n++
			if ch := j.Peek(); ch == ',' {
				j.Pos++
				continue
			} else if ch == ']' {
				j.Pos++
				finishSlice(p, n)
				j.d.DepthLeft++
				return
			}
			break
		}
		*sh = was
		j.d.DepthLeft++
		j.fallback(&c.fb, p, start)
		return
	}
	finishSlice(p, 0)
	j.d.DepthLeft++
}

// jdPrimSlice reads an array of a primitive type: the items first, then
// a slice of their number, reusing the slice's array as the binary
// decode does.
type jdPrimSlice[T wire.Elem | string] struct {
	bin  *primSliceCodec[T]
	fb   jsonFallback
	read func(j *jsonDecodeState, v *T) bool
}

func (c *jdPrimSlice[T]) decodeJSON(p pointer, j *jsonDecodeState) {
	start := j.Pos
	if j.d.DepthLeft <= 0 || j.Peek() != '[' {
		j.fallback(&c.fb, p, start)
		return
	}
	j.Pos++
	items := primScratch[T](j)
	buf := (*items)[:0]
	// The buffer is left empty and cleared, so that the state keeps no
	// strings.
	defer func() {
		clear(buf)
		*items = buf[:0]
	}()
	if !j.Empty(']') {
		for {
			if int64(len(buf)) >= j.d.MaxItems {
				j.fallback(&c.fb, p, start)
				return
			}
			var zero T
			buf = append(buf, zero)
			if !c.read(j, &buf[len(buf)-1]) || j.d.Err != nil {
				if j.d.Err != nil {
					j.d.AddIndex(int64(len(buf) - 1))
					return
				}
				j.fallback(&c.fb, p, start)
				return
			}
			if ch := j.Peek(); ch == ',' {
				j.Pos++
				continue
			} else if ch == ']' {
				j.Pos++
				break
			}
			j.fallback(&c.fb, p, start)
			return
		}
	}
	n := len(buf)
	sh := as[sliceHeader](p)
	if n > 0 {
		if data, ok := c.bin.carve(sh, int64(n), j.d); ok {
			if !j.d.ReserveItems(int64(n), int64(sizeOf[T]())) {
				j.placed(start)
				return
			}
			sh.data, sh.len, sh.cap = data, n, n
		} else if !growSlice(c.bin.typ, sizeOf[T](), p, 0, n, j.d) {
			j.placed(start)
			return
		}
		copy(sliceOf[T](sh.data, n), buf)
	}
	finishSlice(p, n)
}

// primScratch returns the state's buffer of items of type T.
func primScratch[T wire.Elem | string](j *jsonDecodeState) *[]T {
	var buf any
	switch any((*T)(nil)).(type) {
	case *int64:
		buf = &j.i64s
	case *int32:
		buf = &j.i32s
	case *float64:
		buf = &j.f64s
	case *float32:
		buf = &j.f32s
	case *bool:
		buf = &j.bools
	case *string:
		buf = &j.strs
	}
	if b, ok := buf.(*[]T); ok {
		return b
	}
	return new([]T)
}

// jdStringMap reads an object into a map[string]string that is empty,
// so that a key given twice shows in its length; into a map that has
// entries it reads through the program.
type jdStringMap struct{ fb jsonFallback }

func (c *jdStringMap) decodeJSON(p pointer, j *jsonDecodeState) {
	start := j.Pos
	mp := as[map[string]string](p)
	if len(*mp) > 0 || j.d.DepthLeft <= 0 || j.Peek() != '{' {
		j.fallback(&c.fb, p, start)
		return
	}
	was := *mp
	j.Pos++
	j.d.DepthLeft--
	m := *mp
	if !j.Empty('}') {
		if m == nil {
			m = map[string]string{}
			*mp = m
		}
		for {
			var k, v string
			if int64(len(m)) >= j.d.MaxItems || !j.readString(&k) || j.d.Err != nil || j.Peek() != ':' {
				if j.d.Err != nil {
					j.d.AddIndex(int64(len(m)))
					return
				}
				break
			}
			j.Pos++
			if !j.readString(&v) {
				break
			}
			if j.d.Err == nil {
				j.d.ReserveItems(1, 32)
			}
			if j.d.Err != nil {
				j.d.AddKey(k)
				return
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
				return
			}
			break
		}
		clear(m)
		*mp = was
		j.d.DepthLeft++
		j.fallback(&c.fb, p, start)
		return
	}
	if m == nil {
		*mp = map[string]string{}
	}
	j.d.DepthLeft++
}

// scalar reads a primitive value into p. It reports false, having
// recorded nothing, for text it does not take; an error it records (an
// allocation refused) it reports with true.
func (j *jsonDecodeState) scalar(op jsonOp, p pointer) bool {
	switch op {
	case jopInt32:
		return j.readInt32(as[int32](p))
	case jopInt64:
		return j.readInt64(as[int64](p))
	case jopDouble:
		return j.readDouble(as[float64](p))
	case jopString:
		return j.readString(as[string](p))
	case jopBool:
		return j.readBool(as[bool](p))
	case jopFloat:
		return j.readFloat(as[float32](p))
	case jopCodePoints:
		return j.readCodePoints(as[[]byte](p))
	case jopNull:
		return j.ReadWord("null")
	}
	return false
}

// readDigits reads an integer of the range of a long in its plain form,
// digits accumulated as they are scanned; it reports false, having read
// nothing, for any other text (a fraction, an exponent, a leading zero).
func (j *jsonDecodeState) readDigits() (int64, bool) {
	j.Peek()
	buf, i := j.Buf, j.Pos
	neg := i < len(buf) && buf[i] == '-'
	if neg {
		i++
	}
	first := i
	var u uint64
	for i < len(buf) && i-first < 20 {
		c := buf[i] - '0'
		if c > 9 {
			break
		}
		u = u*10 + uint64(c)
		i++
	}
	n := i - first
	// 19 digits cannot overflow a uint64.
	if n == 0 || n > 19 || n > 1 && buf[first] == '0' || i-j.Pos > j.ro.MaxNumberLength {
		return 0, false
	}
	if i < len(buf) {
		if c := buf[i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	var v int64
	switch {
	case neg && u <= 1<<63:
		v = int64(-u)
	case !neg && u <= math.MaxInt64:
		v = int64(u)
	default:
		return 0, false
	}
	j.Pos = i
	return v, true
}

func (j *jsonDecodeState) readInt64(v *int64) bool {
	x, ok := j.readDigits()
	*v = x
	return ok
}

func (j *jsonDecodeState) readInt32(v *int32) bool {
	x, ok := j.readDigits()
	if !ok || x < math.MinInt32 || x > math.MaxInt32 {
		return false
	}
	*v = int32(x)
	return true
}

func (j *jsonDecodeState) readNumber(bits int) (float64, bool) {
	if c := j.Peek(); c != '-' && (c < '0' || c > '9') {
		return 0, false // NaN, the infinities and null: the program reads them
	}
	lit, _ := j.ReadNumber(j.ro.MaxNumberLength)
	if j.Failed() {
		return 0, false
	}
	x, err := strconv.ParseFloat(string(lit), bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return x, true
}

func (j *jsonDecodeState) readDouble(v *float64) bool {
	x, ok := j.readNumber(64)
	*v = x
	return ok
}

func (j *jsonDecodeState) readFloat(v *float32) bool {
	x, ok := j.readNumber(32)
	*v = float32(x)
	return ok
}

func (j *jsonDecodeState) readBool(v *bool) bool {
	switch j.Peek() {
	case 't':
		*v = true
		return j.ReadWord("true")
	case 'f':
		*v = false
		return j.ReadWord("false")
	}
	return false
}

// text reads a string within the limits, unescaped into scratch when it
// has escapes; start is its offset.
func (j *jsonDecodeState) text() (text []byte, start int, ok bool) {
	if j.Peek() != '"' {
		return nil, 0, false
	}
	raw, esc := j.ReadString()
	if j.Failed() {
		return nil, 0, false
	}
	start = j.Pos - len(raw) - 2
	text = raw
	if esc {
		j.scratch = j.Unquote(j.scratch[:0], raw, start+1)
		if j.Failed() {
			return nil, 0, false
		}
		text = j.scratch
	}
	if int64(len(text)) > j.d.MaxLength || j.d.ValidateUTF && !utf8.Valid(text) {
		return nil, 0, false
	}
	return text, start, true
}

func (j *jsonDecodeState) readString(v *string) bool {
	text, start, ok := j.text()
	if !ok {
		return false
	}
	if len(text) == 0 {
		*v = ""
	} else if j.d.Reserve(int64(len(text))) {
		*v = j.d.MakeString(text)
	} else {
		j.placed(start)
	}
	return true
}

// readCodePoints reads a string of code points U+0000 to U+00FF as the
// bytes it stands for, in one pass that decodes as it scans; anything but
// plain ASCII, the two-byte UTF-8 of U+0080 to U+00FF and the escapes
// of those code points it leaves to the program.
func (j *jsonDecodeState) readCodePoints(v *[]byte) bool {
	if j.Peek() != '"' {
		return false
	}
	buf, start := j.Buf, j.Pos
	out := j.tmp[:0]
	i := start + 1
	for {
		if i >= len(buf) {
			return false
		}
		c := buf[i]
		switch {
		case c == '"':
			j.tmp = out
			if int64(len(out)) > j.d.MaxLength {
				return false
			}
			j.Pos = i + 1
			if j.d.Reserve(int64(len(out))) {
				*v = j.d.CopyBytes(out)
			} else {
				j.placed(start)
			}
			return true
		case c == '\\':
			if i+1 >= len(buf) {
				return false
			}
			if e := unescaped[buf[i+1]]; e != 0 {
				out = append(out, e)
				i += 2
				continue
			}
			if i+5 >= len(buf) || buf[i+1] != 'u' || buf[i+2] != '0' || buf[i+3] != '0' {
				return false
			}
			hi, lo := hexDigit[buf[i+4]], hexDigit[buf[i+5]]
			if hi|lo > 0xF {
				return false
			}
			out = append(out, hi<<4|lo)
			i += 6
		case c >= 0x20 && c < 0x80:
			out = append(out, c)
			i++
		case (c == 0xC2 || c == 0xC3) && i+1 < len(buf) && buf[i+1]&0xC0 == 0x80:
			out = append(out, (c&0x1F)<<6|buf[i+1]&0x3F)
			i += 2
		default:
			return false
		}
	}
}

// unescaped maps the letter of a one-letter JSON escape to its byte.
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hexDigit maps a hexadecimal digit to its value, and other bytes to 0xFF.
var hexDigit = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
		t[c-'a'+'A'] = byte(c-'a') + 10
	}
	return t
}()
