package avro

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"sync"
	"unsafe"

	"github.com/avrogo/avro/internal/cache"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/avrogo/avro/varint"
)

// Reading through a resolved schema (schema.Resolve).
//
// A resolved schema has the reader's shape and carries the writer schema
// and a resolution graph. Rather than a second family of decoders that
// know about resolution for every Go target (structs, any, value.Value,
// ...), a resolved schema is read by a transcoder: a program compiled once
// per resolved schema that reads the writer's bytes and writes the bytes
// the reader schema would have written for the same datum, into a pooled
// buffer; the ordinary decoder compiled for the reader's shape then reads
// that buffer. Every target gets resolution from this one piece of code,
// and fields the reader does not want are skipped without being decoded.
//
// The program copies whole subtrees whose encoding does not change (same
// types, int read as long, string read as bytes, enums and unions whose
// indexes map to themselves) as spans of the input, after a skipper has
// found their end; it re-encodes promotions, remaps enum symbols and
// union branches, skips writer-only fields with skippers (no allocation),
// appends the reader's defaults (Field.DefaultBinary) for reader-only
// fields, and reorders record fields when the reader's order differs.
// When the whole resolution is such a copy (a writer that encodes like
// the reader), no transcoder runs at all.
//
// Limits: the transcoder reads the writer's bytes with the same cursor as
// any decoder, so depth, lengths, item counts (bounded by the bytes left)
// and the zero-size budget apply to the writer's data, and a datum cut
// short is ErrTruncated, which lets the streaming Decoder refill and
// retry. The output is bounded by the allocation limit (defaults can make
// it larger than the input). Errors carry offsets in the writer's bytes:
// when the reader's decoder fails on the transcoded bytes, the transcoder
// runs again with position tracking to map the offset back.

// familyTranscoder caches a resolved schema's transcoder; it does not
// depend on the Go type, so its key has no type.
const familyTranscoder uint8 = 0x20

// resolvedDecoderFor wraps the decoder compiled for the reader shape of
// the resolved schema s.
func resolvedDecoderFor(s *schema.Schema, inner decoder) decoder {
	prog := transcoderOf(s)
	if prog == nil {
		return inner // the writer's bytes are the reader's bytes
	}
	if sd, ok := inner.(*structDecoder); ok && s.Resolution().Kind() == schema.ActionRecord {
		r := &directResolver{xc: newXCompiler(s.Resolution()), done: map[directKey]*structDecoder{}}
		if direct := r.resolvedStructFor(s.Resolution(), sd); direct != nil {
			return direct
		}
	}
	return &resolvingDecoder{prog: prog, inner: inner}
}

type transcoderEntry struct{ prog xnode }

func transcoderOf(s *schema.Schema) xnode {
	c := cache.ForSchema(unsafe.Pointer(s))
	key := cache.Key{Family: familyTranscoder}
	if e, ok := c.Load(key); ok {
		return e.(*transcoderEntry).prog
	}
	xc := newXCompiler(s.Resolution())
	var prog xnode
	if !xc.identity[s.Resolution()] {
		prog = xc.node(s.Resolution())
	}
	return c.LoadOrStore(key, &transcoderEntry{prog}).(*transcoderEntry).prog
}

// resolvingDecoder transcodes the writer's datum, then decodes the result
// with the decoder of the reader's shape.
type resolvingDecoder struct {
	prog  xnode
	inner decoder
}

// xstate is the output side of a transcode.
type xstate struct {
	d     *decodeState // the writer's bytes, position and limits
	out   []byte
	limit int   // most bytes out may hold
	spans []int // scratch of reordered records: 3 ints per reader field
	track bool  // record marks (only when mapping an error offset)
	marks []xmark
	// When tracking, the transcode stops (with errTrackDone) once the
	// output reaches stop outside a reordered record (later marks are
	// not needed), or when marks reach maxMarks, so that mapping the
	// offset of an error costs no more than the transcode itself: an
	// array of a million one-byte items would otherwise record millions
	// of marks.
	stop, maxMarks int
	reorder        int // reordered records being transcoded
}

// errTrackDone stops a tracking transcode early; it is never returned.
var errTrackDone = errors.New("avro: offset tracking done")

// xmark ties an output offset to an input offset. For a copied span the
// n bytes after the mark map one to one.
type xmark struct {
	out, in, n int
}

var xstatePool = sync.Pool{New: func() any { return new(xstate) }}

// maxPooledOut bounds the buffers kept in the pool, so that one huge datum
// does not pin its buffer for the life of the process.
const maxPooledOut = 1 << 20

func (t *xstate) release() {
	t.d = nil
	if cap(t.out) > maxPooledOut {
		t.out = nil
	}
	t.marks = t.marks[:0]
	t.track = false
	xstatePool.Put(t)
}

func (t *xstate) mark(in, n int) {
	if (t.reorder == 0 && len(t.out) >= t.stop) || len(t.marks) >= t.maxMarks {
		t.d.fail(errTrackDone)
		return
	}
	t.marks = append(t.marks, xmark{out: len(t.out), in: in, n: n})
}

func (t *xstate) checkLimit() bool {
	if len(t.out) > t.limit {
		t.d.failf(ErrLimit, "resolved datum larger than the allocation limit")
		return false
	}
	return true
}

func (r *resolvingDecoder) decode(p unsafe.Pointer, d *decodeState) {
	start, zero, alloc, depth := d.pos, d.zeroLeft, d.allocLeft, d.depthLeft
	t := xstatePool.Get().(*xstate)
	t.d, t.out, t.limit = d, t.out[:0], outLimit(d)
	r.prog.xcode(t)
	if d.err != nil {
		t.release()
		return
	}
	// The reader's decode draws on the same budget: the transcoder's
	// charge only guarded its own output.
	d.zeroLeft = zero
	// The reader's decode runs on d itself, over the transcoded bytes: it
	// inherits every limit and option, and carves strings and Values from
	// d's chunk and arena. Only the input is swapped, and zero-copy is
	// off because the buffer is pooled: nothing decoded may alias it.
	buf, pos, zeroCopy := d.buf, d.pos, d.zeroCopy
	d.buf, d.pos, d.zeroCopy = t.out, 0, false
	r.inner.decode(p, d)
	if d.err == nil && d.pos != len(d.buf) {
		d.failf(ErrInvalid, "resolution left %d bytes unread (internal error)", len(d.buf)-d.pos)
	}
	outPos := d.errPos
	d.buf, d.pos, d.zeroCopy = buf, pos, zeroCopy
	if d.err != nil {
		// Map the offset with the budgets the datum started with: the
		// failed decode spent them, and a second transcode with what is
		// left would stop early at the wrong place.
		d.allocLeft, d.depthLeft = alloc, depth
		d.errPos = r.writerOffset(d, start, zero, outPos)
	}
	t.release()
}

func outLimit(d *decodeState) int {
	if d.allocLeft > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(max(d.allocLeft, 0))
}

// writerOffset maps an offset in the transcoded bytes to the writer's
// bytes by transcoding the datum again with marks. It runs only on error.
func (r *resolvingDecoder) writerOffset(d *decodeState, start int, zero int64, outPos int) int {
	tmp := *d
	tmp.pos, tmp.err, tmp.path, tmp.zeroLeft = start, nil, nil, zero
	tmp.strChunk, tmp.arena = nil, value.Arena{} // d's own: tmp must not carve from them
	t := &xstate{d: &tmp, limit: outLimit(d), track: true, stop: outPos}
	// Marks take 24 bytes: at most an eighth of the allocation limit,
	// growth included.
	t.maxMarks = max(t.limit/(8*int(unsafe.Sizeof(xmark{}))), 64)
	r.prog.xcode(t)
	// Decoders record an error after reading the bad value, so an error
	// at a mark's offset belongs to the value before it: take the last
	// mark strictly before outPos, and report the start of that value in
	// the writer's bytes (or the exact byte inside a copied span).
	i := sort.Search(len(t.marks), func(i int) bool { return t.marks[i].out >= outPos }) - 1
	if i < 0 {
		return start
	}
	m := t.marks[i]
	if off := outPos - m.out; off <= m.n {
		return m.in + off
	}
	return m.in
}

// xnode is one instruction of a transcoder: it reads one writer value from
// t.d and appends the reader's encoding of it to t.out. Errors are
// recorded on t.d, with the path collected as they unwind.
type xnode interface {
	xcode(t *xstate)
}

// xcopy copies values whose encoding the reader shares: the skip steps
// find their end, then the span is appended.
type xcopy struct{ steps []skipStep }

func (x *xcopy) xcode(t *xstate) {
	d := t.d
	start := d.pos
	if !skipAll(d, x.steps) {
		return
	}
	if t.track {
		t.mark(start, d.pos-start)
	}
	t.out = append(t.out, d.buf[start:d.pos]...)
}

// xskip skips writer-only record fields.
type xskip struct{ steps []skipStep }

func (x *xskip) xcode(t *xstate) { skipAll(t.d, x.steps) }

// skipStep skips one value. Primitive values, and unions of them, are
// skipped inline, in one loop over a record's consecutive skipped or
// copied fields (no call per field, varints measured by their stop bit
// without being decoded); other values go to their skipper. name labels
// errors inside a record ("" for a value that is not a field).
type skipStep struct {
	op   uint8
	n    int // opFixed: width; opEnum: number of symbols
	sk   *skipper
	name string
	// opUnion: one step per branch, each a primitive step or a skipper.
	branches []skipStep
}

const (
	opNull uint8 = iota
	opBool
	opInt
	opLong
	opLen
	opFixed
	opEnum
	opSkipper
	opUnion
)

func (xc *xcompiler) skipStep(s *schema.Schema, name string) skipStep {
	st := skipStep{name: name}
	switch s.Kind() {
	case schema.Null:
		st.op = opNull
	case schema.Boolean:
		st.op = opBool
	case schema.Int:
		st.op = opInt
	case schema.Long:
		st.op = opLong
	case schema.Float:
		st.op, st.n = opFixed, 4
	case schema.Double:
		st.op, st.n = opFixed, 8
	case schema.String, schema.Bytes:
		st.op = opLen
	case schema.Fixed:
		st.op, st.n = opFixed, s.Size()
	case schema.Enum:
		st.op, st.n = opEnum, len(s.Symbols())
	case schema.Union:
		// A branch step has no name: an error inside it is named once,
		// by the union's own step.
		st.op = opUnion
		for _, b := range s.Branches() {
			st.branches = append(st.branches, xc.skipStep(b, ""))
		}
	default:
		st.op, st.sk = opSkipper, xc.skipper(s)
	}
	return st
}

// skipAll runs the steps, and reports false (with the error recorded and
// the field named) if one fails. It validates what it skips as a decoder
// would: varint lengths, booleans, enum indexes and union branches,
// lengths against the limit and the input left.
//
// The position lives in a local between fields: kept in d.pos, every
// field's skip would wait on a store and a reload of it before it could
// read its first byte. The slow paths take it from and give it back to d.
func skipAll(d *decodeState, steps []skipStep) bool {
	buf, p := d.buf, d.pos
	for i := range steps {
		st := &steps[i]
		op := st.op
		if op == opUnion {
			// The branch index, inline when it is one byte (a union has
			// at most 63 branches that fit one, and real ones have few).
			if p < len(buf) && buf[p] < 0x80 && buf[p]&1 == 0 && int(buf[p]>>1) < len(st.branches) {
				st = &st.branches[buf[p]>>1]
				p++
			} else {
				d.pos = p
				j := readBranch(d, len(st.branches))
				buf, p = d.buf, d.pos
				if j < 0 {
					if name := steps[i].name; name != "" {
						d.addField(name)
					}
					return false
				}
				st = &st.branches[j]
			}
			op = st.op
		}
		switch op {
		case opInt, opLong:
			// A one-byte value first: on data of small numbers the branch
			// is predicted and the next skip need not wait for this one.
			// Longer ones take their length from one word, inline.
			if p < len(buf) && buf[p] < 0x80 {
				p++
				continue
			}
			if n := varintLenInWord(buf[p:], op == opLong); n > 0 {
				p += n
				continue
			}
			d.pos = p
			d.skipVarint(op == opLong)
		case opLen:
			// A one-byte length (0 to 63) within the input and the limit.
			if p < len(buf) && buf[p] < 0x80 && buf[p]&1 == 0 {
				if n := int(buf[p] >> 1); int64(n) <= d.maxLength && n < len(buf)-p {
					p += 1 + n
					continue
				}
			}
			d.pos = p
			if n := d.readLength(); n > 0 {
				d.pos += n
			}
		case opFixed:
			if len(buf)-p >= st.n {
				p += st.n
				continue
			}
			d.pos = p
			d.truncated(int64(st.n))
		case opBool:
			if p < len(buf) && buf[p] <= 1 {
				p++
				continue
			}
			d.pos = p
			d.readBool()
		case opNull:
			continue
		case opEnum:
			d.pos = p
			if j := d.readInt(); d.err == nil && (j < 0 || int(j) >= st.n) {
				d.failf(ErrInvalid, "enum index %d out of range (%d symbols)", j, st.n)
			}
		case opSkipper:
			d.pos = p
			st.sk.skip(d)
		}
		// Only the slow paths reach here, with the position in d.
		buf, p = d.buf, d.pos
		if d.err != nil {
			if name := steps[i].name; name != "" {
				d.addField(name)
			}
			return false
		}
	}
	d.pos = p
	return true
}

// varintLenInWord returns the length of the int or long varint at the
// start of b when b holds 8 bytes and the varint ends, valid, within
// them; 0 otherwise. It is small enough to inline into skipAll.
func varintLenInWord(b []byte, long bool) int {
	if len(b) < 8 {
		return 0
	}
	m := ^binary.LittleEndian.Uint64(b) & 0x8080808080808080
	if m == 0 {
		return 0
	}
	n := (bits.TrailingZeros64(m) + 1) >> 3
	if long || n < 5 || b[4] <= 0x0f {
		return n
	}
	return 0 // an int past 5 bytes or the int range: the slow path fails
}

// skipVarint moves past an int or long varint of two bytes or more,
// failing as readInt and readLong would on a malformed one.
func (d *decodeState) skipVarint(long bool) {
	if n := varintLenInWord(d.buf[d.pos:], long); n > 0 {
		d.pos += n
		return
	}
	if long {
		d.readLongSlow()
	} else {
		d.readInt()
	}
}

// xbytes appends constant bytes: reader defaults.
type xbytes struct{ b []byte }

func (x *xbytes) xcode(t *xstate) {
	if t.track {
		t.mark(t.d.pos, 0)
	}
	t.out = append(t.out, x.b...)
}

// xpromote re-encodes a numeric promotion (int and long to float or
// double, float to double), and checks an int read as long before it
// copies it. string to bytes shares its encoding and is a copy.
type xpromote struct{ from, to schema.Kind }

func (x *xpromote) xcode(t *xstate) {
	d := t.d
	if x.to == schema.Long {
		// int to long: the same encoding, once checked as an int.
		start := d.pos
		d.readInt()
		if d.err != nil {
			return
		}
		if t.track {
			t.mark(start, d.pos-start)
		}
		t.out = append(t.out, d.buf[start:d.pos]...)
		return
	}
	if t.track {
		t.mark(d.pos, 0)
	}
	var f float64
	switch x.from {
	case schema.Int:
		f = float64(d.readInt())
	case schema.Long:
		v := d.readLong()
		if x.to == schema.Float {
			// Round once, from the integer, as Java's (float) cast does.
			if d.err == nil {
				t.out = appendFloat32(t.out, float32(v))
			}
			return
		}
		f = float64(v)
	case schema.Float:
		f = float64(d.readFloat())
	}
	if d.err != nil {
		return
	}
	if x.to == schema.Float {
		t.out = appendFloat32(t.out, float32(f))
		return
	}
	t.out = appendFloat64(t.out, f)
}

func appendFloat32(b []byte, f float32) []byte {
	u := math.Float32bits(f)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
}

func appendFloat64(b []byte, f float64) []byte {
	u := math.Float64bits(f)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24), byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
}

// xenum maps writer symbol indexes to reader ones.
type xenum struct {
	w, r *schema.Schema
	m    []int
}

func (x *xenum) xcode(t *xstate) {
	d := t.d
	start := d.pos
	if t.track {
		t.mark(start, 0)
	}
	i := readEnumIndex(x.w, d)
	if d.err != nil {
		return
	}
	j := x.m[i]
	if j < 0 {
		d.pos = start
		d.failf(ErrInvalid, "writer symbol %q of %s is not in reader enum %s, which has no default",
			x.w.Symbols()[i], x.w.FullName(), x.r.FullName())
		return
	}
	t.out = varint.AppendLong(t.out, int64(j))
}

// xrecord transcodes a record whose matched fields come in the reader's
// order: the steps run in writer order and write in reader order, with
// defaults in between.
type xrecord struct {
	steps []xnode
	names []string // for the steps that are xnodes of one field; "" for others
}

func (x *xrecord) xcode(t *xstate) {
	d := t.d
	if !d.enter() {
		return
	}
	for i, st := range x.steps {
		st.xcode(t)
		if d.err != nil {
			if x.names[i] != "" {
				d.addField(x.names[i])
			}
			return
		}
	}
	if !t.checkLimit() {
		return
	}
	d.leave()
}

// xreorder transcodes a record whose reader order differs from the
// writer's: each field is transcoded in writer order and its span noted,
// then the spans and defaults are appended in reader order and moved down
// over the originals.
type xreorder struct {
	fields   []xfield // writer order
	defaults [][]byte // by reader index: the default, or nil for a written field
}

type xfield struct {
	node   xnode      // nil: skipped
	skip   []skipStep // one step, for a skipped field
	name   string
	target int // reader index
}

func (x *xreorder) xcode(t *xstate) {
	d := t.d
	if !d.enter() {
		return
	}
	if t.track {
		t.reorder++
		defer func() { t.reorder-- }()
	}
	n := len(x.defaults)
	base := len(t.spans)
	t.spans = append(t.spans, make([]int, 3*n)...)
	recStart, markBase := len(t.out), len(t.marks)
	for _, f := range x.fields {
		if f.node == nil {
			if !skipAll(d, f.skip) {
				return
			}
			continue
		}
		s, in := len(t.out), d.pos
		f.node.xcode(t)
		if d.err != nil {
			d.addField(f.name)
			return
		}
		sp := t.spans[base+3*f.target:]
		sp[0], sp[1], sp[2] = s, len(t.out), in
	}
	if t.track {
		t.marks = t.marks[:markBase]
	}
	emit := len(t.out)
	for j := 0; j < n; j++ {
		if t.track {
			if len(t.marks) >= t.maxMarks {
				d.fail(errTrackDone)
				return
			}
			in := d.pos
			if x.defaults[j] == nil {
				in = t.spans[base+3*j+2]
			}
			t.marks = append(t.marks, xmark{out: recStart + len(t.out) - emit, in: in})
		}
		if def := x.defaults[j]; def != nil {
			t.out = append(t.out, def...)
			continue
		}
		sp := t.spans[base+3*j:]
		t.out = append(t.out, t.out[sp[0]:sp[1]]...)
	}
	m := copy(t.out[recStart:], t.out[emit:])
	t.out = t.out[:recStart+m]
	t.spans = t.spans[:base]
	if !t.checkLimit() {
		return
	}
	d.leave()
}

// xarray transcodes the blocks of an array or map, item by item; the
// output has one block per input block, with a plain count.
type xarray struct {
	elem    xnode
	minSize int // least bytes of one writer item (key included)
	isMap   bool
}

func (x *xarray) xcode(t *xstate) {
	d := t.d
	if !d.enter() {
		return
	}
	var n int64
	for {
		if t.track {
			t.mark(d.pos, 0)
		}
		count := d.readBlockCount(n, x.minSize)
		if d.err != nil {
			return
		}
		if count == 0 {
			break
		}
		t.out = varint.AppendLong(t.out, count)
		for i := int64(0); i < count; i++ {
			var key []byte
			if x.isMap {
				start := d.pos
				k := d.readLength()
				if k < 0 {
					d.addIndex(n + i)
					return
				}
				d.pos += k
				key = d.buf[d.pos-k : d.pos]
				if t.track {
					t.mark(start, d.pos-start)
				}
				t.out = append(t.out, d.buf[start:d.pos]...)
			}
			x.elem.xcode(t)
			if d.err != nil {
				if x.isMap {
					d.addKey(string(key))
				} else {
					d.addIndex(n + i)
				}
				return
			}
			if !t.checkLimit() {
				return
			}
		}
		n += count
	}
	t.out = append(t.out, 0)
	d.leave()
}

// xwunion reads a writer union's branch index and transcodes the branch.
type xwunion struct {
	w        *schema.Schema
	branches []xnode
}

func (x *xwunion) xcode(t *xstate) {
	i := readUnionIndex(x.w, t.d)
	if t.d.err != nil {
		return
	}
	x.branches[i].xcode(t)
}

// xrunion writes the reader union's branch index, then the value.
type xrunion struct {
	index int
	elem  xnode
}

func (x *xrunion) xcode(t *xstate) {
	if t.track {
		t.mark(t.d.pos, 0)
	}
	t.out = varint.AppendLong(t.out, int64(x.index))
	x.elem.xcode(t)
}

// xerror fails the decode: the writer's value cannot be read (a writer
// union branch the reader cannot read).
type xerror struct{ err error }

func (x *xerror) xcode(t *xstate) {
	t.d.failf(ErrInvalid, "%w", x.err)
}

// xcompiler compiles a resolution graph into a transcoder.
type xcompiler struct {
	c        *compiler
	skippers map[*schema.Schema]*skipper
	nodes    map[*schema.Action]xnode
	identity map[*schema.Action]bool
}

func newXCompiler(root *schema.Action) *xcompiler {
	return &xcompiler{
		c:        newCompiler(),
		skippers: map[*schema.Schema]*skipper{},
		nodes:    map[*schema.Action]xnode{},
		identity: identities(root),
	}
}

func (xc *xcompiler) skipper(s *schema.Schema) *skipper { return xc.c.skipperOf(s, xc.skippers) }

func (xc *xcompiler) node(a *schema.Action) xnode {
	if n, ok := xc.nodes[a]; ok {
		return n
	}
	if xc.identity[a] {
		n := &xcopy{steps: []skipStep{xc.skipStep(a.Writer(), "")}}
		xc.nodes[a] = n
		return n
	}
	switch a.Kind() {
	case schema.ActionPromote:
		n := &xpromote{from: a.Writer().Kind(), to: a.Reader().Kind()}
		xc.nodes[a] = n
		return n
	case schema.ActionEnum:
		n := &xenum{w: a.Writer(), r: a.Reader(), m: a.SymbolMap()}
		xc.nodes[a] = n
		return n
	case schema.ActionArray, schema.ActionMap:
		n := &xarray{isMap: a.Kind() == schema.ActionMap}
		if n.isMap {
			n.minSize = a.Writer().Values().MinEncodedSize() + 1
		} else {
			n.minSize = a.Writer().Items().MinEncodedSize()
		}
		xc.nodes[a] = n
		n.elem = xc.node(a.Elem())
		return n
	case schema.ActionWriterUnion:
		n := &xwunion{w: a.Writer(), branches: make([]xnode, len(a.Branches()))}
		xc.nodes[a] = n
		for i, b := range a.Branches() {
			n.branches[i] = xc.node(b)
		}
		return n
	case schema.ActionReaderUnion:
		n := &xrunion{index: a.ReaderBranch()}
		xc.nodes[a] = n
		n.elem = xc.node(a.Elem())
		return n
	case schema.ActionRecord:
		return xc.record(a)
	}
	// ActionError, and ActionSame, which is always an identity.
	n := &xerror{err: a.Err()}
	if n.err == nil {
		n.err = fmt.Errorf("cannot read writer %s as %s", a.Writer().Kind(), a.Reader().Kind())
	}
	xc.nodes[a] = n
	return n
}

func (xc *xcompiler) record(a *schema.Action) xnode {
	fields := a.WriterFields()
	reader := a.Reader()
	inOrder := true
	last := -1
	for _, f := range fields {
		if f.Reader != nil {
			if f.Reader.Index() < last {
				inOrder = false
			}
			last = f.Reader.Index()
		}
	}
	if !inOrder {
		n := &xreorder{defaults: make([][]byte, len(reader.Fields()))}
		xc.nodes[a] = n
		for _, d := range a.Defaults() {
			n.defaults[d.Index()] = nonNil(d.DefaultBinary())
		}
		for _, f := range fields {
			xf := xfield{name: f.Writer.Name()}
			if f.Reader == nil {
				xf.skip = []skipStep{xc.skipStep(f.Writer.Type(), f.Writer.Name())}
			} else {
				xf.name = f.Reader.Name()
				xf.target = f.Reader.Index()
				xf.node = xc.node(f.Action)
			}
			n.fields = append(n.fields, xf)
		}
		return n
	}
	n := &xrecord{}
	xc.nodes[a] = n
	isDefault := make([]bool, len(reader.Fields()))
	for _, d := range a.Defaults() {
		isDefault[d.Index()] = true
	}
	next := 0 // the next reader field to write
	var run xnode
	add := func(st xnode, name string) {
		run = nil
		n.steps = append(n.steps, st)
		n.names = append(n.names, name)
	}
	defaultsUpTo := func(j int) {
		for ; next < j; next++ {
			if !isDefault[next] {
				continue
			}
			def := reader.Fields()[next].DefaultBinary()
			if b, ok := run.(*xbytes); ok {
				b.b = append(b.b, def...)
				continue
			}
			add(&xbytes{b: append([]byte(nil), def...)}, "")
			run = n.steps[len(n.steps)-1]
		}
	}
	for _, f := range fields {
		switch {
		case f.Reader == nil:
			st := xc.skipStep(f.Writer.Type(), f.Writer.Name())
			if s, ok := run.(*xskip); ok {
				s.steps = append(s.steps, st)
				continue
			}
			add(&xskip{steps: []skipStep{st}}, "")
			run = n.steps[len(n.steps)-1]
		case xc.identity[f.Action]:
			defaultsUpTo(f.Reader.Index())
			next = f.Reader.Index() + 1
			st := xc.skipStep(f.Writer.Type(), f.Reader.Name())
			if c, ok := run.(*xcopy); ok {
				c.steps = append(c.steps, st)
				continue
			}
			add(&xcopy{steps: []skipStep{st}}, "")
			run = n.steps[len(n.steps)-1]
		default:
			defaultsUpTo(f.Reader.Index())
			next = f.Reader.Index() + 1
			add(xc.node(f.Action), f.Reader.Name())
		}
	}
	defaultsUpTo(len(reader.Fields()))
	return n
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// identities computes which actions leave the encoding unchanged, so that
// the transcoder copies them. On a cyclic graph the answer is the greatest
// fixed point: every action starts as an identity if its own step is, and
// loses that while a child is not.
func identities(root *schema.Action) map[*schema.Action]bool {
	id := map[*schema.Action]bool{}
	var all []*schema.Action
	var walk func(a *schema.Action)
	walk = func(a *schema.Action) {
		if a == nil {
			return
		}
		if _, ok := id[a]; ok {
			return
		}
		id[a] = localIdentity(a)
		all = append(all, a)
		for _, c := range children(a) {
			walk(c)
		}
	}
	walk(root)
	for changed := true; changed; {
		changed = false
		for _, a := range all {
			if !id[a] {
				continue
			}
			for _, c := range identityChildren(a) {
				if c == nil || !id[c] {
					id[a] = false
					changed = true
					break
				}
			}
		}
	}
	return id
}

func children(a *schema.Action) []*schema.Action {
	var cs []*schema.Action
	if a.Elem() != nil {
		cs = append(cs, a.Elem())
	}
	cs = append(cs, a.Branches()...)
	for _, f := range a.WriterFields() {
		if f.Action != nil {
			cs = append(cs, f.Action)
		}
	}
	return cs
}

// identityChildren lists the actions that must be identities for a to be
// one. A writer union maps to itself through reader-union steps, whose
// own step (writing an index) is not an identity: their values count.
func identityChildren(a *schema.Action) []*schema.Action {
	switch a.Kind() {
	case schema.ActionArray, schema.ActionMap:
		return []*schema.Action{a.Elem()}
	case schema.ActionRecord:
		var cs []*schema.Action
		for _, f := range a.WriterFields() {
			cs = append(cs, f.Action)
		}
		return cs
	case schema.ActionWriterUnion:
		var cs []*schema.Action
		for _, b := range a.Branches() {
			cs = append(cs, b.Elem())
		}
		return cs
	}
	return nil
}

// localIdentity reports whether a's own step leaves the encoding unchanged.
func localIdentity(a *schema.Action) bool {
	switch a.Kind() {
	case schema.ActionSame, schema.ActionArray, schema.ActionMap:
		return true
	case schema.ActionPromote:
		// int read as long shares its encoding, but the reader's decoder
		// would accept a long the writer cannot have written: xpromote
		// checks the int and copies it.
		w := a.Writer().Kind()
		return w == schema.String || w == schema.Bytes
	case schema.ActionEnum:
		// A reader with more symbols would accept indexes the writer
		// cannot have written: the transcoder must check them.
		if len(a.Reader().Symbols()) != len(a.Writer().Symbols()) {
			return false
		}
		for i, j := range a.SymbolMap() {
			if i != j {
				return false
			}
		}
		return true
	case schema.ActionRecord:
		if len(a.Defaults()) > 0 || len(a.WriterFields()) != len(a.Reader().Fields()) {
			return false
		}
		for i, f := range a.WriterFields() {
			if f.Reader == nil || f.Reader.Index() != i || f.Action == nil {
				return false
			}
		}
		return true
	case schema.ActionWriterUnion:
		// A reader with more branches would accept indexes the writer
		// cannot have written: the transcoder must check them.
		if a.Reader().Kind() != schema.Union || len(a.Reader().Branches()) != len(a.Writer().Branches()) {
			return false
		}
		for i, b := range a.Branches() {
			if b.Kind() != schema.ActionReaderUnion || b.ReaderBranch() != i {
				return false
			}
		}
		return true
	}
	return false
}
