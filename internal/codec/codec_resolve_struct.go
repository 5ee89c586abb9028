package codec

import (
	"github.com/avrogo/avro/internal/resolve"
	"math"
	"strings"

	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/schema"
)

// Reading a resolved record straight into a struct.
//
// The transcoder of codec_resolve.go serves every Go target, but it reads
// the writer's bytes twice: once to transcode them, once more, as the
// reader's bytes, to decode them. A struct, the usual target, takes a
// direct path instead: a structDecoder whose fields follow the writer's
// order, where
//
//   - a field whose encoding does not change (an identity action) is
//     decoded in place by the reader's own field decoder, inline ops
//     included;
//   - a writer-only field, or an unchanged one the Go struct lacks, is
//     skipped with the transcoder's skip steps (a run of them in one
//     step); a changed field the Go struct lacks is transcoded and the
//     result skipped, so that it is validated as the transcoder would;
//   - an int read as a long is read as an int, straight into the field;
//   - a field that changes (another promotion, a remapped enum or union, an
//     array of records that differ) goes through a transcoder of its own,
//     so only that field's bytes are read twice; a nested record that
//     differs gets a direct decoder of its own when its Go field is a
//     plain struct;
//   - a reader-only field is set from its default after the writer's
//     fields: assigned, for a string, int32, int64, float64 or bool field
//     (decoded once, when the decoder is built), else decoded from the
//     default's binary encoding.
//
// Error offsets are the writer's: direct fields read the writer's bytes,
// and a field's transcoder maps its own offsets back.

// fieldDefault decodes a reader-only field from its default.
type fieldDefault struct {
	offset uintptr
	dec    decoder
	bin    []byte
	name   string
	// op, for a field of a primitive Go type (string, int32, int64,
	// float64, bool), says that its default was decoded once, into str or
	// bits, and is assigned rather than decoded again. Go strings are
	// immutable, so every decode can share the default's.
	op   fieldOp
	str  string
	bits uint64
}

// setConstant decodes the default once for a field of the primitive op
// and, when it can, sets f.op so that decodeDefaults assigns it; for any
// other op f is left to be decoded from its bytes.
func (f *fieldDefault) setConstant(op fieldOp) {
	d := newDecodeState(&DecodeOptions{}, f.bin)
	defer d.release()
	var str string
	var bits uint64
	if op == fieldStringRun {
		op = fieldString
	}
	switch op {
	case fieldString:
		str = strings.Clone(d.ReadString())
	case fieldInt32:
		bits = uint64(int64(d.ReadInt()))
	case fieldInt64:
		bits = uint64(d.ReadLong())
	case fieldDouble:
		bits = math.Float64bits(d.ReadDouble())
	case fieldBool:
		if d.ReadBool() {
			bits = 1
		}
	default:
		return
	}
	if d.Err == nil && d.Pos == len(f.bin) {
		f.op, f.str, f.bits = op, str, bits
	}
}

// decodeDefaults sets the reader-only fields from their defaults:
// constants assigned, other values decoded from the default's bytes. Those
// bytes belong to the schema: nothing decoded may alias them.
func (c *structDecoder) decodeDefaults(p pointer, d *decodeState) {
	swapped := false
	var buf []byte
	var pos int
	var zeroCopy bool
	for i := range c.defaults {
		f := &c.defaults[i]
		fp := p.add(f.offset)
		switch f.op {
		case fieldString:
			*as[string](fp) = f.str
			continue
		case fieldInt32:
			*as[int32](fp) = int32(f.bits)
			continue
		case fieldInt64:
			*as[int64](fp) = int64(f.bits)
			continue
		case fieldDouble:
			*as[float64](fp) = math.Float64frombits(f.bits)
			continue
		case fieldBool:
			*as[bool](fp) = f.bits != 0
			continue
		}
		if !swapped {
			buf, pos, zeroCopy, swapped = d.Buf, d.Pos, d.ZeroCopy, true
		}
		if !d.SpendDefaults(len(f.bin)) {
			d.AddField(f.name)
			break
		}
		d.Buf, d.Pos, d.ZeroCopy = f.bin, 0, false
		f.dec.decode(fp, d)
		if d.Err != nil {
			d.AddField(f.name)
			break
		}
	}
	if swapped {
		d.Buf, d.Pos, d.ZeroCopy = buf, pos, zeroCopy
		if d.Err != nil {
			d.ErrPos = pos
		}
	}
}

// directResolver builds the direct struct decoders of one resolved
// schema.
type directResolver struct {
	xc   *resolve.Compiler
	done map[directKey]*structDecoder
}

type directKey struct {
	a  *schema.Action
	sd *structDecoder
}

// resolvedStructFor returns a direct decoder for the record action a into
// the struct that sd decodes with the reader's schema, or nil when sd's
// fields do not line up with the reader's (the transcoder then serves).
func (r *directResolver) resolvedStructFor(a *schema.Action, sd *structDecoder) *structDecoder {
	if out, ok := r.done[directKey{a, sd}]; ok {
		return out
	}
	readerFields := a.Reader().Fields()
	if len(readerFields) != len(sd.fields) {
		return nil
	}
	for i, f := range readerFields {
		if sd.fields[i].name != f.Name() {
			return nil
		}
	}
	out := &structDecoder{}
	r.done[directKey{a, sd}] = out
	for _, wf := range a.WriterFields() {
		var rf *fieldDecoder
		if wf.Reader != nil {
			rf = &sd.fields[wf.Reader.Index()]
		}
		if rf != nil && isSkipper(rf.dec) && !r.xc.Identity(wf.Action) {
			// The reader wants the field but the Go struct has no place
			// for it: its action still runs, so that what the reader
			// cannot read (an enum symbol it lacks, a union branch it
			// cannot take) fails as it would with the transcoder; the
			// reader's skipper then reads the transcoded bytes.
			out.fields = append(out.fields, fieldDecoder{dec: &resolvingDecoder{prog: r.xc.Program(wf.Action), inner: rf.dec}, name: wf.Reader.Name()})
			continue
		}
		if rf == nil || isSkipper(rf.dec) {
			name := wf.Writer.Name()
			if wf.Reader != nil {
				name = wf.Reader.Name() // errors name the reader's field, as the transcoder's do
			}
			st := r.xc.Skippers.Step(wf.Writer.Type(), name)
			if n := len(out.fields); n > 0 && out.fields[n-1].op == fieldSkip {
				last := &out.fields[n-1]
				last.skip = append(last.skip, st)
				continue
			}
			out.fields = append(out.fields, fieldDecoder{op: fieldSkip, skip: []skip.Step{st}, name: name})
			continue
		}
		f := *rf
		switch {
		case r.xc.Identity(wf.Action):
			// The reader's decoder reads the writer's bytes as they are.
		case wf.Action.Kind() == schema.ActionPromote && wf.Writer.Type().Kind() == schema.Int && wf.Action.Reader().Kind() == schema.Long:
			// An int read as a long: the same encoding, checked as an int.
			if f.op == fieldInt64 {
				f.op = fieldIntAsInt64
			} else {
				f.dec, f.op = intAsLong{f.dec}, fieldCall
			}
		case wf.Action.Kind() == schema.ActionRecord && isStructDecoder(f.dec):
			nested := r.resolvedStructFor(wf.Action, f.dec.(*structDecoder))
			if nested == nil {
				f.dec = &resolvingDecoder{prog: r.xc.Program(wf.Action), inner: f.dec}
			} else {
				f.dec = nested
			}
			f.op = fieldCall
		default:
			f.dec, f.op = &resolvingDecoder{prog: r.xc.Program(wf.Action), inner: f.dec}, fieldCall
		}
		out.fields = append(out.fields, f)
	}
	markStringRuns(out.fields)
	for _, def := range a.Defaults() {
		rf := &sd.fields[def.Index()]
		if isSkipper(rf.dec) {
			continue // the Go struct has no field for it
		}
		// Not nil, which the default decode would read as no input.
		bin := def.DefaultBinary()
		if bin == nil {
			bin = []byte{}
		}
		fd := fieldDefault{offset: rf.offset, dec: rf.dec, bin: bin, name: def.Name()}
		fd.setConstant(rf.op)
		out.defaults = append(out.defaults, fd)
	}
	// The Go fields that no reader field fills take their tags'
	// defaults, as with the reader's schema alone.
	out.defaults = append(out.defaults, sd.defaults...)
	return out
}

// intAsLong reads a writer's int with the decoder of the reader's long.
// The encodings agree, but the reader's decoder alone would accept a long
// the writer cannot have written: the varint is first read as an int.
type intAsLong struct{ inner decoder }

func (c intAsLong) decode(p pointer, d *decodeState) {
	start := d.Pos
	if d.ReadInt(); d.Err != nil {
		return
	}
	d.Pos = start
	c.inner.decode(p, d)
}

func isSkipper(dec decoder) bool {
	_, ok := dec.(skipDecoder)
	return ok
}

func isStructDecoder(dec decoder) bool {
	_, ok := dec.(*structDecoder)
	return ok
}
