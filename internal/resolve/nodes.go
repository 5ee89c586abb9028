package resolve

import (
	"math"

	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

// The instructions of a transcoder (see codec_resolve.go).

// xnode is one instruction of a transcoder: it reads one writer value from
// t.d and appends the reader's encoding of it to t.out. Errors are
// recorded on t.d, with the path collected as they unwind.
type xnode interface {
	xcode(t *xstate)
}

// xcopy copies values whose encoding the reader shares: the skip steps
// find their end, then the span is appended.
type xcopy struct{ steps []skip.Step }

func (x *xcopy) xcode(t *xstate) {
	d := t.d
	start := d.Pos
	if !skip.All(d, x.steps) {
		return
	}
	if t.track {
		t.mark(start, d.Pos-start)
	}
	t.put(d.Buf[start:d.Pos])
}

// xskip skips writer-only record fields.
type xskip struct{ steps []skip.Step }

func (x *xskip) xcode(t *xstate) { skip.All(t.d, x.steps) }

// xbytes appends constant bytes: reader defaults.
type xbytes struct{ b []byte }

func (x *xbytes) xcode(t *xstate) {
	if t.track {
		t.mark(t.d.Pos, 0)
	}
	if t.d.SpendDefaults(len(x.b)) {
		t.put(x.b)
	}
}

// xpromote re-encodes a numeric promotion (int and long to float or
// double, float to double), and checks an int read as long before it
// copies it. string to bytes shares its encoding and is a copy.
type xpromote struct{ from, to schema.Kind }

func (x *xpromote) xcode(t *xstate) {
	d := t.d
	if x.to == schema.Long {
		// int to long: the same encoding, once checked as an int.
		start := d.Pos
		d.ReadInt()
		if d.Err != nil {
			return
		}
		if t.track {
			t.mark(start, d.Pos-start)
		}
		t.put(d.Buf[start:d.Pos])
		return
	}
	if t.track {
		t.mark(d.Pos, 0)
	}
	var f float64
	switch x.from {
	case schema.Int:
		f = float64(d.ReadInt())
	case schema.Long:
		v := d.ReadLong()
		if x.to == schema.Float {
			// Round once, from the integer, as Java's (float) cast does.
			if d.Err == nil {
				t.out = appendFloat32(t.out, float32(v))
			}
			return
		}
		f = float64(v)
	case schema.Float:
		f = float64(d.ReadFloat())
	}
	if d.Err != nil {
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
	start := d.Pos
	if t.track {
		t.mark(start, 0)
	}
	i := d.ReadSymbol(len(x.w.Symbols()), x.w.FullName())
	if d.Err != nil {
		return
	}
	j := x.m[i]
	if j < 0 {
		d.Pos = start
		d.Failf(wire.ErrInvalid, "writer symbol %q of %s is not in reader enum %s, which has no default",
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
	if !d.Enter() {
		return
	}
	for i, st := range x.steps {
		st.xcode(t)
		if d.Err != nil {
			if x.names[i] != "" {
				d.AddField(x.names[i])
			}
			return
		}
	}
	if !t.checkLimit() {
		return
	}
	d.Leave()
}

// xreorder transcodes a record whose reader order differs from the
// writer's: each field is transcoded in writer order and its span noted,
// then the spans and defaults are appended in reader order and moved down
// over the originals.
type xreorder struct {
	fields   []xfield // writer order
	defaults [][]byte // by reader index: the default, or nil for a written field
	names    []string // by reader index: the name of a default's field
}

type xfield struct {
	node   xnode       // nil: skipped
	skip   []skip.Step // one step, for a skipped field
	name   string
	target int // reader index
}

func (x *xreorder) xcode(t *xstate) {
	d := t.d
	if !d.Enter() {
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
			if !skip.All(d, f.skip) {
				return
			}
			continue
		}
		s, in := len(t.out), d.Pos
		f.node.xcode(t)
		if d.Err != nil {
			d.AddField(f.name)
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
				d.Fail(errTrackDone)
				return
			}
			in := d.Pos
			if x.defaults[j] == nil {
				in = t.spans[base+3*j+2]
			}
			t.marks = append(t.marks, xmark{out: recStart + len(t.out) - emit, in: in})
		}
		if def := x.defaults[j]; def != nil {
			if !d.SpendDefaults(len(def)) {
				d.AddField(x.names[j])
				return
			}
			t.put(def)
			continue
		}
		sp := t.spans[base+3*j:]
		t.put(t.out[sp[0]:sp[1]])
	}
	m := copy(t.out[recStart:], t.out[emit:])
	t.out = t.out[:recStart+m]
	t.spans = t.spans[:base]
	if !t.checkLimit() {
		return
	}
	d.Leave()
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
	if !d.Enter() {
		return
	}
	var n int64
	for {
		if t.track {
			t.mark(d.Pos, 0)
		}
		count, blk := d.ReadBlock(n, x.minSize)
		if d.Err != nil {
			return
		}
		if count == 0 {
			break
		}
		t.out = varint.AppendLong(t.out, count)
		for i := int64(0); i < count; i++ {
			var key []byte
			if x.isMap {
				start := d.Pos
				k := d.ReadLength()
				if k < 0 {
					d.EndBlock(blk)
					d.AddIndex(n + i)
					return
				}
				d.Pos += k
				key = d.Buf[d.Pos-k : d.Pos]
				if t.track {
					t.mark(start, d.Pos-start)
				}
				t.put(d.Buf[start:d.Pos])
			}
			x.elem.xcode(t)
			if d.Err != nil {
				d.EndBlock(blk)
				if x.isMap {
					d.AddKey(string(key))
				} else {
					d.AddIndex(n + i)
				}
				return
			}
			if !t.checkLimit() {
				d.EndBlock(blk)
				return
			}
		}
		// The output block has a plain count: the writer's byte size is
		// checked here, as every reader of the writer's bytes checks it.
		if !d.EndBlock(blk) {
			return
		}
		n += count
	}
	t.out = append(t.out, 0)
	d.Leave()
}

// xwunion reads a writer union's branch index and transcodes the branch.
type xwunion struct {
	w        *schema.Schema
	branches []xnode
}

func (x *xwunion) xcode(t *xstate) {
	i := t.d.ReadBranch(len(x.w.Branches()))
	if t.d.Err != nil {
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
		t.mark(t.d.Pos, 0)
	}
	t.out = varint.AppendLong(t.out, int64(x.index))
	x.elem.xcode(t)
}

// xerror fails the decode: the writer's value cannot be read (a writer
// union branch the reader cannot read).
type xerror struct{ err error }

func (x *xerror) xcode(t *xstate) {
	t.d.Failf(wire.ErrInvalid, "%w", x.err)
}
