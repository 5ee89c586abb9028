package codec

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

// chunkReader returns at most n bytes per Read, as a network connection
// or a pipe does.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// A large datum arriving in small chunks must not be decoded again for
// every chunk (which made a 6 MB array 100 times slower than Unmarshal):
// the Decoder reads as much as the failed read said it needed before it
// tries again. That bound is safe (never past the datum's end, so an
// interactive stream cannot hang waiting for bytes that are not coming),
// so for items larger than their minimum size it is a lower bound and the
// attempts grew sub-linearly rather than logarithmically: 20 for 6 MB of
// longs, about 65 for 4 MB of short strings, against one per chunk (250
// to 380) before. Since the Decoder frames a datum after its second
// truncation (TestDecoderFramesDatumsOfManyBlocks), they are 3.
func TestDecoderRefillsLargeDatumsInFewAttempts(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		value  any
		out    func() any
	}{
		{"longs", `{"type":"array","items":"long"}`, func() any {
			v := make([]int64, 1_600_000)
			for i := range v {
				v[i] = int64(i * 7)
			}
			return v
		}(), func() any { return new([]int64) }},
		{"strings", `{"type":"array","items":"string"}`, func() any {
			v := make([]string, 200_000)
			for i := range v {
				v[i] = string(bytes.Repeat([]byte{'a' + byte(i%26)}, i%40))
			}
			return v
		}(), func() any { return new([]string) }},
		{"bytes", `"bytes"`, bytes.Repeat([]byte{7}, 5<<20), func() any { return new([]byte) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := schema.MustParse(c.schema)
			data, err := Marshal(s, c.value)
			if err != nil {
				t.Fatal(err)
			}
			dec := NewDecoder(&chunkReader{bytes.NewReader(data), 16 << 10}, s)
			out := c.out()
			if err := dec.Decode(out); err != nil {
				t.Fatal(err)
			}
			chunks := len(data) / (16 << 10)
			t.Logf("%d bytes in %d chunks: %d decode attempts", len(data), chunks, dec.attempts)
			if dec.attempts > chunks/3 {
				t.Errorf("%d decode attempts for %d chunks of input, want at most a third as many", dec.attempts, chunks)
			}
			again, err := Marshal(s, out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Error("the decoded value does not re-encode to the input")
			}
			if err := dec.Decode(out); err != io.EOF {
				t.Errorf("after the datum: %v, want io.EOF", err)
			}
		})
	}
}

// manyBlocks encodes items (each already encoded) as one block per item,
// or with sized set as blocks of a negative count and a byte size.
func manyBlocks(items [][]byte, sized bool) []byte {
	var b []byte
	for _, it := range items {
		if sized {
			b = append(b, 1) // count -1
			b = varint.AppendLong(b, int64(len(it)))
		} else {
			b = append(b, 2) // count 1
		}
		b = append(b, it...)
	}
	return append(b, 0)
}

// An array of many small blocks shows, at each truncation, only its next
// block header: the Decoder read one chunk and decoded the datum again,
// so a datum of 2 MB read 4 KiB at a time was decoded 500 times (4.5 s,
// against 60 ms for Unmarshal). After the second truncation the datum is
// now framed: found whole as the bytes arrive, then decoded once more.
// The framer must agree with the decoder at every split of the bytes: the
// datums here are decoded read a few bytes at a time, and compared with
// Unmarshal of the same bytes.
func TestDecoderFramesDatumsOfManyBlocks(t *testing.T) {
	longs := make([][]byte, 200_000)
	for i := range longs {
		longs[i] = varint.AppendLong(nil, int64(i)*int64(i))
	}
	big := schema.MustParse(`{"type":"array","items":"long"}`)
	for _, sized := range []bool{false, true} {
		data := manyBlocks(longs, sized)
		dec := NewDecoder(&chunkReader{bytes.NewReader(data), 4 << 10}, big)
		var got []int64
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(longs) || got[len(got)-1] != int64(len(longs)-1)*int64(len(longs)-1) {
			t.Errorf("sized %v: %d longs decoded", sized, len(got))
		}
		if dec.attempts > 3 {
			t.Errorf("sized %v: %d bytes of one-item blocks read 4 KiB at a time took %d decode attempts, want at most 3", sized, len(data), dec.attempts)
		}
	}

	rec := schema.MustParse(`{"type":"record","name":"R","fields":[
	  {"name":"s","type":"string"},
	  {"name":"f","type":{"type":"fixed","name":"F","size":3}},
	  {"name":"u","type":["null","double",{"type":"array","items":"R"}]},
	  {"name":"m","type":{"type":"map","values":["int","boolean"]}},
	  {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},
	  {"name":"n","type":"null"},
	  {"name":"fl","type":"float"}]}`)
	leaf := func(s string, u []byte) []byte {
		b := varint.AppendLong(nil, int64(len(s)))
		b = append(b, s...)
		b = append(b, "xyz"...)
		b = append(b, u...)
		// a map of two entries, in two blocks: {"k": int 5} {"kk": true}
		b = append(b, manyBlocks([][]byte{{2, 'k', 0, 10}, {4, 'k', 'k', 2, 1}}, false)...)
		b = append(b, 2)          // enum B
		b = append(b, 0, 0, 0, 0) // float 0
		return b
	}
	inner := [][]byte{leaf("one", []byte{0}), leaf("twö", append([]byte{2}, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f))}
	for _, sized := range []bool{false, true} {
		arr := append([]byte{4}, manyBlocks(inner, sized)...) // branch 2: an array of R
		datum := leaf("top", arr)
		stream := append(append([]byte{}, datum...), datum...)
		var want any
		if err := Unmarshal(rec, datum, &want); err != nil {
			t.Fatalf("sized %v: %v", sized, err)
		}
		for _, chunk := range []int{1, 2, 3, 5, 8, 13} {
			dec := NewDecoder(&chunkReader{bytes.NewReader(stream), chunk}, rec)
			for i := range 2 {
				var got any
				if err := dec.Decode(&got); err != nil {
					t.Fatalf("sized %v, chunks of %d, datum %d: %v", sized, chunk, i, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("sized %v, chunks of %d, datum %d: %v, want %v", sized, chunk, i, got, want)
				}
			}
			var v any
			if err := dec.Decode(&v); err != io.EOF {
				t.Errorf("sized %v, chunks of %d: after the datums %v, want io.EOF", sized, chunk, err)
			}
		}
	}
}

// errWaited is what an openReader returns once its data is read: where a
// connection that stays open would block the Decoder, the test sees it.
var errWaited = errors.New("the Decoder read past the data it was given")

// openReader gives its data piece bytes at a time, as a connection does
// on which nothing follows the data until it is answered.
type openReader struct {
	data  []byte
	piece int
}

func (r *openReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, errWaited
	}
	n := copy(p, r.data[:min(r.piece, len(r.data))])
	r.data = r.data[n:]
	return n, nil
}

// The framer reads the writer's schema of a resolved one, and never reads
// past the datum's end: on a connection where nothing follows the datum
// until it is answered, Decode returns it rather than wait for more.
func TestDecoderFramesResolvedAndInteractive(t *testing.T) {
	items := make([][]byte, 5000)
	for i := range items {
		items[i] = varint.AppendLong(nil, int64(i))
	}
	data := manyBlocks(items, false)
	w := schema.MustParse(`{"type":"array","items":"long"}`)
	rs, err := schema.Resolve(w, schema.MustParse(`{"type":"array","items":"double"}`))
	if err != nil {
		t.Fatal(err)
	}
	dec := NewDecoder(&openReader{data: data, piece: 100}, rs)
	var got []float64
	err = dec.Decode(&got)
	if err != nil || len(got) != len(items) || got[len(got)-1] != float64(len(items)-1) {
		t.Errorf("%d doubles, %v", len(got), err)
	}
	// Two truncated attempts (100 and 200 bytes), then the framed one.
	if dec.attempts != 3 {
		t.Errorf("%d decode attempts, want 3", dec.attempts)
	}
}

// The framer must stop where the decoder stops: on a sized block whose
// items end before its byte size (a block of one item that says 100
// bytes, which the decode rejects at once), and on an enum index out of
// range; on a connection where nothing more comes, Decode would otherwise
// wait for bytes that cannot make the datum valid. Each stream here comes
// in small pieces, and nothing after them.
func TestDecoderFramerStopsWhereTheDecoderDoes(t *testing.T) {
	longs := schema.MustParse(`{"type":"array","items":"long"}`)
	enums := schema.MustParse(`{"type":"array","items":{"type":"enum","name":"E","symbols":["A","B"]}}`)
	cases := []struct {
		name    string
		s       *schema.Schema
		data    []byte
		wantErr error
	}{
		// Two one-item blocks first (two truncations, then the framer),
		// then a block of one item that claims 100 bytes.
		{"a sized block's size disagrees", longs, []byte{2, 2, 2, 4, 1, 200, 1, 6, 0}, ErrInvalid},
		{"an enum index out of range", enums, []byte{2, 0, 2, 2, 2, 0, 2, 18, 0}, ErrInvalid},
	}
	for _, c := range cases {
		for _, piece := range []int{1, 2, 3} {
			var v any
			err := NewDecoder(&openReader{data: c.data, piece: piece}, c.s).Decode(&v)
			if !errors.Is(err, c.wantErr) {
				t.Errorf("%s, pieces of %d: %v, want %v", c.name, piece, err, c.wantErr)
			}
		}
	}
}
