package codec

import "math/bits"

// A record held in a map[string]any is written in its schema's field
// order. Looking each field up costs a map access per field (hashing the
// name with the map's seed, probing its groups), which is most of
// encoding a record of primitives once the map is past one group of 8.
// Walking the map's table once and placing each entry by its key costs
// less, when the field a key names is found without a map: fieldTable
// finds it by a multiplicative hash of the key's length and its first and
// last four bytes, with a multiplier chosen when the codec is compiled so
// that the record's field names fill distinct slots. Maps of one group
// are walked in order instead (see fieldCursor).

// maxTableFields is the most fields a fieldTable serves: which fields a
// map held is kept in one uint64. Records of fewer than minTableFields
// fit a map's first group, which a fieldCursor walks without a table.
const (
	minTableFields = 9
	maxTableFields = 64
)

type fieldTable struct {
	names []string
	slots []uint8 // field index + 1; 0 is empty
	mul   uint64
	shift uint
}

// newFieldTable returns the table of names, or nil when the record has
// so few fields that its maps are one group (see minTableFields), or
// too many, or no multiplier tried separates them (names that share
// their length and their first and last four bytes).
func newFieldTable(names []string) *fieldTable {
	if len(names) < minTableFields || len(names) > maxTableFields {
		return nil
	}
	bits := uint(1)
	for 1<<bits < 2*len(names) {
		bits++
	}
	// A fixed sequence of odd multipliers: the table a schema gets is the
	// same on every run.
	mul := uint64(0x9e3779b97f4a7c15)
	for ; bits <= 10; bits++ {
		t := &fieldTable{names: names, slots: make([]uint8, 1<<bits), shift: 64 - bits}
		for range 64 {
			mul = mul*6364136223846793005 + 1442695040888963407
			t.mul = mul | 1
			if t.fill() {
				return t
			}
		}
	}
	return nil
}

func (t *fieldTable) fill() bool {
	clear(t.slots)
	for i, n := range t.names {
		h := t.hash(n)
		if t.slots[h] != 0 {
			return false
		}
		t.slots[h] = uint8(i + 1)
	}
	return true
}

func (t *fieldTable) hash(k string) uint64 {
	n := len(k)
	x := uint64(n)
	switch {
	case n >= 4:
		first := uint64(k[0]) | uint64(k[1])<<8 | uint64(k[2])<<16 | uint64(k[3])<<24
		last := uint64(k[n-4]) | uint64(k[n-3])<<8 | uint64(k[n-2])<<16 | uint64(k[n-1])<<24
		x ^= first<<8 ^ last<<32
	case n > 0:
		x ^= uint64(k[0])<<8 | uint64(k[n/2])<<16 | uint64(k[n-1])<<24
	}
	return (x * t.mul) >> t.shift
}

// index returns the index of the field named k, or -1.
func (t *fieldTable) index(k string) int {
	i := int(t.slots[t.hash(k)]) - 1
	if i >= 0 && t.names[i] == k {
		return i
	}
	return -1
}

// find walks m, when it is a map of one table, and sets c to give each
// field from the slot the walk found it in. It reports false, with c
// set to give no field from a table, when m is better looked up: a map
// of one group, a map of many keys besides the fields, or one whose
// layout the walk does not read.
func (t *fieldTable) find(m map[string]any, c *fieldCursor) bool {
	if len(m) <= 8 || len(m) > 2*len(t.names)+4 {
		return false
	}
	size, _ := slotLayout[any]()
	w, ok := walkTableMap(pointerTo(&m), size)
	// The places kept are 16 bits: a table holds at most 128 groups of
	// 8 slots of 32 bytes.
	if !ok || w.ngroups > 128 || size > 32 {
		return false
	}
	var held uint64
	count := 0
	for g := range w.ngroups {
		full, slots := tableGroup(w.groups, g, size)
		for ; full != 0; full &= full - 1 {
			count++
			s := slots.add(uintptr(bits.TrailingZeros64(full)>>3) * size)
			k := *as[string](s)
			f := int(t.slots[t.hash(k)]) - 1
			if f < 0 || t.names[f] != k {
				continue
			}
			c.at[f] = uint16(s.diff(w.groups))
			held |= 1 << uint(f)
		}
	}
	if count != len(m) {
		return false
	}
	c.groups, c.held = w.groups, held
	return true
}
