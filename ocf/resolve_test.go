package ocf

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Reading upstream weather files (written by Java) into an evolved reader
// schema: station dropped, temp promoted int→long, a field added with a
// default, the record renamed with an alias.
func TestReaderSchemaResolvesUpstreamFiles(t *testing.T) {
	reader := schema.MustParse(`{"type":"record","name":"Reading","namespace":"v2","aliases":["test.Weather"],"fields":[
		{"name":"when","aliases":["time"],"type":"long"},
		{"name":"temp","type":"long"},
		{"name":"unit","type":"string","default":"decicelsius"}]}`)
	type Reading struct {
		When int64  `avro:"when"`
		Temp int64  `avro:"temp"`
		Unit string `avro:"unit"`
	}
	want := []Reading{
		{-619524000000, 0, "decicelsius"},
		{-619506000000, 22, "decicelsius"},
		{-619484400000, -11, "decicelsius"},
		{-655531200000, 111, "decicelsius"},
		{-655509600000, 78, "decicelsius"},
	}
	for _, name := range []string{"weather.avro", "weather-deflate.avro", "weather-snappy.avro", "weather-zstd.avro"} {
		t.Run(name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(readUpstream(t, "share/test/data/"+name)), WithReaderSchema(reader))
			if err != nil {
				t.Fatal(err)
			}
			if r.Schema().FullName() != "test.Weather" {
				t.Errorf("Schema() = %s, want the writer's test.Weather", r.Schema().FullName())
			}
			var got []Reading
			for {
				var rec Reading
				err := r.Decode(&rec)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, rec)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReaderSchemaIncompatible(t *testing.T) {
	reader := schema.MustParse(`{"type":"record","name":"test.Weather","fields":[
		{"name":"station","type":"int"}]}`)
	_, err := NewReader(bytes.NewReader(readUpstream(t, "share/test/data/weather.avro")), WithReaderSchema(reader))
	var ce *schema.CompatibilityError
	if !errors.As(err, &ce) {
		t.Fatalf("NewReader with an incompatible reader schema: %v, want a *schema.CompatibilityError", err)
	}
}

// Guards what reader defaults may cost over a file: a 96-byte file of
// 2^20 empty records (within the zero-size budget), read with a reader
// schema that adds a 64 KiB default, filled it in for every record: 6.9
// GiB in 20 s into a struct, 50 GiB into value.Value. Deflated, a 64 KB
// file of 66 million one-byte records did the same with a 1 KiB default.
func TestReaderDefaultsBoundedOverTheFile(t *testing.T) {
	pad := strings.Repeat("a", 64<<10)
	reader := func(typ string) *schema.Schema {
		return schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"pad","type":"` + typ + `","default":"` + pad + `"}]}`)
	}
	empty := cat(rawHeader("avro.schema", `{"type":"record","name":"R","fields":[]}`), rawBlock(1<<20, 0, nil))
	type Bytes struct {
		Pad []byte `avro:"pad"`
	}
	cases := []struct {
		name   string
		reader *schema.Schema
		v      func() any
	}{
		{"struct", reader("bytes"), func() any { return new(Bytes) }},
		{"value.Value", reader("string"), func() any { return new(value.Value) }},
		{"any", reader("string"), func() any { return new(any) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(empty), WithReaderSchema(tc.reader))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			alloc := allocDuring(func() {
				for err = r.Decode(tc.v()); err == nil; err = r.Decode(tc.v()) {
					n++
				}
			})
			var ae *avro.Error
			if !errors.Is(err, avro.ErrLimit) || !errors.As(err, &ae) || ae.Path != "pad" {
				t.Fatalf("after %d records: err = %v, want ErrLimit at pad", n, err)
			}
			// 4 MiB of defaults and 64 bytes a byte of the file: 64 of
			// them, and a few allocations of each.
			if n > 100 || alloc > 64<<20 {
				t.Errorf("%d records, %d MiB allocated before ErrLimit", n, alloc>>20)
			}
		})
	}

	// Deflated: one-byte records of a boolean, 1 KiB defaults.
	var raw bytes.Buffer
	w, err := NewWriter(&raw, schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"boolean"}]}`),
		WithCodec(CodecDeflate), WithBlockSize(16<<20), WithBlockCount(1<<30))
	if err != nil {
		t.Fatal(err)
	}
	type B struct {
		B bool `avro:"b"`
	}
	for i := 0; i < 4<<20; i++ {
		if err := w.Encode(&B{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	kib := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"boolean"},{"name":"pad","type":"bytes","default":"` + pad[:1024] + `"}]}`)
	r, err := NewReader(bytes.NewReader(raw.Bytes()), WithReaderSchema(kib))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var rec struct {
		B   bool   `avro:"b"`
		Pad []byte `avro:"pad"`
	}
	for err = r.Decode(&rec); err == nil; err = r.Decode(&rec) {
		n++
	}
	// 4 MiB and 64 bytes a stored byte (the file is a few KB): a few
	// thousand records of 4 Mi.
	if !errors.Is(err, avro.ErrLimit) || n > 1<<14 {
		t.Fatalf("%d-byte deflated file: %d records, then %v; want ErrLimit within 16,384", raw.Len(), n, err)
	}
}

// Legitimate files with defaults read whatever their length: the budget
// grows by 64 bytes a byte, and small records take small defaults.
func TestReaderDefaultsLongFileReads(t *testing.T) {
	var raw bytes.Buffer
	w, err := NewWriter(&raw, schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"id","type":"long"},{"name":"name","type":"string"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	type R struct {
		ID   int64  `avro:"id"`
		Name string `avro:"name"`
	}
	const n = 200000
	for i := 0; i < n; i++ {
		if err := w.Encode(&R{ID: int64(i), Name: "name"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// 200,000 records of 6 to 9 bytes, each taking a 100-byte default:
	// 20 MB of defaults, five times the 4 MiB a datum may use.
	reader := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"id","type":"long"},{"name":"name","type":"string"},
		{"name":"note","type":"bytes","default":"` + strings.Repeat("n", 100) + `"}]}`)
	r, err := NewReader(bytes.NewReader(raw.Bytes()), WithReaderSchema(reader))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		ID   int64  `avro:"id"`
		Note []byte `avro:"note"`
	}
	count := 0
	for r.Next() {
		if err := r.Decode(&got); err != nil {
			t.Fatalf("record %d: %v", count, err)
		}
		count++
	}
	if err := r.Err(); err != nil || count != n || len(got.Note) != 100 {
		t.Fatalf("%d records, note of %d bytes, err %v", count, len(got.Note), err)
	}
}
