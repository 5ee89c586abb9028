package ocf_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

var rawSchema = schema.MustParse(`{"type":"record","name":"R","fields":[
 {"name":"id","type":"long"},
 {"name":"name","type":"string"},
 {"name":"tags","type":{"type":"array","items":"string"}},
 {"name":"note","type":["null","string"]}]}`)

type rawRec struct {
	ID   int64    `avro:"id"`
	Name string   `avro:"name"`
	Tags []string `avro:"tags"`
	Note *string  `avro:"note"`
}

func rawRecords(n int, seed uint64) []rawRec {
	rng := rand.New(rand.NewPCG(seed, 1))
	recs := make([]rawRec, n)
	for i := range recs {
		recs[i] = rawRec{ID: rng.Int64N(1 << 40), Name: string(make([]byte, rng.IntN(40)))}
		for range rng.IntN(4) {
			recs[i].Tags = append(recs[i].Tags, "t"+string(rune('a'+rng.IntN(26))))
		}
		if rng.IntN(2) == 0 {
			s := "n"
			recs[i].Note = &s
		}
	}
	return recs
}

// writeRaw writes recs in blocks of at most blockCount records.
func writeRaw(t *testing.T, recs []rawRec, codec string, blockCount int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ocf.NewWriter(&buf, rawSchema, ocf.WithCodec(codec), ocf.WithBlockCount(blockCount), ocf.WithSyncMarker([16]byte{1, 2, 3}))
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

func TestRawIsTheDatum(t *testing.T) {
	recs := rawRecords(300, 1)
	for _, codec := range []string{ocf.CodecNull, ocf.CodecDeflate, ocf.CodecZstandard, ocf.CodecSnappy} {
		file := writeRaw(t, recs, codec, 7)
		r, err := ocf.NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			// Raw, Decode and Next interleave: every third record is
			// decoded, the rest handed out raw.
			if i%3 == 2 {
				var got rawRec
				if err := r.Decode(&got); err != nil || got.ID != recs[i].ID {
					t.Fatalf("%s: Decode of record %d: %+v, %v", codec, i, got, err)
				}
				continue
			}
			raw, err := r.Raw()
			if err != nil {
				t.Fatalf("%s: Raw of record %d: %v", codec, i, err)
			}
			want, _ := avro.Marshal(rawSchema, &recs[i])
			if !bytes.Equal(raw, want) {
				t.Fatalf("%s: Raw of record %d = %x, want %x", codec, i, raw, want)
			}
			if cap(raw) != len(raw) {
				t.Fatalf("%s: Raw of record %d has spare capacity %d", codec, i, cap(raw)-len(raw))
			}
		}
		if raw, err := r.Raw(); err != io.EOF || raw != nil {
			t.Fatalf("%s: Raw after the last record = %x, %v; want io.EOF", codec, raw, err)
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRawWithReaderSchemaIsTheWritersDatum(t *testing.T) {
	recs := rawRecords(50, 2)
	file := writeRaw(t, recs, ocf.CodecDeflate, 16)
	reader := schema.MustParse(`{"type":"record","name":"R","fields":[
	 {"name":"name","type":"string"},{"name":"extra","type":"int","default":7}]}`)
	r, err := ocf.NewReader(bytes.NewReader(file), ocf.WithReaderSchema(reader))
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(rawSchema, reader)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		raw, err := r.Raw()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := avro.Marshal(rawSchema, &recs[i])
		if !bytes.Equal(raw, want) {
			t.Fatalf("record %d: Raw gave the reader's shape, not the writer's datum", i)
		}
		// The datum renders in the reader's shape through the resolved
		// schema, as Decode reads it.
		text, err := avrojson.BinaryToJSON(nil, resolved, raw)
		if err != nil {
			t.Fatal(err)
		}
		var v value.Value
		if err := avro.Unmarshal(resolved, raw, &v); err != nil {
			t.Fatal(err)
		}
		direct, _ := avrojson.Marshal(reader, &v)
		if !bytes.Equal(text, direct) {
			t.Fatalf("record %d: %s, want %s", i, text, direct)
		}
	}
}

func TestRawStopsAtABadRecord(t *testing.T) {
	recs := rawRecords(20, 3)
	file := writeRaw(t, recs, ocf.CodecNull, 5)
	// Make the union index of record 12 (in the third block) out of range.
	r, _ := ocf.NewReader(bytes.NewReader(file))
	for range 12 {
		if _, err := r.Raw(); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := avro.Marshal(rawSchema, &recs[12])
	at := bytes.Index(file, want) + len(want) - 1
	if recs[12].Note != nil {
		at -= 2 // the note "n": its length and its byte
	}
	bad := bytes.Clone(file)
	bad[at] = 0x08 // union index 4 of a union of 2
	r, _ = ocf.NewReader(bytes.NewReader(bad))
	for i := range 12 {
		if _, err := r.Raw(); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	raw, err := r.Raw()
	var ae *avro.Error
	if raw != nil || !errors.Is(err, avro.ErrInvalid) || !errors.As(err, &ae) || ae.Path != "note" {
		t.Fatalf("Raw of the bad record = %x, %v; want an *avro.Error at note wrapping ErrInvalid", raw, err)
	}
	if _, err2 := r.Raw(); err2 != err || r.Err() != err {
		t.Fatalf("the error is not sticky: %v, then %v, Err %v", err, err2, r.Err())
	}
}

func TestReadBlockGivesTheRecords(t *testing.T) {
	recs := rawRecords(100, 4)
	var all []byte
	for i := range recs {
		all, _ = avro.Append(all, rawSchema, &recs[i])
	}
	for _, codec := range []string{ocf.CodecNull, ocf.CodecDeflate, ocf.CodecSnappy} {
		file := writeRaw(t, recs, codec, 9)
		r, err := ocf.NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		// Two records decoded, then the rest of their block, then whole
		// blocks.
		var got []byte
		for range 2 {
			raw, err := r.Raw()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, raw...)
		}
		var counts []int64
		for {
			b, err := r.ReadBlock()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			counts = append(counts, b.Count)
			got = append(got, b.Data...)
		}
		if !bytes.Equal(got, all) {
			t.Fatalf("%s: the blocks' data is not the records", codec)
		}
		if len(counts) != 12 || counts[0] != 7 || counts[1] != 9 || counts[11] != 1 {
			t.Fatalf("%s: block counts %v, want 7, then 9 ... 9, 1", codec, counts)
		}
	}
}

func TestRawBlocksCopyAFileExactly(t *testing.T) {
	recs := rawRecords(200, 5)
	for _, codec := range []string{ocf.CodecNull, ocf.CodecDeflate, ocf.CodecZstandard} {
		file := writeRaw(t, recs, codec, 13)
		r, err := ocf.NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		w, err := ocf.NewWriter(&out, r.Schema(), ocf.WithCodec(r.Codec()), ocf.WithSyncMarker(r.SyncMarker()))
		if err != nil {
			t.Fatal(err)
		}
		// After Next alone, the block Next loaded is handed out whole.
		if !r.Next() {
			t.Fatal(r.Err())
		}
		for {
			b, err := r.ReadRawBlock()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteRawBlock(b); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), file) {
			t.Fatalf("%s: the copy differs from the file", codec)
		}
	}
}

func TestWriteBlockRecompresses(t *testing.T) {
	recs := rawRecords(150, 6)
	file := writeRaw(t, recs, ocf.CodecDeflate, 20)
	r, _ := ocf.NewReader(bytes.NewReader(file))
	var out bytes.Buffer
	w, _ := ocf.NewWriter(&out, rawSchema, ocf.WithCodec(ocf.CodecZstandard))
	// A record encoded before the blocks stays first.
	if err := w.Encode(&recs[0]); err != nil {
		t.Fatal(err)
	}
	for {
		b, err := r.ReadBlock()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteBlock(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	back, err := ocf.NewReader(bytes.NewReader(out.Bytes()))
	if err != nil || back.Codec() != ocf.CodecZstandard {
		t.Fatal(err, back.Codec())
	}
	want := append([]rawRec{recs[0]}, recs...)
	i := 0
	for rec, err := range ocf.Records[rawRec](back) {
		if err != nil {
			t.Fatal(err)
		}
		if rec.ID != want[i].ID || rec.Name != want[i].Name {
			t.Fatalf("record %d: %+v, want %+v", i, rec, want[i])
		}
		i++
	}
	if i != len(want) {
		t.Fatalf("%d records, want %d", i, len(want))
	}
}

func TestEncodeRawFramesTheDatum(t *testing.T) {
	var out bytes.Buffer
	w, _ := ocf.NewWriter(&out, rawSchema)
	good, _ := avro.Marshal(rawSchema, &rawRec{ID: 5, Name: "x", Tags: []string{"a"}})
	for _, tc := range []struct {
		name  string
		datum []byte
		want  error
	}{
		{"cut short", good[:len(good)-1], avro.ErrTruncated},
		{"a byte after it", append(bytes.Clone(good), 0), avro.ErrInvalid},
		{"a union index out of range", append(bytes.Clone(good[:len(good)-1]), 0x06), avro.ErrInvalid},
		{"a string longer than the datum", []byte{0x0a, 0x7e}, avro.ErrTruncated},
		{"nothing", nil, avro.ErrTruncated},
	} {
		if err := w.EncodeRaw(tc.datum); !errors.Is(err, tc.want) {
			t.Errorf("%s: EncodeRaw = %v, want %v", tc.name, err, tc.want)
		}
	}
	// The Writer stays usable, and the refused datums left nothing.
	if err := w.EncodeRaw(good); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, _ := ocf.NewReader(bytes.NewReader(out.Bytes()))
	n := 0
	for {
		raw, err := r.Raw()
		if err == io.EOF {
			break
		}
		if err != nil || !bytes.Equal(raw, good) {
			t.Fatalf("record %d: %x, %v", n, raw, err)
		}
		n++
	}
	if n != 1 {
		t.Fatalf("%d records, want 1", n)
	}
}

func TestWriteBlockRefusesWhatDoesNotFrame(t *testing.T) {
	two, _ := avro.Marshal(rawSchema, &rawRec{ID: 1})
	two, _ = avro.Append(two, rawSchema, &rawRec{ID: 2, Name: "b"})
	nulls := schema.MustParse(`"null"`)
	for _, tc := range []struct {
		name string
		s    *schema.Schema
		b    ocf.Block
		want error
	}{
		{"fewer records than the count", rawSchema, ocf.Block{BlockInfo: ocf.BlockInfo{Count: 2}, Data: two[:len(two)-1]}, avro.ErrTruncated},
		{"more records than the count", rawSchema, ocf.Block{BlockInfo: ocf.BlockInfo{Count: 1}, Data: two}, ocf.ErrInvalidBlock},
		{"a negative count", rawSchema, ocf.Block{BlockInfo: ocf.BlockInfo{Count: -1}, Data: two}, ocf.ErrInvalidBlock},
		{"data for no records", rawSchema, ocf.Block{Data: two}, ocf.ErrInvalidBlock},
		{"a count the data cannot hold", rawSchema, ocf.Block{BlockInfo: ocf.BlockInfo{Count: 1 << 62}, Data: two}, ocf.ErrInvalidBlock},
		// Records of no bytes: a huge count is refused before any is
		// walked, not counted out.
		{"2^62 records of no bytes", nulls, ocf.Block{BlockInfo: ocf.BlockInfo{Count: 1 << 62}}, ocf.ErrInvalidBlock},
	} {
		w, _ := ocf.NewWriter(io.Discard, tc.s)
		if err := w.WriteBlock(tc.b); !errors.Is(err, tc.want) {
			t.Errorf("%s: WriteBlock = %v, want %v", tc.name, err, tc.want)
		}
		// WriteRawBlock checks counts and sizes, not the records: a block
		// of one record with a second after it is written as it is.
		if err := w.WriteRawBlock(tc.b); tc.want == ocf.ErrInvalidBlock && tc.b.Count != 1 && !errors.Is(err, ocf.ErrInvalidBlock) {
			t.Errorf("%s: WriteRawBlock = %v, want ErrInvalidBlock", tc.name, err)
		}
	}
	// A raw block larger than a Reader with the Writer's limit accepts.
	w, _ := ocf.NewWriter(io.Discard, rawSchema, ocf.WithBlockLimit(1024))
	if err := w.WriteRawBlock(ocf.Block{BlockInfo: ocf.BlockInfo{Count: 1}, Data: make([]byte, 1025)}); !errors.Is(err, ocf.ErrTooLarge) {
		t.Errorf("WriteRawBlock of 1025 bytes with a limit of 1024 = %v, want ErrTooLarge", err)
	}
}

func TestReadRawBlockInsideABlock(t *testing.T) {
	file := writeRaw(t, rawRecords(10, 7), ocf.CodecNull, 5)
	r, _ := ocf.NewReader(bytes.NewReader(file))
	if _, err := r.Raw(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadRawBlock(); err == nil {
		t.Fatal("ReadRawBlock after one record of a block of 5 succeeded")
	}
	// Not sticky: the rest of the block still reads.
	for i := 1; i < 10; i++ {
		if _, err := r.Raw(); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
}

func TestReadBlockReportsACutSyncMarkerAfterTheBlock(t *testing.T) {
	file := writeRaw(t, rawRecords(10, 8), ocf.CodecNull, 5)
	cut := file[:len(file)-3]
	for _, read := range []func(*ocf.Reader) (ocf.Block, error){(*ocf.Reader).ReadBlock, (*ocf.Reader).ReadRawBlock} {
		r, _ := ocf.NewReader(bytes.NewReader(cut))
		var total int64
		var err error
		for {
			var b ocf.Block
			if b, err = read(r); err != nil {
				break
			}
			total += b.Count
		}
		if total != 10 || !errors.Is(err, ocf.ErrTruncated) || r.Err() != err {
			t.Errorf("read %d records, then %v (Err %v); want 10, then ErrTruncated", total, err, r.Err())
		}
	}
}
