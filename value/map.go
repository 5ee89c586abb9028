package value

import (
	"iter"
	"sync/atomic"
)

// Map is an Avro map: string keys and their values, kept as two parallel
// slices in the order they were added (for a decoded map, the order on the
// wire), with a lookup index built on first use.
//
// A decoder appends keys and values as it reads blocks, with no hashing
// and no per-entry allocation, and re-encoding writes the entries back in
// the same order, so decode-encode round trips are byte-identical. Small
// maps (up to 8 entries) are searched linearly; larger ones get a Go map
// index on the first Get, built once (safe for concurrent readers). Avro
// data may repeat a key: Get returns the last entry, as a Go map would
// after decoding.
//
// A *Map is a reference shared by the Values made with MapOf. It is not
// safe for concurrent mutation.
type Map struct {
	// The header is laid out as three Values (pointers in words 0, 2 and
	// 4 only) so that an Arena can place it, the keys and the values in
	// one []Value block; see the invariants at the top of value.go. keys
	// and vals point at c slots each, of which the first n are entries.
	keys *string
	n    int
	vals *Value
	c    int
	idx  atomic.Pointer[map[string]int]
	_    uintptr
}

const linearMax = 8

// NewMap returns a map of the given entries, taking ownership of both
// slices (no copy). It panics if their lengths differ.
func NewMap(keys []string, values []Value) *Map {
	if len(keys) != len(values) {
		panic("value: NewMap: len(keys) != len(values)")
	}
	m := new(Map)
	m.adopt(keys, values)
	return m
}

// adopt makes keys and vals (of equal length) the map's storage, with the
// smaller of their capacities.
func (m *Map) adopt(keys []string, vals []Value) {
	c := min(cap(keys), cap(vals))
	keys, vals = keys[:len(keys):c], vals[:len(vals):c]
	m.keys, m.vals, m.n, m.c = nil, nil, len(keys), c
	if c > 0 {
		m.keys, m.vals = firstOf(keys), firstOf(vals)
	}
}

// keySlice and valSlice return the entries (cap == len).
func (m *Map) keySlice() []string { return sliceOf(m.keys, m.n) }
func (m *Map) valSlice() []Value  { return sliceOf(m.vals, m.n) }

// Len returns the number of entries (repeated keys counted each time).
func (m *Map) Len() int { return m.n }

// Key returns the key of entry i.
func (m *Map) Key(i int) string { return m.keySlice()[i] }

// ValueAt returns the value of entry i.
func (m *Map) ValueAt(i int) Value { return m.valSlice()[i] }

// Keys returns the keys in entry order. The slice is the map's storage:
// keys written through it must be written before the map's first Get,
// Set or comparison (Equal), which index a map of more than 8 entries
// and would not see a key changed later.
func (m *Map) Keys() []string { return m.keySlice() }

// Values returns the values in entry order. The slice is the map's storage.
func (m *Map) Values() []Value { return m.valSlice() }

// All yields the entries in order.
func (m *Map) All() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		keys, vals := m.keySlice(), m.valSlice()
		for i, k := range keys {
			if !yield(k, vals[i]) {
				return
			}
		}
	}
}

// Get returns the value of key and whether it is present.
func (m *Map) Get(key string) (Value, bool) {
	if i := m.find(key); i >= 0 {
		return m.valSlice()[i], true
	}
	return Value{}, false
}

// distinctKeys returns the number of different keys.
func (m *Map) distinctKeys() int {
	keys := m.keySlice()
	if len(keys) <= linearMax {
		n := 0
		for i, k := range keys {
			if m.find(k) == i {
				n++
			}
		}
		return n
	}
	m.find("") // builds the index
	return len(*m.idx.Load())
}

func (m *Map) find(key string) int {
	keys := m.keySlice()
	if len(keys) <= linearMax {
		for i := len(keys) - 1; i >= 0; i-- {
			if keys[i] == key {
				return i
			}
		}
		return -1
	}
	idx := m.idx.Load()
	if idx == nil {
		x := make(map[string]int, len(keys))
		for i, k := range keys {
			x[k] = i
		}
		idx = &x
		m.idx.Store(idx)
	}
	if i, ok := (*idx)[key]; ok {
		return i
	}
	return -1
}

// Set sets the value of key: the last entry with that key is replaced, or a
// new entry is appended.
func (m *Map) Set(key string, v Value) {
	if i := m.find(key); i >= 0 {
		m.valSlice()[i] = v
		return
	}
	m.Append(key, v)
}

// Append adds an entry without looking for key among the existing ones,
// as a decoder does: entries keep their order and repeated keys, so the
// map re-encodes to the bytes it was read from. Get then finds the last
// entry of a repeated key.
func (m *Map) Append(key string, v Value) {
	if m.n == m.c {
		m.grow()
	}
	sliceOf(m.keys, m.c)[m.n] = key
	sliceOf(m.vals, m.c)[m.n] = v
	m.n++
	if idx := m.idx.Load(); idx != nil {
		(*idx)[key] = m.n - 1
	}
}

// grow moves the entries to new storage with room for more.
func (m *Map) grow() {
	c := max(2*m.c, 4)
	keys := make([]string, m.n, c)
	vals := make([]Value, m.n, c)
	copy(keys, m.keySlice())
	copy(vals, m.valSlice())
	m.adopt(keys, vals)
}
