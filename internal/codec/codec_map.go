package codec

import (
	"github.com/avrogo/avro/internal/wire"
	"reflect"
	"strconv"

	"github.com/avrogo/avro/schema"
)

// Maps with string keys. map[string]V for the common V take a typed path
// (native map assignment and range, one scratch value per map); other map
// types go through reflect, which Go 1.24's maps support (reflect2's map
// iteration does not).

// typedMapCodec is the fast path for map[string]V.
type typedMapCodec[V any] struct {
	minSize int
	elemDec decoder
	elemEnc encoder
	// direct encodes a value without taking its address, for the common
	// element codecs; nil otherwise.
	direct func(v V, e *encodeState)
	// directDec decodes an element by value, for the same codecs.
	directDec func(d *decodeState) V
	// stringValues marks map[string]string with a string element codec,
	// the commonest map of all (headers, attributes, labels): its loops
	// write and read both strings inline, with no call per element.
	stringValues bool
	// slotSize and valueOff place an entry's key and value in a small
	// map's group (see walkSmallMap); slotSize is 0 when the layout check
	// of this map type failed (or the codec only decodes).
	slotSize, valueOff uintptr
}

func newTypedMapCodec[V any](minSize int, dec decoder, enc encoder) *typedMapCodec[V] {
	c := &typedMapCodec[V]{minSize: minSize, elemDec: dec, elemEnc: enc}
	if size, off := slotLayout[V](); enc != nil && smallMapsWalkable && slotStrideHolds(reflect.TypeFor[map[string]V](), size) {
		c.slotSize, c.valueOff = size, off
	}
	if enc != nil {
		c.direct, _ = directEncoder(enc).(func(V, *encodeState))
	}
	if dec != nil {
		c.directDec, _ = directDecoder(dec).(func(*decodeState) V)
	}
	// A codec is built for one direction: the other codec is nil.
	_, isStringMap := any(map[string]V(nil)).(map[string]string)
	_, encString := enc.(stringCodec)
	_, decString := dec.(stringCodec)
	c.stringValues = isStringMap && (encString || enc == nil) && (decString || dec == nil)
	return c
}

// directDecoder is the decoding twin of directEncoder.
func directDecoder(dec decoder) any {
	switch dec.(type) {
	case stringCodec:
		return (*decodeState).ReadString
	case int64Codec:
		return (*decodeState).ReadLong
	case int32Codec:
		return (*decodeState).ReadInt
	case doubleCodec:
		return (*decodeState).ReadDouble
	case floatCodec:
		return (*decodeState).ReadFloat
	case boolCodec:
		return (*decodeState).ReadBool
	}
	return nil
}

// directEncoder returns, for the element codecs of the map fast paths, a
// function that encodes the element by value; the generic path would need a
// heap scratch value because the encoder interface takes a pointer.
func directEncoder(enc encoder) any {
	switch c := enc.(type) {
	case stringCodec, bytesAsStringCodec:
		return func(v string, e *encodeState) { e.WriteString(v) }
	case int64Codec:
		return func(v int64, e *encodeState) { e.WriteLong(v) }
	case int32Codec:
		return func(v int32, e *encodeState) { e.WriteLong(int64(v)) }
	case doubleCodec:
		return func(v float64, e *encodeState) { e.WriteDouble(v) }
	case floatCodec:
		return func(v float32, e *encodeState) { e.WriteFloat(v) }
	case boolCodec:
		return func(v bool, e *encodeState) { e.WriteBool(v) }
	case bytesCodec:
		return func(v []byte, e *encodeState) { e.WriteBytes(v) }
	case anyCodec:
		return func(v any, e *encodeState) { c.n.encodeAny(v, e) }
	}
	return nil
}

// mapSizeHint is the size hint of a Go map about to receive count
// entries. Avro data may repeat a key, so count bounds the distinct keys
// only from above: a block of a million two-byte entries that all repeat
// one key would make a map sized for a million. Past the cap the map
// grows with the keys it really gets.
func mapSizeHint(count int64) int { return int(min(count, mapSizeHintMax)) }

const mapSizeHintMax = 1024

func (c *typedMapCodec[V]) decode(p pointer, d *decodeState) {
	if !d.Enter() {
		return
	}
	mp := as[map[string]V](p)
	var n int64
	var tmp *V
	for {
		count, blk := d.ReadBlock(n, c.minSize)
		if count == 0 {
			break
		}
		// Every block's entries are charged, not only the first's: the
		// values of an empty record take no input bytes.
		if !d.ReserveItems(count, int64(sizeOf[V]()+16)) {
			d.EndBlock(blk)
			return
		}
		if *mp == nil {
			*mp = make(map[string]V, mapSizeHint(count))
		}
		if tmp == nil && c.directDec == nil {
			tmp = new(V)
		}
		m := *mp
		if c.stringValues {
			if !decodeStringMapBlock(*as[map[string]string](p), d, n, count, c.minSize, blk) {
				return
			}
			n += count
			continue
		}
		for i := int64(0); i < count; i++ {
			k := d.ReadString()
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, c.minSize)
				d.AddIndex(n + i)
				return
			}
			if c.directDec != nil {
				v := c.directDec(d)
				if d.Err != nil {
					d.EndBlock(blk)
					d.MoreItems(i, count, c.minSize)
					d.AddKey(k)
					return
				}
				m[k] = v
				continue
			}
			var zero V
			*tmp = zero
			c.elemDec.decode(pointerTo(tmp), d)
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, c.minSize)
				d.AddKey(k)
				return
			}
			m[k] = *tmp
		}
		if !d.EndBlock(blk) {
			return
		}
		n += count
	}
	if d.Err == nil {
		if *mp == nil {
			*mp = map[string]V{}
		}
		d.Leave()
	}
}

// decodeStringMapBlock reads a block of count entries of a map of strings
// into m, with one copy when readShortSpan takes them, else entry by
// entry; it closes the block and reports whether the decode goes on.
func decodeStringMapBlock(m map[string]string, d *decodeState, n, count int64, minSize int, blk wire.BlockEnd) bool {
	if span, ok := d.ReadShortSpan(2 * count); ok {
		for range count {
			k := wire.CutSpanString(&span)
			m[k] = wire.CutSpanString(&span)
		}
		return d.EndBlock(blk)
	}
	return decodeStringEntries(m, d, n, count, minSize, blk)
}

// decodeStringEntries reads count entries of a map of strings into m; it
// closes the block and reports whether the decode goes on.
func decodeStringEntries(m map[string]string, d *decodeState, n, count int64, minSize int, blk wire.BlockEnd) bool {
	for i := int64(0); i < count; i++ {
		k := d.ReadString()
		if d.Err != nil {
			d.EndBlock(blk)
			d.MoreItems(i, count, minSize)
			d.AddIndex(n + i)
			return false
		}
		v := d.ReadString()
		if d.Err != nil {
			d.EndBlock(blk)
			d.MoreItems(i, count, minSize)
			d.AddKey(k)
			return false
		}
		m[k] = v
	}
	return d.EndBlock(blk)
}

func (c *typedMapCodec[V]) encode(p pointer, e *encodeState) {
	if !e.Enter() {
		return
	}
	m := *as[map[string]V](p)
	if len(m) > 0 {
		e.WriteLong(int64(len(m)))
		if w, ok := walkSmallMap(p); ok && c.slotSize != 0 {
			c.encodeSlots(&w, e)
		} else {
			c.encodeRanged(m, e)
		}
		if e.Err != nil {
			return
		}
	}
	e.Buf = append(e.Buf, 0)
	e.Leave()
}

// encodeSlots encodes the entries of a small map straight from its group;
// each value is encoded in place.
func (c *typedMapCodec[V]) encodeSlots(w *smallMapWalk, e *encodeState) {
	size, off := c.slotSize, c.valueOff
	if c.stringValues {
		for s := w.next(size); !s.isNil(); s = w.next(size) {
			e.WriteString(*as[string](s))
			e.WriteString(*as[string](s.add(off)))
		}
		return
	}
	if c.direct == nil {
		encodeMapSlots(w, e, size, off, c.elemEnc)
		return
	}
	for s := w.next(size); !s.isNil(); s = w.next(size) {
		e.WriteString(*as[string](s))
		c.direct(*as[V](s.add(off)), e)
		if e.Err != nil {
			e.AddKey(*as[string](s))
			return
		}
	}
}

// encodeMapSlots writes the entries of a small map from its group, each
// value encoded in place by enc, and names the key of a value that fails.
func encodeMapSlots(w *smallMapWalk, e *encodeState, size, off uintptr, enc encoder) {
	for s := w.next(size); !s.isNil(); s = w.next(size) {
		e.WriteString(*as[string](s))
		enc.encode(s.add(off), e)
		if e.Err != nil {
			e.AddKey(*as[string](s))
			return
		}
	}
}

func (c *typedMapCodec[V]) encodeRanged(m map[string]V, e *encodeState) {
	if c.stringValues {
		for k, v := range any(m).(map[string]string) {
			e.WriteString(k)
			e.WriteString(v)
		}
	} else if c.direct != nil {
		for k, v := range m {
			e.WriteString(k)
			c.direct(v, e)
			if e.Err != nil {
				e.AddKey(k)
				return
			}
		}
	} else {
		// One scratch value for the whole map: taking the address of
		// the loop variable would allocate per element.
		tmp := new(V)
		for k, v := range m {
			e.WriteString(k)
			*tmp = v
			c.elemEnc.encode(pointerTo(tmp), e)
			if e.Err != nil {
				e.AddKey(k)
				return
			}
		}
	}
}

// reflectMapCodec handles every other map type with string-kind keys.
type reflectMapCodec struct {
	t       reflect.Type
	minSize int
	elemDec decoder
	elemEnc encoder
	// slotSize and valueOff place an entry in a small map's group (see
	// walkSmallMap); slotSize is 0 when the values are not stored in the
	// slots.
	slotSize, valueOff uintptr
}

// newReflectMapCodec sets up the walk of small maps of t: the runtime
// keeps a key and its value in a slot laid out as a struct of the two,
// unless the value is larger than 128 bytes (then the slot holds a
// pointer to it) or takes no space.
func newReflectMapCodec(t reflect.Type, minSize int, dec decoder, enc encoder) *reflectMapCodec {
	c := &reflectMapCodec{t: t, minSize: minSize, elemDec: dec, elemEnc: enc}
	if size := t.Elem().Size(); enc != nil && smallMapsWalkable && size > 0 && size <= 128 {
		slot := reflect.StructOf([]reflect.StructField{{Name: "K", Type: t.Key()}, {Name: "V", Type: t.Elem()}})
		if slotStrideHolds(t, slot.Size()) {
			c.slotSize, c.valueOff = slot.Size(), slot.Field(1).Offset
		}
	}
	return c
}

// slotStrideHolds checks slotSize on a full small map of t built here:
// each slot must hold one of the keys put in, compared by their string
// headers, so that a wrong stride is caught without reading through what
// it finds.
func slotStrideHolds(t reflect.Type, slotSize uintptr) bool {
	m := reflect.MakeMapWithSize(t, 8)
	keys := make(map[[2]uintptr]bool)
	for i := range 8 {
		k := reflect.New(t.Key()).Elem()
		k.SetString("key" + strconv.Itoa(i))
		m.SetMapIndex(k, reflect.Zero(t.Elem()))
		str := k.String()
		keys[*as[[2]uintptr](pointerTo(&str))] = true
	}
	mp := pointerOfValue(m)
	w, ok := walkSmallMap(pointerTo(&mp))
	if !ok || w.count() != len(keys) {
		return false
	}
	for s := w.next(slotSize); !s.isNil(); s = w.next(slotSize) {
		header := *as[[2]uintptr](s)
		if !keys[header] {
			return false
		}
		delete(keys, header)
	}
	return len(keys) == 0
}

func (c *reflectMapCodec) decode(p pointer, d *decodeState) {
	if !d.Enter() {
		return
	}
	m := valueAt(c.t, p).Elem()
	var n int64
	var tmp, key reflect.Value
	for {
		count, blk := d.ReadBlock(n, c.minSize)
		if count == 0 {
			break
		}
		if !d.ReserveItems(count, int64(c.t.Elem().Size()+16)) { // as in typedMapCodec
			d.EndBlock(blk)
			return
		}
		if m.IsNil() {
			m.Set(reflect.MakeMapWithSize(c.t, mapSizeHint(count)))
		}
		if !tmp.IsValid() {
			// One value and one key for the whole map: SetMapIndex copies
			// both, and a key converted per entry would allocate.
			tmp = reflect.New(c.t.Elem())
			key = reflect.New(c.t.Key()).Elem()
		}
		for i := int64(0); i < count; i++ {
			k := d.ReadString()
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, c.minSize)
				d.AddIndex(n + i)
				return
			}
			tmp.Elem().SetZero()
			c.elemDec.decode(pointerOfValue(tmp), d)
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(i, count, c.minSize)
				d.AddKey(k)
				return
			}
			key.SetString(k)
			m.SetMapIndex(key, tmp.Elem())
		}
		if !d.EndBlock(blk) {
			return
		}
		n += count
	}
	if d.Err == nil {
		if m.IsNil() {
			m.Set(reflect.MakeMap(c.t))
		}
		d.Leave()
	}
}

func (c *reflectMapCodec) encode(p pointer, e *encodeState) {
	if !e.Enter() {
		return
	}
	if c.slotSize != 0 {
		if w, ok := walkSmallMap(p); ok {
			c.encodeSlots(&w, e)
			return
		}
	}
	m := valueAt(c.t, p).Elem()
	if m.Len() > 0 {
		e.WriteLong(int64(m.Len()))
		tmp := reflect.New(c.t.Elem())
		key := reflect.New(c.t.Key()).Elem()
		it := m.MapRange()
		for it.Next() {
			key.SetIterKey(it)
			tmp.Elem().SetIterValue(it)
			k := key.String()
			e.WriteString(k)
			c.elemEnc.encode(pointerOfValue(tmp), e)
			if e.Err != nil {
				e.AddKey(k)
				return
			}
		}
	}
	e.Buf = append(e.Buf, 0)
	e.Leave()
}

// encodeSlots encodes a small map straight from its group, each value in
// place, and closes the map.
func (c *reflectMapCodec) encodeSlots(w *smallMapWalk, e *encodeState) {
	if n := w.count(); n > 0 {
		e.WriteLong(int64(n))
		if encodeMapSlots(w, e, c.slotSize, c.valueOff, c.elemEnc); e.Err != nil {
			return
		}
	}
	e.Buf = append(e.Buf, 0)
	e.Leave()
}

func (c *compiler) mapDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	codec, err := c.mapCodec(s, t, path, true)
	if err != nil {
		return nil, err
	}
	return codec.(decoder), nil
}

func (c *compiler) mapEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	codec, err := c.mapCodec(s, t, path, false)
	if err != nil {
		return nil, err
	}
	return codec.(encoder), nil
}

// mapCodec builds the decoder (or encoder) of a map schema for t.
func (c *compiler) mapCodec(s *schema.Schema, t reflect.Type, path string, decode bool) (any, error) {
	if t.Kind() != reflect.Map || t.Key().Kind() != reflect.String {
		return nil, typeErr(path, t, s, "a map maps to a Go map with string keys")
	}
	values := s.Values()
	minSize := 1 + values.MinEncodedSize()
	var dec decoder
	var enc encoder
	var err error
	epath := path + "[]"
	if decode {
		dec, err = c.decoderFor(values, t.Elem(), epath)
	} else {
		enc, err = c.encoderFor(values, t.Elem(), epath)
	}
	if err != nil {
		return nil, err
	}
	if t.Key() == reflect.TypeFor[string]() {
		switch t.Elem() {
		case reflect.TypeFor[string]():
			return newTypedMapCodec[string](minSize, dec, enc), nil
		case reflect.TypeFor[int64]():
			return newTypedMapCodec[int64](minSize, dec, enc), nil
		case reflect.TypeFor[int32]():
			return newTypedMapCodec[int32](minSize, dec, enc), nil
		case reflect.TypeFor[int]():
			return newTypedMapCodec[int](minSize, dec, enc), nil
		case reflect.TypeFor[float64]():
			return newTypedMapCodec[float64](minSize, dec, enc), nil
		case reflect.TypeFor[float32]():
			return newTypedMapCodec[float32](minSize, dec, enc), nil
		case reflect.TypeFor[bool]():
			return newTypedMapCodec[bool](minSize, dec, enc), nil
		case reflect.TypeFor[[]byte]():
			return newTypedMapCodec[[]byte](minSize, dec, enc), nil
		case anyType:
			return newTypedMapCodec[any](minSize, dec, enc), nil
		}
	}
	return newReflectMapCodec(t, minSize, dec, enc), nil
}

// mapSlot is the layout of one entry of a map[string]V in its group: the
// key, then the value at the value's alignment.
type mapSlot[V any] struct {
	key   string //nolint:unused // read through the slot's layout, not by name
	value V
}
