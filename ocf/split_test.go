package ocf

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
)

// splitSchemas are the schemas of the split property test's files: a
// record of every kind, and single values of small and large datums.
var splitSchemas = []string{
	benchSchemaText,
	`"long"`,
	`{"type":"array","items":"string"}`,
	`{"type":"record","name":"E","fields":[
		{"name":"u","type":["null","int",{"type":"map","values":"bytes"}]},
		{"name":"f","type":{"type":"fixed","name":"F","size":16}},
		{"name":"e","type":{"type":"enum","name":"S","symbols":["A","B","C"]}},
		{"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":20,"scale":4}}]}`,
}

// randomFile writes a container file of random datums of a random schema
// with a random codec, block size and flushes, appended to once or twice,
// and returns it with the datums in order.
func randomFile(t *testing.T, rng *rand.Rand) (file []byte, datums [][]byte) {
	t.Helper()
	s := schema.MustParse(splitSchemas[rng.IntN(len(splitSchemas))])
	codec := writableCodecs[rng.IntN(len(writableCodecs))]
	path := filepath.Join(t.TempDir(), "f.avro")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	for part := range 1 + rng.IntN(3) {
		opts := []WriterOption{WithBlockSize(64 + rng.IntN(4<<10))}
		if rng.IntN(2) == 0 {
			opts = append(opts, WithBlockCount(1+rng.IntN(30)))
		}
		var w *Writer
		if part == 0 {
			w, err = NewWriter(f, s, append(opts, WithCodec(codec))...)
		} else {
			if _, err = f.Seek(0, io.SeekStart); err == nil {
				w, err = NewAppender(f, opts...)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		for range rng.IntN(300) {
			d := fixture.RandomDatum(nil, s, rng, 2)
			if err := w.EncodeRaw(d); err != nil {
				t.Fatal(err)
			}
			datums = append(datums, d)
			if rng.IntN(40) == 0 {
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	file, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return file, datums
}

// readRaw returns the datums a Reader gives, copied, and the error it
// stops at (nil at the clean end).
func readRaw(r *Reader) ([][]byte, error) {
	var out [][]byte
	for {
		d, err := r.Raw()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, bytes.Clone(d))
	}
}

// randomPartition cuts [0, size) into up to n ranges at random offsets,
// some of them next to sync markers, where an off-by-one shows.
func randomPartition(rng *rand.Rand, file []byte, sync [SyncSize]byte, n int) []Split {
	var markers []int64
	for i := 0; ; {
		j := bytes.Index(file[i:], sync[:])
		if j < 0 {
			break
		}
		markers = append(markers, int64(i+j))
		i += j + 1
	}
	size := int64(len(file))
	cuts := []int64{0, size}
	for range n - 1 {
		at := rng.Int64N(size + 1)
		if rng.IntN(2) == 0 && len(markers) > 0 {
			at = markers[rng.IntN(len(markers))] + int64(rng.IntN(3)) - 1
		}
		cuts = append(cuts, min(max(at, 0), size))
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var out []Split
	for i := 0; i+1 < len(cuts); i++ {
		out = append(out, Split{Offset: cuts[i], Length: cuts[i+1] - cuts[i]})
	}
	return out
}

// readSplits reads the splits of file in order, with opts, and returns
// their datums, and the first error with the index of its split.
func readSplits(t *testing.T, file []byte, splits []Split, opts ...ReaderOption) ([][]byte, int, error) {
	t.Helper()
	var all [][]byte
	for i, sp := range splits {
		r, err := NewSplitReader(bytes.NewReader(file), int64(len(file)), sp.Offset, sp.Length, opts...)
		if err != nil {
			t.Fatalf("split %d %+v: %v", i, sp, err)
		}
		got, err := readRaw(r)
		_ = r.Close()
		all = append(all, got...)
		if err != nil {
			return all, i, err
		}
	}
	return all, -1, nil
}

// The splits of any partition of a file give every record once, in
// order: those of random files in random partitions, and those
// PlanSplits makes, with and without workers.
func TestSplitsReadEveryRecordOnce(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 11))
		file, datums := randomFile(t, rng)
		r, err := NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		for p := range 6 {
			splits := randomPartition(rng, file, r.SyncMarker(), 1+rng.IntN(12))
			var opts []ReaderOption
			if p%2 == 1 {
				opts = append(opts, WithWorkers(1+rng.IntN(4)))
			}
			got, _, err := readSplits(t, file, splits, opts...)
			if err != nil {
				t.Fatalf("seed %d, splits %v: %v", seed, splits, err)
			}
			if !slices.EqualFunc(got, datums, bytes.Equal) {
				t.Fatalf("seed %d, splits %v: %d records, want the file's %d in order", seed, splits, len(got), len(datums))
			}
		}
		for _, n := range []int{1, 2, 3, 7, 64} {
			splits, err := PlanSplits(bytes.NewReader(file), int64(len(file)), n)
			if err != nil {
				t.Fatal(err)
			}
			if len(splits) > n || splits[0].Offset != 0 || end(splits[len(splits)-1]) != int64(len(file)) {
				t.Fatalf("seed %d: PlanSplits(%d) = %v: not a partition of the file's %d bytes", seed, n, splits, len(file))
			}
			for i := 1; i < len(splits); i++ {
				if splits[i].Offset != end(splits[i-1]) || splits[i].Length == 0 {
					t.Fatalf("seed %d: PlanSplits(%d) = %v: not a partition", seed, n, splits)
				}
				if !bytes.Equal(file[splits[i].Offset:splits[i].Offset+SyncSize], r.sync[:]) {
					t.Fatalf("seed %d: PlanSplits(%d) = %v: split %d does not start at a sync marker", seed, n, splits, i)
				}
			}
			got, _, err := readSplits(t, file, splits)
			if err != nil || !slices.EqualFunc(got, datums, bytes.Equal) {
				t.Fatalf("seed %d: PlanSplits(%d) = %v: %d records, want %d (%v)", seed, n, splits, len(got), len(datums), err)
			}
		}
	}
}

func end(s Split) int64 { return s.Offset + s.Length }

// In a file with a damaged block, the splits before it read what a
// Reader of the whole file reads, and the split that holds it reports the
// error a Reader of the whole file does, at the same offset.
func TestSplitsOfADamagedFile(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 12))
		file, _ := randomFile(t, rng)
		r, _ := NewReader(bytes.NewReader(file))
		var blocks []BlockInfo
		for {
			b, err := r.SkipBlock()
			if err != nil {
				break
			}
			blocks = append(blocks, b)
		}
		if len(blocks) < 2 {
			continue
		}
		b := blocks[rng.IntN(len(blocks)-1)]
		bad := bytes.Clone(file)
		switch rng.IntN(2) {
		case 0: // the sync marker after it
			bad[b.Offset+b.Size+int64(rng.IntN(2))+1+int64(rng.IntN(SyncSize))] ^= 0x55
		default: // its record count, made negative
			bad[b.Offset] = 0x01
		}
		whole, _ := NewReader(bytes.NewReader(bad))
		want, wantErr := readRaw(whole)
		if wantErr == nil {
			continue // the damage fell where it changes nothing
		}
		for range 4 {
			splits := randomPartition(rng, bad, r.SyncMarker(), 1+rng.IntN(8))
			got, at, err := readSplits(t, bad, splits)
			if err == nil {
				t.Fatalf("seed %d, splits %v: no error, want %v", seed, splits, wantErr)
			}
			if !slices.EqualFunc(got, want, bytes.Equal) {
				t.Fatalf("seed %d, splits %v: %d records before the error, want %d", seed, splits, len(got), len(want))
			}
			if !sameError(err, wantErr) {
				t.Fatalf("seed %d, split %d of %v: %v\nwant %v", seed, at, splits, err, wantErr)
			}
		}
	}
}

// blockNumber is a block's number in an error's text, which counts from
// a split's first block.
var blockNumber = regexp.MustCompile(`block \d+`)

// sameError reports whether two errors say the same but for the numbers
// of their blocks.
func sameError(a, b error) bool {
	return blockNumber.ReplaceAllString(a.Error(), "block") == blockNumber.ReplaceAllString(b.Error(), "block")
}

// A split that is not within the file is refused.
func TestSplitOutOfRange(t *testing.T) {
	file := writeFile(t, makeRecords(10, 1))
	size := int64(len(file))
	for _, sp := range [][2]int64{{-1, 5}, {0, -1}, {size + 1, 0}} {
		if _, err := NewSplitReader(bytes.NewReader(file), size, sp[0], sp[1]); err == nil {
			t.Errorf("split %v of %d bytes: no error", sp, size)
		}
	}
	r, err := NewSplitReader(bytes.NewReader(file), size, size, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readRaw(r); len(got) != 0 || err != nil {
		t.Errorf("the empty split at the end: %d records, %v", len(got), err)
	}
	if _, err := PlanSplits(bytes.NewReader(file), size, 0); err == nil {
		t.Error("PlanSplits of 0 splits: no error")
	}
}

// Java's DataFileReader, as Hadoop's AvroRecordReader drives it (sync to
// the split's start, then records while !pastSync(end)), reads the same
// records from every split as NewSplitReader.
func TestSplitsAgreeWithJava(t *testing.T) {
	java := tools[1]
	java.setup(t)
	rng := rand.New(rand.NewPCG(5, 5))
	for round := range 3 {
		recs := makeRecords(400+rng.IntN(400), uint64(round))
		file := writeFile(t, recs, WithCodec([]string{CodecNull, CodecDeflate, CodecSnappy}[round]),
			WithBlockSize(256+rng.IntN(4<<10)), WithBlockCount(1+rng.IntN(60)))
		path := filepath.Join(t.TempDir(), "f.avro")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		r, _ := NewReader(bytes.NewReader(file))
		splits := randomPartition(rng, file, r.SyncMarker(), 30)
		args := []string{"-cp", javaClassPath(), "Interop", "splits", path}
		var want []string
		for _, sp := range splits {
			args = append(args, fmt.Sprint(sp.Offset), fmt.Sprint(end(sp)))
			sr, err := NewSplitReader(bytes.NewReader(file), int64(len(file)), sp.Offset, sp.Length)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int32
			for rec, err := range Records[Bench](sr) {
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, rec.ID)
			}
			first := int32(-1)
			if len(ids) > 0 {
				first = ids[0]
			}
			want = append(want, fmt.Sprintf("%d %d %d %d", sp.Offset, end(sp), len(ids), first))
		}
		got := strings.Split(strings.TrimSpace(string(run(t, "java", args...))), "\n")
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: splits (start end records first-id): Java read\n%s\nwe read\n%s",
				round, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
