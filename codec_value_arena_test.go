package avro

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// TestArenaSizerFollowsInputLength checks how the first arena block of a
// value.Value decode is sized: by the last tree for trees of one size, by
// the input's length for trees that vary, and never from the length of a
// stream's buffer.
func TestArenaSizerFollowsInputLength(t *testing.T) {
	var fixed arenaSizer
	for i := range 100 {
		n := 80 + i%40 // strings of varying length, the same 25 Values
		fixed.learn(25, n, n)
	}
	for _, left := range []int{60, 100, 400} {
		if got := fixed.blockSize(left); got != 26 {
			t.Errorf("trees of 25 Values, input of %d bytes: block of %d, want 26", left, got)
		}
	}

	// A record holding an array of n records: 3+5n Values in 2+3n bytes.
	tree := func(n int) (used, size int) { return 3 + 5*n, 2 + 3*n }
	train := func(z *arenaSizer) {
		r := rand.New(rand.NewPCG(1, 2))
		for range 1000 {
			used, size := tree(1 + r.IntN(40))
			z.learn(used, size, size)
		}
	}
	var varying arenaSizer
	train(&varying)
	for _, n := range []int{1, 5, 20, 40} {
		used, size := tree(n)
		if got := varying.blockSize(size); got < used || got > used*3/2+2 {
			t.Errorf("tree of %d Values from %d bytes: block of %d, want %d to %d", used, size, got, used, used*3/2+2)
		}
	}

	// A stream's buffer holds many datums: its length says nothing.
	var stream arenaSizer
	train(&stream)
	used, size := tree(10)
	stream.learn(used, size, 64<<10)
	if got := stream.blockSize(64<<10 - size); got > 2*used {
		t.Errorf("stream: block of %d for a tree of %d Values", got, used)
	}
	// The last datum of a buffer takes the rest of it; the next buffer's
	// first datum must not get a block sized by the next buffer's length.
	last := int(stream.last.Load())
	used, size = tree(12)
	stream.learn(used, size, size)
	if got := stream.blockSize(64 << 10); got > 4*max(last, used+used&1) {
		t.Errorf("stream after a whole buffer: block of %d, last tree %d Values", got, used)
	}
}

// TestValueDecodeArenaBytes checks the bytes a value.Value decode
// allocates for trees of varying size through Unmarshal: about what the
// trees take, not the largest recent tree twice over. (The bound fails
// with either half of the sizing turned off: 1.27x-1.29x, 2.19x with
// both, against 1.16x.)
func TestValueDecodeArenaBytes(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"ArenaBytes","fields":[
		{"name":"items","type":{"type":"array","items":{"type":"record","name":"Item","fields":[
			{"name":"a","type":"long"},{"name":"b","type":"long"}]}}}]}`)
	type item struct {
		A int64 `avro:"a"`
		B int64 `avro:"b"`
	}
	type rec struct {
		Items []item `avro:"items"`
	}
	r := rand.New(rand.NewPCG(3, 4))
	inputs := make([][]byte, 256)
	var handed int // Values the trees take
	for i := range inputs {
		v := rec{Items: make([]item, 1+r.IntN(80))}
		var err error
		if inputs[i], err = Marshal(s, &v); err != nil {
			t.Fatal(err)
		}
		handed += 3 + 5*len(v.Items) // the root record, the array, its records
	}
	decodeAll := func() {
		for _, in := range inputs {
			var v value.Value
			if err := Unmarshal(s, in, &v); err != nil {
				t.Fatal(err)
			}
		}
	}
	decodeAll() // learn, and fill the pools
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	decodeAll()
	runtime.ReadMemStats(&after)
	got := float64(after.TotalAlloc - before.TotalAlloc)
	need := float64(handed) * float64(unsafe.Sizeof(value.Value{}))
	t.Logf("%.0f bytes allocated for trees of %.0f bytes (%.2fx)", got, need, got/need)
	if got > 1.22*need {
		t.Errorf("%.0f bytes allocated for trees of %.0f bytes (%.2fx), want at most 1.22x", got, need, got/need)
	}
}
