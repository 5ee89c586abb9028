package fuzz

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// ocfSeeds are container files: the upstream ones (valid and damaged),
// files of every writable codec, and hostile headers and blocks.
func ocfSeeds(tb testing.TB) [][]byte {
	const data = "../../shared/testdata/apache-avro/"
	var seeds [][]byte
	for _, pattern := range []string{
		"share/test/data/*.avro", "share/test/data/test.avro12", "share/test/data/schemas/*/data.avro",
		"lang/c/tests/*.avro", "lang/js/test/dat/*.avro", "derived/interop/*.avro",
		"share/test/interop/rpc/*/*/*.avro",
	} {
		files, err := filepath.Glob(data + pattern)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range files {
			if filepath.Base(f) == "syncInMeta.avro" {
				continue // 22 KB: too slow as a seed
			}
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			seeds = append(seeds, b)
		}
	}
	if len(seeds) < 25 {
		tb.Fatalf("only %d container seeds found", len(seeds))
	}
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":"long"},{"name":"b","type":["null","string"]},
		{"name":"c","type":{"type":"array","items":"bytes"}}]}`)
	for _, codec := range []string{ocf.CodecNull, ocf.CodecDeflate, ocf.CodecSnappy, ocf.CodecZstandard} {
		var buf bytes.Buffer
		w, err := ocf.NewWriter(&buf, s, ocf.WithCodec(codec), ocf.WithBlockCount(3),
			ocf.WithSyncMarker([16]byte{1, 2, 3}))
		if err != nil {
			tb.Fatal(err)
		}
		for i := range 7 {
			rec := map[string]any{"a": int64(i * 1000), "b": nil, "c": []any{[]byte("xy"), []byte{}}}
			if i%2 == 1 {
				rec["b"] = "s"
			}
			if err := w.Encode(rec); err != nil {
				tb.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, buf.Bytes())
	}
	long := func(b []byte, v int64) []byte {
		u := uint64(v<<1) ^ uint64(v>>63)
		for u >= 0x80 {
			b = append(b, byte(u)|0x80)
			u >>= 7
		}
		return append(b, byte(u))
	}
	hdr := []byte("Obj\x01\x02\x16avro.schema\x0c\"long\"\x00")
	hdr = append(hdr, make([]byte, 16)...)
	seeds = append(seeds,
		[]byte("Obj\x00"), []byte("Obj\x01"), []byte("Obj\x02"),
		long([]byte("Obj\x01"), 1<<40),
		long(long([]byte("Obj\x01"), 1), 1<<40),
		long(long(bytes.Clone(hdr), 1), -5),
		long(long(bytes.Clone(hdr), 1), 1<<40),
		long(long(bytes.Clone(hdr), 1<<40), 1),
		append(long(long(bytes.Clone(hdr), 1), 1), 2, 9, 9, 9, 9),
	)
	return seeds
}

// FuzzContainer reads arbitrary bytes as a container file: it must never
// panic or allocate without bound, and every record that decodes must
// encode back to an equal value.
func FuzzContainer(f *testing.F) {
	for _, s := range ocfSeeds(f) {
		f.Add(s)
	}
	// The hostile corpus: its container cases, and its datum cases as the
	// record of a block of a few schemas.
	datums, containers := hostileCorpus(f, 512)
	for _, c := range containers {
		f.Add(c)
	}
	for _, d := range datums {
		for _, s := range []string{`{"type":"array","items":"long"}`, `{"type":"map","values":"string"}`,
			`{"type":"array","items":"null"}`, nodeSchema, `["null","string"]`} {
			f.Add(wrapContainer(s, d))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := []ocf.ReaderOption{ocf.WithMaxBlockSize(1 << 20), ocf.WithMaxHeaderSize(1 << 20),
			ocf.WithDecodeOptions(avro.DecodeOptions{MaxZeroSizeItems: 1 << 12})}
		r, err := ocf.NewReader(bytes.NewReader(data), opts...)
		if err != nil {
			if !errors.Is(err, avro.ErrInvalid) && !errors.Is(err, avro.ErrLimit) &&
				!errors.Is(err, avro.ErrTruncated) && !errors.Is(err, errors.ErrUnsupported) {
				t.Fatalf("untyped header error: %v", err)
			}
			return
		}
		s := r.Schema()
		for n := 0; r.Next() && n < 10000; n++ {
			var v value.Value
			if err := r.Decode(&v); err != nil {
				break
			}
			enc, err := avro.Marshal(s, v)
			if err != nil {
				t.Fatalf("record %d decoded but does not re-encode: %v", n, err)
			}
			var back value.Value
			if err := avro.Unmarshal(s, enc, &back); err != nil {
				t.Fatalf("record %d re-encoded does not decode: %v", n, err)
			}
			if !value.Equal(v, back) {
				t.Fatalf("record %d changed in a round trip: %v != %v", n, v, back)
			}
		}
		// The block-level path on the same bytes.
		r, err = ocf.NewReader(bytes.NewReader(data), opts...)
		if err != nil {
			t.Fatalf("second NewReader failed: %v", err)
		}
		for range 10000 {
			if _, err := r.SkipBlock(); err != nil {
				if err != io.EOF && !errors.Is(err, avro.ErrInvalid) && !errors.Is(err, avro.ErrLimit) &&
					!errors.Is(err, avro.ErrTruncated) {
					t.Fatalf("untyped block error: %v", err)
				}
				break
			}
		}
	})
}
