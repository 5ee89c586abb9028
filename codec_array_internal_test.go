package avro

import (
	"math"
	"testing"
	"unsafe"

	"github.com/modern-go/reflect2"
)

// growSlice charges the array UnsafeGrow will make before it makes it, by
// computing its capacity with grownCap; this checks the two agree.
func TestGrownCapIsReflect2s(t *testing.T) {
	typ := reflect2.TypeOf([]int32{}).(reflect2.SliceType)
	for _, c := range []int{0, 1, 3, 511, 512, 1000, 1023, 1024, 1025, 5000, 1 << 16} {
		for _, n := range []int{c + 1, c + 7, 2*c + 1, 3*c + 100, 10*c + 3} {
			s := make([]int32, c)
			typ.UnsafeGrow(unsafe.Pointer(&s), n)
			if got, want := grownCap(c, n), cap(s); got != want {
				t.Errorf("cap %d grown to %d: grownCap says %d, UnsafeGrow made %d", c, n, got, want)
			}
		}
	}
}

// chunkSlice bounds the count before it multiplies it by the element
// size: 2^61 longs are 2^64 bytes, which wrapped to 0 and passed as a
// short array (on 32-bit platforms, 2^28 longs wrapped negative and
// sliced the chunk out of range: a panic).
func TestChunkSliceCountWraps(t *testing.T) {
	d := &decodeState{}
	for _, n := range []int{math.MaxInt/8 + 1, math.MaxInt/4 + 1, math.MaxInt} {
		if s, ok := chunkSlice[int64](d, n); ok {
			t.Errorf("chunkSlice of %d longs: %d elements", n, len(s))
		}
	}
	// A short one still carves (the unsafe build, where slabBoxing is set
	// too; the purego build never carves).
	if s, ok := chunkSlice[int64](d, 32); ok != slabBoxing || (ok && len(s) != 32) {
		t.Errorf("chunkSlice of 32 longs: %d elements, %v", len(s), ok)
	}
}
