package ocf

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fileBlocks returns the blocks of a file, read in order.
func fileBlocks(t *testing.T, file []byte) []BlockInfo {
	t.Helper()
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var infos []BlockInfo
	for {
		b, err := r.ReadRawBlock()
		if err == io.EOF {
			return infos
		}
		if err != nil {
			t.Fatal(err)
		}
		infos = append(infos, b.BlockInfo)
	}
}

// blockDatums splits datums, the records of a file in order, by the
// blocks that hold them.
func blockDatums(blocks []BlockInfo, datums [][]byte) [][][]byte {
	var out [][][]byte
	for _, b := range blocks {
		out = append(out, datums[:b.Count])
		datums = datums[b.Count:]
	}
	return out
}

// Blocks lists every block of a file, as reading them does.
func TestBlocksListsEveryBlock(t *testing.T) {
	for seed := range uint64(10) {
		file, datums := randomFile(t, rand.New(rand.NewPCG(seed, 21)))
		want := fileBlocks(t, file)
		r, _ := NewReader(bytes.NewReader(file))
		var got []BlockInfo
		var n int64
		for b, err := range r.Blocks() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, b)
			n += b.Count
		}
		if !slices.Equal(got, want) || n != int64(len(datums)) {
			t.Fatalf("seed %d: Blocks gave %v (%d records), want %v (%d)", seed, got, n, want, len(datums))
		}
	}
	// An error is the last thing yielded.
	file := writeFile(t, makeRecords(50, 1), WithBlockCount(10))
	bad := bytes.Clone(file)
	bad[len(bad)-1] ^= 1
	r, _ := NewReader(bytes.NewReader(bad))
	var errs, blocks int
	for _, err := range r.Blocks() {
		if err != nil {
			errs++
			if !errors.Is(err, ErrSyncMismatch) {
				t.Errorf("got %v, want ErrSyncMismatch", err)
			}
		} else {
			blocks++
		}
	}
	if errs != 1 || blocks != 4 {
		t.Errorf("%d blocks and %d errors, want 4 and 1", blocks, errs)
	}
}

// SeekBlock moves to any block, from anywhere in the file and with
// workers too, and refuses offsets where no block starts, leaving the
// Reader where it was.
func TestSeekBlock(t *testing.T) {
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 22))
		file, datums := randomFile(t, rng)
		blocks := fileBlocks(t, file)
		if len(blocks) == 0 {
			continue
		}
		per := blockDatums(blocks, datums)
		opts := []ReaderOption{WithWorkers(1 + int(seed%3))}
		r, _ := NewReader(bytes.NewReader(file), opts...)
		for range 10 {
			// Read a little of where the Reader is, then move.
			if _, err := r.Raw(); err != nil && err != io.EOF {
				t.Fatal(err)
			}
			i := rng.IntN(len(blocks))
			if err := r.SeekBlock(blocks[i].Offset); err != nil {
				t.Fatalf("seed %d: SeekBlock(%d): %v", seed, blocks[i].Offset, err)
			}
			got, err := readRaw(r)
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Concat(per[i:]...)
			if !slices.EqualFunc(got, want, bytes.Equal) {
				t.Fatalf("seed %d: after SeekBlock to block %d: %d records, want %d", seed, i, len(got), len(want))
			}
		}
		// A refused move leaves the Reader where it was.
		if err := r.SeekBlock(blocks[0].Offset); err != nil {
			t.Fatal(err)
		}
		first, err := r.Raw()
		if err != nil {
			t.Fatal(err)
		}
		first = bytes.Clone(first)
		for _, off := range []int64{blocks[0].Offset + 1, blocks[0].Offset - 1, 3, int64(len(file)) + 20} {
			if err := r.SeekBlock(off); !errors.Is(err, ErrNotABlock) {
				t.Fatalf("seed %d: SeekBlock(%d) = %v, want ErrNotABlock", seed, off, err)
			}
		}
		rest, err := readRaw(r)
		if err != nil || !slices.EqualFunc(append([][]byte{first}, rest...), datums, bytes.Equal) {
			t.Fatalf("seed %d: after refused moves: %d records, %v; want the file's %d", seed, 1+len(rest), err, len(datums))
		}
	}
}

// A Reader stopped by a damaged block reads on from the block after it
// once moved there.
func TestSeekBlockPastDamage(t *testing.T) {
	recs := makeRecords(100, 4)
	file := writeFile(t, recs, WithBlockCount(10), WithCodec(CodecDeflate))
	blocks := fileBlocks(t, file)
	bad := bytes.Clone(file)
	bad[blocks[3].Offset+int64(blocks[3].Size)] ^= 0xff // inside block 3's data or marker
	r, _ := NewReader(bytes.NewReader(bad))
	var n int
	for rec, err := range Records[Bench](r) {
		if err != nil {
			break
		}
		n++
		_ = rec
	}
	if r.Err() == nil || n != 30 {
		t.Fatalf("%d records before the damage and %v; want 30 and an error", n, r.Err())
	}
	if err := r.SeekBlock(blocks[4].Offset); err != nil {
		t.Fatal(err)
	}
	var ids []int32
	for rec, err := range Records[Bench](r) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
	}
	if len(ids) != 60 || ids[0] != 40 {
		t.Fatalf("after the damage: %d records from %v, want 60 from 40", len(ids), ids[:min(len(ids), 1)])
	}
}

// countingSeeker counts the bytes read from a file.
type countingSeeker struct {
	*bytes.Reader
	read int64
}

func (c *countingSeeker) Read(p []byte) (int, error) {
	n, err := c.Reader.Read(p)
	c.read += int64(n)
	return n, err
}

// SeekLastBlock finds the last whole block of a file, reading no more
// than it and the header, also when a block cut short follows it.
func TestSeekLastBlock(t *testing.T) {
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 23))
		file, datums := randomFile(t, rng)
		blocks := fileBlocks(t, file)
		per := blockDatums(blocks, datums)
		cut := file
		if seed%2 == 1 && len(blocks) > 1 {
			// The file as a Writer in the middle of its last block left it.
			last := blocks[len(blocks)-1]
			cut = file[:last.Offset+rng.Int64N(int64(len(file))-last.Offset)]
			blocks, per = blocks[:len(blocks)-1], per[:len(per)-1]
		}
		r, _ := NewReader(bytes.NewReader(cut), WithWorkers(1+int(seed%2)))
		b, err := r.SeekLastBlock()
		if len(blocks) == 0 {
			if err != io.EOF {
				t.Fatalf("seed %d: a file of no whole block: %v, want io.EOF", seed, err)
			}
			continue
		}
		if err != nil || b != blocks[len(blocks)-1] {
			t.Fatalf("seed %d: SeekLastBlock = %+v, %v; want %+v", seed, b, err, blocks[len(blocks)-1])
		}
		var got [][]byte
		for range b.Count {
			d, err := r.Raw()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, bytes.Clone(d))
		}
		if want := per[len(per)-1]; !slices.EqualFunc(got, want, bytes.Equal) {
			t.Fatalf("seed %d: %d records of the last block, want %d", seed, len(got), len(want))
		}
	}

	// On a large file, only the header and the last block are read.
	recs := makeRecords(30000, 2)
	file := writeFile(t, recs, WithCodec(CodecDeflate))
	blocks := fileBlocks(t, file)
	last := blocks[len(blocks)-1]
	src := &countingSeeker{Reader: bytes.NewReader(file)}
	r, _ := NewReader(src)
	if _, err := r.SeekLastBlock(); err != nil {
		t.Fatal(err)
	}
	var n int
	for _, err := range Records[Bench](r) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	tail := int64(len(file)) - last.Offset
	if n != int(last.Count) || src.read > 2*(64<<10)+2*tail || int64(len(file)) < 8*src.read {
		t.Fatalf("%d records, %d bytes read of %d with a last block of %d; want %d records, about the block's bytes", n, src.read, len(file), tail, last.Count)
	}
}

// The moves need a Seeker.
func TestMovesNeedASeeker(t *testing.T) {
	file := writeFile(t, makeRecords(20, 1))
	r, _ := NewReader(io.MultiReader(bytes.NewReader(file)))
	if err := r.SeekBlock(100); !errors.Is(err, ErrNotSeekable) {
		t.Errorf("SeekBlock: %v, want ErrNotSeekable", err)
	}
	if _, err := r.SeekLastBlock(); !errors.Is(err, ErrNotSeekable) {
		t.Errorf("SeekLastBlock: %v, want ErrNotSeekable", err)
	}
	if _, err := NewReader(io.MultiReader(bytes.NewReader(file)), WithFollow()); !errors.Is(err, ErrNotSeekable) {
		t.Errorf("NewReader WithFollow: %v, want ErrNotSeekable", err)
	}
	_ = r.Close()
	if err := r.SeekBlock(100); !errors.Is(err, ErrClosed) {
		t.Errorf("SeekBlock after Close: %v, want ErrClosed", err)
	}
}

// A Reader WithFollow of a file written a piece at a time, cut anywhere,
// gives the records of every block once it is whole, never a record of
// a block in part, and never one twice.
func TestFollowAGrowingFile(t *testing.T) {
	for seed := range uint64(16) {
		rng := rand.New(rand.NewPCG(seed, 24))
		file, datums := randomFile(t, rng)
		blocks := fileBlocks(t, file)
		per := blockDatums(blocks, datums)
		path := filepath.Join(t.TempDir(), "grow.avro")
		r0, _ := NewReader(bytes.NewReader(file))
		header := r0.dataStart
		written := header + rng.Int64N(64)
		if err := os.WriteFile(path, file[:min(written, int64(len(file)))], 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		in, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(in, WithFollow(), WithWorkers(1+int(seed%3)))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var got [][]byte
		for {
			more, err := readRaw(r)
			if err != nil {
				t.Fatalf("seed %d at %d of %d bytes: %v", seed, written, len(file), err)
			}
			got = append(got, more...)
			// What is written holds these whole blocks.
			var want [][]byte
			for i, b := range blocks {
				if blockEnd(b) <= written {
					want = append(want, per[i]...)
				}
			}
			if !slices.EqualFunc(got, want, bytes.Equal) {
				t.Fatalf("seed %d at %d of %d bytes: %d records, want %d", seed, written, len(file), len(got), len(want))
			}
			if written >= int64(len(file)) {
				break
			}
			n := min(written+1+rng.Int64N(3000), int64(len(file)))
			if _, err := out.Write(file[written:n]); err != nil {
				t.Fatal(err)
			}
			written = n
		}
		_ = r.Close()
		_ = out.Close()
		_ = in.Close()
		if len(got) != len(datums) {
			t.Fatalf("seed %d: %d records in all, want %d", seed, len(got), len(datums))
		}
	}
}

// blockEnd is the offset after a block's sync marker.
func blockEnd(b BlockInfo) int64 {
	head := len(appendLong(appendLong(nil, b.Count), b.Size))
	return b.Offset + int64(head) + b.Size + SyncSize
}
