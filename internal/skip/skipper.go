package skip

import (
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// Skipper reads a value of its schema and discards it,
// without allocating: fixed-size values by width, strings and bytes by
// length, array and map blocks item by item (a block's byte size must
// match its items, which only reading them shows). It ignores the pointer
// it is given.
type Skipper struct {
	s *schema.Schema
	// fields, items, values and branches are the skippers of the
	// children, compiled once.
	children []*Skipper
	// itemSize is what an array or map passes ReadBlock for one item.
	itemSize int
}

// Memo holds the skippers compiled so far, one per schema node, which a
// recursive schema refers back to.
type Memo map[*schema.Schema]*Skipper

// New returns the skipper of s.
func New(s *schema.Schema) *Skipper { return Memo{}.Skipper(s) }

// Skipper returns the skipper of s, compiling it and the skippers of its
// children once.
func (m Memo) Skipper(s *schema.Schema) *Skipper {
	if sk, ok := m[s]; ok {
		return sk
	}
	sk := &Skipper{s: s}
	m[s] = sk
	switch s.Kind() {
	case schema.Record:
		for _, f := range s.Fields() {
			sk.children = append(sk.children, m.Skipper(f.Type()))
		}
	case schema.Array, schema.Map:
		if s.Kind() == schema.Map {
			sk.itemSize = 1 + s.Values().MinEncodedSize()
			sk.children = []*Skipper{m.Skipper(s.Values())}
		} else {
			sk.itemSize = ItemSize(s.Items())
			sk.children = []*Skipper{m.Skipper(s.Items())}
		}
	case schema.Union:
		for _, b := range s.Branches() {
			sk.children = append(sk.children, m.Skipper(b))
		}
	}
	return sk
}

// Skip reads a value of the skipper's schema and discards it; an error is
// recorded in d, as the decoders do.
func (sk *Skipper) Skip(d *wire.Decoder) {
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
		d.ReadSymbol(len(sk.s.Symbols()), sk.s.FullName())
	case schema.Union:
		i := d.ReadBranch(len(sk.s.Branches()))
		if d.Err == nil {
			sk.children[i].Skip(d)
		}
	case schema.Record:
		if !d.Enter() {
			return
		}
		for i, f := range sk.children {
			f.Skip(d)
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

func (sk *Skipper) skipBlocks(d *wire.Decoder) {
	if !d.Enter() {
		return
	}
	var n int64
	for {
		// A block's byte size is not jumped over: its items are walked
		// and must end where it says (see ReadBlock), so that a skipping
		// reader and a decoding one never see different data.
		count, blk := d.ReadBlock(n, sk.itemSize)
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
func (sk *Skipper) skipItems(d *wire.Decoder, count int64) int64 {
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
		elem.Skip(d)
		if d.Err != nil {
			return i
		}
	}
	return -1
}

// skipVarints skips count int or long varints, failing as readInt and
// ReadLong would on a malformed one; it returns the index of that one, or
// -1.
func skipVarints(d *wire.Decoder, count int64, long bool) int64 {
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
		if skipVarint(d, long); d.Err != nil {
			return i
		}
		p = d.Pos
	}
	d.Pos = p
	return -1
}
