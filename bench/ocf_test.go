package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/ocf"
	hambaocf "github.com/hamba/avro/v2/ocf"
	goavro "github.com/linkedin/goavro/v2"
	twmbocf "github.com/twmb/avro/ocf"

	gogencompiler "github.com/actgardner/gogen-avro/v10/compiler"
	gogencontainer "github.com/actgardner/gogen-avro/v10/container"
	gogenvm "github.com/actgardner/gogen-avro/v10/vm"
)

// Container files: write and read 100,000 records of the 10-field record
// (the pool of 4,096 cycled) with the null, deflate, snappy and zstandard
// codecs. Every library writes blocks of 1,000 records (about 130 KB
// uncompressed) at its default compression level (deflate 6 / zstd
// default everywhere), into a reused bytes.Buffer. Every library reads the
// same file (written by us), decoding each record into a new value (a new
// struct; a native map for goavro). goavro has no zstandard codec.

const (
	ocfRecords    = 100_000
	ocfBlockCount = 1000
)

var ocfCodecs = []string{"null", "deflate", "snappy", "zstandard"}

type ocfLib struct {
	write func(w io.Writer, wl *workload[Rec10], codec string, n int) error
	// read decodes every record and calls f with each (a *Rec10, or
	// goavro's native map).
	read func(data []byte, f func(any)) error
}

func ocfLibs() map[string]ocfLib {
	return map[string]ocfLib{
		libGogen: gogenOCF(),
		libOurs: {
			write: func(w io.Writer, wl *workload[Rec10], codec string, n int) error {
				ow, err := ocf.NewWriter(w, wl.ours, ocf.WithCodec(codec), ocf.WithBlockCount(ocfBlockCount), ocf.WithBlockSize(16<<20))
				if err != nil {
					return err
				}
				for i := 0; i < n; i++ {
					if err := ow.Encode(&wl.recs[i&(poolSize-1)]); err != nil {
						return err
					}
				}
				return ow.Close()
			},
			read: func(data []byte, f func(any)) error {
				r, err := ocf.NewReader(bytes.NewReader(data))
				if err != nil {
					return err
				}
				for {
					v := new(Rec10)
					if err := r.Decode(v); err != nil {
						if err == io.EOF {
							return nil
						}
						return err
					}
					f(v)
				}
			},
		},
		libHamba: {
			write: func(w io.Writer, wl *workload[Rec10], codec string, n int) error {
				hw, err := hambaocf.NewEncoderWithSchema(wl.hamba, w, hambaocf.WithCodec(hambaocf.CodecName(codec)), hambaocf.WithBlockLength(ocfBlockCount))
				if err != nil {
					return err
				}
				for i := 0; i < n; i++ {
					if err := hw.Encode(&wl.recs[i&(poolSize-1)]); err != nil {
						return err
					}
				}
				return hw.Close()
			},
			read: func(data []byte, f func(any)) error {
				d, err := hambaocf.NewDecoder(bytes.NewReader(data))
				if err != nil {
					return err
				}
				for d.HasNext() {
					v := new(Rec10)
					if err := d.Decode(v); err != nil {
						return err
					}
					f(v)
				}
				return d.Error()
			},
		},
		libTwmb: {
			write: func(w io.Writer, wl *workload[Rec10], codec string, n int) error {
				opts := []twmbocf.WriterOpt{twmbocf.WithBlockCount(ocfBlockCount), twmbocf.WithBlockBytes(16 << 20)}
				switch codec {
				case "deflate":
					opts = append(opts, twmbocf.WithCodec(twmbocf.DeflateCodec(6)))
				case "snappy":
					opts = append(opts, twmbocf.WithCodec(twmbocf.SnappyCodec()))
				case "zstandard":
					opts = append(opts, twmbocf.WithCodec(twmbocf.MustZstdCodec(nil, nil)))
				}
				tw, err := twmbocf.NewWriter(w, wl.twmb, opts...)
				if err != nil {
					return err
				}
				for i := 0; i < n; i++ {
					if err := tw.Encode(&wl.recs[i&(poolSize-1)]); err != nil {
						return err
					}
				}
				return tw.Close()
			},
			read: func(data []byte, f func(any)) error {
				r, err := twmbocf.NewReader(bytes.NewReader(data))
				if err != nil {
					return err
				}
				defer r.Close()
				for {
					v := new(Rec10)
					if err := r.Decode(v); err != nil {
						if errors.Is(err, io.EOF) {
							return nil
						}
						return err
					}
					f(v)
				}
			},
		},
		libGoavro: {
			write: func(w io.Writer, wl *workload[Rec10], codec string, n int) error {
				if codec == "zstandard" {
					return errNoCodec
				}
				gw, err := goavro.NewOCFWriter(goavro.OCFConfig{W: w, Codec: wl.goavro, CompressionName: codec})
				if err != nil {
					return err
				}
				batch := make([]any, 0, ocfBlockCount)
				for i := 0; i < n; i++ {
					batch = append(batch, wl.native[i&(poolSize-1)])
					if len(batch) == ocfBlockCount || i == n-1 {
						if err := gw.Append(batch); err != nil {
							return err
						}
						batch = batch[:0]
					}
				}
				return nil
			},
			read: func(data []byte, f func(any)) error {
				r, err := goavro.NewOCFReader(bytes.NewReader(data))
				if err != nil {
					return err
				}
				for r.Scan() {
					x, err := r.Read()
					if err != nil {
						return err
					}
					f(x)
				}
				return r.Err()
			},
		},
	}
}

// gogenOCF writes and reads container files with gogen-avro's container
// package and generated code: its writer takes a record count per block,
// its reader is one io.Reader over the blocks' data that its VM decodes
// each record from (the program compiled once per file, from the file's
// schema to the struct's, as the generated NewRec10Reader does). It has
// no zstandard codec.
func gogenOCF() ocfLib {
	return ocfLib{
		write: func(w io.Writer, wl *workload[Rec10], codec string, n int) error {
			if codec == "zstandard" {
				return errNoCodec
			}
			gw, err := gogencontainer.NewWriter(w, gogencontainer.Codec(codec), ocfBlockCount, gogenRec10().Schema())
			if err != nil {
				return err
			}
			for i := 0; i < n; i++ {
				if err := gw.WriteRecord(wl.gogen.recs[i&(poolSize-1)]); err != nil {
					return err
				}
			}
			return gw.Flush()
		},
		read: func(data []byte, f func(any)) error {
			r, err := gogencontainer.NewReader(bytes.NewReader(data))
			if err != nil {
				return err
			}
			prog, err := gogencompiler.CompileSchemaBytes(r.AvroContainerSchema(), []byte(gogenRec10().Schema()))
			if err != nil {
				return err
			}
			for {
				v := gogenRec10()
				if err := gogenvm.Eval(r, prog, v); err != nil {
					if errors.Is(err, io.EOF) {
						return nil
					}
					return err
				}
				f(v)
			}
		},
	}
}

var errNoCodec = errors.New("codec not supported by this library")

// ocfFiles caches our file of ocfRecords records for each codec.
var ocfFiles = map[string][]byte{}

func ocfFile(tb testing.TB, codec string) []byte {
	if f := ocfFiles[codec]; f != nil {
		return f
	}
	var buf bytes.Buffer
	if err := ocfLibs()[libOurs].write(&buf, wlRec10(tb), codec, ocfRecords); err != nil {
		tb.Fatal(err)
	}
	ocfFiles[codec] = buf.Bytes()
	return buf.Bytes()
}

func BenchmarkOCF(b *testing.B) {
	releaseWorkloads()
	wl := wlRec10(b)
	libs := ocfLibs()
	order := []string{libOurs, libHamba, libTwmb, libGoavro, libGogen}
	for _, codec := range ocfCodecs {
		file := ocfFile(b, codec)
		for _, lib := range order {
			l := libs[lib]
			if noZstd(lib) && codec == "zstandard" {
				continue
			}
			b.Run(fmt.Sprintf("codec=%s/op=write/lib=%s", codec, lib), func(b *testing.B) {
				b.ReportAllocs()
				// The reused buffer is grown and its pages touched before
				// the timer starts: with one iteration (-benchtime 1x, or
				// a first run longer than -benchtime) the 34 MB the null
				// codec needs would otherwise be most of the op's time and
				// all of its bytes, for whichever library runs first.
				var buf bytes.Buffer
				buf.Grow(len(file) * 2)
				buf.Write(file)
				buf.Write(file)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					buf.Reset()
					if err := l.write(&buf, wl, codec, ocfRecords); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(buf.Len()), "file-bytes")
			})
		}
		for _, lib := range order {
			l := libs[lib]
			if noZstd(lib) && codec == "zstandard" {
				continue
			}
			b.Run(fmt.Sprintf("codec=%s/op=read/lib=%s", codec, lib), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(file)))
				for i := 0; i < b.N; i++ {
					n := 0
					if err := l.read(file, func(x any) { n++; sinkAny = x }); err != nil {
						b.Fatal(err)
					}
					if n != ocfRecords {
						b.Fatalf("%d records", n)
					}
				}
			})
		}
	}
}

// TestParityOCF: every library reads every library's file of each codec
// and gets the records back.
func TestParityOCF(t *testing.T) {
	const n = 2500 // three blocks, the last one partial
	wl := wlRec10(t)
	libs := ocfLibs()
	want := make([]any, n)
	for i := range want {
		var err error
		if want[i], err = normalize(wl.ours, wl.native[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, codec := range ocfCodecs {
		for wlib, wr := range libs {
			var buf bytes.Buffer
			err := wr.write(&buf, wl, codec, n)
			if errors.Is(err, errNoCodec) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %s write: %v", codec, wlib, err)
			}
			for rlib, rd := range libs {
				if noZstd(rlib) && codec == "zstandard" {
					continue
				}
				i := 0
				err := rd.read(buf.Bytes(), func(x any) {
					if i >= n {
						i++
						return
					}
					if g, ok := x.(gogenRecord); ok {
						x = gogenAsRec10(t, wl, g)
					}
					if r, ok := x.(*Rec10); ok {
						if d := diff(wl.recs[i], *r); d != "" {
							t.Fatalf("%s: %s reading %s's file, record %d:\n%s", codec, rlib, wlib, i, d)
						}
					} else {
						got, err := normalize(wl.ours, x)
						if err != nil {
							t.Fatal(err)
						}
						if d := diff(want[i], got); d != "" {
							t.Fatalf("%s: %s reading %s's file, record %d:\n%s", codec, rlib, wlib, i, d)
						}
					}
					i++
				})
				if err != nil {
					t.Fatalf("%s: %s reading %s's file: %v", codec, rlib, wlib, err)
				}
				if i != n {
					t.Fatalf("%s: %s reading %s's file: %d records, want %d", codec, rlib, wlib, i, n)
				}
			}
		}
	}
}

// noZstd reports whether lib has no zstandard codec.
func noZstd(lib string) bool { return lib == libGoavro || lib == libGogen }

// gogenAsRec10 is the Rec10 of a record gogen decoded: gogen encodes it,
// we decode that.
func gogenAsRec10(t *testing.T, wl *workload[Rec10], g gogenRecord) *Rec10 {
	t.Helper()
	data, err := wl.gogen.encode(g)
	if err != nil {
		t.Fatalf("gogen encoding what it read: %v", err)
	}
	v := new(Rec10)
	if err := avro.Unmarshal(wl.ours, data, v); err != nil {
		t.Fatalf("gogen's record: %v", err)
	}
	return v
}
