package codec

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// TestArenaSizerFollowsInputLength checks how the first arena blocks of a
// value.Value decode are sized: by the last tree for trees of one size, by
// the input's length for trees that vary in size but not in Values per
// byte, and never from the length of a stream's buffer.
func TestArenaSizerFollowsInputLength(t *testing.T) {
	var fixed arenaSizer
	fixed.learn(25, 80, 80)
	// After one decode nothing says the trees vary: the last tree's size.
	if got, _ := fixed.blockSizes(400); got != 26 {
		t.Errorf("after one tree of 25 Values, input of 400 bytes: block of %d, want 26", got)
	}
	for i := range 100 {
		n := 80 + i%40 // strings of varying length, the same 25 Values
		fixed.learn(25, n, n)
	}
	for _, left := range []int{60, 100, 400} {
		if got, second := fixed.blockSizes(left); got != 26 || second != 0 {
			t.Errorf("trees of 25 Values, input of %d bytes: blocks of %d then %d, want 26 then doubling", left, got, second)
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
		got, second := varying.blockSizes(size)
		if got < used || got > 2*used+2 {
			t.Errorf("tree of %d Values from %d bytes: block of %d, want %d to %d", used, size, got, used, 2*used+2)
		}
		if second != got/4 {
			t.Errorf("tree of %d Values: second block of %d after %d, want a quarter", used, second, got)
		}
	}

	// A stream's buffer holds many datums: its length says nothing.
	var stream arenaSizer
	train(&stream)
	used, size := tree(10)
	stream.learn(used, size, 64<<10)
	if got, _ := stream.blockSizes(64<<10 - size); got > 2*used {
		t.Errorf("stream: block of %d for a tree of %d Values", got, used)
	}
	// The last datum of a buffer takes the rest of it; the next buffer's
	// first datum must not get a block sized by the next buffer's length.
	stream.learn(used, size, size)
	used, size = tree(12)
	stream.learn(used, size, size)
	if got, _ := stream.blockSizes(64 << 10); got > 4*int(stream.last.Load()) {
		t.Errorf("stream after a whole buffer: block of %d, last %d Values", got, stream.last.Load())
	}

	// Two shapes of data on one codec (many Values in few bytes, few in
	// many): their rates disagree, so neither is sized by the other's.
	var shapes arenaSizer
	for range 10 {
		shapes.learn(17, 1006, 1006)
		shapes.learn(280, 42, 42)
	}
	if got, _ := shapes.blockSizes(1006); got > 280 {
		t.Errorf("alternating shapes: block of %d for 1,006 bytes, more than the last tree's 280", got)
	}

	// An estimate past the largest block: the largest blocks, doubling.
	var large arenaSizer
	r := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		used, size := tree(40 + r.IntN(50))
		large.learn(used, size, size)
	}
	if !large.steady.Load() {
		t.Fatal("trees of 203 to 448 Values: the per-byte estimate is not in use")
	}
	_, size = tree(150)
	if got, second := large.blockSizes(size); got != arenaMaxBlock || second != 0 {
		t.Errorf("a tree of 753 Values: blocks of %d then %d, want %d then doubling", got, second, arenaMaxBlock)
	}
}

// TestValueDecodeArenaBytes checks the bytes a value.Value decode
// allocates for trees of varying size through Unmarshal: about what the
// trees take, not the largest recent tree twice over. (The bound fails
// with either half of the sizing turned off, the per-byte estimate or the
// small second block.)
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
	// What Unmarshal allocates whatever it decodes (under the race
	// detector, sync.Pool drops some of its decode states): measured on a
	// datum that takes no arena, and taken off.
	long := schema.MustParse(`"long"`)
	overhead := allocated(t, func() {
		for range inputs {
			var v value.Value
			if err := Unmarshal(long, []byte{2}, &v); err != nil {
				t.Fatal(err)
			}
		}
	})
	decodeAll := func() {
		for _, in := range inputs {
			var v value.Value
			if err := Unmarshal(s, in, &v); err != nil {
				t.Fatal(err)
			}
		}
	}
	decodeAll() // learn, and fill the pools
	got := allocated(t, decodeAll) - overhead
	need := float64(handed) * float64(unsafe.Sizeof(value.Value{}))
	t.Logf("%.0f bytes allocated for trees of %.0f bytes (%.2fx)", got, need, got/need)
	if got > 1.22*need {
		t.Errorf("%.0f bytes allocated for trees of %.0f bytes (%.2fx), want at most 1.22x", got, need, got/need)
	}
}

// allocated returns the bytes f allocates.
func allocated(t *testing.T, f func()) float64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc - before.TotalAlloc)
}

// TestValueSliceSharesArena checks that the trees of a []value.Value share
// the decode's arena blocks, which double: a block per tree would make a
// thousand small trees a thousand allocations. (Each tree is an array of
// two empty strings: Values from the arena in every build, and no string
// memory.)
func TestValueSliceSharesArena(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":{"type":"array","items":"string"}}`)
	items := make([][]string, 1000)
	for i := range items {
		items[i] = []string{"", ""}
	}
	data, err := Marshal(s, items)
	if err != nil {
		t.Fatal(err)
	}
	var vs []value.Value
	if err := Unmarshal(s, data, &vs); err != nil { // learn
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		vs = nil
		if err := Unmarshal(s, data, &vs); err != nil {
			t.Fatal(err)
		}
	})
	// The slice itself, and 2,000 Values in blocks doubling to 512.
	if allocs > 20 {
		t.Errorf("a []value.Value of 1,000 arrays: %v allocations, want at most 20", allocs)
	}
}

// fixedValues walked the schema as a tree: records that reuse named
// records as fields many times over cost fanout^depth, 20 s for a schema
// of a few KB, before a value.Value decoder was compiled.
func TestFixedValuesOfReusedRecords(t *testing.T) {
	const fan, levels = 16, 8
	inner := `{"type":"record","name":"L","fields":[{"name":"x","type":"int"}]}`
	for l := levels - 1; l >= 0; l-- {
		var fs []string
		for i := range fan {
			typ := inner
			if i > 0 {
				typ = fmt.Sprintf("%q", fmt.Sprintf("R%d", l+1))
				if l == levels-1 {
					typ = `"L"`
				}
			}
			fs = append(fs, fmt.Sprintf(`{"name":"f%d","type":%s}`, i, typ))
		}
		inner = fmt.Sprintf(`{"type":"record","name":"R%d","fields":[%s]}`, l, strings.Join(fs, ","))
	}
	// Walked as a tree, this takes 16^8 steps: the test then runs into
	// go test's timeout.
	s := schema.MustParse(inner)
	var v value.Value
	_ = Unmarshal(s, []byte{0}, &v) // compiles the decoder
	if n := fixedValues(s); n != arenaMaxBlock {
		t.Errorf("fixedValues = %d, want the cap %d", n, arenaMaxBlock)
	}
}
