package codec

import (
	"github.com/avrogo/avro/internal/wire"
	"runtime"
	"testing"
	"unsafe"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/google/go-cmp/cmp"
)

// A resolved read decoded the transcoded bytes with a copy of the decode
// state. The copy's chunk of strings went back to the pool with the copy,
// while the original kept its own stale view of the same chunk: the two
// pooled states then handed out the same bytes to later decodes, which
// overwrote each other's strings. The inner decode now runs on the state
// itself; either way, after a resolved decode the state must carve after
// the strings it returned.
func TestResolvedDecodeAdvancesChunk(t *testing.T) {
	w := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"id","type":"int"},{"name":"s","type":"string"}]}`)
	// The promotion to double and the default make the transcoder run.
	r := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"id","type":"double"},{"name":"s","type":"string"},
		{"name":"extra","type":"string","default":"default"}]}`)
	rs, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		ID    float64 `avro:"id"`
		S     string  `avro:"s"`
		Extra string  `avro:"extra"`
	}
	data, err := Marshal(w, map[string]any{"id": int32(7), "s": "written"})
	if err != nil {
		t.Fatal(err)
	}
	var got rec
	v := any(&got)
	dec, p, err := topDecoder(rs, &v)
	if err != nil {
		t.Fatal(err)
	}
	d := newDecodeState(&defaultDecodeOptions, data)
	d.MakeString([]byte("seed")) // a chunk with room, as a pooled state has
	dec.decode(p, d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if got.S != "written" || got.Extra != "default" || got.ID != 7 {
		t.Fatalf("decoded %+v", got)
	}
	next := d.MakeString([]byte("next string"))
	overlaps := func(a, b string) bool {
		pa, pb := uintptr(unsafe.Pointer(unsafe.StringData(a))), uintptr(unsafe.Pointer(unsafe.StringData(b)))
		return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
	}
	for _, s := range []string{got.S, got.Extra} {
		if overlaps(next, s) {
			t.Errorf("a later string shares memory with the decoded %q, which now reads %q", "written", s)
		}
	}
	d.release()
}

// The first arena block of a value decode follows what recent decodes of
// the same codec used; a short input right after a large one must not
// get the large block (it is capped by what the input could fill).
func TestArenaSizerShortAfterLarge(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":{"type":"record","name":"P","fields":[{"name":"x","type":"long"}]}}`)
	items := make([]map[string]any, 200)
	for i := range items {
		items[i] = map[string]any{"x": int64(i)}
	}
	large, err := Marshal(s, items)
	if err != nil {
		t.Fatal(err)
	}
	small, err := Marshal(s, items[:1])
	if err != nil {
		t.Fatal(err)
	}
	var v value.Value
	var total uint64
	for range 50 {
		// The large decode teaches the codec a large block; only the
		// small one right after it is measured.
		if err := Unmarshal(s, large, &v); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := Unmarshal(s, small, &v); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		total += after.TotalAlloc - before.TotalAlloc
	}
	// A one-item array: the item's Values and a block of at most
	// 2*len(input)+2 Values, a few hundred bytes.
	if per := total / 50; per > 1024 {
		t.Errorf("a one-item decode after 200-item ones allocates %d bytes", per)
	}
}

// TestStructArraysFromChunk: the short pointer-free arrays of a decode
// into a new struct share the chunk of its strings. Each must hold its
// own values, have no spare capacity (an append by the caller must not
// run into the next one), survive later decodes and collections, and
// save the allocation it used to take.
func TestStructArraysFromChunk(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"A","fields":[
		{"name":"a","type":{"type":"array","items":"long"}},
		{"name":"s","type":"string"},
		{"name":"b","type":{"type":"array","items":"double"}},
		{"name":"c","type":{"type":"array","items":"int"}},
		{"name":"f","type":{"type":"array","items":"boolean"}}]}`)
	type arrays struct {
		A []int64   `avro:"a"`
		S string    `avro:"s"`
		B []float64 `avro:"b"`
		C []int32   `avro:"c"`
		F []bool    `avro:"f"`
	}
	in := arrays{A: []int64{1, -2, 1 << 40}, S: "x", B: []float64{0.5, -1}, C: []int32{7}, F: []bool{true, false, true}}
	data, err := Marshal(s, &in)
	if err != nil {
		t.Fatal(err)
	}
	var outs []arrays
	for range 200 {
		var out arrays
		if err := Unmarshal(s, data, &out); err != nil {
			t.Fatal(err)
		}
		if cap(out.A) != len(out.A) || cap(out.B) != len(out.B) || cap(out.C) != len(out.C) || cap(out.F) != len(out.F) {
			t.Fatalf("spare capacity: %d/%d %d/%d %d/%d %d/%d", len(out.A), cap(out.A), len(out.B), cap(out.B), len(out.C), cap(out.C), len(out.F), cap(out.F))
		}
		out.A = append(out.A, 99) // reallocates; must not touch B
		outs = append(outs, out)
	}
	runtime.GC()
	want := in
	want.A = append(append([]int64(nil), in.A...), 99)
	for i, out := range outs {
		if diff := cmp.Diff(want, out); diff != "" {
			t.Fatalf("decode %d (-want +got):\n%s", i, diff)
		}
	}
	if benchRaceEnabled() {
		return // allocation counts are not meaningful under -race
	}
	var out arrays
	allocs := testing.AllocsPerRun(1000, func() {
		out = arrays{}
		if err := Unmarshal(s, data, &out); err != nil {
			t.Fatal(err)
		}
	})
	// The chunk (1 KiB or more) is shared by many decodes; the pure-Go
	// build allocates each array.
	want1 := 0.1
	if !wire.SlabBoxing {
		want1 = 5 // 4 arrays and the string
	}
	if allocs > want1 {
		t.Errorf("%v allocations per decode, want at most %v", allocs, want1)
	}
}
