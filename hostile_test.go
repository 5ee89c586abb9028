package avro_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/klauspost/compress/flate"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// The hostile corpus of testdata/hostile/cases.json, run through every
// decoding entry point that applies to each case. Every case must end in
// the expected error (errors.Is the sentinel; an *avro.Error with an
// offset, and the expected path where the manifest gives one), never a
// panic, and allocate at most a few MiB more than a small multiple of its
// input.

// hostileManifest is testdata/hostile/cases.json.
type hostileManifest struct {
	Comment    string        `json:"comment"`
	Cases      []hostileCase `json:"cases"`
	Containers []hostileCase `json:"containers"`
}

// hostileCase is one entry of the manifest. Input is a list of [hex,
// repeat] segments, or a one-segment "file:NAME" (a file in
// testdata/hostile) or "gen:NAME" (built by the test: compression bombs).
type hostileCase struct {
	Name    string         `json:"name"`
	Schema  string         `json:"schema"`
	Input   [][2]any       `json:"input"`
	Err     string         `json:"err"`
	OCFErr  string         `json:"ocf_err"`
	Entries []string       `json:"entries"`
	Path    *string        `json:"path"`
	Opts    map[string]any `json:"opts"`
	Note    string         `json:"note"`
}

// hostileSchema is a schema of the corpus: the writer, the reader it is
// resolved against (one that makes the transcoder run: a promotion, a
// union, an added field) and a Go type for the struct entry point.
type hostileSchema struct {
	writer, reader string
	goType         reflect.Type
}

type hList struct {
	V    int64  `avro:"v"`
	Next *hList `avro:"next"`
}

type hTree struct {
	V    int64   `avro:"v"`
	Kids []hTree `avro:"kids"`
}

type hDeepArray struct {
	A []hDeepArray `avro:"a"`
}

type hDeepMap struct {
	M map[string]hDeepMap `avro:"m"`
}

type hRecord struct {
	ID   int64  `avro:"id"`
	Name string `avro:"name"`
	OK   bool   `avro:"ok"`
}

const (
	hListSchema = `{"type":"record","name":"L","fields":[{"name":"v","type":"long"},{"name":"next","type":["null","L"]}]}`
	hTreeSchema = `{"type":"record","name":"T","fields":[{"name":"v","type":"long"},{"name":"kids","type":{"type":"array","items":"T"}}]}`
)

var hostileSchemas = map[string]hostileSchema{
	"long":             {`"long"`, `"double"`, reflect.TypeFor[int64]()},
	"int":              {`"int"`, `"float"`, reflect.TypeFor[int32]()},
	"float":            {`"float"`, `"double"`, reflect.TypeFor[float32]()},
	"double":           {`"double"`, `["null","double"]`, reflect.TypeFor[float64]()},
	"string":           {`"string"`, `["null","string"]`, reflect.TypeFor[string]()},
	"bytes":            {`"bytes"`, `["null","bytes"]`, reflect.TypeFor[[]byte]()},
	"array_long":       {`{"type":"array","items":"long"}`, `{"type":"array","items":"double"}`, reflect.TypeFor[[]int64]()},
	"array_string":     {`{"type":"array","items":"string"}`, `{"type":"array","items":["null","string"]}`, reflect.TypeFor[[]string]()},
	"array_double":     {`{"type":"array","items":"double"}`, `{"type":"array","items":["null","double"]}`, reflect.TypeFor[[]float64]()},
	"array_array_long": {`{"type":"array","items":{"type":"array","items":"long"}}`, `{"type":"array","items":{"type":"array","items":"double"}}`, reflect.TypeFor[[][]int64]()},
	"array_fixed4":     {`{"type":"array","items":{"type":"fixed","name":"F4","size":4}}`, `{"type":"array","items":["null",{"type":"fixed","name":"F4","size":4}]}`, reflect.TypeFor[[][4]byte]()},
	"map_string":       {`{"type":"map","values":"string"}`, `{"type":"map","values":["null","string"]}`, reflect.TypeFor[map[string]string]()},
	"map_null":         {`{"type":"map","values":"null"}`, `{"type":"map","values":["null","long"]}`, reflect.TypeFor[map[string]any]()},
	"array_null":       {`{"type":"array","items":"null"}`, `{"type":"array","items":["null","long"]}`, reflect.TypeFor[[]any]()},
	"array_empty":      {`{"type":"array","items":{"type":"record","name":"E","fields":[]}}`, `{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"x","type":"long","default":7}]}}`, reflect.TypeFor[[]struct{}]()},
	"array_fixed0":     {`{"type":"array","items":{"type":"fixed","name":"Z","size":0}}`, `{"type":"array","items":["null",{"type":"fixed","name":"Z","size":0}]}`, reflect.TypeFor[[][0]byte]()},
	"array_array_null": {`{"type":"array","items":{"type":"array","items":"null"}}`, `{"type":"array","items":{"type":"array","items":["null","long"]}}`, reflect.TypeFor[[][]any]()},
	"union":            {`["null","long"]`, `["null","long","string"]`, reflect.TypeFor[*int64]()},
	"enum":             {`{"type":"enum","name":"E","symbols":["A","B","C"]}`, `{"type":"enum","name":"E","symbols":["C","B","A","D"]}`, reflect.TypeFor[string]()},
	"enum_empty":       {`{"type":"enum","name":"E0","symbols":[]}`, "", reflect.TypeFor[string]()},
	"fixed4":           {`{"type":"fixed","name":"F4","size":4}`, `["null",{"type":"fixed","name":"F4","size":4}]`, reflect.TypeFor[[4]byte]()},
	"record": {`{"type":"record","name":"R","fields":[{"name":"id","type":"long"},{"name":"name","type":"string"},{"name":"ok","type":"boolean"}]}`,
		`{"type":"record","name":"R","fields":[{"name":"ok","type":"boolean"},{"name":"id","type":"double"},{"name":"name","type":"string"},{"name":"extra","type":"string","default":"x"}]}`,
		reflect.TypeFor[hRecord]()},
	"list":        {hListSchema, `{"type":"record","name":"L","fields":[{"name":"v","type":"double"},{"name":"next","type":["null","L"]}]}`, reflect.TypeFor[hList]()},
	"tree":        {hTreeSchema, `{"type":"record","name":"T","fields":[{"name":"v","type":"double"},{"name":"kids","type":{"type":"array","items":"T"}}]}`, reflect.TypeFor[hTree]()},
	"deep_array":  {`{"type":"record","name":"A","fields":[{"name":"a","type":{"type":"array","items":"A"}}]}`, `{"type":"record","name":"A","fields":[{"name":"a","type":{"type":"array","items":"A"}},{"name":"z","type":"int","default":0}]}`, reflect.TypeFor[hDeepArray]()},
	"deep_map":    {`{"type":"record","name":"M","fields":[{"name":"m","type":{"type":"map","values":"M"}}]}`, `{"type":"record","name":"M","fields":[{"name":"m","type":{"type":"map","values":"M"}},{"name":"z","type":"int","default":0}]}`, reflect.TypeFor[hDeepMap]()},
	"big_decimal": {`{"type":"bytes","logicalType":"big-decimal"}`, "", reflect.TypeFor[big.Rat]()},
	"huge_scale_decimal": {`{"type":"bytes","logicalType":"decimal","precision":2000000000,"scale":1000000000}`, "",
		reflect.TypeFor[big.Rat]()},
	"huge_precision_decimal": {`{"type":"bytes","logicalType":"decimal","precision":2000000000,"scale":2}`, "",
		reflect.TypeFor[big.Rat]()},
}

// hostileSentinels maps the manifest's error names to sentinels.
var hostileSentinels = map[string]error{
	"truncated":     avro.ErrTruncated,
	"invalid":       avro.ErrInvalid,
	"limit":         avro.ErrLimit,
	"range":         avro.ErrRange,
	"badmagic":      ocf.ErrBadMagic,
	"legacy":        ocf.ErrLegacyFormat,
	"toolarge":      ocf.ErrTooLarge,
	"invalidheader": ocf.ErrInvalidHeader,
	"invalidblock":  ocf.ErrInvalidBlock,
	"sync":          ocf.ErrSyncMismatch,
	"corrupt":       ocf.ErrCorruptBlock,
}

func loadHostile(tb testing.TB) hostileManifest {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hostile", "cases.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var m hostileManifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		tb.Fatalf("cases.json: %v", err)
	}
	return m
}

// hostileInput builds a case's input.
func hostileInput(tb testing.TB, c *hostileCase) []byte {
	tb.Helper()
	if len(c.Input) == 1 {
		if s, _ := c.Input[0][0].(string); strings.HasPrefix(s, "file:") {
			b, err := os.ReadFile(filepath.Join("testdata", "hostile", strings.TrimPrefix(s, "file:")))
			if err != nil {
				tb.Fatal(err)
			}
			return b
		} else if strings.HasPrefix(s, "gen:") {
			return hostileGenerate(tb, strings.TrimPrefix(s, "gen:"))
		}
	}
	var out []byte
	for _, seg := range c.Input {
		h, ok1 := seg[0].(string)
		n, ok2 := seg[1].(float64)
		if !ok1 || !ok2 {
			tb.Fatalf("%s: bad input segment %v", c.Name, seg)
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			tb.Fatalf("%s: %v", c.Name, err)
		}
		out = append(out, bytes.Repeat(b, int(n))...)
	}
	return out
}

// hostileOptions applies the case's options.
func hostileOptions(tb testing.TB, c *hostileCase) avro.DecodeOptions {
	var o avro.DecodeOptions
	for k, v := range c.Opts {
		switch k {
		case "ValidateUTF8":
			o.ValidateUTF8 = v.(bool)
		case "MaxItems":
			o.MaxItems = int64(v.(float64))
			if v.(float64) >= 1<<63 {
				o.MaxItems = 1<<63 - 1
			}
		default:
			tb.Fatalf("%s: unknown option %s", c.Name, k)
		}
	}
	return o
}

// hostileAllocBound is the most a decode of input may allocate: the
// allocation limit (4 MiB plus 64 bytes an input byte), twice (a resolved
// read transcodes, then decodes), and slack for the test's own wrapping.
func hostileAllocBound(input []byte) uint64 {
	return 12<<20 + 160*uint64(len(input))
}

// hostileContainer wraps datum as the only record of a container block.
func hostileContainer(writer string, datum []byte) []byte {
	sync := bytes.Repeat([]byte{0x5a}, 16)
	b := []byte("Obj\x01")
	b = binary.AppendVarint(b, 1)
	b = binary.AppendVarint(b, int64(len("avro.schema")))
	b = append(b, "avro.schema"...)
	b = binary.AppendVarint(b, int64(len(writer)))
	b = append(b, writer...)
	b = append(b, 0)
	b = append(b, sync...)
	b = binary.AppendVarint(b, 1)
	b = binary.AppendVarint(b, int64(len(datum)))
	b = append(b, datum...)
	return append(b, sync...)
}

// readContainer reads every record of a container file into value.Value,
// then walks it again block by block, and returns the first error.
func readContainer(data []byte, opts ...ocf.ReaderOption) error {
	r, err := ocf.NewReader(bytes.NewReader(data), opts...)
	if err != nil {
		return err
	}
	for r.Next() {
		var v value.Value
		if err := r.Decode(&v); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	r, err = ocf.NewReader(bytes.NewReader(data), opts...)
	if err != nil {
		return fmt.Errorf("second read: %w", err)
	}
	for {
		if _, err := r.SkipBlock(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// checkHostileErr checks err against the case's expectation.
func checkHostileErr(t *testing.T, entry string, c *hostileCase, want string, err error, needAvroError bool) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Errorf("%s: unexpected error %v", entry, err)
		}
		return
	}
	sentinel, ok := hostileSentinels[want]
	if !ok {
		t.Fatalf("unknown sentinel %q", want)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("%s: error %v, want %s", entry, err, want)
		return
	}
	if !needAvroError {
		return
	}
	var ae *avro.Error
	if !errors.As(err, &ae) {
		t.Errorf("%s: %T is not an *avro.Error: %v", entry, err, err)
		return
	}
	if ae.Offset < 0 || ae.Op != "unmarshal" {
		t.Errorf("%s: error without an offset: %v", entry, err)
	}
	if c.Path != nil && ae.Path != *c.Path {
		t.Errorf("%s: path %q, want %q (%v)", entry, ae.Path, *c.Path, err)
	}
}

// hostileResult is one row of the report that TestHostileCorpus logs.
type hostileResult struct {
	entry string
	alloc uint64
	took  time.Duration
	err   error
}

func TestHostileCorpus(t *testing.T) {
	m := loadHostile(t)
	if len(m.Cases) < 60 || len(m.Containers) < 20 {
		t.Fatalf("only %d datum cases and %d container cases", len(m.Cases), len(m.Containers))
	}
	for i := range m.Cases {
		c := &m.Cases[i]
		t.Run(c.Name, func(t *testing.T) {
			hs, ok := hostileSchemas[c.Schema]
			if !ok {
				t.Fatalf("unknown schema %q", c.Schema)
			}
			w := schema.MustParse(hs.writer)
			input := hostileInput(t, c)
			opts := hostileOptions(t, c)
			bound := hostileAllocBound(input)
			var results []hostileResult
			run := func(entry string, want string, avroErr bool, f func() error) {
				t.Helper()
				var err error
				start := time.Now()
				alloc := allocDuring(func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("%s: panic: %v", entry, p)
						}
					}()
					err = f()
				})
				results = append(results, hostileResult{entry, alloc, time.Since(start), err})
				checkHostileErr(t, entry, c, want, err, avroErr)
				if alloc > bound {
					t.Errorf("%s: allocated %d bytes for %d bytes of input (bound %d)", entry, alloc, len(input), bound)
				}
			}
			for _, entry := range c.Entries {
				// The race detector makes the large legitimate inputs
				// (a million map entries) slow: under it they run through
				// one entry point of each kind; the full set runs without.
				if raceEnabled && len(input) > 256<<10 && (entry == "any" || entry == "single" || entry == "decoder") {
					t.Logf("%s: skipped under the race detector (%d bytes)", entry, len(input))
					continue
				}
				switch entry {
				case "struct":
					run(entry, c.Err, true, func() error {
						return opts.Unmarshal(w, input, reflect.New(hs.goType).Interface())
					})
				case "value":
					run(entry, c.Err, true, func() error {
						var v value.Value
						return opts.Unmarshal(w, input, &v)
					})
				case "any":
					run(entry, c.Err, true, func() error {
						var v any
						return opts.Unmarshal(w, input, &v)
					})
				case "next":
					run(entry, c.Err, true, func() error {
						var v value.Value
						rest, err := opts.UnmarshalNext(w, input, &v)
						if err == nil && len(rest) != 0 {
							return fmt.Errorf("%d bytes left", len(rest))
						}
						return err
					})
				case "decoder":
					for _, slow := range []bool{false, true} {
						name := "decoder"
						var r io.Reader = bytes.NewReader(input)
						if slow {
							name, r = "decoder(1-byte reader)", iotest.OneByteReader(r)
						}
						run(name, c.Err, true, func() error {
							var v value.Value
							dec := opts.NewDecoder(r, w)
							if err := dec.Decode(&v); err != nil {
								return err
							}
							if err := dec.Decode(&v); err != io.EOF {
								return fmt.Errorf("second Decode: %v, want io.EOF", err)
							}
							return nil
						})
					}
				case "resolve":
					if hs.reader == "" {
						t.Fatalf("schema %s has no reader", c.Schema)
					}
					rs, err := schema.Resolve(w, schema.MustParse(hs.reader))
					if err != nil {
						t.Fatal(err)
					}
					run("resolve", c.Err, true, func() error {
						var v value.Value
						return opts.Unmarshal(rs, input, &v)
					})
					run("resolve(any)", c.Err, true, func() error {
						var v any
						return opts.Unmarshal(rs, input, &v)
					})
				case "single":
					var reader *schema.Schema
					if hs.reader != "" {
						reader = schema.MustParse(hs.reader)
					}
					msg := append([]byte{0xc3, 0x01}, binary.LittleEndian.AppendUint64(nil, w.Fingerprint())...)
					msg = append(msg, input...)
					store := avro.NewMemoryStore(w)
					run("single", c.Err, true, func() error {
						var v any
						return opts.UnmarshalSingleObject(store, reader, msg, &v)
					})
					reg := &kafka.MemoryRegistry{}
					reg.Register(7, w)
					kmsg := append([]byte{0, 0, 0, 0, 7}, input...)
					ds := kafka.NewDeserializerWithOptions(reg, reader, opts)
					run("kafka", c.Err, true, func() error {
						var v any
						return ds.Unmarshal(context.Background(), kmsg, &v)
					})
				case "ocf":
					want := c.Err
					if c.OCFErr != "" {
						want = c.OCFErr
					}
					file := hostileContainer(w.String(), input)
					run("ocf", want, want != "" && !strings.HasPrefix(want, "invalidblock"), func() error {
						return readContainer(file, ocf.WithDecodeOptions(opts))
					})
				default:
					t.Fatalf("unknown entry point %q", entry)
				}
			}
			for _, r := range results {
				t.Logf("%-24s %10d B %8.2f ms  %v", r.entry, r.alloc, float64(r.took.Microseconds())/1000, r.err)
			}
		})
	}
}

func TestHostileContainers(t *testing.T) {
	m := loadHostile(t)
	for i := range m.Containers {
		c := &m.Containers[i]
		t.Run(c.Name, func(t *testing.T) {
			input := hostileInput(t, c)
			var err error
			alloc := allocDuring(func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("panic: %v", p)
					}
				}()
				err = readContainer(input)
			})
			checkHostileErr(t, "ocf", c, c.Err, err, false)
			bound := hostileAllocBound(input)
			bomb := strings.HasPrefix(hostileInputName(c), "gen:")
			if bomb {
				// A bomb fills one block up to the 64 MiB limit (with the
				// copies of growing it by doubling) before it is refused;
				// the compressed block is read as it arrives.
				bound = 2*ocf.DefaultMaxBlockSize + 3*uint64(len(input)) + 8<<20
			}
			if alloc > bound {
				t.Errorf("allocated %d bytes for %d bytes of input (bound %d)", alloc, len(input), bound)
			}
			// With a smaller block limit (still above the compressed
			// size), a bomb costs proportionally less.
			var small uint64
			if bomb {
				const limit = 8 << 20
				small = allocDuring(func() { err = readContainer(input, ocf.WithMaxBlockSize(limit)) })
				checkHostileErr(t, "ocf(8 MiB blocks)", c, c.Err, err, false)
				if max := 2*limit + 3*uint64(len(input)) + 2<<20; small > max {
					t.Errorf("8 MiB limit: allocated %d bytes (bound %d)", small, max)
				}
			}
			t.Logf("ocf %d bytes in: %d B allocated (%d B with 8 MiB blocks): %v", len(input), alloc, small, err)
		})
	}
}

func hostileInputName(c *hostileCase) string {
	if len(c.Input) == 1 {
		if s, ok := c.Input[0][0].(string); ok {
			return s
		}
	}
	return ""
}

// hostileGenerate builds the compression bombs: container files of one
// block of one "bytes" record whose data decompresses to gigabytes.
func hostileGenerate(tb testing.TB, name string) []byte {
	tb.Helper()
	var codec string
	var comp []byte
	switch name {
	case "deflate-bomb":
		// 4 GiB of zeros: one flushed MiB compresses to about 1 KB, and
		// repeating that piece repeats the MiB (its back references reach
		// only zeros).
		codec = ocf.CodecDeflate
		var buf bytes.Buffer
		fw, _ := flate.NewWriter(&buf, flate.BestCompression)
		zeros := make([]byte, 1<<20)
		flush := func() {
			if _, err := fw.Write(zeros); err != nil {
				tb.Fatal(err)
			}
			if err := fw.Flush(); err != nil {
				tb.Fatal(err)
			}
		}
		flush()
		first := buf.Len()
		flush()
		piece := bytes.Clone(buf.Bytes()[first:])
		comp = bytes.Clone(buf.Bytes())
		for range 4<<10 - 2 {
			comp = append(comp, piece...)
		}
		comp = append(comp, 0x03, 0x00) // a final empty fixed-Huffman block
	case "zstd-rle-bomb":
		// A zstd frame (window 128 KiB, no content size) of 32768 RLE
		// blocks of 128 KiB each: 4 GiB.
		codec = ocf.CodecZstandard
		comp = []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3}
		const blocks = 32 << 10
		for i := range blocks {
			h := uint32(128<<10)<<3 | 1<<1 // RLE block of 128 KiB
			if i == blocks-1 {
				h |= 1
			}
			comp = append(comp, byte(h), byte(h>>8), byte(h>>16), 0)
		}
	case "zstd-fcs-bomb":
		// A single-segment zstd frame that declares 16 GiB of content
		// and holds one RLE block.
		codec = ocf.CodecZstandard
		comp = []byte{0x28, 0xb5, 0x2f, 0xfd, 0xe0}
		comp = binary.LittleEndian.AppendUint64(comp, 16<<30)
		h := uint32(128<<10)<<3 | 1<<1 | 1
		comp = append(comp, byte(h), byte(h>>8), byte(h>>16), 0)
	case "snappy-bomb", "snappy-bomb-4g":
		// A snappy block whose preamble declares 2^32-1 bytes (the most
		// snappy can), or 2^32.
		codec = ocf.CodecSnappy
		n := uint64(1<<32 - 1)
		if name == "snappy-bomb-4g" {
			n = 1 << 32
		}
		comp = binary.AppendUvarint(nil, n)
		comp = append(comp, 0, 0, 0, 0, 0)
	default:
		tb.Fatalf("unknown generator %q", name)
	}
	sync := bytes.Repeat([]byte{0xa5}, 16)
	b := []byte("Obj\x01")
	b = binary.AppendVarint(b, 2)
	for _, kv := range []string{"avro.schema", `"bytes"`, "avro.codec", codec} {
		b = binary.AppendVarint(b, int64(len(kv)))
		b = append(b, kv...)
	}
	b = append(b, 0)
	b = append(b, sync...)
	b = binary.AppendVarint(b, 1)
	b = binary.AppendVarint(b, int64(len(comp)))
	b = append(b, comp...)
	return append(b, sync...)
}
