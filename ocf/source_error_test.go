package ocf

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// failingReader returns data, then err instead of io.EOF.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// An error of the io.Reader (a failed read, not bad data) was replaced:
// by ErrInvalidHeader or ErrInvalidBlock ("the file is corrupt") when it
// came inside a varint, by ErrTruncated elsewhere, so errors.Is never
// found it. A source that fails at any offset of a file, even after its
// last block, now reports that error and not one of bad data.
func TestSourceErrorsReported(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"long"},{"name":"s","type":"string"}]}`)
	var file bytes.Buffer
	w, err := NewWriter(&file, s, WithCodec(CodecDeflate), WithBlockCount(3))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := w.Encode(map[string]any{"a": int64(i * 1000), "s": "some text"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	netDown := errors.New("network down")
	data := file.Bytes()
	for cut := 0; cut <= len(data); cut++ {
		err := readAllRecords(&failingReader{data: data[:cut], err: netDown})
		if !errors.Is(err, netDown) || errors.Is(err, avro.ErrInvalid) || errors.Is(err, ErrTruncated) {
			t.Fatalf("source failing after %d of %d bytes: %v; want the source's error, not bad data", cut, len(data), err)
		}
	}
}

// readAllRecords opens and reads every record of a file.
func readAllRecords(src io.Reader) error {
	r, err := NewReader(src)
	if err != nil {
		return err
	}
	for r.Next() {
		var v any
		if err := r.Decode(&v); err != nil {
			return err
		}
	}
	return r.Err()
}

// A block the Writer keeps within its block limit grows when compressed
// if its data does not compress; the Reader applied the same limit to the
// block as stored, so with equal limits (the defaults are equal) it
// refused the Writer's own file: 996 random bytes became 1,005 (deflate),
// 1,007 (snappy) and 1,009 (zstandard) stored bytes over a limit of
// 1,000.
func TestCompressedBlockWithinLimitReads(t *testing.T) {
	s := schema.MustParse(`"bytes"`)
	random := make([]byte, 996)
	for i := range random {
		random[i] = byte(i*7919 + i*i*31 + i>>3)
	}
	for _, codec := range []string{CodecDeflate, CodecSnappy, CodecZstandard} {
		var file bytes.Buffer
		w, err := NewWriter(&file, s, WithCodec(codec), WithBlockLimit(1000))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Encode(random); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(file.Bytes()), WithMaxBlockSize(1000))
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.SkipBlock()
		if err != nil {
			t.Fatalf("%s: %v", codec, err)
		}
		if b.Size <= 1000 {
			t.Fatalf("%s: stored block of %d bytes: the data compressed, and the test needs one over the limit", codec, b.Size)
		}
		r, _ = NewReader(bytes.NewReader(file.Bytes()), WithMaxBlockSize(1000))
		var got []byte
		if err := r.Decode(&got); err != nil || !bytes.Equal(got, random) {
			t.Errorf("%s: %d bytes, %v", codec, len(got), err)
		}
	}
}

// Records that take no bytes never filled a block, so the Writer put all
// of them in one, and our own Reader refused a file of more than 2^20
// (the most zero-size records it takes in a block, by default): the
// Writer now makes blocks of at most 1,024 such records, and the Reader's
// budget earns from every byte of a block, so its files read whatever
// their length.
func TestZeroByteRecordsFileReads(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"Empty","fields":[]}`)
	const n = 1<<20 + 5000
	var file bytes.Buffer
	w, err := NewWriter(&file, s)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := w.Encode(map[string]any{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	records := 0
	for r.Next() {
		var v struct{}
		if err := r.Decode(&v); err != nil {
			t.Fatalf("record %d: %v", records, err)
		}
		records++
	}
	if err := r.Err(); err != nil || records != n {
		t.Errorf("%d of %d records, then %v", records, n, err)
	}
}
