package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/avrogo/avro/ocf"
)

// Container files at scale: reading and writing a large file of the
// telemetry records with one goroutine and with every core
// (ocf.WithWorkers), deflate and zstandard. The file is 200 MB of records
// before compression (AVRO_BENCH_OCF_MB sets another size), written once
// per codec in blocks of 64 KiB (the Writer's default) and read into a
// reused struct (op=read: decompression on the workers), as values of
// ocf.Records (op=records: decoding there too) and as splits. The rows
// report MB/s of uncompressed records; the ratio of workers=all to
// workers=1 in one run is the scaling.

const parallelBlockSize = 64 << 10

func parallelFileMB() int {
	if s := os.Getenv("AVRO_BENCH_OCF_MB"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 200
}

var parallelFiles = struct {
	sync.Mutex
	m map[string][]byte // codec -> file
	n map[string]int    // codec -> records
}{m: map[string][]byte{}, n: map[string]int{}}

// parallelFile returns the large telemetry file of a codec and its record
// count, writing it on first use.
func parallelFile(b *testing.B, codec string) ([]byte, int) {
	parallelFiles.Lock()
	defer parallelFiles.Unlock()
	if f, ok := parallelFiles.m[codec]; ok {
		return f, parallelFiles.n[codec]
	}
	wl := wlTelemetry(b)
	var buf bytes.Buffer
	w, err := ocf.NewWriter(&buf, wl.ours, ocf.WithCodec(codec), ocf.WithBlockSize(parallelBlockSize), ocf.WithWorkers(0))
	if err != nil {
		b.Fatal(err)
	}
	target, n, raw := parallelFileMB()<<20, 0, 0
	for raw < target {
		if err := w.EncodeRaw(wl.enc[n&(poolSize-1)]); err != nil {
			b.Fatal(err)
		}
		raw += len(wl.enc[n&(poolSize-1)])
		n++
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	parallelFiles.m[codec], parallelFiles.n[codec] = buf.Bytes(), n
	return buf.Bytes(), n
}

func BenchmarkOCFParallel(b *testing.B) {
	for _, codec := range []string{"deflate", "zstandard"} {
		for _, workers := range []int{1, 0} {
			name := "workers=" + strconv.Itoa(workers)
			if workers == 0 {
				name = "workers=all"
			}
			for _, op := range []string{"read", "records"} {
				b.Run(fmt.Sprintf("codec=%s/op=%s/%s", codec, op, name), func(b *testing.B) {
					benchRead(b, codec, workers, op == "records")
				})
			}
			b.Run(fmt.Sprintf("codec=%s/op=splits/%s", codec, name), func(b *testing.B) {
				benchSplits(b, codec, workers)
			})
			b.Run(fmt.Sprintf("codec=%s/op=write/%s", codec, name), func(b *testing.B) {
				wl := wlTelemetry(b)
				_, n := parallelFile(b, codec)
				b.SetBytes(int64(parallelFileMB() << 20))
				b.ReportAllocs()
				for b.Loop() {
					w, err := ocf.NewWriter(io.Discard, wl.ours, ocf.WithCodec(codec),
						ocf.WithBlockSize(parallelBlockSize), ocf.WithWorkers(workers))
					if err != nil {
						b.Fatal(err)
					}
					for i := range n {
						if err := w.Encode(&wl.recs[i&(poolSize-1)]); err != nil {
							b.Fatal(err)
						}
					}
					if err := w.Close(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchSplits reads the large file as a distributed engine does: planned
// into four splits a worker, each read by its own split Reader on a pool
// of goroutines (one, or GOMAXPROCS), so that decoding runs in parallel
// too. It reports the bytes each split reads beyond its own range (the
// header and the rest of its last block) as overread-B/split.
func benchSplits(b *testing.B, codec string, workers int) {
	file, n := parallelFile(b, codec)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	b.SetBytes(int64(parallelFileMB() << 20))
	b.ReportAllocs()
	var overread, nsplits int64
	for b.Loop() {
		src := &countingReaderAt{r: bytes.NewReader(file)}
		splits, err := ocf.PlanSplits(src, int64(len(file)), 4*workers)
		if err != nil {
			b.Fatal(err)
		}
		src.n.Store(0)
		var got atomic.Int64
		var wg sync.WaitGroup
		next := make(chan ocf.Split)
		errs := make(chan error, workers)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for sp := range next {
					r, err := ocf.NewSplitReader(src, int64(len(file)), sp.Offset, sp.Length)
					if err != nil {
						errs <- err
						continue
					}
					// A count of its own per split: one counter shared by
					// every record is a cache line the cores pass back and
					// forth, and was most of what the row measured.
					var s Sample
					var k int64
					for {
						if err := r.Decode(&s); err != nil {
							if err != io.EOF {
								errs <- err
							}
							break
						}
						k++
					}
					got.Add(k)
				}
			}()
		}
		for _, sp := range splits {
			next <- sp
		}
		close(next)
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		if got.Load() != int64(n) {
			b.Fatalf("%d records, want %d", got.Load(), n)
		}
		overread += src.n.Load() - int64(len(file))
		nsplits += int64(len(splits))
	}
	b.ReportMetric(float64(overread)/float64(nsplits), "overread-B/split")
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// benchRead reads the large file of a codec whole, into a reused struct
// with Decode, or as the values of ocf.Records.
func benchRead(b *testing.B, codec string, workers int, records bool) {
	file, n := parallelFile(b, codec)
	b.SetBytes(int64(parallelFileMB() << 20))
	b.ReportAllocs()
	for b.Loop() {
		r, err := ocf.NewReader(bytes.NewReader(file), ocf.WithWorkers(workers))
		if err != nil {
			b.Fatal(err)
		}
		got := 0
		if records {
			for _, err := range ocf.Records[Sample](r) {
				if err != nil {
					b.Fatal(err)
				}
				got++
			}
		} else {
			var s Sample
			for err = r.Decode(&s); err == nil; err = r.Decode(&s) {
				got++
			}
			if err != io.EOF {
				b.Fatal(err)
			}
		}
		if got != n {
			b.Fatalf("%d records, want %d", got, n)
		}
	}
}
