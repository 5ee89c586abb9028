package codec

import (
	"unsafe"

	"github.com/avrogo/avro/schema"
)

// skipper is a decoder that reads a value of its schema and discards it,
// without allocating: fixed-size values by width, strings and bytes by
// length, array and map blocks item by item (a block's byte size must
// match its items, which only reading them shows). It ignores the pointer
// it is given.
type skipper struct {
	s *schema.Schema
	// fields, items, values and branches are the skippers of the
	// children, compiled once.
	children []*skipper
}

func (c *compiler) skipper(s *schema.Schema) (*skipper, error) {
	return c.skipperOf(s, map[*schema.Schema]*skipper{}), nil
}

func (c *compiler) skipperOf(s *schema.Schema, seen map[*schema.Schema]*skipper) *skipper {
	if sk, ok := seen[s]; ok {
		return sk
	}
	sk := &skipper{s: s}
	seen[s] = sk
	switch s.Kind() {
	case schema.Record:
		for _, f := range s.Fields() {
			sk.children = append(sk.children, c.skipperOf(f.Type(), seen))
		}
	case schema.Array, schema.Map:
		elem := s.Items()
		if s.Kind() == schema.Map {
			elem = s.Values()
		}
		sk.children = []*skipper{c.skipperOf(elem, seen)}
	case schema.Union:
		for _, b := range s.Branches() {
			sk.children = append(sk.children, c.skipperOf(b, seen))
		}
	}
	return sk
}

func (sk *skipper) decode(_ unsafe.Pointer, d *decodeState) { sk.skip(d) }

func (sk *skipper) skip(d *decodeState) {
	switch sk.s.Kind() {
	case schema.Null:
	case schema.Boolean:
		d.ReadBool()
	case schema.Int:
		d.ReadInt()
	case schema.Long:
		d.ReadLong()
	case schema.Float:
		d.ReadRaw(4)
	case schema.Double:
		d.ReadRaw(8)
	case schema.String, schema.Bytes:
		if n := d.ReadLength(); n > 0 {
			d.Pos += n
		}
	case schema.Fixed:
		d.ReadRaw(sk.s.Size())
	case schema.Enum:
		readEnumIndex(sk.s, d)
	case schema.Union:
		i := readUnionIndex(sk.s, d)
		if d.Err == nil {
			sk.children[i].skip(d)
		}
	case schema.Record:
		if !d.Enter() {
			return
		}
		for i, f := range sk.children {
			f.skip(d)
			if d.Err != nil {
				d.AddField(sk.s.Fields()[i].Name())
				return
			}
		}
		d.Leave()
	case schema.Array, schema.Map:
		sk.skipBlocks(d)
	}
}

func (sk *skipper) skipBlocks(d *decodeState) {
	if !d.Enter() {
		return
	}
	minSize := sk.children[0].s.MinEncodedSize()
	if sk.s.Kind() == schema.Map {
		minSize++
	}
	var n int64
	for {
		// A block's byte size is not jumped over: its items are walked
		// and must end where it says (see ReadBlock), so that a skipping
		// reader and a decoding one never see different data.
		count, blk := d.ReadBlock(n, minSize)
		if count == 0 {
			if d.Err != nil {
				return
			}
			break
		}
		if i := sk.skipItems(d, count); i >= 0 {
			d.EndBlock(blk)
			d.AddIndex(n + i)
			return
		}
		if !d.EndBlock(blk) {
			return
		}
		n += count
	}
	d.Leave()
}

// skipItems skips the count items of a block (their number checked
// against the input by readBlock), and returns the index of the item that
// failed, or -1. Items of fixed width are skipped at once, and ints and
// longs by their lengths, inline.
func (sk *skipper) skipItems(d *decodeState, count int64) int64 {
	elem := sk.children[0]
	if sk.s.Kind() == schema.Array {
		switch elem.s.Kind() {
		case schema.Null:
			return -1
		case schema.Float, schema.Double, schema.Fixed:
			// ReadBlock checked that count items of this width fit.
			d.Pos += int(count) * elem.s.MinEncodedSize()
			return -1
		case schema.Int, schema.Long:
			return skipVarints(d, count, elem.s.Kind() == schema.Long)
		}
	}
	for i := int64(0); i < count; i++ {
		if sk.s.Kind() == schema.Map {
			if k := d.ReadLength(); k > 0 {
				d.Pos += k
			}
		}
		elem.skip(d)
		if d.Err != nil {
			return i
		}
	}
	return -1
}

// skipVarints skips count int or long varints, failing as readInt and
// ReadLong would on a malformed one; it returns the index of that one, or
// -1.
func skipVarints(d *decodeState, count int64, long bool) int64 {
	buf, p := d.Buf, d.Pos
	for i := int64(0); i < count; i++ {
		if p < len(buf) && buf[p] < 0x80 {
			p++
			continue
		}
		if n := varintLenInWord(buf[p:], long); n > 0 {
			p += n
			continue
		}
		d.Pos = p
		if d.skipVarint(long); d.Err != nil {
			return i
		}
		p = d.Pos
	}
	d.Pos = p
	return -1
}
