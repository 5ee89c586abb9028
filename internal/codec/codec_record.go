package codec

import (
	"reflect"

	"github.com/modern-go/reflect2"

	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

// structDecoder decodes a record into a Go struct: one decoder per schema
// field, at the field's precomputed offset. Schema fields the struct lacks
// are skipped.
type structDecoder struct {
	fields []fieldDecoder
	// defaults are the reader-only fields of a resolved record read
	// directly (codec_resolve_struct.go); nil otherwise.
	defaults []fieldDefault
}

type fieldDecoder struct {
	offset uintptr
	dec    decoder
	name   string
	op     fieldOp
	// run, for fieldStringRun, is how many string fields start here: the
	// fields up to i+run-1 are fieldString.
	run  uint8
	skip []skip.Step // fieldSkip: writer fields the reader does not want
}

// fieldOp lets a struct codec read or write a field of a primitive Go type
// with the primitive's own codec inline: a switch the branch predictor
// learns per field, instead of an interface call per field.
type fieldOp uint8

const (
	fieldCall fieldOp = iota // through dec or enc
	fieldInt32
	fieldInt64
	fieldDouble
	fieldBool
	fieldString
	fieldSkip         // a resolved record's run of writer-only fields
	fieldIntAsInt64   // a resolved record's int read as a long into an int64
	fieldDefaultBytes // a schema field the struct lacks: its default's encoding
	fieldNullString   // a ["null","string"] union for a *string
	fieldStringRun    // the first of a run of fieldString fields
	fieldInt32Over    // fieldInt32 followed by at least 7 bytes of the record
	fieldInt64Over    // fieldInt64 followed by at least 7 bytes of the record
)

// maxStringRun bounds a fieldStringRun (its run is a uint8).
const maxStringRun = 255

// markStringRuns marks the first field of each run of two or more string
// fields as a fieldStringRun: when all its values are short, the run is
// read with one copy (readShortSpan) instead of one per field. Marks from
// an earlier call are cleared first.
func markStringRuns(fields []fieldDecoder) {
	for i := range fields {
		if fields[i].op == fieldStringRun {
			fields[i].op, fields[i].run = fieldString, 0
		}
	}
	forStringRuns(len(fields), func(i int) bool { return fields[i].op == fieldString }, func(first, run int) {
		fields[first].op, fields[first].run = fieldStringRun, uint8(run)
	})
}

// forStringRuns calls mark for each run of two or more of the n fields
// that are strings, at most maxStringRun long, with its first field and
// its length.
func forStringRuns(n int, isString func(int) bool, mark func(first, run int)) {
	for i := 0; i < n; {
		j := i
		for j < n && j-i < maxStringRun && isString(j) {
			j++
		}
		if j-i >= 2 {
			mark(i, j-i)
		}
		i = max(j, i+1)
	}
}

func fieldOpOf(codec any) fieldOp {
	switch c := codec.(type) {
	case int32Codec:
		return fieldInt32
	case int64Codec:
		return fieldInt64
	case doubleCodec:
		return fieldDouble
	case boolCodec:
		return fieldBool
	case stringCodec:
		return fieldString
	case *unionDecoder:
		if c.isNullString() {
			return fieldNullString
		}
	case *unionEncoder:
		if c.isNullString() {
			return fieldNullString
		}
	}
	return fieldCall
}

func (c *structDecoder) decode(p pointer, d *decodeState) {
	if !d.Enter() {
		return
	}
	for i := 0; i < len(c.fields); i++ {
		f := &c.fields[i]
		fp := p.add(f.offset)
		switch f.op {
		case fieldInt32:
			*as[int32](fp) = d.ReadInt()
		case fieldInt64:
			*as[int64](fp) = d.ReadLong()
		case fieldDouble:
			*as[float64](fp) = d.ReadDouble()
		case fieldBool:
			*as[bool](fp) = d.ReadBool()
		case fieldString:
			*as[string](fp) = d.ReadString()
		case fieldStringRun:
			if span, ok := d.ReadShortSpan(int64(f.run)); ok {
				run := c.fields[i : i+int(f.run)]
				for j := range run {
					*as[string](p.add(run[j].offset)) = wire.CutSpanString(&span)
				}
				i += int(f.run) - 1
				continue
			}
			// Not all short: this field alone, then the rest one by one.
			*as[string](fp) = d.ReadString()
		case fieldIntAsInt64:
			*as[int64](fp) = int64(d.ReadInt())
		case fieldNullString:
			d.readNullString(as[*string](fp))
		case fieldSkip:
			if !skip.All(&d.Decoder, f.skip) {
				return // skipAll names the field
			}
			continue
		default:
			f.dec.decode(fp, d)
		}
		if d.Err != nil {
			d.AddField(f.name)
			return
		}
	}
	if c.defaults != nil {
		if c.decodeDefaults(p, d); d.Err != nil {
			return
		}
	}
	d.Leave()
}

// structEncoder encodes a Go struct as a record. Schema fields the struct
// lacks are written from their default.
type structEncoder struct {
	fields []fieldEncoder
	// touch are the fields whose memory is loaded first (see touch).
	touch []touchField
}

type fieldEncoder struct {
	offset uintptr
	enc    encoder // nil: write def (op fieldDefaultBytes)
	def    []byte
	name   string
	op     fieldOp
}

func (c *structEncoder) encode(p pointer, e *encodeState) {
	if !e.Enter() {
		return
	}
	e.touched += touch(p, c.touch)
	for i := range c.fields {
		f := &c.fields[i]
		fp := p.add(f.offset)
		switch f.op {
		case fieldDefaultBytes:
			e.Buf = append(e.Buf, f.def...)
			continue
		case fieldInt32:
			e.WriteLong(int64(*as[int32](fp)))
			continue
		case fieldInt64:
			e.WriteLong(*as[int64](fp))
			continue
		case fieldInt32Over, fieldInt64Over:
			var v int64
			if f.op == fieldInt64Over {
				v = *as[int64](fp)
			} else {
				v = int64(*as[int32](fp))
			}
			// Values of mixed lengths mispredict WriteLong's byte loop;
			// varint.PutLong writes them with one word store, whose bytes
			// past the value the rest of the record covers
			// (markOverwrites). One-byte values keep WriteLong's append.
			if n := len(e.Buf); uint64(v+64) >= 128 && cap(e.Buf)-n >= varint.MaxLenLong {
				e.Buf = e.Buf[:n+varint.PutLong(e.Buf[n:n+varint.MaxLenLong], v)]
			} else {
				e.WriteLong(v)
			}
			continue
		case fieldDouble:
			e.WriteDouble(*as[float64](fp))
			continue
		case fieldBool:
			e.WriteBool(*as[bool](fp))
			continue
		case fieldString:
			e.WriteString(*as[string](fp))
			continue
		case fieldNullString:
			// The branch index of null (0) or string (1), zigzagged.
			if s := *as[*string](fp); s == nil {
				e.Buf = append(e.Buf, 0)
			} else {
				e.Buf = append(e.Buf, 2)
				e.WriteString(*s)
			}
			continue
		}
		f.enc.encode(fp, e)
		if e.Err != nil {
			e.AddField(f.name)
			return
		}
	}
	e.Leave()
}

// embeddedPtrDecoder follows the pointer of an embedded *struct,
// allocating the struct when it is nil, and decodes the field inside it.
type embeddedPtrDecoder struct {
	elem   reflect2.Type
	size   uintptr // of elem, charged to MaxAlloc when it is allocated
	offset uintptr // of the field within the embedded struct
	inner  decoder
}

func (c *embeddedPtrDecoder) decode(p pointer, d *decodeState) {
	pp := as[pointer](p)
	if (*pp).isNil() {
		if !d.ReserveNew(c.size) {
			return
		}
		*pp = unsafeNew(c.elem)
	}
	c.inner.decode((*pp).add(c.offset), d)
}

// embeddedPtrEncoder encodes a field inside an embedded *struct; a nil
// pointer writes the field's default, or fails when there is none.
type embeddedPtrEncoder struct {
	offset uintptr
	inner  encoder
	def    []byte
	hasDef bool
	name   string
}

func (c *embeddedPtrEncoder) encode(p pointer, e *encodeState) {
	ptr := p.elem()
	if ptr.isNil() {
		if !c.hasDef {
			e.Failf(ErrRange, "nil embedded struct holds the field and the schema has no default")
			return
		}
		e.Buf = append(e.Buf, c.def...)
		return
	}
	c.inner.encode(ptr.add(c.offset), e)
}

// wrapDecoderSteps returns the offset of a field from its outer struct,
// up to the first embedded pointer on its path, and wraps the field's
// decoder in the pointer-following decoders those embedded pointers need.
func wrapDecoderSteps(steps []fieldStep, dec decoder) (uintptr, decoder) {
	// Walk from the innermost step outwards.
	inner := dec
	innerOffset := uintptr(0)
	for i := len(steps) - 1; i >= 0; i-- {
		innerOffset += steps[i].offset
		if i > 0 && steps[i-1].ptrElem != nil {
			inner = &embeddedPtrDecoder{elem: reflect2.Type2(steps[i-1].ptrElem), size: steps[i-1].ptrElem.Size(), offset: innerOffset, inner: inner}
			innerOffset = 0
		}
	}
	return innerOffset, inner
}

// wrapEncoderSteps is the encoding twin of wrapDecoderSteps.
func wrapEncoderSteps(steps []fieldStep, enc encoder, f *schema.Field) (uintptr, encoder) {
	inner := enc
	innerOffset := uintptr(0)
	for i := len(steps) - 1; i >= 0; i-- {
		innerOffset += steps[i].offset
		if i > 0 && steps[i-1].ptrElem != nil {
			inner = &embeddedPtrEncoder{offset: innerOffset, inner: inner, def: f.DefaultBinary(), hasDef: f.HasDefault(), name: f.Name()}
			innerOffset = 0
		}
	}
	return innerOffset, inner
}

func (c *compiler) recordDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	switch {
	case t.Kind() == reflect.Struct:
		sd := &structDecoder{}
		c.decoders[compileKey{s, t}] = sd
		goFields, terr := structFields(t)
		if terr != nil {
			return nil, terr.typeError(path, t)
		}
		filled := make([]bool, len(goFields))
		for _, f := range s.Fields() {
			fpath := joinPath(path, f.Name())
			i, ok := matchField(goFields, f.Name())
			if !ok {
				sd.fields = append(sd.fields, fieldDecoder{dec: skipDecoder{skip.New(f.Type())}, name: f.Name()})
				continue
			}
			gf := goFields[i]
			filled[i] = true
			if err := checkFieldTag(gf, f, fpath); err != nil {
				return nil, err
			}
			dec, err := c.decoderFor(f.Type(), gf.typ, fpath)
			if err != nil {
				return nil, err
			}
			off, dec := wrapDecoderSteps(gf.steps, dec)
			sd.fields = append(sd.fields, fieldDecoder{offset: off, dec: dec, name: f.Name(), op: fieldOpOf(dec)})
		}
		markStringRuns(sd.fields)
		// A Go field that no schema field fills takes its tag's default.
		for i, gf := range goFields {
			if filled[i] || !gf.tag.hasDef {
				continue
			}
			fd, err := c.tagDefault(gf, joinPath(path, gf.name))
			if err != nil {
				return nil, err
			}
			sd.defaults = append(sd.defaults, fd)
		}
		return sd, nil
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String:
		return c.mapRecordDecoder(s, t, path)
	}
	return nil, typeErr(path, t, s, "a record maps to a struct or a map with string keys")
}

// missingFieldErr is the error for a struct t that has no field for the
// schema field f, which has no default to write instead. The field's type
// is named as briefly as it can be: the full name of a named type, the
// logical type, a short union's JSON.
func missingFieldErr(path string, t reflect.Type, f *schema.Field) error {
	te := typeErr(path, t, f.Type(), "").(*TypeError)
	te.Field = f.Name()
	switch ft := f.Type(); {
	case ft.Kind().IsNamed():
		te.Schema = ft.FullName()
	case ft.Logical() != schema.NoLogical:
		te.Schema = ft.Logical().String()
	case ft.Kind() == schema.Union && len(ft.String()) <= 60:
		te.Schema = ft.String()
	}
	return te
}

func (c *compiler) recordEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	switch {
	case t.Kind() == reflect.Struct:
		se := &structEncoder{}
		c.encoders[compileKey{s, t}] = se
		goFields, terr := structFields(t)
		if terr != nil {
			return nil, terr.typeError(path, t)
		}
		for _, f := range s.Fields() {
			fpath := joinPath(path, f.Name())
			i, ok := matchField(goFields, f.Name())
			if !ok {
				if !f.HasDefault() {
					return nil, missingFieldErr(fpath, t, f)
				}
				se.fields = append(se.fields, fieldEncoder{def: f.DefaultBinary(), name: f.Name(), op: fieldDefaultBytes})
				continue
			}
			gf := goFields[i]
			if err := checkFieldTag(gf, f, fpath); err != nil {
				return nil, err
			}
			enc, err := c.encoderFor(f.Type(), gf.typ, fpath)
			if err != nil {
				return nil, err
			}
			if gf.tag.omitzero {
				if enc, err = omitZero(gf, f, enc, fpath); err != nil {
					return nil, err
				}
			}
			off, enc := wrapEncoderSteps(gf.steps, enc, f)
			se.fields = append(se.fields, fieldEncoder{offset: off, enc: enc, name: f.Name(), op: fieldOpOf(enc)})
			se.touch = append(se.touch, touchesOf(off, enc, se)...)
		}
		markOverwrites(se.fields, s.Fields())
		return se, nil
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String:
		return c.mapRecordEncoder(s, t, path)
	}
	return nil, typeErr(path, t, s, "a record maps to a struct or a map with string keys")
}

// mapRecordDecoder decodes a record into a Go map from field name to
// value (map[string]any is the common case).
type mapRecordDecoder struct {
	t      reflect.Type
	names  []reflect.Value // keys, converted to the map's key type
	fields []decoder
	fnames []string
}

func (c *mapRecordDecoder) decode(p pointer, d *decodeState) {
	if !d.Enter() {
		return
	}
	m := valueAt(c.t, p).Elem()
	// The map (charged as its entries) and the value the fields decode
	// through.
	if !d.ReserveItems(int64(len(c.fields))+1, int64(c.t.Key().Size()+c.t.Elem().Size())) {
		return
	}
	if m.IsNil() {
		m.Set(reflect.MakeMapWithSize(c.t, len(c.fields)))
	}
	tmp := reflect.New(c.t.Elem())
	for i, dec := range c.fields {
		tmp.Elem().SetZero()
		dec.decode(pointerOfValue(tmp), d)
		if d.Err != nil {
			d.AddField(c.fnames[i])
			return
		}
		m.SetMapIndex(c.names[i], tmp.Elem())
	}
	d.Leave()
}

func (c *compiler) mapRecordDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	md := &mapRecordDecoder{t: t}
	c.decoders[compileKey{s, t}] = md
	for _, f := range s.Fields() {
		dec, err := c.decoderFor(f.Type(), t.Elem(), joinPath(path, f.Name()))
		if err != nil {
			return nil, err
		}
		md.names = append(md.names, reflect.ValueOf(f.Name()).Convert(t.Key()))
		md.fields = append(md.fields, dec)
		md.fnames = append(md.fnames, f.Name())
	}
	return md, nil
}

// mapRecordEncoder encodes a Go map from field name to value as a record;
// a missing key writes the field's default.
type mapRecordEncoder struct {
	t      reflect.Type
	names  []reflect.Value
	fields []encoder
	schema []*schema.Field
}

func (c *mapRecordEncoder) encode(p pointer, e *encodeState) {
	if !e.Enter() {
		return
	}
	m := valueAt(c.t, p).Elem()
	tmp := reflect.New(c.t.Elem())
	for i, enc := range c.fields {
		v := m.MapIndex(c.names[i])
		if !v.IsValid() {
			f := c.schema[i]
			if !f.HasDefault() {
				e.Failf(ErrRange, "missing field %q, which has no default", f.Name())
				return
			}
			e.Buf = append(e.Buf, f.DefaultBinary()...)
			continue
		}
		tmp.Elem().Set(v)
		enc.encode(pointerOfValue(tmp), e)
		if e.Err != nil {
			e.AddField(c.schema[i].Name())
			return
		}
	}
	e.Leave()
}

func (c *compiler) mapRecordEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	me := &mapRecordEncoder{t: t}
	c.encoders[compileKey{s, t}] = me
	for _, f := range s.Fields() {
		enc, err := c.encoderFor(f.Type(), t.Elem(), joinPath(path, f.Name()))
		if err != nil {
			return nil, err
		}
		me.names = append(me.names, reflect.ValueOf(f.Name()).Convert(t.Key()))
		me.fields = append(me.fields, enc)
		me.schema = append(me.schema, f)
	}
	return me, nil
}

// markOverwrites marks the int and long fields that at least 7 bytes of
// the record follow, whatever the values: the bytes their word store
// writes past them are then always written over before the record ends,
// so that nothing past the encoding changes in the buffer.
func markOverwrites(fields []fieldEncoder, schemaFields []*schema.Field) {
	after := 0
	for i := len(fields) - 1; i >= 0; i-- {
		f := &fields[i]
		switch f.op {
		case fieldInt32:
			if after >= 7 {
				f.op = fieldInt32Over
			}
		case fieldInt64:
			if after >= 7 {
				f.op = fieldInt64Over
			}
		}
		after += schemaFields[i].Type().MinEncodedSize()
	}
}
