package bench

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	hamba "github.com/hamba/avro/v2"

	avrogendeep "github.com/avrogo/avro/bench/avrogen/deep"
	avrogenrec10 "github.com/avrogo/avro/bench/avrogen/rec10"
	avrogenunion "github.com/avrogo/avro/bench/avrogen/union"
	avrogenwide "github.com/avrogo/avro/bench/avrogen/wide"
	hambagendeep "github.com/avrogo/avro/bench/hambagen/deep"
	hambagenrec10 "github.com/avrogo/avro/bench/hambagen/rec10"
	hambagenunion "github.com/avrogo/avro/bench/hambagen/union"
	hambagenwide "github.com/avrogo/avro/bench/hambagen/wide"
)

const (
	libAvrogen  = "avrogen"       // our codec on the types cmd/avrogen generates
	libHambaGen = "hamba-avrogen" // hamba's codec on the types hamba's avrogen generates
)

// schemaOf is the Schema method cmd/avrogen gives every type.
type schemaOf interface{ Schema() *schema.Schema }

// generatedPool decodes the workload's records into generated types: with
// our codec for ours, with hamba's for hamba's; and into the hand-written
// struct, so that every pool is laid out in memory as a decoder lays it
// out (the workload's own records are built field by field).
func generatedPool[T, G, H any](tb testing.TB, w *workload[T]) (s *schema.Schema, hand []T, ours []G, theirs []H) {
	s = any(new(G)).(schemaOf).Schema()
	if s.Canonical() != w.ours.Canonical() {
		tb.Fatalf("%s: the generated type's schema is not the workload's", w.name)
	}
	hand, ours, theirs = make([]T, len(w.enc)), make([]G, len(w.enc)), make([]H, len(w.enc))
	for i, data := range w.enc {
		if err := avro.Unmarshal(w.ours, data, &hand[i]); err != nil {
			tb.Fatalf("%s: rec %d: %v", w.name, i, err)
		}
		if err := avro.Unmarshal(s, data, &ours[i]); err != nil {
			tb.Fatalf("%s: rec %d: %v", w.name, i, err)
		}
		if err := hamba.Unmarshal(w.hamba, data, &theirs[i]); err != nil {
			tb.Fatalf("%s: rec %d: hamba: %v", w.name, i, err)
		}
	}
	return s, hand, ours, theirs
}

// benchGenerated runs the rows of generated types for one workload:
// op=append and op=decode-new (as in benchRecords) for the hand-written
// struct (lib=avrogo), the avrogen type (lib=avrogen), hamba's avrogen
// type with hamba's codec (lib=hamba-avrogen) and gogen-avro's code
// (lib=gogen), in one run for their ratios.
func benchGenerated[T, G, H any](b *testing.B, prefix string, wl func(testing.TB) *workload[T]) {
	releaseWorkloads()
	w := wl(b)
	s, hand, ours, theirs := generatedPool[T, G, H](b, w)
	run := newRowRunner(b, prefix)
	appendRow(run, libOurs, func(buf []byte, i int) ([]byte, error) { return avro.Append(buf, w.ours, &hand[i]) })
	appendRow(run, libAvrogen, func(buf []byte, i int) ([]byte, error) { return avro.Append(buf, s, &ours[i]) })
	hambaAppendRow(run, libHambaGen, w.hamba, func(i int) any { return &theirs[i] })
	decodeNewRow(run, libOurs, w.enc, func(data []byte, v *T) error { return avro.Unmarshal(w.ours, data, v) })
	decodeNewRow(run, libAvrogen, w.enc, func(data []byte, v *G) error { return avro.Unmarshal(s, data, v) })
	decodeNewRow(run, libHambaGen, w.enc, func(data []byte, v *H) error { return hamba.Unmarshal(w.hamba, data, v) })
	if w.gogen != nil {
		gogenRecordRows(run, w.gogen, w.enc)
	}
	floorRow(run, w)
}

// BenchmarkGenerated: generated types against the hand-written structs
// of BenchmarkRecord, and against the code of the other generators.
func BenchmarkGenerated(b *testing.B) {
	benchGenerated[Rec10, avrogenrec10.Rec10, hambagenrec10.Rec10](b, "rec=rec10", wlRec10)
	benchGenerated[Wide, avrogenwide.Wide, hambagenwide.Wide](b, "rec=wide", wlWide)
	benchGenerated[Order, avrogendeep.Order, hambagendeep.Order](b, "rec=deep", wlDeep)
}

// The generated types hold what the hand-written structs hold: what each
// writes, with its codec, reads back as the workload's record. (Go maps
// are written in their iteration order, so bytes are not compared.)
func TestGeneratedTypesRoundTrip(t *testing.T) {
	generatedRoundTrip[Rec10, avrogenrec10.Rec10, hambagenrec10.Rec10](t, wlRec10(t))
	generatedRoundTrip[Wide, avrogenwide.Wide, hambagenwide.Wide](t, wlWide(t))
	generatedRoundTrip[Order, avrogendeep.Order, hambagendeep.Order](t, wlDeep(t))
}

func generatedRoundTrip[T, G, H any](t *testing.T, w *workload[T]) {
	s, _, ours, theirs := generatedPool[T, G, H](t, w)
	for i := range w.enc {
		a, err := avro.Marshal(s, &ours[i])
		if err != nil {
			t.Fatalf("%s: rec %d: %v", w.name, i, err)
		}
		h, err := hamba.Marshal(w.hamba, &theirs[i])
		if err != nil {
			t.Fatalf("%s: rec %d: hamba: %v", w.name, i, err)
		}
		for lib, data := range map[string][]byte{libAvrogen: a, libHambaGen: h} {
			var got T
			if err := avro.Unmarshal(w.ours, data, &got); err != nil {
				t.Fatalf("%s: rec %d from %s: %v", w.name, i, lib, err)
			}
			if diff := cmp.Diff(w.recs[i], got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("%s: rec %d from %s (-want +got):\n%s", w.name, i, lib, diff)
			}
		}
	}
}

// unionPool returns random events of the union workload as avrogen's
// type, their encodings, and hamba's type decoded from them.
func unionPool(tb testing.TB) (s *schema.Schema, ours []avrogenunion.Event, enc [][]byte, theirs []hambagenunion.Event, hs hamba.Schema) {
	s = new(avrogenunion.Event).Schema()
	r := rand.New(rand.NewPCG(54, 54))
	word := func() string {
		b := make([]byte, 4+r.IntN(12))
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		return string(b)
	}
	ours = make([]avrogenunion.Event, poolSize)
	enc = make([][]byte, poolSize)
	for i := range ours {
		e := &ours[i]
		e.ID = r.Int64()
		switch r.IntN(5) {
		case 0:
		case 1:
			e.Payload = avrogenunion.EventPayloadString(word())
		case 2:
			e.Payload = avrogenunion.EventPayloadLong(r.Int64N(1 << 40))
		case 3:
			e.Payload = &avrogenunion.Click{X: r.Int32N(2000), Y: r.Int32N(2000)}
		case 4:
			e.Payload = &avrogenunion.View{URL: "https://example.com/" + word(), Ms: r.Int64N(10000)}
		}
		if r.IntN(2) == 0 {
			n := word()
			e.Note = &n
		}
		for range r.IntN(4) {
			if r.IntN(2) == 0 {
				e.Tags = append(e.Tags, avrogenunion.EventTagsItemString(word()))
			} else {
				e.Tags = append(e.Tags, avrogenunion.EventTagsItemLong(r.Int64N(1000)))
			}
		}
		var err error
		if enc[i], err = avro.Marshal(s, e); err != nil {
			tb.Fatal(err)
		}
	}
	var err error
	if hs, err = hamba.Parse(s.String()); err != nil {
		tb.Fatal(err)
	}
	theirs = make([]hambagenunion.Event, poolSize)
	for i, data := range enc {
		if err := hamba.Unmarshal(hs, data, &theirs[i]); err != nil {
			tb.Fatalf("rec %d: hamba: %v", i, err)
		}
	}
	return s, ours, enc, theirs, hs
}

// BenchmarkGeneratedUnions: a record of unions of several branches
// (null, string, long and two records; string or long in an array),
// as avrogen's sealed interfaces with a Go type per branch, against
// hamba's avrogen type, whose unions are any.
func BenchmarkGeneratedUnions(b *testing.B) {
	s, ours, enc, theirs, hs := unionPool(b)
	run := newRowRunner(b, "rec=unions")
	appendRow(run, libAvrogen, func(buf []byte, i int) ([]byte, error) { return avro.Append(buf, s, &ours[i]) })
	hambaAppendRow(run, libHambaGen, hs, func(i int) any { return &theirs[i] })
	decodeNewRow(run, libAvrogen, enc, func(data []byte, v *avrogenunion.Event) error { return avro.Unmarshal(s, data, v) })
	decodeNewRow(run, libHambaGen, enc, func(data []byte, v *hambagenunion.Event) error { return hamba.Unmarshal(hs, data, v) })
}

// The union workload's records read back as written, through avrogen's
// types with our codec and hamba's with hamba's.
func TestGeneratedUnionsRoundTrip(t *testing.T) {
	s, ours, enc, theirs, hs := unionPool(t)
	for i := range ours {
		var back avrogenunion.Event // new for each: a reused slice decodes an empty array as empty, not nil
		if err := avro.Unmarshal(s, enc[i], &back); err != nil {
			t.Fatalf("rec %d: %v", i, err)
		}
		if diff := cmp.Diff(ours[i], back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("rec %d (-want +got):\n%s", i, diff)
		}
		data, err := hamba.Marshal(hs, &theirs[i])
		if err != nil {
			t.Fatalf("rec %d: hamba: %v", i, err)
		}
		back = avrogenunion.Event{}
		if err := avro.Unmarshal(s, data, &back); err != nil {
			t.Fatalf("rec %d: hamba's bytes: %v", i, err)
		}
		if diff := cmp.Diff(ours[i], back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("rec %d through hamba (-want +got):\n%s", i, diff)
		}
	}
}
