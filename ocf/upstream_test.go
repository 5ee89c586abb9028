package ocf

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/google/go-cmp/cmp"
)

// readAll decodes every record of data into any, returning the records
// read and Err.
func readAll(t testing.TB, data []byte, opts ...ReaderOption) (*Reader, []any, error) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), opts...)
	if err != nil {
		return nil, nil, err
	}
	var out []any
	for r.Next() {
		var v any
		if err := r.Decode(&v); err != nil {
			return r, out, err
		}
		out = append(out, v)
	}
	return r, out, r.Err()
}

func jsonRecords(recs []any) []any {
	out := make([]any, len(recs))
	for i, r := range recs {
		out[i] = toJSONModel(r)
	}
	return out
}

// TestUpstreamIndex reads every container file of the upstream test data
// and checks its header, its blocks and its records against
// derived/ocf-index.json (records decoded by Apache Python).
func TestUpstreamIndex(t *testing.T) {
	files := loadIndex(t)
	special := map[string]bool{
		"share/test/data/test.avro12":                        true,
		"lang/c/tests/avro-1237-bad-union-discriminant.avro": true,
		"lang/c/tests/avro-1238-truncated.avro":              true,
		"lang/js/test/dat/person-10.no-codec.avro":           true,
		"derived/interop/py_xz.avro":                         true,
	}
	for _, f := range files {
		t.Run(f.Path, func(t *testing.T) {
			data := readUpstream(t, f.Path)
			if f.Error != "" { // test.avro12
				_, err := NewReader(bytes.NewReader(data))
				if !errors.Is(err, ErrLegacyFormat) || !errors.Is(err, avro.ErrInvalid) {
					t.Fatalf("NewReader = %v, want ErrLegacyFormat", err)
				}
				return
			}
			r, err := NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if r.Codec() != f.Codec {
				t.Errorf("Codec() = %q, want %q", r.Codec(), f.Codec)
			}
			sync := r.SyncMarker()
			if got := hex.EncodeToString(sync[:]); got != f.SyncHex {
				t.Errorf("sync = %s, want %s", got, f.SyncHex)
			}
			meta := r.Metadata()
			if _, ok := meta["avro.codec"]; ok != f.CodecKeyPresent {
				t.Errorf("avro.codec present = %v, want %v", ok, f.CodecKeyPresent)
			}
			for k, v := range f.OtherMeta {
				got := string(meta[k])
				if k == "avro.sync" {
					got = hex.EncodeToString(meta[k])
				}
				if got != v {
					t.Errorf("metadata %q = %q, want %q", k, got, v)
				}
			}
			if ws, err := schema.Parse(string(f.Schema)); err != nil {
				t.Errorf("index schema: %v", err)
			} else if got, want := r.Schema().Canonical(), ws.Canonical(); got != want {
				t.Errorf("schema = %s, want %s", got, want)
			}

			// Blocks, skipped without decoding.
			var blocks [][2]int64
			trailing := false
			for {
				b, err := r.SkipBlock()
				if err == io.EOF {
					break
				}
				if err != nil {
					if f.Truncated != "" && errors.Is(err, ErrTruncated) {
						break
					}
					if f.Trailing != "" && errors.Is(err, ErrTrailingData) {
						trailing = true // the stray bytes after the last block
						break
					}
					t.Fatalf("SkipBlock: %v", err)
				}
				blocks = append(blocks, [2]int64{b.Count, b.Size})
				if f.Truncated != "" {
					if _, err := r.SkipBlock(); !errors.Is(err, ErrTruncated) {
						t.Fatalf("SkipBlock after the truncated block = %v, want ErrTruncated", err)
					}
					break
				}
			}
			if diff := cmp.Diff(f.Blocks, blocks); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			if f.Trailing != "" && f.Truncated == "" && !trailing {
				t.Errorf("bytes %s after the last block: no ErrTrailingData", f.Trailing)
			}
			if special[f.Path] {
				return // TestUpstreamDamaged, TestInteropPythonFiles
			}
			if f.PythonReader != "ok" {
				t.Fatalf("index has no records: %s", f.PythonReader)
			}
			_, recs, err := readAll(t, data)
			if err != nil {
				t.Fatalf("reading records: %v", err)
			}
			var want any
			if strings.HasPrefix(string(f.PythonRecords), "[") {
				want = parseJSON(t, f.PythonRecords)
			} else {
				var n int64
				for _, b := range f.Blocks {
					n += b[0]
				}
				if int64(len(recs)) != n {
					t.Fatalf("%d records, want %d", len(recs), n)
				}
				return
			}
			if diff := cmp.Diff(want, jsonRecords(recs), numberEqual); diff != "" {
				t.Errorf("records (-python +ours):\n%s", diff)
			}
		})
	}
}

func TestWeatherFiles(t *testing.T) {
	var want []any
	sc := bufio.NewScanner(bytes.NewReader(readUpstream(t, "share/test/data/weather.json")))
	for sc.Scan() {
		want = append(want, parseJSON(t, sc.Bytes()))
	}
	if len(want) != 5 {
		t.Fatalf("weather.json has %d records", len(want))
	}
	for _, name := range []string{"weather.avro", "weather-deflate.avro", "weather-snappy.avro", "weather-zstd.avro", "weather-sorted.avro"} {
		t.Run(name, func(t *testing.T) {
			_, recs, err := readAll(t, readUpstream(t, "share/test/data/"+name))
			if err != nil {
				t.Fatal(err)
			}
			w := want
			if name == "weather-sorted.avro" {
				w = []any{want[3], want[4], want[0], want[1], want[2]}
			}
			if diff := cmp.Diff(w, jsonRecords(recs), numberEqual); diff != "" {
				t.Errorf("(-weather.json +ours):\n%s", diff)
			}
		})
	}
}

// TestWeatherStruct decodes into a Go struct and into value.Value.
func TestWeatherStruct(t *testing.T) {
	type Weather struct {
		Station string `avro:"station"`
		Time    int64  `avro:"time"`
		Temp    int32  `avro:"temp"`
	}
	r, err := NewReader(bytes.NewReader(readUpstream(t, "share/test/data/weather-zstd.avro")))
	if err != nil {
		t.Fatal(err)
	}
	var got []Weather
	for w, err := range Records[Weather](r) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, w)
	}
	want := []Weather{
		{"011990-99999", -619524000000, 0}, {"011990-99999", -619506000000, 22},
		{"011990-99999", -619484400000, -11}, {"012650-99999", -655531200000, 111},
		{"012650-99999", -655509600000, 78},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	r, err = NewReader(bytes.NewReader(readUpstream(t, "share/test/data/weather-snappy.avro")))
	if err != nil {
		t.Fatal(err)
	}
	var vals []value.Value
	for v, err := range Records[value.Value](r) {
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	if len(vals) != 5 || vals[4].Record().Field("temp").Int() != 78 {
		t.Errorf("value.Value records = %v", vals)
	}
}

func TestSyncInMeta(t *testing.T) {
	data := readUpstream(t, "share/test/data/syncInMeta.avro")
	r, recs, err := readAll(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6001 {
		t.Fatalf("%d records, want 6001", len(recs))
	}
	sync := r.SyncMarker()
	if !bytes.Equal(r.Metadata()["avro.sync"], sync[:]) {
		t.Error("avro.sync metadata does not equal the sync marker")
	}
	// Counting via SkipBlock over a seekable file.
	f, err := os.Open(upstreamPath(t, "share/test/data/syncInMeta.avro"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() }) // read only: nothing to lose
	r, err = NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var n, blocks int64
	for {
		b, err := r.SkipBlock()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n += b.Count
		blocks++
	}
	if n != 6001 || blocks != 12 || r.Offset() != int64(len(data)) {
		t.Errorf("SkipBlock counted %d records in %d blocks ending at %d, want 6001 in 12 ending at %d", n, blocks, r.Offset(), len(data))
	}
}

// TestUpstreamDamaged checks the documented policies on the damaged
// upstream files.
func TestUpstreamDamaged(t *testing.T) {
	t.Run("avro-1237-bad-union-discriminant", func(t *testing.T) {
		_, recs, err := readAll(t, readUpstream(t, "lang/c/tests/avro-1237-bad-union-discriminant.avro"))
		if !errors.Is(err, avro.ErrInvalid) {
			t.Fatalf("err = %v, want avro.ErrInvalid (union index 2)", err)
		}
		var ae *avro.Error
		if !errors.As(err, &ae) {
			t.Errorf("err %v does not wrap *avro.Error", err)
		}
		if diff := cmp.Diff([]any{nil}, recs); diff != "" {
			t.Errorf("records before the error (-want +got):\n%s", diff)
		}
	})
	t.Run("avro-1238-truncated", func(t *testing.T) {
		_, recs, err := readAll(t, readUpstream(t, "lang/c/tests/avro-1238-truncated.avro"))
		if !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("err = %v, want ErrTruncated", err)
		}
		if diff := cmp.Diff([]any{nil, int32(100)}, recs); diff != "" {
			t.Errorf("records before the error (-want +got):\n%s", diff)
		}
	})
	t.Run("avro-1238-truncated-in-data", func(t *testing.T) {
		// Cut inside the block's data instead: no record, ErrTruncated.
		data := readUpstream(t, "lang/c/tests/avro-1238-good.avro")
		_, recs, err := readAll(t, data[:len(data)-18])
		if !errors.Is(err, ErrTruncated) || len(recs) != 0 {
			t.Fatalf("got %v, %v; want no records and ErrTruncated", recs, err)
		}
	})
	t.Run("avro-1237-good", func(t *testing.T) {
		_, recs, err := readAll(t, readUpstream(t, "lang/c/tests/avro-1237-good.avro"))
		if err != nil || !cmp.Equal([]any{nil, int32(100)}, recs) {
			t.Fatalf("got %v, %v", recs, err)
		}
	})
	t.Run("person-10.no-codec", func(t *testing.T) {
		data := readUpstream(t, "lang/js/test/dat/person-10.no-codec.avro")
		if data[len(data)-1] != 0x0a {
			t.Fatal("expected a trailing newline in the upstream file")
		}
		_, want, err := readAll(t, readUpstream(t, "lang/js/test/dat/person-10.avro"))
		if err != nil || len(want) != 10 {
			t.Fatalf("person-10.avro: %d records, %v", len(want), err)
		}
		// Default: the records, then ErrTrailingData at the stray byte,
		// as Java 1.8.2, Apache Python 1.11, fastavro and Apache C fail
		// on it (avsc alone ignores it).
		_, recs, err := readAll(t, data)
		if !errors.Is(err, ErrTrailingData) || !errors.Is(err, avro.ErrInvalid) || len(recs) != 10 {
			t.Fatalf("default: %d records, %v; want 10 and ErrTrailingData", len(recs), err)
		}
		if want := fmt.Sprintf("offset %d", len(data)-1); !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not give the %s of the stray byte", err, want)
		}
		if diff := cmp.Diff(want, recs); diff != "" {
			t.Errorf("(-person-10.avro +no-codec):\n%s", diff)
		}
		// Lenient: the stray byte is ignored.
		_, recs, err = readAll(t, data, WithStrictTrailing(false))
		if err != nil {
			t.Fatalf("lenient: %v", err)
		}
		if diff := cmp.Diff(want, recs); diff != "" {
			t.Errorf("lenient (-person-10.avro +no-codec):\n%s", diff)
		}
		// Strict on a clean file: no error.
		if _, _, err := readAll(t, readUpstream(t, "lang/js/test/dat/person-10.avro"), WithStrictTrailing(true)); err != nil {
			t.Fatalf("strict on a clean file: %v", err)
		}
	})
	t.Run("test.avro12", func(t *testing.T) {
		_, err := NewReader(bytes.NewReader(readUpstream(t, "share/test/data/test.avro12")))
		if !errors.Is(err, ErrLegacyFormat) || !strings.Contains(err.Error(), "legacy") {
			t.Fatalf("err = %v, want ErrLegacyFormat", err)
		}
	})
}

// TestInteropPythonFiles reads the interop datum written by Apache
// Python with every codec (and the xz copy) and compares it with
// derived/interop/expected.json.
func TestInteropPythonFiles(t *testing.T) {
	var exp struct {
		Datum json.RawMessage `json:"DATUM"`
		Files map[string]struct {
			Codec        string `json:"codec"`
			Records      int    `json:"records"`
			UserMetadata string `json:"user_metadata"`
		} `json:"files"`
	}
	if err := json.Unmarshal(readUpstream(t, "derived/interop/expected.json"), &exp); err != nil {
		t.Fatal(err)
	}
	want := parseJSON(t, exp.Datum)
	if len(exp.Files) != 6 {
		t.Fatalf("expected.json lists %d files, want 6", len(exp.Files))
	}
	for name, f := range exp.Files {
		t.Run(name, func(t *testing.T) {
			r, recs, err := readAll(t, readUpstream(t, "derived/interop/"+name))
			if err != nil {
				t.Fatal(err)
			}
			if r.Codec() != f.Codec || len(recs) != f.Records {
				t.Fatalf("codec %q with %d records, want %q with %d", r.Codec(), len(recs), f.Codec, f.Records)
			}
			if got := string(r.Metadata()["user_metadata"]); got != "someByteArray" {
				t.Errorf("user_metadata = %q", got)
			}
			if diff := cmp.Diff(want, toJSONModel(recs[0]), numberEqual); diff != "" {
				t.Errorf("(-DATUM +ours):\n%s", diff)
			}
		})
	}
}
