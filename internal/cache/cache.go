// Package cache holds the compiled-codec cache that every *schema.Schema
// carries. It lives in an internal package so that the schema package can
// embed it without exporting it, and the codec packages reach it with Of.
package cache

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Key identifies one compiled codec: the Go type it serves (a runtime type
// pointer) plus a small discriminator for the codec family, so that the
// struct, value.Value and any codecs of one schema do not collide.
type Key struct {
	Type   unsafe.Pointer
	Family uint8
}

// Cache maps keys to compiled codecs. Reads are one atomic load and a key
// comparison when the key is the one last looked up (a schema is usually
// used with one Go type), else a map lookup; writes copy the map under a
// mutex (codecs are compiled once per Go type, so writes are rare and
// reads dominate).
type Cache struct {
	last atomic.Pointer[entry]
	m    atomic.Pointer[map[Key]*entry]
	mu   sync.Mutex
}

type entry struct {
	k Key
	v any
}

// Load returns the codec stored under k, if any.
func (c *Cache) Load(k Key) (any, bool) {
	if e := c.last.Load(); e != nil && e.k == k {
		return e.v, true
	}
	m := c.m.Load()
	if m == nil {
		return nil, false
	}
	e, ok := (*m)[k]
	if !ok {
		return nil, false
	}
	// Entries are allocated once, so remembering one costs no allocation;
	// callers alternating types write the pointer on each switch only.
	c.last.Store(e)
	return e.v, true
}

// LoadOrStore stores v under k unless a value is already there, and returns
// the value that is stored in the end. Two goroutines that compile the same
// codec at once therefore agree on one of them.
func (c *Cache) LoadOrStore(k Key, v any) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	if old != nil {
		if existing, ok := (*old)[k]; ok {
			return existing.v
		}
	}
	n := make(map[Key]*entry, 1+lenOf(old))
	if old != nil {
		for key, val := range *old {
			n[key] = val
		}
	}
	n[k] = &entry{k, v}
	c.m.Store(&n)
	return v
}

func lenOf(m *map[Key]*entry) int {
	if m == nil {
		return 0
	}
	return len(*m)
}

// Of returns the cache of a schema node: node must be a *schema.Schema,
// whose first field is its Cache (the schema package fails to compile
// otherwise). It is a conversion, with no call or lookup, and takes the
// node's type as a parameter because this package cannot import the
// schema package that imports it.
func Of[T any](node *T) *Cache { return (*Cache)(unsafe.Pointer(node)) }
