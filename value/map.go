package value

import (
	"iter"
	"sync/atomic"
)

// Map is an Avro map: string keys and their values, kept as two parallel
// slices in the order they were added (for a decoded map, the order on the
// wire), with a lookup index built on first use.
//
// Why this shape: a decoder appends keys and values as it reads blocks,
// with no hashing and no per-entry allocation, and re-encoding writes the
// entries back in the same order, so decode-encode round trips are
// byte-identical. Small maps (up to 8 entries) are searched linearly;
// larger ones get a Go map index on the first Get, built once (safe for
// concurrent readers). Avro data may repeat a key: Get returns the last
// entry, as a Go map would after decoding.
//
// A *Map is a reference shared by the Values made with MapOf. It is not
// safe for concurrent mutation.
type Map struct {
	keys []string
	vals []Value
	idx  atomic.Pointer[map[string]int]
}

const linearMax = 8

// NewMap returns a map of the given entries, taking ownership of both
// slices (no copy). It panics if their lengths differ.
func NewMap(keys []string, values []Value) *Map {
	if len(keys) != len(values) {
		panic("value: NewMap: len(keys) != len(values)")
	}
	return &Map{keys: keys, vals: values}
}

// Len returns the number of entries (repeated keys counted each time).
func (m *Map) Len() int { return len(m.keys) }

// Key returns the key of entry i.
func (m *Map) Key(i int) string { return m.keys[i] }

// ValueAt returns the value of entry i.
func (m *Map) ValueAt(i int) Value { return m.vals[i] }

// Keys returns the keys in entry order. The slice is the map's storage.
func (m *Map) Keys() []string { return m.keys[:len(m.keys):len(m.keys)] }

// Values returns the values in entry order. The slice is the map's storage.
func (m *Map) Values() []Value { return m.vals[:len(m.vals):len(m.vals)] }

// All yields the entries in order.
func (m *Map) All() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		for i, k := range m.keys {
			if !yield(k, m.vals[i]) {
				return
			}
		}
	}
}

// Get returns the value of key and whether it is present.
func (m *Map) Get(key string) (Value, bool) {
	if i := m.find(key); i >= 0 {
		return m.vals[i], true
	}
	return Value{}, false
}

func (m *Map) find(key string) int {
	if len(m.keys) <= linearMax {
		for i := len(m.keys) - 1; i >= 0; i-- {
			if m.keys[i] == key {
				return i
			}
		}
		return -1
	}
	idx := m.idx.Load()
	if idx == nil {
		x := make(map[string]int, len(m.keys))
		for i, k := range m.keys {
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
		m.vals[i] = v
		return
	}
	m.keys = append(m.keys, key)
	m.vals = append(m.vals, v)
	if idx := m.idx.Load(); idx != nil {
		(*idx)[key] = len(m.keys) - 1
	}
}
