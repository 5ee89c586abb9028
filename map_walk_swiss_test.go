//go:build !purego && (goexperiment.swissmap || go1.26)

package avro

import (
	"strconv"
	"testing"
	"unsafe"
)

// TestSmallMapsWalkable checks that the start-up layout check passed on
// this Go: if a Go release changes its maps, maps are still encoded
// correctly (ranged), but this test says the fast path is off.
func TestSmallMapsWalkable(t *testing.T) {
	if !smallMapsWalkable {
		t.Fatal("the map layout check failed: small maps are ranged; update map_walk_swiss.go for this Go release")
	}
	for n := range 12 {
		m := map[string]int64{}
		for i := range n {
			m[strconv.Itoa(i)] = int64(i)
		}
		w, ok := walkSmallMap(unsafe.Pointer(&m))
		// An empty map may or may not have its group yet.
		if (n >= 1 && n <= 8 && !ok) || (n > 8 && ok) {
			t.Fatalf("map of %d: walkable %v", n, ok)
		}
		walked := 0
		for s := w.next(unsafe.Sizeof(mapSlot[int64]{})); s != nil; s = w.next(unsafe.Sizeof(mapSlot[int64]{})) {
			k, v := *(*string)(s), *(*int64)(unsafe.Add(s, unsafe.Offsetof(mapSlot[int64]{}.value)))
			if m[k] != v || strconv.Itoa(int(v)) != k {
				t.Fatalf("map of %d: walked %q: %d", n, k, v)
			}
			walked++
		}
		if ok && walked != n {
			t.Fatalf("map of %d: walked %d entries", n, walked)
		}
	}
}
