package schema

import (
	"hash/maphash"
	"math/bits"
)

// fieldTable finds a record's fields by name: an open-addressed table of
// 1 + the field's index (0 for an empty slot), twice as long as there are
// fields, rounded up to a power of two. A map from names to indexes costs
// about 60 bytes a field, as much as the field's text; this costs 8 at
// most. Records of few fields have none and are scanned.
//
// The bits of a slot above those the index needs hold bits of the name's
// hash, so that a probe that meets another name rarely reads that name:
// in a large record each read is a cache miss, and one lookup met two
// names on average.
type fieldTable []uint32

// scanFields is the number of fields up to which a record is scanned
// rather than given a table.
const scanFields = 8

// fieldSeed is the seed of every fieldTable: random for each process, so
// that the names of a schema cannot be chosen to collide.
var fieldSeed = maphash.MakeSeed()

func newFieldTable(n int) *fieldTable {
	if n <= scanFields {
		return nil
	}
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t := make(fieldTable, size)
	return &t
}

// slot returns where the probe for name starts, the bits of the hash
// kept in a slot (tag), and how many low bits of a slot hold the index.
// The table is at least twice as long as the number of fields, so that
// 1 + an index fits in the bits of its length.
func (t fieldTable) slot(name string) (i int, tag uint32, low uint) {
	h := maphash.String(fieldSeed, name)
	low = uint(bits.TrailingZeros(uint(len(t))))
	// The high bits of the hash, independent of the low ones that
	// choose the slot; none when the index needs all 32 (a shift of 64
	// gives 0).
	tag = uint32(h>>(32+low)) << low
	return int(h) & (len(t) - 1), tag, low
}

// fieldIndex returns the index of the field of s called name, or -1.
func (s *Schema) fieldIndex(name string) int {
	if s.nm().fieldTable == nil {
		for i, f := range s.nm().fields {
			if f.name == name {
				return i
			}
		}
		return -1
	}
	t := *s.named.fieldTable
	i, tag, low := t.slot(name)
	mask := len(t) - 1
	for ; ; i = (i + 1) & mask {
		e := t[i]
		if e == 0 {
			return -1
		}
		if e>>low<<low == tag {
			if j := int(e&(1<<low-1)) - 1; s.named.fields[j].name == name {
				return j
			}
		}
	}
}

// addField enters the last field of s in its table; its name must not be
// there.
func (s *Schema) addField() {
	if s.nm().fieldTable == nil {
		return
	}
	t := *s.named.fieldTable
	n := len(s.named.fields)
	j, tag, _ := t.slot(s.named.fields[n-1].name)
	mask := len(t) - 1
	for t[j] != 0 {
		j = (j + 1) & mask
	}
	t[j] = tag | uint32(n)
}

// scanSymbols is the number of symbols up to which an enum is scanned
// rather than given a map of its symbols: a map costs about 200 bytes
// even for one symbol.
const scanSymbols = 8

// symbolPos returns the index of symbol in the enum s, or -1.
func (s *Schema) symbolPos(symbol string) int {
	if s.en().symbolIndex != nil {
		if i, ok := s.en().symbolIndex[symbol]; ok {
			return i
		}
		return -1
	}
	for i, sym := range s.en().symbols {
		if sym == symbol {
			return i
		}
	}
	return -1
}
