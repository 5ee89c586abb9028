package ocf

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// workerCounts are the numbers of workers every parallel test reads with.
var workerCounts = []int{1, 2, 8, 64}

// trace is everything a Reader gives for a file, read one way: each
// record (or block) and the error it stops with, with the offsets.
type trace struct {
	items []string
	err   string
}

func (t trace) String() string {
	return fmt.Sprintf("%d items, err %q", len(t.items), t.err)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// readTrace reads data with opts by one of the ways a Reader reads:
// Decode into value.Value, Raw, ReadBlock, ReadRawBlock or SkipBlock.
func readTrace(t *testing.T, data []byte, how string, opts ...ReaderOption) trace {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), opts...)
	if err != nil {
		return trace{err: "NewReader: " + err.Error()}
	}
	defer func() { _ = r.Close() }()
	var tr trace
	for i := 0; ; i++ {
		var item string
		var err error
		switch how {
		case "decode":
			var v value.Value
			if err = r.Decode(&v); err == nil {
				item = fmt.Sprintf("%v @%d", v, r.Offset())
			}
		case "records", "records-then-decode":
			// Records, left after a few records for Decode when asked,
			// then taken up again.
			for v, err := range Records[value.Value](r) {
				if err != nil {
					tr.err = err.Error()
					break
				}
				tr.items = append(tr.items, fmt.Sprintf("%v @%d", v, r.Offset()))
				if how == "records-then-decode" && len(tr.items)%7 == 3 {
					var v value.Value
					if err := r.Decode(&v); err != nil {
						if err != io.EOF {
							tr.err = err.Error()
						}
						break
					}
					tr.items = append(tr.items, fmt.Sprintf("%v @%d", v, r.Offset()))
					if len(tr.items)%2 == 0 {
						break
					}
				}
			}
			if how == "records-then-decode" && tr.err == "" && r.Err() == nil && r.Next() {
				for v, err := range Records[value.Value](r) {
					if err != nil {
						tr.err = err.Error()
						break
					}
					tr.items = append(tr.items, fmt.Sprintf("%v @%d", v, r.Offset()))
				}
			}
			if e := errText(r.Err()); e != tr.err {
				t.Fatalf("%s: the read returned %q, Err %q", how, tr.err, e)
			}
			return tr
		case "raw":
			var b []byte
			if b, err = r.Raw(); err == nil {
				item = fmt.Sprintf("%x @%d", b, r.Offset())
			}
		case "block":
			var b Block
			if b, err = r.ReadBlock(); err == nil {
				item = fmt.Sprintf("%+v %x @%d", b.BlockInfo, b.Data, r.Offset())
			}
		case "rawblock":
			var b Block
			if b, err = r.ReadRawBlock(); err == nil {
				item = fmt.Sprintf("%+v %x @%d", b.BlockInfo, b.Data, r.Offset())
			}
		case "skip":
			var b BlockInfo
			if b, err = r.SkipBlock(); err == nil {
				item = fmt.Sprintf("%+v @%d", b, r.Offset())
			}
		}
		if err != nil {
			if err != io.EOF {
				tr.err = err.Error()
			}
			if e := errText(r.Err()); e != tr.err {
				t.Fatalf("%s: the read returned %q, Err %q", how, tr.err, e)
			}
			return tr
		}
		tr.items = append(tr.items, item)
	}
}

// damagedCopies returns data with bytes changed and cut at a few places
// after its header, chosen by seed.
func damagedCopies(data []byte, header int, seed uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, 2))
	out := [][]byte{data}
	if len(data) <= header+1 {
		return out
	}
	for range 4 {
		d := bytes.Clone(data)
		at := header + rng.IntN(len(data)-header)
		d[at] ^= byte(1 + rng.IntN(255))
		out = append(out, d)
	}
	for range 2 {
		out = append(out, data[:header+rng.IntN(len(data)-header)])
	}
	return out
}

// parallelFiles are the container files of the shared test data, and
// generated files of several codecs and block sizes.
func parallelFiles(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	for _, root := range []string{upstream, "../../shared/testdata/fastavro"} {
		err := filepath.Walk(root, func(path string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() || !strings.HasSuffix(path, ".avro") {
				return err
			}
			b, err := os.ReadFile(path)
			if err == nil {
				files[path] = b
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 40 {
		t.Fatalf("found only %d container files in the shared test data", len(files))
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, codec := range []string{CodecNull, CodecDeflate, CodecSnappy, CodecZstandard} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, benchSchema, WithCodec(codec), WithBlockSize(2<<10))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 700 {
			rec := makeRecord(rng, i)
			if err := w.Encode(&rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		files["generated-"+codec] = buf.Bytes()
	}
	return files
}

// Parallel and sequential reads give the same records, blocks, offsets and
// errors, read any way, on every file of the shared test data, generated
// files, and damaged and cut copies of them.
func TestParallelReadsAsSequential(t *testing.T) {
	files := parallelFiles(t)
	ways := []string{"decode", "records", "records-then-decode", "raw", "block", "rawblock", "skip"}
	n := 0
	for name, data := range files {
		header := 0
		if r, err := NewReader(bytes.NewReader(data)); err == nil {
			header = int(r.Offset())
		}
		for ci, d := range damagedCopies(data, header, uint64(len(name))) {
			for _, how := range ways {
				want := readTrace(t, d, how)
				for _, workers := range workerCounts[1:] {
					got := readTrace(t, d, how, WithWorkers(workers))
					if got.err != want.err || len(got.items) != len(want.items) {
						t.Fatalf("%s (copy %d), %s, %d workers: %v; sequential %v", name, ci, how, workers, got, want)
					}
					for i := range got.items {
						if got.items[i] != want.items[i] {
							t.Fatalf("%s (copy %d), %s, %d workers: item %d differs:\n%s\nsequential:\n%s", name, ci, how, workers, i, got.items[i], want.items[i])
						}
					}
					n++
				}
			}
		}
	}
	t.Logf("%d comparisons of %d files", n, len(files))
}

// No goroutine of a Reader's workers is left after Close: after the end,
// after an error, and after an early Close.
func TestParallelReaderLeavesNoGoroutine(t *testing.T) {
	files := parallelFiles(t)
	file := files["generated-"+CodecDeflate]
	bad := bytes.Clone(file)
	bad[len(bad)/2] ^= 0x55
	before := runtime.NumGoroutine()
	for _, workers := range workerCounts {
		for _, stopAt := range []int{0, 1, 50, -1} {
			for _, data := range [][]byte{file, bad} {
				r, err := NewReader(bytes.NewReader(data), WithWorkers(workers))
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; stopAt < 0 || i < stopAt; i++ {
					var v value.Value
					if r.Decode(&v) != nil {
						break
					}
				}
				if err := r.Close(); err != nil {
					t.Fatal(err)
				}
				var v value.Value
				if err := r.Decode(&v); err == nil {
					t.Fatal("Decode after Close succeeded")
				}
			}
		}
	}
	// Goroutines that were told to stop have, when Close returns; allow
	// the runtime a moment to account for them.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := runtime.NumGoroutine(); got > before {
		t.Fatalf("%d goroutines after the Readers closed, %d before", got, before)
	}
}

// Records decoded on the workers draw on the file's budgets in file
// order, as a Reader without workers does: a file whose records each
// take a large default through the reader schema runs out of the file's
// budget of defaults at the same record, with the same error, and a
// schema of records that take no bytes runs out of zero-size items.
func TestParallelRecordsShareTheFilesBudgets(t *testing.T) {
	writer := `{"type":"record","name":"E","fields":[{"name":"n","type":"int"}]}`
	reader := schema.MustParse(`{"type":"record","name":"E","fields":[{"name":"n","type":"int"},
		{"name":"pad","type":"string","default":"` + strings.Repeat("x", 4<<10) + `"}]}`)
	empty := `{"type":"record","name":"Z","fields":[{"name":"a","type":{"type":"array","items":"null"}}]}`
	for _, c := range []struct {
		schema string
		datum  []byte
		opts   []ReaderOption
	}{
		{writer, []byte{0x02}, []ReaderOption{WithReaderSchema(reader), WithDecodeOptions(avro.DecodeOptions{MaxAlloc: 1 << 20})}},
		{empty, []byte{0xc0, 0x3e, 0x00}, []ReaderOption{WithDecodeOptions(avro.DecodeOptions{MaxZeroSizeItems: 5000})}},
	} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, schema.MustParse(c.schema), WithBlockCount(50))
		if err != nil {
			t.Fatal(err)
		}
		for range 2000 {
			if err := w.EncodeRaw(c.datum); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want := readTrace(t, buf.Bytes(), "records", c.opts...)
		if !strings.Contains(want.err, "limit") || len(want.items) == 0 {
			t.Fatalf("%s: sequential: %v, want a limit error after some records", c.schema, want)
		}
		for _, workers := range workerCounts[1:] {
			got := readTrace(t, buf.Bytes(), "records", append(c.opts, WithWorkers(workers))...)
			if got.err != want.err || len(got.items) != len(want.items) {
				t.Errorf("%s, %d workers: %v; sequential %v", c.schema, workers, got, want)
			}
		}
	}
}
