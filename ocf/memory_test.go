package ocf

import (
	"bytes"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/avrogo/avro/schema"
)

// memoryRecords is the size of the streaming round trip: 1,000,000
// records (about 130 MB encoded) per codec, or 50,000 under -race.
func memoryRecords() int {
	if raceEnabled {
		return 50_000
	}
	return 1_000_000
}

// heapBound is the peak heap allowed while a writer and a reader stream
// through a pipe: a few blocks' buffers, the codecs' state and GC slack,
// independent of the file size.
const heapBound = 32 << 20

// TestStreamingMemory writes memoryRecords() records of the 10-field
// record with each codec into an io.Pipe and reads them back on the other
// side, sampling the heap; the peak must stay under heapBound, however
// many records go through.
func TestStreamingMemory(t *testing.T) {
	n := memoryRecords()
	pool := makeRecords(1024, 42)
	for _, codec := range writableCodecs {
		t.Run(codec, func(t *testing.T) {
			runtime.GC()
			pr, pw := io.Pipe()
			werr := make(chan error, 1)
			go func() {
				w, err := NewWriter(pw, benchSchema, WithCodec(codec))
				if err == nil {
					rng := rand.New(rand.NewPCG(1, 2))
					for i := 0; i < n && err == nil; i++ {
						rec := &pool[rng.IntN(len(pool))]
						rec.ID = int32(i)
						err = w.Encode(rec)
					}
					if err == nil {
						err = w.Close()
					}
				}
				pw.CloseWithError(err)
				werr <- err
			}()
			start := time.Now()
			r, err := NewReader(pr)
			if err != nil {
				t.Fatal(err)
			}
			var ms runtime.MemStats
			var peakAlloc, peakInuse uint64
			sample := func() {
				runtime.ReadMemStats(&ms)
				peakAlloc = max(peakAlloc, ms.HeapAlloc)
				peakInuse = max(peakInuse, ms.HeapInuse)
			}
			var rec Bench
			count := 0
			for r.Next() {
				if err := r.Decode(&rec); err != nil {
					t.Fatal(err)
				}
				if rec.ID != int32(count) {
					t.Fatalf("record %d has id %d", count, rec.ID)
				}
				count++
				if count%(n/50) == 0 {
					sample()
				}
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if err := <-werr; err != nil {
				t.Fatal(err)
			}
			sample()
			if count != n {
				t.Fatalf("%d records, want %d", count, n)
			}
			t.Logf("%s: %d records in %v, peak HeapAlloc %.1f MiB, HeapInuse %.1f MiB",
				codec, n, time.Since(start).Round(time.Millisecond), float64(peakAlloc)/(1<<20), float64(peakInuse)/(1<<20))
			if peakAlloc > heapBound || peakInuse > heapBound {
				t.Errorf("peak heap %d / %d bytes, bound %d", peakAlloc, peakInuse, heapBound)
			}
		})
	}
}

// TestRecordsDoNotAllocateARecordEach reads a file of records with no
// strings, bytes or collections through Records, with and without
// workers: the values are copies of one the decoder fills, so the read
// allocates per block, not per record.
func TestRecordsDoNotAllocateARecordEach(t *testing.T) {
	type point struct {
		A int64   `avro:"a"`
		B float64 `avro:"b"`
	}
	s := schema.MustParse(`{"type":"record","name":"P","fields":[{"name":"a","type":"long"},{"name":"b","type":"double"}]}`)
	const n = 20_000
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, WithBlockCount(1000))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := w.Encode(&point{A: int64(i), B: float64(i) / 3}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		var sum, runs int64
		allocs := testing.AllocsPerRun(3, func() {
			runs++
			r, err := NewReader(bytes.NewReader(buf.Bytes()), WithWorkers(workers))
			if err != nil {
				t.Fatal(err)
			}
			for p, err := range Records[point](r) {
				if err != nil {
					t.Fatal(err)
				}
				sum += p.A
			}
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
		})
		if want := runs * n * (n - 1) / 2; sum != want {
			t.Fatalf("workers=%d: sum of a %d, want %d", workers, sum, want)
		}
		if allocs > n/20 {
			t.Errorf("workers=%d: %.0f allocations for %d records", workers, allocs, n)
		}
	}
}
