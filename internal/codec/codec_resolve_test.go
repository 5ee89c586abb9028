package codec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/google/go-cmp/cmp"
)

// resolveCase is one evolution: a datum written with the writer schema
// (encoded from a generic value with avro.Marshal), and the value the
// reader schema must see.
type resolveCase struct {
	name    string
	writer  string
	reader  string
	written any
	want    any
	// wantErr, when set, is a substring of the decode error.
	wantErr string
}

const (
	recW1 = `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}`
)

var resolveCases = []resolveCase{
	// Promotions (M2), at the top level and in records.
	{name: "int-long", writer: `"int"`, reader: `"long"`, written: int32(-7), want: int64(-7)},
	{name: "int-float", writer: `"int"`, reader: `"float"`, written: int32(1 << 24), want: float32(1 << 24)},
	{name: "int-double", writer: `"int"`, reader: `"double"`, written: int32(math.MinInt32), want: float64(math.MinInt32)},
	{name: "long-float", writer: `"long"`, reader: `"float"`, written: int64(1<<40 + 1), want: float32(1 << 40)},
	{name: "long-double", writer: `"long"`, reader: `"double"`, written: int64(-1 << 53), want: float64(-1 << 53)},
	{name: "float-double", writer: `"float"`, reader: `"double"`, written: float32(1.5), want: float64(1.5)},
	{name: "string-bytes", writer: `"string"`, reader: `"bytes"`, written: "hé", want: []byte("hé")},
	{name: "bytes-string", writer: `"bytes"`, reader: `"string"`, written: []byte("xy"), want: "xy"},
	{
		name:    "record-promotions",
		writer:  `{"type":"record","name":"R","fields":[{"name":"i","type":"int"},{"name":"l","type":"long"},{"name":"f","type":"float"},{"name":"s","type":"string"}]}`,
		reader:  `{"type":"record","name":"R","fields":[{"name":"i","type":"double"},{"name":"l","type":"float"},{"name":"f","type":"double"},{"name":"s","type":"bytes"}]}`,
		written: map[string]any{"i": int32(3), "l": int64(4), "f": float32(0.25), "s": "z"},
		want:    map[string]any{"i": float64(3), "l": float32(4), "f": float64(0.25), "s": []byte("z")},
	},
	// Added and removed fields (M3, D1).
	{
		name:    "added-field-default",
		writer:  recW1,
		reader:  `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"},{"name":"c","type":{"type":"array","items":"long"},"default":[1,2]}]}`,
		written: map[string]any{"a": int32(1), "b": "x"},
		want:    map[string]any{"a": int32(1), "b": "x", "c": []any{int64(1), int64(2)}},
	},
	{
		name:    "added-field-in-middle",
		writer:  recW1,
		reader:  `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"n","type":["null","string"],"default":null},{"name":"b","type":"string"},{"name":"z","type":"double","default":2.5}]}`,
		written: map[string]any{"a": int32(1), "b": "x"},
		want:    map[string]any{"a": int32(1), "n": nil, "b": "x", "z": 2.5},
	},
	{
		name:    "removed-field",
		writer:  `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"gone","type":{"type":"map","values":{"type":"array","items":"string"}}},{"name":"b","type":"string"}]}`,
		reader:  recW1,
		written: map[string]any{"a": int32(1), "gone": map[string]any{"k": []any{"x", "y"}}, "b": "x"},
		want:    map[string]any{"a": int32(1), "b": "x"},
	},
	{
		name:    "reordered-fields",
		writer:  `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"drop","type":"string"},{"name":"b","type":"string"},{"name":"c","type":"int"}]}`,
		reader:  `{"type":"record","name":"R","fields":[{"name":"c","type":"long"},{"name":"new","type":"string","default":"d"},{"name":"b","type":"string"},{"name":"a","type":"int"}]}`,
		written: map[string]any{"a": int32(1), "drop": "zz", "b": "x", "c": int32(-3)},
		want:    map[string]any{"c": int64(-3), "new": "d", "b": "x", "a": int32(1)},
	},
	// Aliases (A1) on types and fields.
	{
		name:    "type-alias",
		writer:  `{"type":"record","name":"old.Name","fields":[{"name":"a","type":"int"}]}`,
		reader:  `{"type":"record","name":"New","namespace":"x","aliases":["old.Name"],"fields":[{"name":"a","type":"int"}]}`,
		written: map[string]any{"a": int32(5)},
		want:    map[string]any{"a": int32(5)},
	},
	{
		name:    "field-alias",
		writer:  recW1,
		reader:  `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"bee","aliases":["b"],"type":"string"}]}`,
		written: map[string]any{"a": int32(1), "b": "x"},
		want:    map[string]any{"a": int32(1), "bee": "x"},
	},
	{
		name:    "enum-and-fixed-alias",
		writer:  `{"type":"record","name":"R","fields":[{"name":"e","type":{"type":"enum","name":"E1","symbols":["A","B"]}},{"name":"f","type":{"type":"fixed","name":"F1","size":2}}]}`,
		reader:  `{"type":"record","name":"R","fields":[{"name":"e","type":{"type":"enum","name":"E2","aliases":["E1"],"symbols":["B","A"]}},{"name":"f","type":{"type":"fixed","name":"F2","aliases":["F1"],"size":2}}]}`,
		written: map[string]any{"e": "B", "f": []byte{1, 2}},
		want:    map[string]any{"e": "B", "f": []byte{1, 2}},
	},
	// Enums (M4).
	{
		name:    "enum-default",
		writer:  `{"type":"enum","name":"E","symbols":["A","B","C"]}`,
		reader:  `{"type":"enum","name":"E","symbols":["C","U"],"default":"U"}`,
		written: "B",
		want:    "U",
	},
	{
		name:    "enum-known-symbol",
		writer:  `{"type":"enum","name":"E","symbols":["A","B","C"]}`,
		reader:  `{"type":"enum","name":"E","symbols":["C","A"]}`,
		written: "C",
		want:    "C",
	},
	{
		name:    "enum-no-default",
		writer:  `{"type":"enum","name":"E","symbols":["A","B","C"]}`,
		reader:  `{"type":"enum","name":"E","symbols":["C","A"]}`,
		written: "B",
		wantErr: `writer symbol "B" of E is not in reader enum E`,
	},
	// Unions (M6).
	{name: "reader-union", writer: `"int"`, reader: `["null","long"]`, written: int32(9), want: int64(9)},
	{name: "reader-union-exact-first", writer: `"int"`, reader: `["long","int"]`, written: int32(9), want: int32(9)},
	{name: "writer-union", writer: `["null","int"]`, reader: `"long"`, written: int32(9), want: int64(9)},
	{name: "writer-union-unreadable-branch", writer: `["null","int"]`, reader: `"long"`, written: nil, wantErr: "writer type null cannot be read as long"},
	{name: "both-unions-reordered", writer: `["null","string","int"]`, reader: `["int","string","null"]`, written: "s", want: "s"},
	{name: "both-unions-promoted", writer: `["null","int"]`, reader: `["null","double"]`, written: int32(2), want: float64(2)},
	{name: "both-unions-null", writer: `["null","int"]`, reader: `["double","null"]`, written: nil, want: nil},
	{
		name:    "union-of-records",
		writer:  `[{"type":"record","name":"A","fields":[{"name":"x","type":"int"}]},{"type":"record","name":"B","fields":[{"name":"y","type":"string"}]}]`,
		reader:  `["null",{"type":"record","name":"B","fields":[{"name":"y","type":"string"},{"name":"z","type":"int","default":4}]},{"type":"record","name":"A","fields":[{"name":"x","type":"long"}]}]`,
		written: map[string]any{"B": map[string]any{"y": "q"}},
		want:    map[string]any{"y": "q", "z": int32(4)},
	},
	// Nested records, arrays and maps of evolved records.
	{
		name:   "array-map-of-evolved",
		writer: `{"type":"record","name":"Outer","fields":[{"name":"items","type":{"type":"array","items":{"type":"record","name":"In","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}}},{"name":"m","type":{"type":"map","values":"In"}}]}`,
		reader: `{"type":"record","name":"Outer","fields":[{"name":"items","type":{"type":"array","items":{"type":"record","name":"In","fields":[{"name":"b","type":"string"},{"name":"a","type":"long"},{"name":"c","type":"boolean","default":true}]}}},{"name":"m","type":{"type":"map","values":"In"}}]}`,
		written: map[string]any{
			"items": []any{map[string]any{"a": int32(1), "b": "x"}, map[string]any{"a": int32(2), "b": "y"}},
			"m":     map[string]any{"k": map[string]any{"a": int32(3), "b": "z"}},
		},
		want: map[string]any{
			"items": []any{map[string]any{"b": "x", "a": int64(1), "c": true}, map[string]any{"b": "y", "a": int64(2), "c": true}},
			"m":     map[string]any{"k": map[string]any{"b": "z", "a": int64(3), "c": true}},
		},
	},
	{
		name:    "nested-record-field-added",
		writer:  `{"type":"record","name":"P","fields":[{"name":"inner","type":{"type":"record","name":"Q","fields":[{"name":"v","type":"int"}]}},{"name":"t","type":"string"}]}`,
		reader:  `{"type":"record","name":"P","fields":[{"name":"inner","type":{"type":"record","name":"Q","fields":[{"name":"v","type":"int"},{"name":"w","type":{"type":"map","values":"int"},"default":{"k":1}}]}},{"name":"t","type":"string"}]}`,
		written: map[string]any{"inner": map[string]any{"v": int32(8)}, "t": "x"},
		want:    map[string]any{"inner": map[string]any{"v": int32(8), "w": map[string]any{"k": int32(1)}}, "t": "x"},
	},
	// Recursive schemas.
	{
		name:    "recursive-list",
		writer:  `{"type":"record","name":"List","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","List"]}]}`,
		reader:  `{"type":"record","name":"List","fields":[{"name":"tag","type":"string","default":"t"},{"name":"next","type":["null","List"]},{"name":"v","type":"long"}]}`,
		written: map[string]any{"v": int32(1), "next": map[string]any{"v": int32(2), "next": map[string]any{"v": int32(3), "next": nil}}},
		want: map[string]any{"tag": "t", "v": int64(1), "next": map[string]any{"tag": "t", "v": int64(2),
			"next": map[string]any{"tag": "t", "v": int64(3), "next": nil}}},
	},
	{
		name:    "recursive-identity",
		writer:  `{"type":"record","name":"T","fields":[{"name":"kids","type":{"type":"array","items":"T"}},{"name":"n","type":"int"}]}`,
		reader:  `{"type":"record","name":"T","fields":[{"name":"kids","type":{"type":"array","items":"T"}},{"name":"n","type":"long"}]}`,
		written: map[string]any{"n": int32(1), "kids": []any{map[string]any{"n": int32(2), "kids": []any{}}}},
		want:    map[string]any{"n": int64(1), "kids": []any{map[string]any{"n": int64(2), "kids": []any{}}}},
	},
}

func mustResolve(t testing.TB, writer, reader string) (*schema.Schema, *schema.Schema) {
	t.Helper()
	w, err := schema.Parse(writer)
	if err != nil {
		t.Fatalf("writer: %v", err)
	}
	r, err := schema.Parse(reader)
	if err != nil {
		t.Fatalf("reader: %v", err)
	}
	rs, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	return w, rs
}

// TestResolveDecode decodes each case into any and value.Value, through
// Unmarshal, UnmarshalNext and the streaming Decoder.
func TestResolveDecode(t *testing.T) {
	for _, c := range resolveCases {
		t.Run(c.name, func(t *testing.T) {
			w, rs := mustResolve(t, c.writer, c.reader)
			written := c.written // through *any: the generic mapping picks union branches by value
			data, err := Marshal(w, &written)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			var got any
			err = Unmarshal(rs, data, &got)
			if c.wantErr != "" {
				var e *Error
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
					t.Fatalf("err = %v, want an *Error wrapping ErrInvalid containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Fatalf("any (-want +got):\n%s", diff)
			}
			var v value.Value
			if err := Unmarshal(rs, data, &v); err != nil {
				t.Fatalf("Unmarshal value: %v", err)
			}
			if diff := cmp.Diff(c.want, normalizeValueAny(value.ToAny(v))); diff != "" {
				t.Fatalf("value.Value (-want +got):\n%s", diff)
			}
			// Two datums back to back: the stream reader and UnmarshalNext
			// must stop at the end of each writer datum.
			two := append(append([]byte(nil), data...), data...)
			rest, err := UnmarshalNext(rs, two, &got)
			if err != nil || len(rest) != len(data) {
				t.Fatalf("UnmarshalNext: rest %d of %d, %v", len(rest), len(two), err)
			}
			dec := NewDecoder(iotestOneByte(two), rs)
			for i := 0; i < 2; i++ {
				got = nil
				if err := dec.Decode(&got); err != nil {
					t.Fatalf("Decode %d: %v", i, err)
				}
				if diff := cmp.Diff(c.want, got); diff != "" {
					t.Fatalf("Decode %d (-want +got):\n%s", i, diff)
				}
			}
			if err := dec.Decode(&got); err != io.EOF {
				t.Fatalf("Decode at end: %v, want io.EOF", err)
			}
		})
	}
}

// normalizeValueAny turns the typed arrays and int-keyed enums that
// value.ToAny may give into the any model's shapes.
func normalizeValueAny(x any) any {
	switch v := x.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalizeValueAny(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = normalizeValueAny(e)
		}
		return out
	}
	return x
}

// oneByteReader returns one byte per Read, to force the Decoder to refill
// in the middle of datums.
type oneByteReader struct{ b []byte }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.b[0]
	r.b = r.b[1:]
	return 1, nil
}

func iotestOneByte(b []byte) io.Reader { return &oneByteReader{b} }

// Struct targets: the Java TestReadingWritingDataInEvolvedSchemas shapes.
type (
	evolvedV1 = fixture.EvolvedV1
	evolvedV2 = fixture.EvolvedV2
)

const (
	evolvedV1Schema = fixture.EvolvedV1Schema
	evolvedV2Schema = fixture.EvolvedV2Schema
)

func TestResolveStruct(t *testing.T) {
	w, rs := mustResolve(t, evolvedV1Schema, evolvedV2Schema)
	for _, kind := range []string{"ADMIN", "BOT"} {
		in := evolvedV1{ID: 7, Name: "Ada", Score: 1.5, Tags: []string{"a", "b"}, Kind: kind,
			Attrs: map[string]int32{"x": 1}, Extra: map[string]string{"drop": "me"}}
		data, err := Marshal(w, &in)
		if err != nil {
			t.Fatal(err)
		}
		var out evolvedV2
		if err := Unmarshal(rs, data, &out); err != nil {
			t.Fatal(err)
		}
		wantKind := kind
		if kind == "BOT" {
			wantKind = "UNKNOWN"
		}
		want := evolvedV2{Kind: wantKind, ID: 7, Score: 1.5, Tags: []string{"a", "b"}, Attrs: map[string]int64{"x": 1}, Renamed: "Ada"}
		if diff := cmp.Diff(want, out); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	}
	// The resolved schema prints, fingerprints and compiles as the reader.
	r := schema.MustParse(evolvedV2Schema)
	if rs.String() != r.String() || rs.Canonical() != r.Canonical() || rs.Fingerprint() != r.Fingerprint() {
		t.Fatalf("resolved schema differs from the reader:\n%s\n%s", rs.String(), r.String())
	}
	if rs.Writer() != w || r.Writer() != nil {
		t.Fatal("Writer() wrong")
	}
}

// TestResolveErrors checks error paths and offsets in the writer's bytes,
// truncation, and limits.
func TestResolveErrors(t *testing.T) {
	w, rs := mustResolve(t, evolvedV1Schema, evolvedV2Schema)
	in := evolvedV1{ID: 7, Name: "Ada", Tags: []string{"a"}, Kind: "GUEST"}
	data, err := Marshal(w, &in)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n++ {
		var v evolvedV2
		err := Unmarshal(rs, data[:n], &v)
		if !errors.Is(err, ErrTruncated) {
			t.Fatalf("truncated at %d: %v", n, err)
		}
		var e *Error
		if !errors.As(err, &e) || e.Offset > int64(n) {
			t.Fatalf("truncated at %d: offset %v", n, err)
		}
	}
	// An error in the reader's decoder (a Go type that cannot hold the
	// promoted value) reports the writer's offset and the reader's path.
	// A struct reads the writer's bytes directly, so the offset is where
	// decoding failed, just after the value, as without resolution.
	type small struct {
		ID   int8   `avro:"id"`
		Kind string `avro:"kind"`
	}
	big := evolvedV1{ID: 1000, Kind: "GUEST"}
	data, _ = Marshal(w, &big)
	var s small
	err = Unmarshal(rs, data, &s)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrRange) || e.Path != "id" || e.Offset != 2 {
		t.Fatalf("range error: %#v", err)
	}
	// The same on a field after a reordering: "id" comes first in the
	// writer but second in the reader.
	wr, rr := mustResolve(t,
		`{"type":"record","name":"R","fields":[{"name":"x","type":"string"},{"name":"id","type":"int"}]}`,
		`{"type":"record","name":"R","fields":[{"name":"id","type":"long"},{"name":"x","type":"string"}]}`)
	data, _ = Marshal(wr, map[string]any{"x": "abc", "id": int32(1000)})
	var s2 struct {
		ID int8   `avro:"id"`
		X  string `avro:"x"`
	}
	err = Unmarshal(rr, data, &s2)
	if !errors.As(err, &e) || e.Path != "id" || e.Offset != 6 {
		t.Fatalf("reordered range error: %#v", err)
	}
	// Other targets read the transcoded bytes, and the offset is mapped
	// back to the start of the value in the writer's bytes: id (1000, two
	// bytes) starts at 1, after a.
	wm, rm := mustResolve(t,
		`{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"id","type":"int"}]}`,
		`{"type":"record","name":"R","fields":[{"name":"id","type":"long"},{"name":"a","type":"long"}]}`)
	data, _ = Marshal(wm, map[string]any{"a": int32(1), "id": int32(1000)})
	var m8 map[string]int8
	err = Unmarshal(rm, data, &m8)
	if !errors.As(err, &e) || !errors.Is(err, ErrRange) || e.Path != "id" || e.Offset != 1 {
		t.Fatalf("transcoded range error: %#v", err)
	}
	// Depth: a deep recursive datum hits MaxDepth in the transcoder.
	wl, rl := mustResolve(t,
		`{"type":"record","name":"L","fields":[{"name":"next","type":["null","L"]}]}`,
		`{"type":"record","name":"L","fields":[{"name":"next","type":["null","L"]},{"name":"x","type":"int","default":1}]}`)
	deep := bytes.Repeat([]byte{2}, 200)
	deep = append(deep, 0)
	err = DecodeOptions{MaxDepth: 50}.Unmarshal(rl, deep, new(any))
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("deep: %v", err)
	}
	_ = wl
	// Output bounded by the allocation limit: zero-size writer items that
	// the reader fills with a large default.
	_, rz := mustResolve(t,
		`{"type":"array","items":{"type":"record","name":"E","fields":[]}}`,
		`{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"pad","type":"string","default":"`+strings.Repeat("x", 1000)+`"}]}}`)
	huge := []byte{0x80, 0x80, 0x40, 0} // 2^20 items of zero bytes
	err = DecodeOptions{MaxZeroSizeItems: 1 << 21, MaxAlloc: 1 << 20}.Unmarshal(rz, huge, new(any))
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("amplification: %v", err)
	}
}

// TestResolveErrorsAtResolve checks the typed error of Resolve.
func TestResolveErrorsAtResolve(t *testing.T) {
	w := schema.MustParse(recW1)
	r := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"string"},{"name":"c","type":"int"}]}`)
	_, err := schema.Resolve(w, r)
	var ce *schema.CompatibilityError
	if !errors.As(err, &ce) || len(ce.Items) != 2 || ce.Items[0].Path != "/fields/0/type" || ce.Items[1].Path != "/fields/1" {
		t.Fatalf("%#v", err)
	}
}

// A resolved read decodes the transcoded bytes on its own state; when that
// decode failed, the offset mapping transcoded again with the budgets the
// failed decode had spent, stopped early and named the wrong offset. The
// error must be the one a plain read of the same bytes reports.
func TestResolvedErrorOffsetAfterSpentBudgets(t *testing.T) {
	type inner struct {
		N int8 `avro:"n"`
	}
	type mid struct {
		T inner `avro:"t"`
	}
	type rec struct {
		Pre []int64  `avro:"pre"`
		S   mid      `avro:"s"`
		B   []string `avro:"b"`
	}
	fields := func(pre string) string {
		return `{"type":"record","name":"R","fields":[
			{"name":"pre","type":{"type":"array","items":"` + pre + `"}},
			{"name":"s","type":{"type":"record","name":"S","fields":[{"name":"t","type":{"type":"record","name":"T","fields":[
				{"name":"n","type":"long"}]}}]}},
			{"name":"b","type":{"type":"array","items":"string"}}]}`
	}
	w, r := schema.MustParse(fields("int")), schema.MustParse(fields("long"))
	rs, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	many := make([]any, 50)
	for i := range many {
		many[i] = "y"
	}
	for name, c := range map[string]struct {
		n    int64
		opts DecodeOptions
	}{
		"allocation limit": {5, DecodeOptions{MaxAlloc: 400}},  // fails in b
		"depth":            {1000, DecodeOptions{MaxDepth: 4}}, // 1000 overflows int8 three records deep
	} {
		data, err := Marshal(w, map[string]any{"pre": []any{int32(1), int32(2), int32(3)},
			"s": map[string]any{"t": map[string]any{"n": c.n}}, "b": many})
		if err != nil {
			t.Fatal(err)
		}
		// Each read into a new value: a second read into the first one's
		// value reuses its slices, which costs no budget, and so fails
		// later (on 32-bit platforms, where strings take 8 bytes, at b[0]
		// rather than b).
		plain := c.opts.Unmarshal(r, data, new(rec))
		resolved := c.opts.Unmarshal(rs, data, new(rec))
		if plain == nil || fmt.Sprint(plain) != fmt.Sprint(resolved) {
			t.Errorf("%s: plain read %v, resolved read %v", name, plain, resolved)
		}
	}
}

// TestResolvePythonVectors decodes the defaults and promotions cases that
// Apache Python's test_io recorded.
func TestResolvePythonVectors(t *testing.T) {
	raw, err := os.ReadFile("../../../shared/testdata/apache-avro/derived/py-io-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Defaults struct {
			Writer json.RawMessage `json:"writer_schema"`
			Hex    string          `json:"writer_binary_hex"`
			Cases  []struct {
				Reader   json.RawMessage `json:"reader_schema"`
				Expected map[string]any  `json:"expected"`
			} `json:"cases"`
		} `json:"defaults"`
		Promotions []struct {
			Writer, Reader string
			Written, Read  float64
		} `json:"promotions"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Defaults.Cases) != 14 || len(f.Promotions) != 6 {
		t.Fatalf("%d defaults cases, %d promotions", len(f.Defaults.Cases), len(f.Promotions))
	}
	data, _ := hex.DecodeString(f.Defaults.Hex)
	for i, c := range f.Defaults.Cases {
		_, rs := mustResolve(t, string(f.Defaults.Writer), string(c.Reader))
		var got map[string]any
		if err := Unmarshal(rs, data, &got); err != nil {
			t.Errorf("defaults %d: %v", i, err)
			continue
		}
		want := c.Expected["H"]
		if m, ok := want.(map[string]any); ok && m["$bytes_hex"] != nil {
			// Python encodes a bytes default's code points as UTF-8
			// ("\u00ff" -> c3 bf); the specification (D2) makes each
			// code point one byte, which is what we read.
			want = []byte{0xff, 0xff}
		}
		if diff := cmp.Diff(jsonish(want), jsonish(got["H"])); diff != "" {
			t.Errorf("defaults %d (%s): (-want +got):\n%s", i, c.Reader, diff)
		}
	}
	for _, p := range f.Promotions {
		w, rs := mustResolve(t, `"`+p.Writer+`"`, `"`+p.Reader+`"`)
		var in any = int32(p.Written)
		switch p.Writer {
		case "long":
			in = int64(p.Written)
		case "float":
			in = float32(p.Written)
		}
		data, err := Marshal(w, in)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := Unmarshal(rs, data, &got); err != nil {
			t.Fatalf("%s->%s: %v", p.Writer, p.Reader, err)
		}
		if jsonish(got) != jsonish(p.Read) {
			t.Errorf("%s->%s: got %v (%T), want %v", p.Writer, p.Reader, got, got, p.Read)
		}
	}
}

// jsonish renders a value as JSON, so that int32(5) and the JSON number 5
// compare equal; []byte renders as base64 either way.
func jsonish(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// TestResolvePythonInterop reads with a new schema the bytes that Apache
// Python 1.11 wrote with an old one. It fails when /usr/bin/python3 with
// the avro module is missing: interoperability is part of the contract.
func TestResolvePythonInterop(t *testing.T) {
	const py = "/usr/bin/python3"
	oldSchema := `{"type":"record","name":"Event","namespace":"ex","fields":[
		{"name":"id","type":"int"},
		{"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B","C"]}},
		{"name":"payload","type":["null","string","int"]},
		{"name":"obsolete","type":{"type":"array","items":"double"}},
		{"name":"scores","type":{"type":"map","values":"float"}}]}`
	newSchema := `{"type":"record","name":"Event2","namespace":"ex","aliases":["Event"],"fields":[
		{"name":"scores","type":{"type":"map","values":"double"}},
		{"name":"ident","aliases":["id"],"type":"long"},
		{"name":"kind","type":{"type":"enum","name":"Kind","symbols":["C","A","OTHER"],"default":"OTHER"}},
		{"name":"payload","type":["null","long","bytes"]},
		{"name":"note","type":"string","default":"none"}]}`
	script := `
import avro.schema, avro.io, io, sys, json
s = avro.schema.parse(sys.argv[1])
out = io.BytesIO()
enc = avro.io.BinaryEncoder(out)
w = avro.io.DatumWriter(s)
for d in [
  {"id": 1, "kind": "B", "payload": None, "obsolete": [1.5, 2.5], "scores": {"x": 0.5}},
  {"id": -300000, "kind": "C", "payload": "hé", "obsolete": [], "scores": {}},
  {"id": 7, "kind": "A", "payload": 42, "obsolete": [3.0], "scores": {"a": 1.25, "b": -2.0}},
]:
  w.write(d, enc)
sys.stdout.write(out.getvalue().hex())
`
	dir := t.TempDir()
	file := filepath.Join(dir, "gen.py")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, file, oldSchema).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("Apache Python (%s with python3-avro) is required: %v %s", py, err, msg)
	}
	data, err := hex.DecodeString(string(out))
	if err != nil {
		t.Fatal(err)
	}
	_, rs := mustResolve(t, oldSchema, newSchema)
	want := []any{
		map[string]any{"scores": map[string]any{"x": 0.5}, "ident": int64(1), "kind": "OTHER", "payload": nil, "note": "none"},
		map[string]any{"scores": map[string]any{}, "ident": int64(-300000), "kind": "C", "payload": []byte("hé"), "note": "none"},
		map[string]any{"scores": map[string]any{"a": 1.25, "b": -2.0}, "ident": int64(7), "kind": "A", "payload": int64(42), "note": "none"},
	}
	dec := NewDecoder(bytes.NewReader(data), rs)
	for i, w := range want {
		var got any
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("datum %d: %v", i, err)
		}
		if diff := cmp.Diff(w, got); diff != "" {
			t.Fatalf("datum %d (-want +got):\n%s", i, diff)
		}
	}
	if err := dec.Decode(new(any)); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
}

// Benchmarks. Each iterates over 4,096 random records (more than 64K
// values in all, so that branch predictors cannot learn them).

const benchRec10 = `{"type":"record","name":"Rec10","namespace":"bench","fields":[
 {"name":"id","type":"int"},
 {"name":"ts","type":"long"},
 {"name":"name","type":"string"},
 {"name":"score","type":"double"},
 {"name":"active","type":"boolean"},
 {"name":"counts","type":{"type":"array","items":"long"}},
 {"name":"attrs","type":{"type":"map","values":"string"}},
 {"name":"note","type":["null","string"],"default":null},
 {"name":"digest","type":"bytes"},
 {"name":"inner","type":{"type":"record","name":"Inner","fields":[
   {"name":"seq","type":"long"},{"name":"label","type":"string"}]}}]}`

// benchRec10Evolved promotes id to long, drops digest and adds region.
const benchRec10Evolved = `{"type":"record","name":"Rec10","namespace":"bench","fields":[
 {"name":"id","type":"long"},
 {"name":"ts","type":"long"},
 {"name":"name","type":"string"},
 {"name":"score","type":"double"},
 {"name":"active","type":"boolean"},
 {"name":"counts","type":{"type":"array","items":"long"}},
 {"name":"attrs","type":{"type":"map","values":"string"}},
 {"name":"note","type":["null","string"],"default":null},
 {"name":"inner","type":{"type":"record","name":"Inner","fields":[
   {"name":"seq","type":"long"},{"name":"label","type":"string"}]}},
 {"name":"region","type":"string","default":"eu-west-1"}]}`

type benchInner struct {
	Seq   int64  `avro:"seq"`
	Label string `avro:"label"`
}

type benchRec10T struct {
	ID     int32             `avro:"id"`
	TS     int64             `avro:"ts"`
	Name   string            `avro:"name"`
	Score  float64           `avro:"score"`
	Active bool              `avro:"active"`
	Counts []int64           `avro:"counts"`
	Attrs  map[string]string `avro:"attrs"`
	Note   *string           `avro:"note"`
	Digest []byte            `avro:"digest"`
	Inner  benchInner        `avro:"inner"`
}

type benchRec10EvolvedT struct {
	ID     int64             `avro:"id"`
	TS     int64             `avro:"ts"`
	Name   string            `avro:"name"`
	Score  float64           `avro:"score"`
	Active bool              `avro:"active"`
	Counts []int64           `avro:"counts"`
	Attrs  map[string]string `avro:"attrs"`
	Note   *string           `avro:"note"`
	Inner  benchInner        `avro:"inner"`
	Region string            `avro:"region"`
}

const benchPool = 4096

func benchRand(seed uint64) *mrand.Rand { return mrand.New(mrand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

func benchWord(r *mrand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(r.IntN(26))
	}
	return string(b)
}

func benchRec10Data(b *testing.B) (*schema.Schema, [][]byte) {
	s := schema.MustParse(benchRec10)
	r := benchRand(1)
	enc := make([][]byte, benchPool)
	for i := range enc {
		v := benchRec10T{
			ID: int32(r.Uint32()) >> r.IntN(32), TS: int64(r.Uint64() >> r.IntN(64)),
			Name: benchWord(r, 5+r.IntN(10)), Score: r.NormFloat64(), Active: r.IntN(2) == 1,
			Counts: make([]int64, 6), Attrs: map[string]string{},
			Digest: []byte(benchWord(r, 16)), Inner: benchInner{Seq: int64(r.Uint32()), Label: benchWord(r, 6)},
		}
		for j := range v.Counts {
			v.Counts[j] = int64(r.Uint64() >> r.IntN(64))
		}
		for j := 0; j < 3; j++ {
			v.Attrs[benchWord(r, 4)] = benchWord(r, 8)
		}
		if r.IntN(2) == 0 {
			note := benchWord(r, 10)
			v.Note = &note
		}
		var err error
		if enc[i], err = Marshal(s, &v); err != nil {
			b.Fatal(err)
		}
	}
	return s, enc
}

// BenchmarkResolveRec10 compares the plain decode of the 10-field record
// with its decode through a resolved schema (one field promoted, one
// dropped, one added with a default).
func BenchmarkResolveRec10(b *testing.B) {
	w, enc := benchRec10Data(b)
	rs, err := schema.Resolve(w, schema.MustParse(benchRec10Evolved))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var v benchRec10T
			if err := Unmarshal(w, enc[i&(benchPool-1)], &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("resolved", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var v benchRec10EvolvedT
			if err := Unmarshal(rs, enc[i&(benchPool-1)], &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchWideSchema is a record of 50 fields of mixed types.
func benchWideSchema() string {
	var sb strings.Builder
	sb.WriteString(`{"type":"record","name":"Wide","fields":[`)
	types := []string{`"long"`, `"string"`, `"double"`, `"int"`, `"boolean"`}
	for i := 0; i < 50; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"name":"f` + strconv.Itoa(i) + `","type":` + types[i%len(types)] + `}`)
	}
	sb.WriteString(`]}`)
	return sb.String()
}

// BenchmarkResolveProjection compares a full decode of a 50-field record
// (into map[string]any) with a projection of 2 of its fields into a struct
// through a resolved schema, and a full decode into value.Value.
func BenchmarkResolveProjection(b *testing.B) {
	w := schema.MustParse(benchWideSchema())
	r := benchRand(2)
	enc := make([][]byte, benchPool)
	for i := range enc {
		m := map[string]any{}
		for j, f := range w.Fields() {
			var x any
			switch j % 5 {
			case 0:
				x = int64(r.Uint64() >> r.IntN(64))
			case 1:
				x = benchWord(r, 3+r.IntN(12))
			case 2:
				x = r.NormFloat64()
			case 3:
				x = int32(r.Uint32()) >> r.IntN(32)
			case 4:
				x = r.IntN(2) == 1
			}
			m[f.Name()] = x
		}
		var err error
		if enc[i], err = Marshal(w, m); err != nil {
			b.Fatal(err)
		}
	}
	proj, err := schema.Resolve(w, schema.MustParse(`{"type":"record","name":"Wide","fields":[{"name":"f0","type":"long"},{"name":"f1","type":"string"}]}`))
	if err != nil {
		b.Fatal(err)
	}
	type wide2 struct {
		F0 int64  `avro:"f0"`
		F1 string `avro:"f1"`
	}
	b.Run("full-value", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var v value.Value
			if err := Unmarshal(w, enc[i&(benchPool-1)], &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full-map", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var v map[string]any
			if err := Unmarshal(w, enc[i&(benchPool-1)], &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("project2", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var v wide2
			if err := Unmarshal(proj, enc[i&(benchPool-1)], &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestResolveSkipValidates: fields skipped by a projection are validated
// as a decoder would: the projection fails exactly where the full decode
// does, with the same sentinel.
func TestResolveSkipValidates(t *testing.T) {
	w, rs := mustResolve(t,
		`{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"long"},{"name":"e","type":{"type":"enum","name":"E","symbols":["X"]}},{"name":"t","type":"boolean"},{"name":"s","type":"string"},{"name":"c","type":"int"}]}`,
		`{"type":"record","name":"R","fields":[{"name":"c","type":"int"}]}`)
	valid := []byte{2, 4, 0, 1, 2, 'x', 6}
	inputs := [][]byte{valid}
	for i := range valid {
		inputs = append(inputs, valid[:i])
	}
	for _, a := range [][]byte{
		{0xff, 0xff, 0xff, 0xff, 0x0f}, {0xff, 0xff, 0xff, 0xff, 0x10}, {0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
	} {
		inputs = append(inputs, append(append([]byte(nil), a...), valid[1:]...))
	}
	for _, b := range [][]byte{
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
	} {
		in := append([]byte{2}, b...)
		inputs = append(inputs, append(in, valid[2:]...))
	}
	inputs = append(inputs, []byte{2, 4, 2, 1, 2, 'x', 6}, []byte{2, 4, 0, 2, 2, 'x', 6}, []byte{2, 4, 0, 1, 3, 'x', 6}, []byte{2, 4, 0, 1, 8, 'x', 6})
	for _, in := range inputs {
		errFull := Unmarshal(w, in, new(any))
		errProj := Unmarshal(rs, in, new(any))
		for _, sentinel := range []error{ErrTruncated, ErrInvalid, ErrLimit} {
			if errors.Is(errFull, sentinel) != errors.Is(errProj, sentinel) {
				t.Errorf("% x: full decode %v, projection %v", in, errFull, errProj)
			}
		}
		if (errFull == nil) != (errProj == nil) {
			t.Errorf("% x: full decode %v, projection %v", in, errFull, errProj)
		}
	}
}
