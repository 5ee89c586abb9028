package cache

import (
	"sync"
	"testing"
	"unsafe"
)

func TestLoadRemembersLastKey(t *testing.T) {
	var c Cache
	a, b := Key{Type: unsafe.Pointer(new(int)), Family: 1}, Key{Type: unsafe.Pointer(new(int)), Family: 1}
	if _, ok := c.Load(a); ok {
		t.Fatal("empty cache hit")
	}
	if got := c.LoadOrStore(a, "A"); got != "A" {
		t.Fatalf("LoadOrStore(a) = %v", got)
	}
	if got := c.LoadOrStore(a, "other"); got != "A" {
		t.Fatalf("second LoadOrStore(a) = %v, want the first value", got)
	}
	c.LoadOrStore(b, "B")
	// Alternate: the remembered entry must never answer for the other key.
	for i := range 10 {
		k, want := a, "A"
		if i%2 == 1 {
			k, want = b, "B"
		}
		if got, ok := c.Load(k); !ok || got != want {
			t.Fatalf("Load #%d = %v, %v; want %s", i, got, ok, want)
		}
	}
	// Same type, other family: a different key.
	if _, ok := c.Load(Key{Type: a.Type, Family: 2}); ok {
		t.Fatal("family ignored")
	}
	if n := testing.AllocsPerRun(100, func() { c.Load(a); c.Load(b) }); n != 0 {
		t.Errorf("Load allocates %v times", n)
	}
}

func TestConcurrentLoadOrStore(t *testing.T) {
	var c Cache
	keys := make([]Key, 16)
	for i := range keys {
		keys[i] = Key{Type: unsafe.Pointer(new(int)), Family: uint8(i)}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				k := keys[(i+g)%len(keys)]
				v := c.LoadOrStore(k, k.Family)
				if got, ok := c.Load(k); !ok || got != v || v != k.Family {
					t.Errorf("Load = %v, %v; stored %v", got, ok, v)
					return
				}
			}
		}()
	}
	wg.Wait()
}
