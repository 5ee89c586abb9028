package codec

import (
	"fmt"
	"github.com/avrogo/avro/internal/wire"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro/schema"
)

// optRec has optional strings, and optional fields of every kind whose
// pointee is carved from the chunk.
type optRec struct {
	S1 *string  `avro:"s1"`
	L  *int64   `avro:"l"`
	S2 *string  `avro:"s2"`
	I  *int32   `avro:"i"`
	S3 *string  `avro:"s3"`
	D  *float64 `avro:"d"`
	S4 *string  `avro:"s4"`
	F  *float32 `avro:"f"`
	S5 *string  `avro:"s5"`
	B  *bool    `avro:"b"`
	S6 *string  `avro:"s6"`
	N  *int     `avro:"n"`
	// P is a pointer without a union: the same allocator serves it.
	P *int64 `avro:"p"`
}

var optSchema = schema.MustParse(`{"type":"record","name":"Opt","fields":[
	{"name":"s1","type":["null","string"]},{"name":"l","type":["null","long"]},
	{"name":"s2","type":["null","string"]},{"name":"i","type":["null","int"]},
	{"name":"s3","type":["null","string"]},{"name":"d","type":["null","double"]},
	{"name":"s4","type":["null","string"]},{"name":"f","type":["null","float"]},
	{"name":"s5","type":["string","null"]},{"name":"b","type":["null","boolean"]},
	{"name":"s6","type":["null","string"]},{"name":"n","type":["null","long"]},
	{"name":"p","type":"long"}]}`)

func ptr[T any](v T) *T { return &v }

func optValue(i int) optRec {
	s := func(k int) *string { return ptr(fmt.Sprintf("s%d-%d", k, i)) }
	r := optRec{S1: s(1), L: ptr(int64(-i)), S2: s(2), I: ptr(int32(i)), S3: s(3),
		D: ptr(float64(i) / 4), S4: s(4), F: ptr(float32(i) / 2), S5: s(5), B: ptr(i%2 == 0),
		S6: s(6), N: ptr(i * 3), P: ptr(int64(i) << 40)}
	if i%3 == 0 { // some nulls, so that the slabs fill unevenly
		r.S2, r.I, r.S5 = nil, nil, nil
	}
	return r
}

// TestPointeesFromChunks decodes records of optional fields into new
// structs, keeps every one, writes through some pointers, collects
// garbage, and checks that every value is still what was encoded: no
// pointee is shared with another field or another record, and none is
// freed while a record points to it.
func TestPointeesFromChunks(t *testing.T) {
	const n = 3000
	got := make([]optRec, n)
	for i := range n {
		got[i] = roundTrip(t, optSchema, optValue(i), nil)
		// Writing through one pointee changes no other.
		*got[i].S1 = fmt.Sprintf("s1-%d", i)
		*got[i].L = -int64(i)
		if i%7 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	for i := range n {
		want := optValue(i)
		if !optEqual(got[i], want) {
			t.Fatalf("record %d: got %s, want %s", i, optString(got[i]), optString(want))
		}
	}
}

// TestPointeeBatches checks that the optional numbers of a record cost no
// allocation of their own.
func TestPointeeBatches(t *testing.T) {
	if benchRaceEnabled() {
		t.Skip("allocation counts are not meaningful under -race")
	}
	want := optValue(1)
	data, err := Marshal(optSchema, &want)
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(200, func() {
		var r optRec
		if err := Unmarshal(optSchema, data, &r); err != nil {
			t.Fatal(err)
		}
	})
	// The struct, six string pointees, and the chunk that the strings
	// and the seven numbers share. One allocation per pointee would be
	// 1 + 13 + the chunk.
	limit := 1 + 6 + 1.0
	if !wire.SlabBoxing { // the purego build: each number and string apart
		limit = 1 + 6 + 6 + 7
	}
	if allocs > limit {
		t.Errorf("%v allocations per decode, want at most %v", allocs, limit)
	}
}

func optEqual(a, b optRec) bool {
	return eqPtr(a.S1, b.S1) && eqPtr(a.L, b.L) && eqPtr(a.S2, b.S2) && eqPtr(a.I, b.I) &&
		eqPtr(a.S3, b.S3) && eqPtr(a.D, b.D) && eqPtr(a.S4, b.S4) && eqPtr(a.F, b.F) &&
		eqPtr(a.S5, b.S5) && eqPtr(a.B, b.B) && eqPtr(a.S6, b.S6) && eqPtr(a.N, b.N) && eqPtr(a.P, b.P)
}

func eqPtr[T comparable](a, b *T) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func optString(r optRec) string {
	f := func(p any) string { return fmt.Sprintf("%v", p) }
	return fmt.Sprint(deref(r.S1), deref(r.L), deref(r.S2), deref(r.I), deref(r.S3), deref(r.D),
		deref(r.S4), deref(r.F), deref(r.S5), deref(r.B), deref(r.S6), deref(r.N), f(deref(r.P)))
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// BenchmarkDecodeOptionalFields decodes records of optional strings and
// numbers into new structs.
func BenchmarkDecodeOptionalFields(b *testing.B) {
	var data [][]byte
	for i := range 64 {
		v := optValue(i)
		d, err := Marshal(optSchema, &v)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r := new(optRec)
		if err := Unmarshal(optSchema, data[i&63], r); err != nil {
			b.Fatal(err)
		}
		sinkOptRec = r
	}
}

var sinkOptRec *optRec

// TestAnyBoxesKeepEarlierDecodes decodes records of timestamps, dates,
// times of day, numbers and strings into map[string]any, keeps them all,
// collects garbage and checks every value: the boxes of numbers and times
// are shared with later decodes and must never be written again.
func TestAnyBoxesKeepEarlierDecodes(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"T","fields":[
		{"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"}},
		{"name":"ms","type":{"type":"long","logicalType":"timestamp-millis"}},
		{"name":"day","type":{"type":"int","logicalType":"date"}},
		{"name":"tod","type":{"type":"long","logicalType":"time-micros"}},
		{"name":"n","type":"long"},{"name":"x","type":"double"},{"name":"name","type":"string"}]}`)
	type rec struct {
		TS   time.Time     `avro:"ts"`
		MS   time.Time     `avro:"ms"`
		Day  time.Time     `avro:"day"`
		TOD  time.Duration `avro:"tod"`
		N    int64         `avro:"n"`
		X    float64       `avro:"x"`
		Name string        `avro:"name"`
	}
	in := func(i int) rec {
		base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		return rec{TS: base.Add(time.Duration(i) * 1234567 * time.Microsecond), MS: base.Add(-time.Duration(i) * time.Hour),
			Day: base.AddDate(0, 0, i), TOD: time.Duration(i%86400) * time.Second, N: int64(i) << 33, X: float64(i) / 3,
			Name: fmt.Sprintf("name-%d", i)}
	}
	const n = 3000
	outs := make([]any, n)
	for i := range n {
		v := in(i)
		data, err := Marshal(s, &v)
		if err != nil {
			t.Fatal(err)
		}
		if err := Unmarshal(s, data, &outs[i]); err != nil {
			t.Fatal(err)
		}
		if i%11 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	for i, out := range outs {
		v := in(i)
		want := map[string]any{"ts": v.TS, "ms": v.MS, "day": v.Day, "tod": v.TOD, "n": v.N, "x": v.X, "name": v.Name}
		if diff := cmp.Diff(want, out); diff != "" {
			t.Fatalf("decode %d (-want +got):\n%s", i, diff)
		}
	}
	if benchRaceEnabled() {
		return // allocation counts are not meaningful under -race
	}
	v := in(7)
	data, err := Marshal(s, &v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	allocs := testing.AllocsPerRun(500, func() {
		out = nil
		if err := Unmarshal(s, data, &out); err != nil {
			t.Fatal(err)
		}
	})
	// The map (a header and one group of 8 slots) and the slab of string
	// headers; numbers, times and strings share slabs with later decodes.
	want := 3.2
	if !wire.SlabBoxing { // the purego build boxes each value
		want = 3 + 7
	}
	if allocs > want {
		t.Errorf("%v allocations per decode, want at most %v", allocs, want)
	}
}

// TestEmptyAndNullCostNothing checks that an empty array decodes to a
// non-nil empty slice, and a null union branch to the zero value of a
// non-pointer Go type, with no allocation for either.
func TestEmptyAndNullCostNothing(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"E","fields":[
		{"name":"recs","type":{"type":"array","items":{"type":"record","name":"P","fields":[{"name":"x","type":"long"}]}}},
		{"name":"longs","type":{"type":"array","items":"long"}},
		{"name":"opt","type":["null","string"]}]}`)
	type p struct {
		X int64 `avro:"x"`
	}
	type rec struct {
		Recs  []p     `avro:"recs"`
		Longs []int64 `avro:"longs"`
		Opt   string  `avro:"opt"`
	}
	data := []byte{0, 0, 0} // two empty arrays and the null branch
	var r rec
	decode := func() {
		r = rec{Opt: "set"}
		if err := Unmarshal(s, data, &r); err != nil {
			t.Fatal(err)
		}
	}
	decode()
	if r.Recs == nil || len(r.Recs) != 0 || r.Longs == nil || len(r.Longs) != 0 || r.Opt != "" {
		t.Fatalf("decoded %#v, want non-nil empty slices and an empty string", r)
	}
	// The empty slices share no storage: appending to one leaves the
	// other empty.
	r.Recs = append(r.Recs, p{X: 1})
	r.Longs = append(r.Longs, 2)
	if len(r.Recs) != 1 || r.Recs[0].X != 1 || len(r.Longs) != 1 || r.Longs[0] != 2 {
		t.Fatalf("after appends: %#v", r)
	}
	if benchRaceEnabled() {
		return // allocation counts are not meaningful under -race
	}
	if allocs := testing.AllocsPerRun(100, decode); allocs != 0 {
		t.Errorf("%v allocations per decode, want 0", allocs)
	}
}
