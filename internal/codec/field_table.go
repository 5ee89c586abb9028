package codec

// A record held in a map[string]any is written in its schema's field
// order. Looking each field up costs a map access per field (hashing the
// name with the map's seed, probing its groups), which is most of
// encoding a record of primitives once the map is past one group of 8.
// Walking the map's table once and placing each entry by its key costs
// less, when the field a key names is found without a map: fieldTable
// finds it by a multiplicative hash of the key's length and its first and
// last four bytes, with a multiplier chosen when the codec is compiled so
// that the record's field names fill distinct slots. Maps of up to 8
// entries, and records of few fields, are looked up.

// maxTableFields is the most fields a fieldTable serves: which fields a
// map held is kept in one uint64. Records of fewer than minTableFields
// are looked up: at 12 fields (telemetry) the walk made the binary
// encode 14% slower, at 52 (wide) 36% faster.
const (
	minTableFields = 16
	maxTableFields = 64
)

type fieldTable struct {
	names []string
	slots []uint8 // field index + 1; 0 is empty
	mul   uint64
	shift uint
}

// newFieldTable returns the table of names, or nil when a record of so
// few fields is better looked up (see minTableFields), or there are too many, or no multiplier
// tried separates them (names that share their length and their first
// and last four bytes).
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

// gather places the entries of m that name fields in vals, by field
// index, and returns which fields m held. It reports false, leaving vals
// as it found them, when m is better looked up: a map of one group, a map
// of many keys besides the fields, or one whose layout the walk does not
// read.
func (t *fieldTable) gather(m map[string]any, vals []any) (held uint64, ok bool) {
	if len(m) <= 8 || len(m) > 2*len(t.names)+4 {
		return 0, false
	}
	size, off := slotLayout[any]()
	w, ok := walkTableMap(pointerTo(&m), size)
	if !ok {
		return 0, false
	}
	for s := w.next(size); !s.isNil(); s = w.next(size) {
		if i := t.index(*as[string](s)); i >= 0 {
			vals[i] = *as[any](s.add(off))
			held |= 1 << uint(i)
		}
	}
	if w.count != uint64(len(m)) {
		clear(vals)
		return 0, false
	}
	return held, true
}

// placed gathers the fields of m into a frame of n values pushed on stack
// (records nest, each with its frame) and calls write with them. It
// reports false, having called nothing, when m is better looked up.
func (t *fieldTable) placed(m map[string]any, n int, stack *[]any, write func(vals []any, held uint64)) bool {
	if len(m) <= 8 {
		return false
	}
	base := len(*stack)
	*stack = append(*stack, make([]any, n)...)
	vals := (*stack)[base:]
	held, ok := t.gather(m, vals)
	if ok {
		write(vals, held)
		// Nested records may have moved the stack: clear both.
		clear(vals)
		clear((*stack)[base:])
	}
	*stack = (*stack)[:base]
	return ok
}
