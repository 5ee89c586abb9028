package value

import (
	"runtime"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/avrogo/avro/schema"
)

var arenaRecord = schema.MustParse(`{"type": "record", "name": "A", "fields": [
	{"name": "s", "type": "string"}, {"name": "n", "type": "long"},
	{"name": "m", "type": {"type": "map", "values": "bytes"}},
	{"name": "in", "type": {"type": "record", "name": "In", "fields": [{"name": "x", "type": "string"}]}}]}`)

// buildArenaTree makes a record whose strings, bytes, nested record and map
// (header, keys, values, and storage that Append moved out of the arena)
// are referenced only from arena memory.
func buildArenaTree(a *Arena, i int) Value {
	r := a.NewRecord(arenaRecord)
	r.SetAt(0, String("str-"+strconv.Itoa(i)))
	r.SetAt(1, Long(int64(i)))
	m := a.NewMap(2)
	keys, vals := m.Keys(), m.Values()
	keys[0], vals[0] = "k0-"+strconv.Itoa(i), Bytes([]byte("v0-"+strconv.Itoa(i)))
	keys[1], vals[1] = "k1-"+strconv.Itoa(i), Bytes([]byte("v1-"+strconv.Itoa(i)))
	if i%3 == 0 { // grow past the arena's room: new storage outside it
		for j := 2; j < 12; j++ {
			m.Append("k"+strconv.Itoa(j)+"-"+strconv.Itoa(i), Bytes([]byte("v"+strconv.Itoa(j)+"-"+strconv.Itoa(i))))
		}
	}
	r.SetAt(2, MapOf(m))
	in := a.NewRecord(arenaRecord.Field("in").Type())
	in.SetAt(0, String("in-"+strconv.Itoa(i)))
	r.SetAt(3, RecordOf(in))
	return RecordOf(r)
}

func checkArenaTree(t *testing.T, v Value, i int) {
	t.Helper()
	r := v.Record()
	if got := r.Field("s").Str(); got != "str-"+strconv.Itoa(i) {
		t.Fatalf("%d: s = %q", i, got)
	}
	if got := r.Field("n").Long(); got != int64(i) {
		t.Fatalf("%d: n = %d", i, got)
	}
	m := r.Field("m").Map()
	want := 2
	if i%3 == 0 {
		want = 12
	}
	if m.Len() != want {
		t.Fatalf("%d: map has %d entries, want %d", i, m.Len(), want)
	}
	for j := range want {
		k := "k" + strconv.Itoa(j) + "-" + strconv.Itoa(i)
		got, ok := m.Get(k)
		if !ok || string(got.Bytes()) != "v"+strconv.Itoa(j)+"-"+strconv.Itoa(i) {
			t.Fatalf("%d: m[%s] = %v, %v", i, k, got, ok)
		}
	}
	if got := r.Field("in").Record().FieldAt(0).Str(); got != "in-"+strconv.Itoa(i) {
		t.Fatalf("%d: in.x = %q", i, got)
	}
}

// TestArenaGCKeepsPayloads is TestGCKeepsPayloads for trees built in an
// arena: record and map headers and map keys live inside []Value blocks,
// so the collector must find every pointer through the blocks' own type.
func TestArenaGCKeepsPayloads(t *testing.T) {
	const n = 3000
	vals := make([]Value, n)
	var a Arena
	for i := range vals {
		if i%100 == 0 {
			a = Arena{} // several arenas, as several decodes use
		}
		vals[i] = buildArenaTree(&a, i)
	}
	a = Arena{}
	for range 3 {
		runtime.GC()
		garbage := make([][]byte, 0, 1000)
		for j := range 1000 {
			garbage = append(garbage, []byte("overwrite-"+strconv.Itoa(j)))
		}
		runtime.KeepAlive(garbage)
	}
	for i, v := range vals {
		checkArenaTree(t, v, i)
	}
}

func TestArenaShapes(t *testing.T) {
	var a Arena
	if got := a.Values(3); len(got) != 3 || cap(got) != 3 || !got[0].IsNull() {
		t.Fatalf("Values(3) = %v (cap %d)", got, cap(got))
	}
	r := a.NewRecord(arenaRecord)
	if r.NumField() != 4 || !r.Field("s").IsNull() || r.Schema() != arenaRecord {
		t.Fatalf("NewRecord: %d fields, s = %v", r.NumField(), r.Field("s"))
	}
	m := a.NewMap(2)
	if m.Len() != 2 || m.Key(0) != "" || !m.ValueAt(1).IsNull() {
		t.Fatalf("NewMap(2): %v", MapOf(m))
	}
	m.Keys()[0], m.Keys()[1] = "a", "a"
	m.Values()[0], m.Values()[1] = Long(1), Long(2)
	m.Append("b", Long(3))
	m.Set("a", Long(4)) // the last "a" is replaced
	if got := MapOf(m).String(); got != `{"a": 1, "a": 4, "b": 3}` {
		t.Errorf("map = %s", got)
	}
	if e := a.NewMap(0); e.Len() != 0 || len(e.Keys()) != 0 {
		t.Errorf("NewMap(0) has %d entries", e.Len())
	}
	var nilArena *Arena
	if nr := nilArena.NewRecord(arenaRecord); nr.NumField() != 4 {
		t.Errorf("nil arena record: %d fields", nr.NumField())
	}
	if nm := nilArena.NewMap(1); nm.Len() != 1 {
		t.Errorf("nil arena map: %d entries", nm.Len())
	}
	for name, f := range map[string]func(){
		"Values(-1)": func() { a.Values(-1) },
		"NewMap(-1)": func() { a.NewMap(-1) },
		"NewRecord":  func() { a.NewRecord(schema.MustParse(`"long"`)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

// TestArenaSharesBlocks checks what the Arena is for: a record, a nested
// record and a map of a few entries take one allocation, and a large
// request does not swallow the current block.
func TestArenaSharesBlocks(t *testing.T) {
	if !arenaSlabs {
		t.Log("this build allocates every node on its own")
	}
	allocs := testing.AllocsPerRun(100, func() {
		var a Arena
		r := a.NewRecord(arenaRecord)
		r.SetAt(2, MapOf(a.NewMap(3)))
		r.SetAt(3, RecordOf(a.NewRecord(arenaRecord.Field("in").Type())))
	})
	want := 1.0
	if !arenaSlabs {
		want = 5 // two records, a map header, its keys and values
	}
	if allocs != want {
		t.Errorf("record + nested record + map: %v allocations, want %v", allocs, want)
	}
	var a Arena
	a.SetBlockSize(8)
	first := a.Values(2)
	big := a.Values(300)
	next := a.Values(2)
	if len(big) != 300 {
		t.Fatalf("Values(300) has %d", len(big))
	}
	if arenaSlabs && uintptr(unsafe.Pointer(&next[0]))-uintptr(unsafe.Pointer(&first[0])) != 2*unsafe.Sizeof(Value{}) {
		t.Errorf("a large request moved the arena off its block")
	}
}

// TestArenaBlockSizes checks the sizes of the blocks an arena allocates
// after SetBlockSize and SetBlockSizes: clamped to [4, 512], the second
// size once, and doubling after that.
func TestArenaBlockSizes(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   func(a *Arena)
		first int   // the first request, in Values
		want  []int // the sizes of the blocks that requests of 1 then open
	}{
		{"default", func(*Arena) {}, 1, []int{32, 64, 128}},
		{"SetBlockSize", func(a *Arena) { a.SetBlockSize(40) }, 1, []int{40, 80, 160}},
		{"SetBlockSizes", func(a *Arena) { a.SetBlockSizes(40, 10) }, 1, []int{40, 10, 20, 40}},
		{"clamped", func(a *Arena) { a.SetBlockSizes(1000, 1) }, 1, []int{512, 4, 8}},
		{"no second size", func(a *Arena) { a.SetBlockSizes(40, 0) }, 1, []int{40, 80, 160}},
		{"largest doubles to itself", func(a *Arena) { a.SetBlockSizes(512, -1) }, 1, []int{512, 512}},
		{"a first request larger than the block", func(a *Arena) { a.SetBlockSizes(40, 10) }, 100, []int{100, 10, 20}},
		{"a large request keeps the sizes", func(a *Arena) { a.SetBlockSizes(40, 10) }, 300, []int{40, 10, 20}},
	} {
		var a Arena
		c.set(&a)
		got := blockRuns(&a, c.first, len(c.want))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: blocks of %v, want %v", c.name, got, c.want)
		}
	}
}

// blockRuns makes a first request of n Values, then requests of 1, and
// returns the sizes of the first k blocks they came from, found by where
// one request's Value does not follow the last one's. (A first request
// over 256 Values is its own allocation and no block.)
func blockRuns(a *Arena, n, k int) []int {
	var sizes []int
	first := a.Values(n)
	prev, run := &first[n-1], n
	if n > arenaMax/2 {
		prev, run = &a.Values(1)[0], 1
	}
	for len(sizes) < k {
		next := &a.Values(1)[0]
		if uintptr(unsafe.Pointer(next)) == uintptr(unsafe.Pointer(prev))+unsafe.Sizeof(Value{}) {
			run++
		} else {
			sizes = append(sizes, run)
			run = 1
		}
		prev = next
	}
	return sizes
}
