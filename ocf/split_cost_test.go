package ocf

import (
	"bytes"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
)

// spanReader is an io.ReaderAt that records the byte ranges read.
type spanReader struct {
	r     io.ReaderAt
	mu    sync.Mutex
	spans [][2]int64
}

func (s *spanReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := s.r.ReadAt(p, off)
	s.mu.Lock()
	s.spans = append(s.spans, [2]int64{off, off + int64(n)})
	s.mu.Unlock()
	return n, err
}

// outside returns how many distinct bytes of a file of size bytes were
// read outside the ranges keep.
func (s *spanReader) outside(size int64, keep ...[2]int64) int64 {
	read := make([]bool, size)
	for _, sp := range s.spans {
		for i := sp[0]; i < sp[1]; i++ {
			read[i] = true
		}
	}
	for _, k := range keep {
		for i := k[0]; i < min(k[1], size); i++ {
			read[i] = false
		}
	}
	var n int64
	for _, r := range read {
		if r {
			n++
		}
	}
	return n
}

// TestSplitCost: beyond the header and its own bytes, the Reader of a
// split reads the rest of its last block and at most a small piece more
// (in the header and after that block): never the next split's blocks.
func TestSplitCost(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 7))
	for range 30 {
		file, _ := randomFile(t, rng)
		size := int64(len(file))
		r0, err := NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		header := r0.dataStart
		var starts []int64
		for b, err := range r0.Blocks() {
			if err != nil {
				t.Fatal(err)
			}
			starts = append(starts, b.Offset)
		}
		for _, sp := range randomPartition(rng, file, r0.sync, 1+rng.IntN(6)) {
			sr := &spanReader{r: bytes.NewReader(file)}
			r, err := NewSplitReader(sr, size, sp.Offset, sp.Length)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := readRaw(r); err != nil {
				t.Fatal(err)
			}
			end := sp.Offset + sp.Length
			// The split reads the blocks whose marker before them starts
			// in it; the last of them may end after it.
			overhang := int64(0)
			for i, at := range starts {
				blockEnd := size
				if i+1 < len(starts) {
					blockEnd = starts[i+1]
				}
				if at-SyncSize >= sp.Offset && at-SyncSize < end {
					overhang = max(overhang, blockEnd-end)
				}
			}
			outside := sr.outside(size, [2]int64{0, header}, [2]int64{sp.Offset, end})
			if limit := overhang + 2*splitTail; outside > limit {
				t.Errorf("split %+v of a file of %d bytes (header %d): read %d bytes outside it, want at most %d (the rest of its last block, %d, and %d)",
					sp, size, header, outside, limit, overhang, 2*splitTail)
			}
		}
	}
}

// TestSplitSeek: a split's Reader moves to a block by its offset in the
// whole file, and reads it when the block is in the split.
func TestSplitSeek(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 8))
	tried := 0
	for tried < 10 {
		file, datums := randomFile(t, rng)
		size := int64(len(file))
		r0, err := NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		var blocks []BlockInfo
		for b, err := range r0.Blocks() {
			if err != nil {
				t.Fatal(err)
			}
			blocks = append(blocks, b)
		}
		if len(blocks) < 3 {
			continue
		}
		tried++
		mid := blocks[len(blocks)/2].Offset
		r, err := NewSplitReader(bytes.NewReader(file), size, mid, size-mid)
		if err != nil {
			t.Fatal(err)
		}
		last := blocks[len(blocks)-1]
		if err := r.SeekBlock(last.Offset); err != nil {
			t.Fatalf("SeekBlock(%d) of a split from %d: %v", last.Offset, mid, err)
		}
		got, err := readRaw(r)
		want := datums[int64(len(datums))-last.Count:]
		if err != nil || len(got) != len(want) || (len(got) > 0 && !bytes.Equal(got[0], want[0])) {
			t.Errorf("after SeekBlock to the last block: %d records, %v; want %d", len(got), err, len(want))
		}
	}
}

// TestFindSync: the search for a split's first marker finds the first
// one that starts in the range, wherever it lies against the pieces the
// search reads, and no other.
func TestFindSync(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 9))
	var sync [SyncSize]byte
	for i := range sync {
		sync[i] = byte(0x80 | i)
	}
	for range 300 {
		file := make([]byte, rng.IntN(600<<10))
		for i := range file {
			file[i] = byte(rng.IntN(64))
		}
		for range rng.IntN(4) {
			if len(file) >= SyncSize {
				copy(file[rng.IntN(len(file)-SyncSize+1):], sync[:])
			}
		}
		from := rng.Int64N(int64(len(file)) + 1)
		to := from + rng.Int64N(int64(len(file))-from+1)
		want := int64(-1)
		if i := bytes.Index(file[from:], sync[:]); i >= 0 && from+int64(i) < to {
			want = from + int64(i)
		}
		got, err := findSync(bytes.NewReader(file), sync, from, to)
		if err != nil || got != want {
			t.Fatalf("findSync in [%d, %d) of %d bytes: %d, %v; want %d", from, to, len(file), got, err, want)
		}
	}
}
