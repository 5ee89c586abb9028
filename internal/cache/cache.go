// Package cache holds the compiled-codec cache that every *schema.Schema
// carries. It lives in an internal package so that the schema package can
// embed it without exporting it, and the codec packages can reach it through
// ForSchema without importing an unexported field.
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

// Cache maps keys to compiled codecs. Reads are one atomic load and a map
// lookup; writes copy the map under a mutex (codecs are compiled once per
// Go type, so writes are rare and reads dominate).
type Cache struct {
	m  atomic.Pointer[map[Key]any]
	mu sync.Mutex
}

// Load returns the codec stored under k, if any.
func (c *Cache) Load(k Key) (any, bool) {
	m := c.m.Load()
	if m == nil {
		return nil, false
	}
	v, ok := (*m)[k]
	return v, ok
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
			return existing
		}
	}
	n := make(map[Key]any, 1+lenOf(old))
	if old != nil {
		for key, val := range *old {
			n[key] = val
		}
	}
	n[k] = v
	c.m.Store(&n)
	return v
}

func lenOf(m *map[Key]any) int {
	if m == nil {
		return 0
	}
	return len(*m)
}

// ForSchema returns the cache of a *schema.Schema passed as an unsafe
// pointer. The schema package sets it in its init function; it is nil only
// if that package is not linked, which cannot happen for a caller that has a
// *schema.Schema.
var ForSchema func(s unsafe.Pointer) *Cache
