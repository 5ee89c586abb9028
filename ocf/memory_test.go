package ocf

import (
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
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
