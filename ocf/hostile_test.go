package ocf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

var testSync = [16]byte{0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}

// rawHeader builds a header with the given metadata entries, in order.
func rawHeader(kv ...string) []byte {
	h := []byte(Magic)
	h = appendLong(h, int64(len(kv)/2))
	for _, s := range kv {
		h = appendLong(h, int64(len(s)))
		h = append(h, s...)
	}
	h = appendLong(h, 0)
	return append(h, testSync[:]...)
}

func rawBlock(count, size int64, data []byte) []byte {
	b := appendLong(nil, count)
	b = appendLong(b, size)
	b = append(b, data...)
	return append(b, testSync[:]...)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// allocDuring returns the bytes allocated while f runs.
func allocDuring(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

func TestHostileHeaders(t *testing.T) {
	long := func(v int64) []byte { return appendLong(nil, v) }
	str := func(s string) []byte { return cat(long(int64(len(s))), []byte(s)) }
	schemaKV := cat(str("avro.schema"), str(`"long"`))
	cases := []struct {
		name string
		data []byte
		want []error
	}{
		{"empty", nil, []error{ErrTruncated}},
		{"short magic", []byte("Ob"), []error{ErrTruncated}},
		{"bad magic", []byte("PK\x03\x04rest of a zip"), []error{ErrBadMagic, avro.ErrInvalid}},
		{"version 2", []byte("Obj\x02\x00"), []error{ErrBadMagic}},
		{"legacy", []byte("Obj\x00\x00\x00"), []error{ErrLegacyFormat, avro.ErrInvalid}},
		{"no metadata end", []byte(Magic), []error{ErrTruncated}},
		{"huge count", cat([]byte(Magic), long(1<<40)), []error{ErrTooLarge, avro.ErrLimit}},
		{"huge negative count", cat([]byte(Magic), long(-(1 << 40)), long(10)), []error{ErrTooLarge}},
		{"min int64 count", cat([]byte(Magic), long(math.MinInt64)), []error{ErrInvalidHeader}},
		{"negative block size", cat([]byte(Magic), long(-1), long(-5)), []error{ErrInvalidHeader}},
		{"huge key", cat([]byte(Magic), long(1), long(1<<40)), []error{ErrTooLarge}},
		{"negative key", cat([]byte(Magic), long(1), long(-5)), []error{ErrInvalidHeader}},
		{"huge value", cat([]byte(Magic), long(1), str("avro.schema"), long(1<<40)), []error{ErrTooLarge}},
		{"value longer than input", cat([]byte(Magic), long(1), str("avro.schema"), long(15<<20), []byte("xx")), []error{ErrTruncated}},
		{"overlong varint", cat([]byte(Magic), bytes.Repeat([]byte{0xff}, 11)), []error{ErrInvalidHeader}},
		{"no sync", cat([]byte(Magic), long(1), schemaKV, long(0), []byte("short")), []error{ErrTruncated}},
		{"no schema", rawHeader("avro.codec", "null"), []error{ErrInvalidHeader}},
		{"bad schema", rawHeader("avro.schema", `{"type":"nope"}`), []error{ErrInvalidHeader, avro.ErrInvalid}},
		{"duplicate key", rawHeader("avro.schema", `"long"`, "avro.schema", `"int"`), []error{ErrInvalidHeader}},
		{"unknown codec", rawHeader("avro.schema", `"long"`, "avro.codec", "lz4"), []error{ErrUnsupportedCodec, errors.ErrUnsupported}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := allocDuring(func() { _, err = NewReader(bytes.NewReader(tc.data)) })
			if err == nil {
				t.Fatal("NewReader succeeded")
			}
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("err = %v, want %v", err, w)
				}
			}
			if alloc > 1<<20 {
				t.Errorf("allocated %d bytes", alloc)
			}
		})
	}
	// A header over the configured limit.
	big := rawHeader("avro.schema", `"long"`, "pad", string(make([]byte, 5000)))
	if _, err := NewReader(bytes.NewReader(big), WithMaxHeaderSize(4096)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("header over limit: %v", err)
	}
	if _, err := NewReader(bytes.NewReader(big), WithMaxHeaderSize(8192)); err != nil {
		t.Errorf("header under limit: %v", err)
	}
	// Negative-count metadata blocks (with a byte size) are valid.
	h := cat([]byte(Magic), long(-1), long(int64(len(schemaKV))), schemaKV, long(0), testSync[:])
	if r, err := NewReader(bytes.NewReader(h)); err != nil || r.Schema().String() != `"long"` {
		t.Errorf("negative metadata count: %v", err)
	}
	// An empty avro.codec means null.
	if r, err := NewReader(bytes.NewReader(rawHeader("avro.schema", `"long"`, "avro.codec", ""))); err != nil || r.Codec() != CodecNull {
		t.Errorf("empty codec: %v", err)
	}
}

// Guards the cost of a header's schema: 15 MiB of avro.schema (within the
// header limit) took 706 to 740 MiB and 8 s to parse, and a 3.8 KB schema
// whose record defaults double at every level ended the process.
func TestHeaderSchemaLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"array","items":"int","p":[`)
	for b.Len() < DefaultMaxSchemaSize {
		b.WriteString(`[],`)
	}
	b.WriteString(`[]]}`)
	big := rawHeader("avro.schema", b.String())
	var err error
	alloc := allocDuring(func() { _, err = NewReader(bytes.NewReader(big)) })
	if !errors.Is(err, ErrTooLarge) || !errors.Is(err, avro.ErrLimit) || !errors.Is(err, schema.ErrLimit) {
		t.Fatalf("a %d-byte schema: err = %v, want ErrTooLarge and schema.ErrLimit", b.Len(), err)
	}
	if alloc > uint64(4*len(big)) {
		t.Errorf("a %d-byte schema over the limit: %d bytes allocated, want no parse", b.Len(), alloc)
	}
	r, err := NewReader(bytes.NewReader(big), WithParseOptions(schema.ParseOptions{MaxSize: 2 * DefaultMaxSchemaSize}))
	if err != nil || r.Schema().Kind() != schema.Array {
		t.Fatalf("the same schema under a raised limit: %v", err)
	}

	doubling := `{"type":"record","name":"L0","fields":[{"name":"x","type":"long","default":7}]}`
	for i := 1; i <= 32; i++ {
		doubling = fmt.Sprintf(`{"type":"record","name":"L%d","fields":[{"name":"f0","type":%s,"default":{}},{"name":"f1","type":"L%d","default":{}}]}`, i, doubling, i-1)
	}
	alloc = allocDuring(func() { _, err = NewReader(bytes.NewReader(rawHeader("avro.schema", doubling))) })
	if !errors.Is(err, ErrTooLarge) || !errors.Is(err, schema.ErrLimit) {
		t.Fatalf("doubling defaults: err = %v, want ErrTooLarge and schema.ErrLimit", err)
	}
	if alloc > 64<<20 {
		t.Errorf("doubling defaults: %d MiB allocated", alloc>>20)
	}
	_, err = NewReader(bytes.NewReader(rawHeader("avro.schema", doubling)), WithParseOptions(schema.ParseOptions{MaxDefaultSize: 1 << 10}))
	if !errors.Is(err, schema.ErrLimit) {
		t.Fatalf("doubling defaults, MaxDefaultSize 1 KiB: err = %v, want schema.ErrLimit", err)
	}
}

func TestHostileBlocks(t *testing.T) {
	hdr := rawHeader("avro.schema", `"long"`)
	good := rawBlock(2, 2, []byte{2, 4})
	wrongSync := cat(appendLong(nil, 1), appendLong(nil, 1), []byte{6}, bytes.Repeat([]byte{7}, 16))
	cases := []struct {
		name  string
		data  []byte
		nrecs int
		want  []error
	}{
		{"size -5", cat(hdr, good, appendLong(nil, 1), appendLong(nil, -5)), 2, []error{ErrInvalidBlock, avro.ErrInvalid}},
		{"size 2^40", cat(hdr, appendLong(nil, 1), appendLong(nil, 1<<40), []byte{2}), 0, []error{ErrTooLarge, avro.ErrLimit}},
		{"count -1", cat(hdr, rawBlock(-1, 1, []byte{2})), 0, []error{ErrInvalidBlock}},
		{"count min int64", cat(hdr, rawBlock(math.MinInt64, 1, []byte{2})), 0, []error{ErrInvalidBlock}},
		{"count 2^40", cat(hdr, rawBlock(1<<40, 2, []byte{2, 4})), 0, []error{ErrInvalidBlock}},
		{"count over size", cat(hdr, rawBlock(3, 2, []byte{2, 4})), 0, []error{ErrInvalidBlock}},
		{"overlong varint", cat(hdr, bytes.Repeat([]byte{0x80}, 10), []byte{1}), 0, []error{ErrInvalidBlock}},
		{"wrong sync", cat(hdr, good, wrongSync), 2, []error{ErrSyncMismatch, avro.ErrInvalid}},
		{"truncated data", cat(hdr, good, appendLong(nil, 1), appendLong(nil, 100), []byte{2}), 2, []error{ErrTruncated}},
		{"sync cut, mismatched", cat(hdr, good, rawBlock(1, 1, []byte{6})[:3], []byte{0, 0}), 2, []error{ErrSyncMismatch}},
		{"sync cut, matching", cat(hdr, good, rawBlock(1, 1, []byte{6})[:5]), 3, []error{ErrTruncated}},
		{"bytes after records", cat(hdr, rawBlock(1, 3, []byte{2, 4, 6})), 1, []error{ErrInvalidBlock}},
		{"fewer records than count", cat(hdr, rawBlock(2, 2, []byte{0x80, 0x01})), 1, []error{avro.ErrTruncated}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var recs []any
			var err error
			alloc := allocDuring(func() { _, recs, err = readAll(t, tc.data) })
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("err = %v, want %v", err, w)
				}
			}
			if len(recs) != tc.nrecs {
				t.Errorf("%d records before the error, want %d", len(recs), tc.nrecs)
			}
			if alloc > 1<<20 {
				t.Errorf("allocated %d bytes", alloc)
			}
		})
	}
	// A zero-byte schema: counts are bounded by the zero-size budget.
	nullHdr := rawHeader("avro.schema", `"null"`)
	if _, recs, err := readAll(t, cat(nullHdr, rawBlock(1000, 0, nil))); err != nil || len(recs) != 1000 {
		t.Errorf("1000 nulls: %d, %v", len(recs), err)
	}
	if _, _, err := readAll(t, cat(nullHdr, rawBlock(1<<40, 0, nil))); !errors.Is(err, ErrInvalidBlock) {
		t.Errorf("2^40 nulls: %v", err)
	}
	if _, _, err := readAll(t, cat(nullHdr, rawBlock(11, 0, nil)), WithDecodeOptions(avro.DecodeOptions{MaxZeroSizeItems: 10})); !errors.Is(err, ErrInvalidBlock) {
		t.Errorf("11 nulls with a budget of 10: %v", err)
	}
	// A block of 0 records is skipped.
	if _, recs, err := readAll(t, cat(hdr, rawBlock(0, 0, nil), good)); err != nil || len(recs) != 2 {
		t.Errorf("empty block: %d, %v", len(recs), err)
	}
	// A block over a configured limit.
	if _, _, err := readAll(t, cat(hdr, good), WithMaxBlockSize(1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("block over limit: %v", err)
	}
}

// bombFile returns a container file of one block of "bytes" records whose
// data is the codec's compression of n zero bytes in one record.
func bomb(t testing.TB, codec string, n int) []byte {
	t.Helper()
	var comp []byte
	switch codec {
	case CodecDeflate:
		var buf bytes.Buffer
		fw, _ := flate.NewWriter(&buf, flate.BestSpeed)
		zeros := make([]byte, 1<<20)
		for i := 0; i < n>>20; i++ {
			if _, err := fw.Write(zeros); err != nil {
				t.Fatal(err)
			}
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		comp = buf.Bytes()
	case "zstd-fcs":
		enc, _ := zstd.NewWriter(nil)
		comp = enc.EncodeAll(make([]byte, n), nil)
		codec = CodecZstandard
	case "zstd-stream":
		var buf bytes.Buffer
		enc, _ := zstd.NewWriter(&buf, zstd.WithWindowSize(1<<20))
		zeros := make([]byte, 1<<20)
		for i := 0; i < n>>20; i++ {
			if _, err := enc.Write(zeros); err != nil {
				t.Fatal(err)
			}
		}
		if err := enc.Close(); err != nil {
			t.Fatal(err)
		}
		comp = buf.Bytes()
		codec = CodecZstandard
	case CodecSnappy:
		// A snappy block whose preamble claims n bytes.
		comp = append(appendUvarint(nil, uint64(n)), 0, 0, 0, 0, 0)
	}
	return cat(rawHeader("avro.schema", `"bytes"`, "avro.codec", codec), rawBlock(1, int64(len(comp)), comp))
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func TestCompressionBombs(t *testing.T) {
	const limit = 4 << 20
	for _, codec := range []string{CodecDeflate, "zstd-fcs", "zstd-stream", CodecSnappy} {
		t.Run(codec, func(t *testing.T) {
			data := bomb(t, codec, 96<<20) // 96 MiB of zeros: over the 64 MiB default limit
			if len(data) > 1<<20 {
				t.Fatalf("bomb of %d bytes", len(data))
			}
			var err error
			alloc := allocDuring(func() { _, _, err = readAll(t, data, WithMaxBlockSize(limit)) })
			if !errors.Is(err, ErrTooLarge) || !errors.Is(err, avro.ErrLimit) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			if alloc > 6*limit+8<<20 { // growth copies and a fresh decoder; far below the bomb
				t.Errorf("allocated %d bytes with a limit of %d", alloc, limit)
			}
			// With the default limit (64 MiB), still an error.
			if _, _, err := readAll(t, data); !errors.Is(err, ErrTooLarge) {
				t.Errorf("default limit: err = %v", err)
			}
		})
	}
}

func TestCorruptBlocks(t *testing.T) {
	recs := makeRecords(20, 11)
	for _, codec := range writableCodecs[1:] {
		data := writeFile(t, recs, WithCodec(codec), WithSyncMarker(testSync))
		// Flip a byte in the middle of the (only) block's data.
		bad := bytes.Clone(data)
		bad[len(bad)-16-20] ^= 0x55
		_, got, err := readAll(t, bad)
		if err == nil {
			// Raw deflate has no checksum: a flipped bit may decompress
			// to other valid records. It must not give the same ones.
			if codec != CodecDeflate || len(got) == len(recs) && reflect.DeepEqual(got, jsonOf(t, recs)) {
				t.Errorf("%s: corrupt block read without error", codec)
			}
			continue
		}
		if !errors.Is(err, avro.ErrInvalid) && !errors.Is(err, avro.ErrTruncated) {
			t.Errorf("%s: err = %v", codec, err)
		}
	}
	// Snappy's CRC catches what decompresses fine.
	data := writeFile(t, recs, WithCodec(CodecSnappy), WithSyncMarker(testSync))
	bad := bytes.Clone(data)
	bad[len(bad)-16-1] ^= 1 // last CRC byte
	if _, _, err := readAll(t, bad); !errors.Is(err, ErrCorruptBlock) {
		t.Errorf("snappy CRC: %v", err)
	}
	// Garbage for bzip2 and xz.
	for _, codec := range []string{CodecBzip2, CodecXZ} {
		f := cat(rawHeader("avro.schema", `"long"`, "avro.codec", codec), rawBlock(1, 4, []byte("junk")))
		if _, _, err := readAll(t, f); !errors.Is(err, ErrCorruptBlock) {
			t.Errorf("%s garbage: %v", codec, err)
		}
	}
	_ = s2.ErrCorrupt
}

// TestXZDictionaryLimit changes the dictionary size of the upstream xz
// file's block to 1.5 GiB: the reader must refuse before allocating it.
func TestXZDictionaryLimit(t *testing.T) {
	data := readUpstream(t, "derived/interop/py_xz.avro")
	i := bytes.Index(data, []byte("\xfd7zXZ\x00"))
	if i < 0 {
		t.Fatal("no xz stream in py_xz.avro")
	}
	// Stream header (12 bytes), then the block header: size, flags, then
	// the LZMA2 filter: id 0x21, props size 1, dictionary byte.
	bh := data[i+12:]
	pos := 2
	if bh[1]&0x40 != 0 {
		for bh[pos] >= 0x80 {
			pos++
		}
		pos++
	}
	if bh[1]&0x80 != 0 {
		for bh[pos] >= 0x80 {
			pos++
		}
		pos++
	}
	if bh[pos] != 0x21 || bh[pos+1] != 1 {
		t.Fatalf("unexpected filter flags % x", bh[pos:pos+3])
	}
	bad := bytes.Clone(data)
	bad[i+12+pos+2] = 37 // 3 << 29 = 1.5 GiB
	var err error
	alloc := allocDuring(func() { _, _, err = readAll(t, bad) })
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if alloc > 16<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
}

var _ = io.EOF

// jsonOf decodes recs the way readAll does, into any.
func jsonOf(t testing.TB, recs []Bench) []any {
	_, out, err := readAll(t, writeFile(t, recs))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
