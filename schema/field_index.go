package schema

import "hash/maphash"

// fieldTable finds a record's fields by name: an open-addressed table of
// 1 + the field's index (0 for an empty slot), twice as long as there are
// fields, rounded up to a power of two. A map from names to indexes costs
// about 60 bytes a field, as much as the field's text; this costs 8 at
// most. Records of few fields have none and are scanned.
type fieldTable []int32

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
	t := *s.nm().fieldTable
	mask := len(t) - 1
	for i := int(maphash.String(fieldSeed, name)) & mask; ; i = (i + 1) & mask {
		e := t[i]
		if e == 0 {
			return -1
		}
		if s.nm().fields[e-1].name == name {
			return int(e - 1)
		}
	}
}

// addField enters the last field of s in its table; its name must not be
// there.
func (s *Schema) addField() {
	if s.nm().fieldTable == nil {
		return
	}
	t := *s.nm().fieldTable
	i := len(s.nm().fields) - 1
	mask := len(t) - 1
	j := int(maphash.String(fieldSeed, s.nm().fields[i].name)) & mask
	for t[j] != 0 {
		j = (j + 1) & mask
	}
	t[j] = int32(i + 1)
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
