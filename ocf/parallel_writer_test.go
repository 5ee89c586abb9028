package ocf

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/avrogo/avro"
)

// writeScript writes the same records the same way to a Writer made with
// opts: Encode, EncodeRaw, Flush, WriteBlock and WriteRawBlock, chosen by
// seed, and returns the file and the first error. The records' maps hold
// one entry: an Avro map's entries go in the Go map's order, which two
// runs need not share, and the files written are compared byte for byte.
func writeScript(t *testing.T, w ioWriter, seed uint64, codec string, opts ...WriterOption) error {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	makeRecord := func(rng *rand.Rand, i int) Bench {
		rec := makeRecord(rng, i)
		rec.Tags = map[string]string{"env": rec.Tags["env"]}
		return rec
	}
	opts = append([]WriterOption{WithCodec(codec), WithSyncMarker([SyncSize]byte{9, 8, 7}),
		WithBlockSize(256 + rng.IntN(8<<10))}, opts...)
	if rng.IntN(3) == 0 {
		opts = append(opts, WithBlockCount(1+rng.IntN(40)))
	}
	wr, err := NewWriter(w, benchSchema, opts...)
	if err != nil {
		return err
	}
	// Blocks as stored, of the same codec, for WriteRawBlock.
	var stored bytes.Buffer
	sw, _ := NewWriter(&stored, benchSchema, WithCodec(codec), WithBlockCount(5))
	for i := range 20 {
		rec := makeRecord(rng, i)
		_ = sw.Encode(&rec)
	}
	_ = sw.Close()
	raws := readBlocks(t, stored.Bytes(), (*Reader).ReadRawBlock)
	plains := readBlocks(t, stored.Bytes(), (*Reader).ReadBlock)
	for i := range 600 {
		rec := makeRecord(rng, i)
		switch k := rng.IntN(100); {
		case k < 80:
			err = wr.Encode(&rec)
		case k < 90:
			var d []byte
			if d, err = avro.Marshal(benchSchema, &rec); err == nil {
				err = wr.EncodeRaw(d)
			}
		case k < 94:
			err = wr.Flush()
		case k < 97:
			err = wr.WriteBlock(plains[rng.IntN(len(plains))])
		default:
			err = wr.WriteRawBlock(raws[rng.IntN(len(raws))])
		}
		if err != nil {
			_ = wr.Close()
			return err
		}
	}
	return wr.Close()
}

type ioWriter interface{ Write([]byte) (int, error) }

// readBlocks returns the blocks of a file, copied, read by read.
func readBlocks(t *testing.T, file []byte, read func(*Reader) (Block, error)) []Block {
	t.Helper()
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var out []Block
	for {
		b, err := read(r)
		if err != nil {
			return out
		}
		b.Data = bytes.Clone(b.Data)
		out = append(out, b)
	}
}

// A Writer with workers writes the file a Writer without them writes,
// byte for byte, whatever it is asked to write and however it is flushed.
func TestParallelWritesAsSequential(t *testing.T) {
	for seed := range uint64(12) {
		for _, codec := range []string{CodecNull, CodecDeflate, CodecSnappy, CodecZstandard} {
			var want bytes.Buffer
			if err := writeScript(t, &want, seed, codec); err != nil {
				t.Fatal(err)
			}
			for _, workers := range workerCounts[1:] {
				var got bytes.Buffer
				if err := writeScript(t, &got, seed, codec, WithWorkers(workers)); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("seed %d, %s, %d workers: %d bytes differ from the sequential %d", seed, codec, workers, got.Len(), want.Len())
				}
			}
		}
	}
}

// failingWriter fails every write after the first n.
type failingWriter struct {
	n, writes int
	buf       bytes.Buffer
}

var errDiskFull = errors.New("disk full")

func (f *failingWriter) Write(p []byte) (int, error) {
	f.writes++
	if f.writes > f.n {
		return 0, errDiskFull
	}
	return f.buf.Write(p)
}

// A write error of a Writer with workers is returned by a later call, and
// nothing is written after it: what was written is the start of the
// file, up to a whole block.
func TestParallelWriteError(t *testing.T) {
	var full bytes.Buffer
	if err := writeScript(t, &full, 1, CodecDeflate); err != nil {
		t.Fatal(err)
	}
	for _, workers := range workerCounts {
		for _, n := range []int{1, 4, 20, 41} {
			f := &failingWriter{n: n}
			err := writeScript(t, f, 1, CodecDeflate, WithWorkers(workers))
			if !errors.Is(err, errDiskFull) {
				t.Fatalf("%d workers, failing after %d writes: %v, want the write's error", workers, n, err)
			}
			if f.writes != n+1 {
				t.Fatalf("%d workers, failing after %d writes: %d writes were tried; want none after the failure", workers, n, f.writes)
			}
			if !bytes.HasPrefix(full.Bytes(), f.buf.Bytes()) {
				t.Fatalf("%d workers: what was written is not the start of the file", workers)
			}
		}
	}
}

// No goroutine of a Writer's workers is left after Close, after an error
// too.
func TestParallelWriterLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, workers := range workerCounts {
		var b bytes.Buffer
		if err := writeScript(t, &b, 2, CodecZstandard, WithWorkers(workers)); err != nil {
			t.Fatal(err)
		}
		_ = writeScript(t, &failingWriter{n: 3}, 2, CodecZstandard, WithWorkers(workers))
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := runtime.NumGoroutine(); got > before {
		t.Fatalf("%d goroutines after the Writers closed, %d before", got, before)
	}
}
