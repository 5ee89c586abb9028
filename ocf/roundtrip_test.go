package ocf

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/google/go-cmp/cmp"
)

// diffRecords is cmp.Diff with a fast path: cmp is slow on thousands of
// records.
func diffRecords[T any](want, got []T) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

func writeFile(t testing.TB, recs []Bench, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, benchSchema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := w.Encode(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readBench(t testing.TB, data []byte, opts ...ReaderOption) ([]Bench, *Reader) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), opts...)
	if err != nil {
		t.Fatal(err)
	}
	var out []Bench
	for rec, err := range Records[Bench](r) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out, r
}

func countBlocks(t testing.TB, data []byte) (blocks, records int64) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := r.SkipBlock()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		blocks++
		records += b.Count
	}
}

func TestRoundTripCodecs(t *testing.T) {
	recs := makeRecords(5000, 1)
	for _, codec := range writableCodecs {
		t.Run(codec, func(t *testing.T) {
			data := writeFile(t, recs, WithCodec(codec), WithBlockSize(16<<10),
				WithMetadata("user.key", []byte("hello")))
			got, r := readBench(t, data)
			if diff := diffRecords(recs, got); diff != "" {
				t.Fatalf("round trip (-want +got):\n%s", diff)
			}
			if r.Codec() != codec || string(r.Metadata()["user.key"]) != "hello" ||
				string(r.Metadata()["avro.codec"]) != codec {
				t.Errorf("header: codec %q, metadata %q", r.Codec(), r.Metadata())
			}
			if r.Schema().String() != benchSchema.String() {
				t.Errorf("schema = %s", r.Schema())
			}
			blocks, n := countBlocks(t, data)
			if n != 5000 || blocks < 20 {
				t.Errorf("%d records in %d blocks; want 5000 in >= 20 (16 KiB blocks)", n, blocks)
			}
		})
	}
}

func TestCompressionLevels(t *testing.T) {
	recs := makeRecords(2000, 2)
	for _, tc := range []struct {
		codec string
		level int
	}{{CodecDeflate, -2}, {CodecDeflate, 0}, {CodecDeflate, 1}, {CodecDeflate, 9}, {CodecZstandard, 1}, {CodecZstandard, 3}, {CodecZstandard, 9}, {CodecZstandard, 22}} {
		data := writeFile(t, recs, WithCodec(tc.codec), WithCompressionLevel(tc.level))
		got, _ := readBench(t, data)
		if diffRecords(recs, got) != "" {
			t.Errorf("%s level %d: round trip differs", tc.codec, tc.level)
		}
	}
	for _, tc := range []struct {
		codec string
		level int
	}{{CodecDeflate, 10}, {CodecDeflate, -3}, {CodecZstandard, 0}, {CodecZstandard, 23}, {CodecSnappy, 1}, {CodecNull, 1}} {
		if _, err := NewWriter(io.Discard, benchSchema, WithCodec(tc.codec), WithCompressionLevel(tc.level)); err == nil {
			t.Errorf("%s level %d: NewWriter succeeded", tc.codec, tc.level)
		}
	}
}

func TestWriterOptions(t *testing.T) {
	recs := makeRecords(1000, 3)
	data := writeFile(t, recs, WithBlockCount(100))
	if blocks, n := countBlocks(t, data); blocks != 10 || n != 1000 {
		t.Errorf("WithBlockCount(100): %d blocks, %d records", blocks, n)
	}
	sync := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	for i := range recs {
		recs[i].Tags = map[string]string{"k": "v"} // Go map order is random
	}
	a := writeFile(t, recs, WithSyncMarker(sync), WithCodec(CodecDeflate))
	b := writeFile(t, recs, WithSyncMarker(sync), WithCodec(CodecDeflate))
	if !bytes.Equal(a, b) {
		t.Error("same sync marker, different output")
	}
	if _, r := readBench(t, a); r.SyncMarker() != sync {
		t.Error("sync marker not used")
	}
	c := writeFile(t, recs[:1])
	d := writeFile(t, recs[:1])
	if bytes.Equal(c[:len(c)-16], d[:len(d)-16]) && bytes.Equal(c[len(c)-16:], d[len(d)-16:]) {
		t.Error("two files with the same random sync marker")
	}

	for name, opt := range map[string]WriterOption{
		"reserved metadata": WithMetadata("avro.foo", nil),
		"unknown codec":     WithCodec("lz4"),
		"bzip2":             WithCodec(CodecBzip2),
		"xz":                WithCodec(CodecXZ),
	} {
		_, err := NewWriter(io.Discard, benchSchema, opt)
		if err == nil {
			t.Errorf("%s: NewWriter succeeded", name)
		}
		if name != "reserved metadata" && !errors.Is(err, ErrUnsupportedCodec) {
			t.Errorf("%s: err = %v, want ErrUnsupportedCodec", name, err)
		}
	}
	if _, err := NewWriter(io.Discard, nil); err == nil {
		t.Error("nil schema accepted")
	}
}

func TestWriterLifecycle(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, benchSchema)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := readBench(t, buf.Bytes())
	if len(got) != 0 {
		t.Errorf("empty file has %d records", len(got))
	}
	if err := w.Encode(&Bench{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Encode after Close = %v", err)
	}
	if err := w.Flush(); !errors.Is(err, ErrClosed) {
		t.Errorf("Flush after Close = %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}

	// A value that does not fit leaves the Writer usable.
	buf.Reset()
	w, _ = NewWriter(&buf, benchSchema)
	recs := makeRecords(3, 4)
	_ = w.Encode(&recs[0])
	if err := w.Encode(map[string]any{"id": "not an int"}); err == nil {
		t.Fatal("bad value accepted")
	}
	_ = w.Encode(&recs[1])
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	_ = w.Encode(&recs[2])
	_ = w.Close()
	got, _ = readBench(t, buf.Bytes())
	if diff := diffRecords(recs, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// A failed Write is sticky, whichever write of the block fails (the
	// file header takes the first; a block is written as its header, its
	// data and its sync marker).
	for after := 1; after <= 3; after++ {
		fw := &failWriter{after: after}
		w, err = NewWriter(fw, benchSchema)
		if err != nil {
			t.Fatal(err)
		}
		_ = w.Encode(&recs[0])
		if err := w.Flush(); !errors.Is(err, errWrite) {
			t.Fatalf("after %d writes: Flush = %v", after, err)
		}
		if err := w.Encode(&recs[0]); !errors.Is(err, errWrite) {
			t.Errorf("after %d writes: Encode after a failed write = %v", after, err)
		}
		if err := w.Close(); !errors.Is(err, errWrite) {
			t.Errorf("after %d writes: Close after a failed write = %v", after, err)
		}
	}
}

var errWrite = errors.New("write failed")

type failWriter struct{ after int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.after == 0 {
		return 0, errWrite
	}
	w.after--
	return len(p), nil
}

func TestWriterBlockLimit(t *testing.T) {
	s := schema.MustParse(`"bytes"`)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, WithBlockLimit(1000), WithBlockSize(800))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Encode(make([]byte, 2000)); !errors.Is(err, ErrTooLarge) || !errors.Is(err, avro.ErrLimit) {
		t.Fatalf("huge record: %v", err)
	}
	recs := [][]byte{bytes.Repeat([]byte{1}, 600), bytes.Repeat([]byte{2}, 600), bytes.Repeat([]byte{3}, 10)}
	for _, b := range recs {
		if err := w.Encode(b); err != nil {
			t.Fatal(err)
		}
	}
	_ = w.Close()
	r, err := NewReader(bytes.NewReader(buf.Bytes()), WithMaxBlockSize(1000))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]byte
	for b, err := range Records[[]byte](r) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b)
	}
	if diffRecords(recs, got) != "" {
		t.Error("records differ")
	}
}

// TestGenericValues writes value.Value and map records and reads them
// back as both.
func TestGenericValues(t *testing.T) {
	recs := makeRecords(50, 5)
	var vals []value.Value
	var anys []any
	for i := range recs {
		b, err := avro.Marshal(benchSchema, &recs[i])
		if err != nil {
			t.Fatal(err)
		}
		var v value.Value
		var a any
		if err := avro.Unmarshal(benchSchema, b, &v); err != nil {
			t.Fatal(err)
		}
		if err := avro.Unmarshal(benchSchema, b, &a); err != nil {
			t.Fatal(err)
		}
		vals, anys = append(vals, v), append(anys, a)
	}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, benchSchema, WithCodec(CodecSnappy))
	for i := range vals {
		if err := w.Encode(vals[i]); err != nil {
			t.Fatal(err)
		}
		if err := w.Encode(anys[i]); err != nil {
			t.Fatal(err)
		}
	}
	_ = w.Close()
	r, _ := NewReader(bytes.NewReader(buf.Bytes()))
	i := 0
	for v, err := range Records[value.Value](r) {
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(v, vals[i/2]) {
			t.Fatalf("record %d differs", i)
		}
		i++
	}
	if i != 100 {
		t.Fatalf("%d records", i)
	}
}

func TestDecodeTypeErrorNotSticky(t *testing.T) {
	recs := makeRecords(2, 6)
	data := writeFile(t, recs)
	r, _ := NewReader(bytes.NewReader(data))
	var wrong int
	if err := r.Decode(&wrong); err == nil {
		t.Fatal("decoding a record into an int succeeded")
	}
	if err := r.Decode(nil); err == nil {
		t.Fatal("Decode(nil) succeeded")
	}
	var got []Bench
	for r.Next() {
		var b Bench
		if err := r.Decode(&b); err != nil {
			t.Fatal(err)
		}
		got = append(got, b)
	}
	if r.Err() != nil || diffRecords(recs, got) != "" {
		t.Fatalf("after a type error: %v, %d records", r.Err(), len(got))
	}
	if err := r.Decode(&Bench{}); err != io.EOF {
		t.Errorf("Decode at the end = %v, want io.EOF", err)
	}
}

// TestDecodeSwitchesTypes: the Reader keeps the decoder of the last Go
// type it was given; records decoded into changing types, with a nil
// pointer in between (an error that consumes no record), all come out
// right, and values decoded earlier are not disturbed by later records.
func TestDecodeSwitchesTypes(t *testing.T) {
	recs := makeRecords(60, 7)
	r, err := NewReader(bytes.NewReader(writeFile(t, recs, WithBlockCount(7))))
	if err != nil {
		t.Fatal(err)
	}
	var structs []Bench
	var vals []value.Value
	var anys []any
	for i := range recs {
		if i%4 == 3 {
			var nilBench *Bench
			var ie *avro.InvalidUnmarshalError
			if err := r.Decode(nilBench); !errors.As(err, &ie) {
				t.Fatalf("record %d: Decode(nil *Bench) = %v, want *avro.InvalidUnmarshalError", i, err)
			}
		}
		switch i % 3 {
		case 0:
			var b Bench
			err = r.Decode(&b)
			structs = append(structs, b)
		case 1:
			var v value.Value
			err = r.Decode(&v)
			vals = append(vals, v)
		case 2:
			var a any
			err = r.Decode(&a)
			anys = append(anys, a)
		}
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	if err := r.Decode(&Bench{}); err != io.EOF {
		t.Fatalf("after the last record: %v, want io.EOF", err)
	}
	for i := range recs {
		b, err := avro.Marshal(benchSchema, &recs[i])
		if err != nil {
			t.Fatal(err)
		}
		switch i % 3 {
		case 0:
			if diff := diffRecords(recs[i:i+1], structs[i/3:i/3+1]); diff != "" {
				t.Errorf("record %d as Bench (-want +got):\n%s", i, diff)
			}
		case 1:
			var want value.Value
			if err := avro.Unmarshal(benchSchema, b, &want); err != nil {
				t.Fatal(err)
			}
			if !value.Equal(want, vals[i/3]) {
				t.Errorf("record %d as value.Value differs", i)
			}
		case 2:
			var want any
			if err := avro.Unmarshal(benchSchema, b, &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, anys[i/3]); diff != "" {
				t.Errorf("record %d as any (-want +got):\n%s", i, diff)
			}
		}
	}
}

func TestSkipBlockMidBlock(t *testing.T) {
	recs := makeRecords(300, 7)
	data := writeFile(t, recs, WithBlockCount(100))
	r, _ := NewReader(bytes.NewReader(data))
	var b Bench
	if err := r.Decode(&b); err != nil {
		t.Fatal(err)
	}
	info, err := r.SkipBlock() // the rest of block 0
	if err != nil || info.Count != 100 {
		t.Fatalf("SkipBlock = %+v, %v", info, err)
	}
	if err := r.Decode(&b); err != nil || b.ID != 100 {
		t.Fatalf("first record of block 1: id %d, %v", b.ID, err)
	}
	if _, err := r.SkipBlock(); err != nil {
		t.Fatal(err)
	}
	info, err = r.SkipBlock() // block 2, not decompressed
	if err != nil || info.Count != 100 {
		t.Fatalf("SkipBlock = %+v, %v", info, err)
	}
	if r.Next() || r.Err() != nil {
		t.Fatalf("Next after the last block: %v", r.Err())
	}
	if _, err := r.SkipBlock(); err != io.EOF {
		t.Fatalf("SkipBlock at the end = %v", err)
	}
}

// A block cut inside its data is ErrTruncated for SkipBlock, whether the
// source seeks (a seek past the end succeeds, and must not pass for the
// data) or not; the blocks before it are skipped as usual.
func TestSkipBlockOfACutBlock(t *testing.T) {
	data := writeFile(t, makeRecords(300, 8), WithBlockCount(100))
	for _, cut := range []int{len(data) - 100, len(data) - SyncSize - 1} {
		for _, seekable := range []bool{true, false} {
			var src io.Reader = bytes.NewReader(data[:cut])
			if !seekable {
				src = io.MultiReader(src)
			}
			r, err := NewReader(src)
			if err != nil {
				t.Fatal(err)
			}
			var blocks int
			for {
				if _, err = r.SkipBlock(); err != nil {
					break
				}
				blocks++
			}
			if blocks != 2 || !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "inside block 2") {
				t.Errorf("cut at %d, seekable %v: %d blocks, then %v; want 2, then block 2 cut short", cut, seekable, blocks, err)
			}
		}
	}
}

type reverseCodec struct{}

func (reverseCodec) Compress(dst, src []byte) ([]byte, error) {
	s := slices.Clone(src)
	slices.Reverse(s)
	return append(dst, s...), nil
}

func (reverseCodec) Decompress(dst, src []byte, limit int) ([]byte, error) {
	if len(src) > limit {
		return dst, ErrTooLarge
	}
	return reverseCodec{}.Compress(dst, src)
}

func TestRegisterCodec(t *testing.T) {
	RegisterCodec("test-reverse", reverseCodec{})
	recs := makeRecords(100, 8)
	data := writeFile(t, recs, WithCodec("test-reverse"))
	got, r := readBench(t, data)
	if r.Codec() != "test-reverse" || diffRecords(recs, got) != "" {
		t.Fatal("custom codec round trip failed")
	}
	if c, ok := LookupCodec("test-reverse"); !ok || c == nil {
		t.Error("LookupCodec")
	}
	defer func() {
		if recover() == nil {
			t.Error("RegisterCodec(\"null\") did not panic")
		}
	}()
	RegisterCodec(CodecNull, reverseCodec{})
}

func TestAppender(t *testing.T) {
	for _, codec := range writableCodecs {
		t.Run(codec, func(t *testing.T) {
			recs := makeRecords(250, 9)
			path := filepath.Join(t.TempDir(), "f.avro")
			if err := os.WriteFile(path, writeFile(t, recs[:100], WithCodec(codec), WithBlockCount(30),
				WithMetadata("k", []byte("v"))), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, part := range [][]Bench{recs[100:200], recs[200:]} {
				f, err := os.OpenFile(path, os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				w, err := NewAppender(f, WithBlockCount(40))
				if err != nil {
					t.Fatal(err)
				}
				for i := range part {
					if err := w.Encode(&part[i]); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
			}
			data, _ := os.ReadFile(path)
			got, r := readBench(t, data)
			if diff := diffRecords(recs, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			if r.Codec() != codec || string(r.Metadata()["k"]) != "v" {
				t.Errorf("header changed: %q %q", r.Codec(), r.Metadata())
			}
		})
	}
	t.Run("refusals", func(t *testing.T) {
		dir := t.TempDir()
		open := func(name string, data []byte) *os.File {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(p, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if err := f.Close(); err != nil {
					t.Error(err)
				}
			})
			return f
		}
		f := open("trailing.avro", readUpstream(t, "lang/js/test/dat/person-10.no-codec.avro"))
		if _, err := NewAppender(f); !errors.Is(err, ErrTrailingData) {
			t.Errorf("trailing byte: %v, want ErrTrailingData", err)
		}
		f = open("trunc.avro", readUpstream(t, "lang/c/tests/avro-1238-truncated.avro"))
		if _, err := NewAppender(f); !errors.Is(err, ErrTruncated) {
			t.Errorf("truncated: %v, want ErrTruncated", err)
		}
		good := writeFile(t, makeRecords(3, 1), WithCodec(CodecDeflate))
		f = open("good.avro", good)
		if _, err := NewAppender(f, WithCodec(CodecSnappy)); err == nil {
			t.Error("codec change accepted")
		}
		if _, err := NewAppender(f, WithMetadata("a", nil)); err == nil {
			t.Error("metadata change accepted")
		}
		if _, err := NewAppender(f, WithCompressionLevel(9)); err != nil {
			t.Errorf("level change refused: %v", err)
		}
		f = open("legacy.avro", readUpstream(t, "share/test/data/test.avro12"))
		if _, err := NewAppender(f); !errors.Is(err, ErrLegacyFormat) {
			t.Errorf("legacy: %v", err)
		}
	})
}
