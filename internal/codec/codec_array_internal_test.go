package codec

import (
	"fmt"
	"github.com/avrogo/avro/internal/wire"
	"math"
	"testing"
	"unsafe"

	"github.com/modern-go/reflect2"

	"github.com/avrogo/avro/schema"
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

// wire.ChunkSlice bounds the count before it multiplies it by the element
// size: 2^61 longs are 2^64 bytes, which wrapped to 0 and passed as a
// short array (on 32-bit platforms, 2^28 longs wrapped negative and
// sliced the chunk out of range: a panic).
func TestChunkSliceCountWraps(t *testing.T) {
	d := &decodeState{}
	for _, n := range []int{math.MaxInt/8 + 1, math.MaxInt/4 + 1, math.MaxInt} {
		if s, ok := wire.ChunkSlice[int64](&d.Decoder, n); ok {
			t.Errorf("wire.ChunkSlice of %d longs: %d elements", n, len(s))
		}
	}
	// A short one still carves (the unsafe build, where wire.SlabBoxing is set
	// too; the purego build never carves).
	if s, ok := wire.ChunkSlice[int64](&d.Decoder, 32); ok != wire.SlabBoxing || (ok && len(s) != 32) {
		t.Errorf("wire.ChunkSlice of 32 longs: %d elements, %v", len(s), ok)
	}
}

// A block of eight or more strings is copied at once; it charged the
// allocation limit for the length bytes too, so a MaxAlloc that the
// string-by-string path (and the purego build) accepts failed, with no
// item index in the error.
func TestStringSpanChargesLikeEachString(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":"string"}`)
	data, err := Marshal(s, []string{"a", "b", "c", "d", "e", "f", "g", "h"})
	if err != nil {
		t.Fatal(err)
	}
	for limit := int64(1); limit < 400; limit++ {
		o := DecodeOptions{MaxAlloc: limit}
		each := newDecodeState(&o, data)
		each.Pos = 1 // after the block count
		decodeStringsEach(make([]string, 8), each)
		eachErr := each.toError()
		each.release()

		block := newDecodeState(&o, data)
		block.Pos = 1
		decodeStringsBlock(make([]string, 8), block)
		blockErr := block.toError()
		block.release()
		if fmt.Sprint(eachErr) != fmt.Sprint(blockErr) {
			t.Fatalf("MaxAlloc %d: one by one %v, as a block %v", limit, eachErr, blockErr)
		}
	}
}
