package ocf

import (
	"bytes"
	stdflate "compress/flate"
	"io"
	"testing"

	"github.com/klauspost/compress/flate"
)

// Benchmarks write and read 100,000 records of the 10-field benchSchemaText
// (about 13 MB encoded) per op with each codec. The records are 100,000
// distinct pseudo-random values, so the data is not memorisable. Run:
//
//	go test -run '^$' -bench . -benchmem ./ocf/
const benchRecords = 100_000

var benchData = struct {
	recs []Bench
	raw  int64 // encoded size of the records
}{}

func benchRecs(b *testing.B) []Bench {
	if benchData.recs == nil {
		benchData.recs = makeRecords(benchRecords, 99)
		var n int64
		for i := range benchData.recs {
			buf, _ := appendRecord(nil, &benchData.recs[i])
			n += int64(len(buf))
		}
		benchData.raw = n
	}
	return benchData.recs
}

func appendRecord(dst []byte, r *Bench) ([]byte, error) {
	return writerEnc.Append(dst, benchSchema, r)
}

var writerEnc = (&Writer{}).enc

func BenchmarkWrite(b *testing.B) {
	recs := benchRecs(b)
	for _, codec := range writableCodecs {
		b.Run(codec, func(b *testing.B) {
			var size int64
			b.SetBytes(benchData.raw)
			b.ReportAllocs()
			for b.Loop() {
				cw := &countWriter{}
				w, err := NewWriter(cw, benchSchema, WithCodec(codec))
				if err != nil {
					b.Fatal(err)
				}
				for i := range recs {
					if err := w.Encode(&recs[i]); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				size = cw.n
			}
			b.ReportMetric(float64(benchRecords*b.N)/b.Elapsed().Seconds(), "records/s")
			b.ReportMetric(float64(size)/float64(benchData.raw), "ratio")
		})
	}
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

func BenchmarkRead(b *testing.B) {
	recs := benchRecs(b)
	for _, codec := range writableCodecs {
		b.Run(codec, func(b *testing.B) {
			var buf bytes.Buffer
			w, _ := NewWriter(&buf, benchSchema, WithCodec(codec))
			for i := range recs {
				_ = w.Encode(&recs[i])
			}
			_ = w.Close()
			file := buf.Bytes()
			b.SetBytes(benchData.raw)
			b.ReportAllocs()
			var rec Bench
			for b.Loop() {
				r, err := NewReader(bytes.NewReader(file))
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for r.Next() {
					if err := r.Decode(&rec); err != nil {
						b.Fatal(err)
					}
					n++
				}
				if r.Err() != nil || n != benchRecords {
					b.Fatal(n, r.Err())
				}
			}
			b.ReportMetric(float64(benchRecords*b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkDeflateLibrary compares klauspost/compress/flate (used by the
// deflate codec) with the standard library on a 64 KiB block of records.
func BenchmarkDeflateLibrary(b *testing.B) {
	recs := benchRecs(b)
	var block []byte
	for i := 0; len(block) < DefaultBlockSize; i++ {
		block, _ = appendRecord(block, &recs[i])
	}
	type lib struct {
		name   string
		writer func(io.Writer) (io.WriteCloser, func(io.Writer))
		reader func(io.Reader) io.ReadCloser
	}
	libs := []lib{
		{"klauspost", func(w io.Writer) (io.WriteCloser, func(io.Writer)) {
			fw, _ := flate.NewWriter(w, flate.DefaultCompression)
			return fw, fw.Reset
		}, flate.NewReader},
		{"stdlib", func(w io.Writer) (io.WriteCloser, func(io.Writer)) {
			fw, _ := stdflate.NewWriter(w, stdflate.DefaultCompression)
			return fw, fw.Reset
		}, stdflate.NewReader},
	}
	for _, l := range libs {
		var comp bytes.Buffer
		fw, reset := l.writer(&comp)
		if _, err := fw.Write(block); err != nil {
			b.Fatal(err)
		}
		if err := fw.Close(); err != nil {
			b.Fatal(err)
		}
		compressed := bytes.Clone(comp.Bytes())
		b.Run(l.name+"/compress", func(b *testing.B) {
			b.SetBytes(int64(len(block)))
			b.ReportAllocs()
			for b.Loop() {
				comp.Reset()
				reset(&comp)
				if _, err := fw.Write(block); err != nil {
					b.Fatal(err)
				}
				if err := fw.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(compressed))/float64(len(block)), "ratio")
		})
		b.Run(l.name+"/decompress", func(b *testing.B) {
			b.SetBytes(int64(len(block)))
			b.ReportAllocs()
			out := make([]byte, 0, len(block))
			fr := l.reader(bytes.NewReader(compressed))
			for b.Loop() {
				if err := fr.(stdflate.Resetter).Reset(bytes.NewReader(compressed), nil); err != nil {
					b.Fatal(err)
				}
				out, _ = readLimited(out[:0], fr, 1<<20)
			}
		})
	}
}
