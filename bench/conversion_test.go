package bench

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// The cost of a conversion: rec10 with two of its fields (ts, a long, and
// score, a double) held in Go types of their own that registered
// conversions map, against rec10 itself. The conversions are a field
// access each, so the difference is what the library adds to them.
//
//	BenchmarkConversion/rec=rec10/op=append|decode-new/lib=avrogo  the custom fields
//	BenchmarkConversion/rec=rec10/op=append|decode-new/lib=plain   the plain rec10 (a reference row)

type convStamp struct{ micros int64 }

type convScore struct{ v float64 }

type Rec10Conv struct {
	ID     int32             `avro:"id"`
	TS     convStamp         `avro:"ts"`
	Name   string            `avro:"name"`
	Score  convScore         `avro:"score"`
	Active bool              `avro:"active"`
	Counts []int64           `avro:"counts"`
	Attrs  map[string]string `avro:"attrs"`
	Note   *string           `avro:"note"`
	Digest []byte            `avro:"digest"`
	Inner  Inner             `avro:"inner"`
}

func init() {
	avro.RegisterConversion(avro.Conversion[convStamp, int64]{
		Encode: func(s convStamp) (int64, error) { return s.micros, nil },
		Decode: func(v int64) (convStamp, error) { return convStamp{v}, nil },
	})
	avro.RegisterConversion(avro.Conversion[convScore, float64]{
		Encode: func(s convScore) (float64, error) { return s.v, nil },
		Decode: func(v float64) (convScore, error) { return convScore{v}, nil },
	})
}

func convPool(recs []Rec10) []Rec10Conv {
	out := make([]Rec10Conv, len(recs))
	for i, r := range recs {
		out[i] = Rec10Conv{r.ID, convStamp{r.TS}, r.Name, convScore{r.Score}, r.Active, r.Counts, r.Attrs, r.Note, r.Digest, r.Inner}
	}
	return out
}

func BenchmarkConversion(b *testing.B) {
	releaseWorkloads()
	w := wlRec10(b)
	s := schema.MustParse(rec10Schema)
	conv := convPool(w.recs)
	data := make([][]byte, len(w.recs))
	for i := range w.recs {
		var err error
		if data[i], err = avro.Marshal(s, &w.recs[i]); err != nil {
			b.Fatal(err)
		}
	}
	const mask = poolSize - 1
	run := func(op, lib string, f func(b *testing.B)) {
		b.Run("rec=rec10/op="+op+"/lib="+lib, func(b *testing.B) {
			b.ReportAllocs()
			f(b)
		})
	}
	run("append", libOurs, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], s, &conv[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("append", libPlain, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], s, &w.recs[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("decode-new", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := new(Rec10Conv)
			if err := avro.Unmarshal(s, data[i&mask], r); err != nil {
				b.Fatal(err)
			}
			sinkAny = r
		}
	})
	run("decode-new", libPlain, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := new(Rec10)
			if err := avro.Unmarshal(s, data[i&mask], r); err != nil {
				b.Fatal(err)
			}
			sinkAny = r
		}
	})
}

// The two rows do the same work: the custom struct writes rec10's bytes
// and reads them back to the same values.
func TestConversionParity(t *testing.T) {
	w := wlRec10(t)
	s := schema.MustParse(rec10Schema)
	conv := convPool(w.recs[:64])
	for i := range conv {
		got, err := avro.Marshal(s, &conv[i])
		if err != nil {
			t.Fatal(err)
		}
		want, err := avro.Marshal(s, &w.recs[i])
		if err != nil || string(got) != string(want) {
			t.Fatalf("record %d: the custom struct writes other bytes (%v)", i, err)
		}
		var back Rec10Conv
		if err := avro.Unmarshal(s, want, &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(conv[i], back, cmp.AllowUnexported(convStamp{}, convScore{})); diff != "" {
			t.Fatalf("record %d (-want +got):\n%s", i, diff)
		}
	}
}
