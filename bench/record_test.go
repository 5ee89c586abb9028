package bench

import (
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/value"
	hamba "github.com/hamba/avro/v2"
)

// Sinks keep results alive so that the compiler cannot drop the work.
var (
	sinkBytes []byte
	sinkAny   any
	sinkValue value.Value // a Value in sinkAny would cost an allocation per op
	sinkInt   int64
)

// rowRunner runs one row of a set: prefix/op=OP/lib=LIB, with its
// allocations reported.
type rowRunner func(op, lib string, f func(b *testing.B))

func newRowRunner(b *testing.B, prefix string) rowRunner {
	return func(op, lib string, f func(b *testing.B)) {
		b.Run(prefix+"/op="+op+"/lib="+lib, func(b *testing.B) {
			b.ReportAllocs()
			f(b)
		})
	}
}

// appendRow runs op=append for one library: encode appends record i of
// the pool to a reused buffer.
func appendRow(run rowRunner, lib string, encode func(buf []byte, i int) ([]byte, error)) {
	run("append", lib, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = encode(buf[:0], i&(poolSize-1)); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
}

// hambaAppendRow runs op=append for hamba's codec: its Writer, Reset
// for every record, writing record i of the pool.
func hambaAppendRow(run rowRunner, lib string, s hamba.Schema, rec func(i int) any) {
	run("append", lib, func(b *testing.B) {
		hw := hamba.NewWriter(nil, 64<<10)
		for i := 0; i < b.N; i++ {
			hw.Reset(nil)
			hw.WriteVal(s, rec(i&(poolSize-1)))
			if hw.Error != nil {
				b.Fatal(hw.Error)
			}
		}
		sinkBytes = hw.Buffer()
	})
}

// decodeNewRow runs op=decode-new for one library: decode decodes each
// encoding of the pool into a new T.
func decodeNewRow[T any](run rowRunner, lib string, enc [][]byte, decode func(data []byte, v *T) error) {
	run("decode-new", lib, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			v := new(T)
			if err := decode(enc[i&(poolSize-1)], v); err != nil {
				b.Fatal(err)
			}
			sinkAny = v
		}
	})
}

// floorRow runs the lib=copy row of decode-new, when the workload has a
// floor.
func floorRow[T any](run rowRunner, w *workload[T]) {
	if w.floor == nil {
		return
	}
	run("decode-new", libCopy, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sinkAny = w.floor(i & (poolSize - 1))
		}
	})
}

// benchRecords runs the struct rows of one workload:
//
//	op=append       encode into a reused buffer (avro.Append, hamba's
//	                Writer.WriteVal after Reset, twmb's AppendEncode)
//	op=marshal      encode into a new slice (Marshal / Encode)
//	op=decode-new   decode into a new struct
//	op=decode-reuse decode into one struct reused for every op
//
// Every op takes the next record of a pool of 4,096 random ones.
func benchRecords[T any](b *testing.B, prefix string, wl func(testing.TB) *workload[T]) {
	releaseWorkloads()
	w := wl(b)
	const mask = poolSize - 1
	run := newRowRunner(b, prefix)

	appendRow(run, libOurs, func(buf []byte, i int) ([]byte, error) { return avro.Append(buf, w.ours, &w.recs[i]) })
	hambaAppendRow(run, libHamba, w.hamba, func(i int) any { return &w.recs[i] })
	appendRow(run, libTwmb, func(buf []byte, i int) ([]byte, error) { return w.twmb.AppendEncode(buf, &w.recs[i]) })

	run("marshal", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			out, err := avro.Marshal(w.ours, &w.recs[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})
	run("marshal", libHamba, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			out, err := hamba.Marshal(w.hamba, &w.recs[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})
	run("marshal", libTwmb, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			out, err := w.twmb.Encode(&w.recs[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})

	decodeNewRow(run, libOurs, w.enc, func(data []byte, v *T) error { return avro.Unmarshal(w.ours, data, v) })
	decodeNewRow(run, libHamba, w.enc, func(data []byte, v *T) error { return hamba.Unmarshal(w.hamba, data, v) })
	decodeNewRow(run, libTwmb, w.enc, func(data []byte, v *T) error { _, err := w.twmb.Decode(data, v); return err })

	if w.gogen != nil {
		gogenRecordRows(run, w.gogen, w.enc)
	}

	floorRow(run, w)

	reuse := func(lib string, decode func(data []byte, v *T) error) {
		if _, ok := w.noReuse[lib]; ok {
			return
		}
		run("decode-reuse", lib, func(b *testing.B) {
			v := new(T)
			for i := 0; i < b.N; i++ {
				if w.reset != nil {
					w.reset(v)
				}
				if err := decode(w.enc[i&mask], v); err != nil {
					b.Fatal(err)
				}
			}
			sinkAny = v
		})
	}
	reuse(libOurs, func(data []byte, v *T) error { return avro.Unmarshal(w.ours, data, v) })
	reuse(libHamba, func(data []byte, v *T) error { return hamba.Unmarshal(w.hamba, data, v) })
	reuse(libTwmb, func(data []byte, v *T) error { _, err := w.twmb.Decode(data, v); return err })
}

// BenchmarkRecord: the struct rows of rec10 (10 fields of mixed kinds), a
// wide record (52 fields), a deep one (nested records, arrays of records)
// and a telemetry sample (timestamps, doubles, a few strings).
func BenchmarkRecord(b *testing.B) {
	benchRecords(b, "rec=rec10", wlRec10)
	benchRecords(b, "rec=wide", wlWide)
	benchRecords(b, "rec=deep", wlDeep)
	benchRecords(b, "rec=telemetry", wlTelemetry)
}

// BenchmarkString: a record of four strings of about 8, 64 or 1,024 bytes
// (±25%), ASCII or about three quarters non-ASCII runes.
func BenchmarkString(b *testing.B) {
	for _, c := range strCases {
		benchRecords(b, "str="+c, wlStrs[c])
	}
}
