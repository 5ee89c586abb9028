package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

// readingSchema is the schema of the generated files of the work folder:
// a record with a union, an enum, an array and a logical type.
const readingSchema = `{"type":"record","name":"Reading","namespace":"org.example","fields":[
 {"name":"id","type":"long"},
 {"name":"station","type":"string"},
 {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["TEMP","RAIN","WIND"]}},
 {"name":"values","type":{"type":"array","items":"double"}},
 {"name":"note","type":["null","string"],"default":null},
 {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}}]}`

type reading struct {
	ID      int64     `avro:"id"`
	Station string    `avro:"station"`
	Kind    string    `avro:"kind"`
	Values  []float64 `avro:"values"`
	Note    *string   `avro:"note"`
	At      int64     `avro:"at"`
}

func readings(n int) []reading {
	kinds := []string{"TEMP", "RAIN", "WIND"}
	out := make([]reading, n)
	for i := range out {
		out[i] = reading{ID: int64(i), Station: fmt.Sprintf("st-%03d", i%7), Kind: kinds[i%3],
			Values: []float64{float64(i) / 4, -float64(i)}, At: 1_700_000_000_000 + int64(i)*60_000}
		if i%4 == 1 {
			note := fmt.Sprintf("note %d", i)
			out[i].Note = &note
		}
	}
	return out
}

// writeReadings writes n readings in blocks of 10 with a fixed sync
// marker, so that the files and transcripts are the same at every run.
func writeReadings(t testing.TB, n int, codec string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ocf.NewWriter(&buf, schema.MustParse(readingSchema), ocf.WithCodec(codec),
		ocf.WithBlockCount(10), ocf.WithSyncMarker([16]byte{0xa1, 0xa2, 0xa3, 0xa4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}),
		ocf.WithMetadata("origin", []byte("avro command tests")))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range readings(n) {
		if err := w.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// blockOffsets lists the offsets of the blocks of a container file.
func blockOffsets(t testing.TB, file []byte) []int64 {
	t.Helper()
	r, err := ocf.NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var offs []int64
	for {
		b, err := r.SkipBlock()
		if err != nil {
			return offs
		}
		offs = append(offs, b.Offset)
	}
}

// workDir returns a new folder holding the files of testdata and the
// generated ones:
//
//   - readings.avro: 45 readings in blocks of 10, null codec;
//     readings-deflate.avro the same with deflate;
//   - damaged.avro: readings.avro with the sync marker after its third
//     block changed;
//   - corrupt.avro: readings-deflate.avro with its second block's data
//     garbled;
//   - cut.avro: readings.avro cut inside its last block;
//   - badrecord.avro: readings.avro with record 13's enum index out of
//     range.
func workDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files, _ := filepath.Glob("testdata/*.*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain := writeReadings(t, 45, ocf.CodecNull)
	deflated := writeReadings(t, 45, ocf.CodecDeflate)
	put("readings.avro", plain)
	put("readings-deflate.avro", deflated)
	put("readings.avsc", []byte(readingSchema))

	offs := blockOffsets(t, plain)
	damaged := bytes.Clone(plain)
	damaged[offs[3]-1] ^= 0xff // the last byte of block 2's sync marker
	put("damaged.avro", damaged)

	doffs := blockOffsets(t, deflated)
	corrupt := bytes.Clone(deflated)
	for i := doffs[1] + 4; i < doffs[1]+12; i++ {
		corrupt[i] = 0xff
	}
	put("corrupt.avro", corrupt)
	put("cut.avro", plain[:len(plain)-30])

	// Record 13, in block 1: its enum index (after the id and the
	// station) made 63, of 3 symbols.
	rec13, err := avro.Marshal(schema.MustParse(readingSchema), &readings(14)[13])
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(plain, rec13)
	badRecord := bytes.Clone(plain)
	badRecord[at+1+1+len("st-006")] = 0x7e
	put("badrecord.avro", badRecord)
	return dir
}
