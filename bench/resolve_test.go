package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	hamba "github.com/hamba/avro/v2"
	twmb "github.com/twmb/avro"
)

// Resolution rows: decode bytes written with one schema into the shape of
// another, through each library's resolved schema (our schema.Resolve,
// twmb.Resolve, hamba's SchemaCompatibility.Resolve; goavro has no schema
// resolution).
//
//	case=rec10-evolved  the 10-field record read by a newer schema: id
//	                    promoted int→long, digest dropped (skipped), a
//	                    region field added (filled from its default)
//	case=wide-project2  the 52-field wide record read by a schema of 2 of
//	                    its fields (f00 long, f02 string): 50 skipped

const rec10EvolvedSchema = `{"type":"record","name":"Rec10","namespace":"bench","fields":[
 {"name":"id","type":"long"},
 {"name":"ts","type":"long"},
 {"name":"name","type":"string"},
 {"name":"score","type":"double"},
 {"name":"active","type":"boolean"},
 {"name":"counts","type":{"type":"array","items":"long"}},
 {"name":"attrs","type":{"type":"map","values":"string"}},
 {"name":"note","type":["null","string"],"default":null},
 {"name":"inner","type":{"type":"record","name":"Inner","fields":[
   {"name":"seq","type":"long"},{"name":"label","type":"string"}]}},
 {"name":"region","type":"string","default":"eu-west-1"}
]}`

type Rec10Evolved struct {
	ID     int64             `avro:"id"`
	TS     int64             `avro:"ts"`
	Name   string            `avro:"name"`
	Score  float64           `avro:"score"`
	Active bool              `avro:"active"`
	Counts []int64           `avro:"counts"`
	Attrs  map[string]string `avro:"attrs"`
	Note   *string           `avro:"note"`
	Inner  Inner             `avro:"inner"`
	Region string            `avro:"region"`
}

const wideProjectSchema = `{"type":"record","name":"Wide","namespace":"bench","fields":[
 {"name":"f00","type":"long"},{"name":"f02","type":"string"}]}`

type WideProject struct {
	F00 int64  `avro:"f00"`
	F02 string `avro:"f02"`
}

// resolved holds one writer/reader pair resolved by each library, the
// writer's records' encodings, and what each must decode to.
type resolved[W, R any] struct {
	name  string
	ours  *schema.Schema
	hamba hamba.Schema
	twmb  *twmb.Schema
	enc   [][]byte
	want  []R
	// gogen decodes the writer's bytes into gogen-avro's struct of the
	// reader (its recs are unused); reader is the reader's schema, which
	// the parity test reads gogen's encoding of that struct with.
	gogen  *gogenBinding
	reader *schema.Schema
}

func newResolved[W, R any](tb testing.TB, name string, w *workload[W], readerText string, gogenReader func() gogenRecord, project func(*W) R) *resolved[W, R] {
	rr := &resolved[W, R]{name: name, enc: w.enc, reader: schema.MustParse(readerText)}
	rr.gogen = newGogenResolved(tb, name, w.text, rr.reader, gogenReader)
	var err error
	if rr.ours, err = schema.Resolve(w.ours, schema.MustParse(readerText)); err != nil {
		tb.Fatalf("%s: avrogo resolve: %v", name, err)
	}
	hr, err := hamba.ParseWithCache(readerText, "", &hamba.SchemaCache{})
	if err != nil {
		tb.Fatal(err)
	}
	if rr.hamba, err = hamba.NewSchemaCompatibility().Resolve(hr, w.hamba); err != nil {
		tb.Fatalf("%s: hamba resolve: %v", name, err)
	}
	if rr.twmb, err = twmb.Resolve(w.twmb, twmb.MustParse(readerText)); err != nil {
		tb.Fatalf("%s: twmb resolve: %v", name, err)
	}
	rr.want = make([]R, len(w.recs))
	for i := range w.recs {
		rr.want[i] = project(&w.recs[i])
	}
	return rr
}

var (
	rsRec10 = lazy(func(tb testing.TB) *resolved[Rec10, Rec10Evolved] {
		return newResolved(tb, "rec10-evolved", wlRec10(tb), rec10EvolvedSchema, gogenRec10Evolved, func(v *Rec10) Rec10Evolved {
			return Rec10Evolved{ID: int64(v.ID), TS: v.TS, Name: v.Name, Score: v.Score, Active: v.Active,
				Counts: v.Counts, Attrs: v.Attrs, Note: v.Note, Inner: v.Inner, Region: "eu-west-1"}
		})
	})
	rsWide = lazy(func(tb testing.TB) *resolved[Wide, WideProject] {
		return newResolved(tb, "wide-project2", wlWide(tb), wideProjectSchema, gogenWideProject, func(v *Wide) WideProject {
			return WideProject{F00: v.F00, F02: v.F02}
		})
	})
)

func (rr *resolved[W, R]) decoders() map[string]func([]byte, *R) error {
	return map[string]func([]byte, *R) error{
		libOurs:  func(data []byte, v *R) error { return avro.Unmarshal(rr.ours, data, v) },
		libHamba: func(data []byte, v *R) error { return hamba.Unmarshal(rr.hamba, data, v) },
		libTwmb: func(data []byte, v *R) error {
			rest, err := rr.twmb.Decode(data, v)
			if err == nil && len(rest) != 0 {
				err = fmt.Errorf("%d bytes left", len(rest))
			}
			return err
		},
	}
}

func benchResolved[W, R any](b *testing.B, rr *resolved[W, R]) {
	const mask = poolSize - 1
	decs := rr.decoders()
	for _, lib := range []string{libOurs, libHamba, libTwmb} {
		dec := decs[lib]
		b.Run("case="+rr.name+"/op=decode-new/lib="+lib, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				v := new(R)
				if err := dec(rr.enc[i&mask], v); err != nil {
					b.Fatal(err)
				}
				sinkAny = v
			}
		})
	}
	b.Run("case="+rr.name+"/op=decode-new/lib="+libGogen, func(b *testing.B) {
		b.ReportAllocs()
		benchGogenDecodeNew(b, rr.gogen, rr.enc)
	})
}

func BenchmarkResolve(b *testing.B) {
	releaseWorkloads()
	benchResolved(b, rsRec10(b))
	releaseWorkloads()
	benchResolved(b, rsWide(b))
}

func checkResolved[W, R any](t *testing.T, rr *resolved[W, R]) {
	t.Run(rr.name, func(t *testing.T) {
		for lib, dec := range rr.decoders() {
			for i := 0; i < parityN; i++ {
				got := new(R)
				if err := dec(rr.enc[i], got); err != nil {
					t.Fatalf("rec %d: %s: %v", i, lib, err)
				}
				if d := diff(rr.want[i], *got); d != "" {
					t.Fatalf("rec %d: %s (-want +got):\n%s", i, lib, d)
				}
			}
		}
		// gogen's struct of the reader is its own type: what it decoded
		// is encoded again by gogen, with the reader's schema, and
		// compared after our decode.
		for i := 0; i < parityN; i++ {
			v, err := rr.gogen.decode(rr.enc[i])
			if err != nil {
				t.Fatalf("rec %d: gogen: %v", i, err)
			}
			data, err := rr.gogen.encode(v)
			if err != nil {
				t.Fatalf("rec %d: gogen encoding what it decoded: %v", i, err)
			}
			got := new(R)
			if err := avro.Unmarshal(rr.reader, data, got); err != nil {
				t.Fatalf("rec %d: gogen's record: %v", i, err)
			}
			if d := diff(rr.want[i], *got); d != "" {
				t.Fatalf("rec %d: gogen (-want +got):\n%s", i, d)
			}
		}
	})
}

func TestParityResolve(t *testing.T) {
	checkResolved(t, rsRec10(t))
	checkResolved(t, rsWide(t))
	if !strings.Contains(rsWide(t).ours.String(), "f02") {
		t.Fatal("the projection schema lost its fields")
	}
}
