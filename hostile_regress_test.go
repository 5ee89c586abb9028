package avro_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/big"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Regression tests for the hostile-input bugs found while building the
// corpus of testdata/hostile (issue 5).

// within runs f and fails the test if it takes longer than d (a hang).
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
}

// A decimal schema may declare a precision and scale of two billion.
// Compiling its codec computed 10^scale and 10^precision up front: a hang
// (and gigabytes) before the first byte was read.
func TestRegressDecimalHugeSchemaScale(t *testing.T) {
	huge := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":2000000000,"scale":1000000000}`)
	within(t, 5*time.Second, func() {
		var r big.Rat
		if err := avro.Unmarshal(huge, []byte{2, 1}, &r); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("decode: %v, want ErrLimit", err)
		}
		var a any
		if err := avro.Unmarshal(huge, []byte{2, 1}, &a); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("decode into any: %v, want ErrLimit", err)
		}
		if _, err := avro.Marshal(huge, big.NewRat(1, 1)); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("encode: %v, want ErrLimit", err)
		}
		// value.Value keeps the raw bytes: no scale is applied.
		var v value.Value
		if err := avro.Unmarshal(huge, []byte{2, 1}, &v); err != nil {
			t.Errorf("decode into value.Value: %v", err)
		}
	})
	// A huge precision with a small scale costs nothing.
	wide := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":2000000000,"scale":2}`)
	within(t, 5*time.Second, func() {
		want := big.NewRat(-1234567, 100)
		data, err := avro.Marshal(wide, want)
		if err != nil {
			t.Fatal(err)
		}
		var got big.Rat
		if err := avro.Unmarshal(wide, data, &got); err != nil || got.Cmp(want) != 0 {
			t.Errorf("round trip: %s, %v", got.RatString(), err)
		}
	})
	// The scale limit is an option, in both directions.
	s3000 := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":4000,"scale":3000}`)
	if _, err := avro.Marshal(s3000, big.NewRat(1, 2)); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("scale 3000, default limit: %v, want ErrLimit", err)
	}
	data, err := avro.EncodeOptions{MaxDecimalScale: 3000}.Marshal(s3000, big.NewRat(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	var r big.Rat
	if err := avro.Unmarshal(s3000, data, &r); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("scale 3000, default limit: %v, want ErrLimit", err)
	}
	if err := (avro.DecodeOptions{MaxDecimalScale: 3000}).Unmarshal(s3000, data, &r); err != nil || r.Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("scale 3000 with MaxDecimalScale 3000: %s, %v", r.RatString(), err)
	}
	// big-decimal carries its scale in the data: the same option bounds it.
	bd := schema.MustParse(`{"type":"bytes","logicalType":"big-decimal"}`)
	payload := []byte{0x02, 0x01, 0xf0, 0x2e} // unscaled 1, scale 3000 (zig-zag 6000)
	datum := append([]byte{byte(len(payload) << 1)}, payload...)
	if err := avro.Unmarshal(bd, datum, &r); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("big-decimal scale 3000: %v, want ErrLimit", err)
	}
	if err := (avro.DecodeOptions{MaxDecimalScale: 3000}).Unmarshal(bd, datum, &r); err != nil || r.Cmp(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(3000), nil))) != 0 {
		t.Errorf("big-decimal scale 3000 with MaxDecimalScale 3000: %v", err)
	}
	if avro.DefaultMaxDecimalScale != 2048 {
		t.Errorf("DefaultMaxDecimalScale %d, want 2048", avro.DefaultMaxDecimalScale)
	}
}

// The precision check no longer computes 10^precision: it compares bit
// lengths, and only near the bound compares exactly. Check the bound on
// both sides for many precisions.
func TestRegressDecimalPrecisionBound(t *testing.T) {
	ten := big.NewInt(10)
	for p := 1; p <= 120; p++ {
		s := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":` + itoa(p) + `}`)
		limit := new(big.Int).Exp(ten, big.NewInt(int64(p)), nil)
		below := new(big.Int).Sub(limit, big.NewInt(1))
		for _, sign := range []int64{1, -1} {
			ok := new(big.Rat).SetInt(new(big.Int).Mul(below, big.NewInt(sign)))
			if _, err := avro.Marshal(s, ok); err != nil {
				t.Errorf("precision %d: %s: %v", p, ok.RatString(), err)
			}
			bad := new(big.Rat).SetInt(new(big.Int).Mul(limit, big.NewInt(sign)))
			if _, err := avro.Marshal(s, bad); !errors.Is(err, avro.ErrRange) {
				t.Errorf("precision %d: %s: %v, want ErrRange", p, bad.RatString(), err)
			}
		}
	}
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// Reading through a resolution whose reader union (or enum) has more
// branches (symbols) than the writer's, and maps the writer's to
// themselves, or that reads an int as a long, ran no transcoder: the
// reader's decoder read the writer's bytes and accepted an index (or a
// long) the writer cannot have written. Found by FuzzResolve's property
// that what reads through a resolution is valid writer data.
func TestRegressResolveWidenedUnionChecksWriterIndex(t *testing.T) {
	cases := []struct {
		writer, reader string
		bad, good      []byte
	}{
		{`["null","long"]`, `["null","long","string"]`, []byte{4, 0}, []byte{2, 2}},
		{`{"type":"enum","name":"E","symbols":["A","B"]}`, `{"type":"enum","name":"E","symbols":["A","B","C"]}`, []byte{4}, []byte{2}},
		{`{"type":"array","items":["null","long"]}`, `{"type":"array","items":["null","long","string"]}`, []byte{2, 4, 0, 0}, []byte{2, 2, 2, 0}},
		// int read as long: 2^31 is a long, not an int.
		{`"int"`, `"long"`, []byte{0x80, 0x80, 0x80, 0x80, 0x10}, []byte{0xfe, 0xff, 0xff, 0xff, 0x0f}},
		{`{"type":"array","items":"int"}`, `{"type":"array","items":"long"}`, []byte{2, 0x80, 0x80, 0x80, 0x80, 0x10, 0}, []byte{2, 2, 0}},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}`,
			`{"type":"record","name":"R","fields":[{"name":"a","type":"long"},{"name":"b","type":"string"}]}`,
			[]byte{0xff, 0xff, 0xff, 0xff, 0x1f, 0}, []byte{2, 2, 'x'}},
	}
	for _, tc := range cases {
		rs, err := schema.Resolve(schema.MustParse(tc.writer), schema.MustParse(tc.reader))
		if err != nil {
			t.Fatal(err)
		}
		var v value.Value
		if err := avro.Unmarshal(rs, tc.bad, &v); !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s read as %s: % x gave %v, %v; want ErrInvalid", tc.writer, tc.reader, tc.bad, v, err)
		}
		var a any
		if err := avro.Unmarshal(rs, tc.bad, &a); !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s into any: % x gave %v; want ErrInvalid", tc.writer, tc.bad, err)
		}
		if err := avro.Unmarshal(rs, tc.good, &v); err != nil {
			t.Errorf("%s read as %s: % x: %v", tc.writer, tc.reader, tc.good, err)
		}
	}
}

// When the reader's decoder failed on transcoded bytes, the transcoder ran
// again recording a mark for every value to map the error offset back:
// 5 bytes declaring 2^20 nulls read as ["null","long"] allocated 280 MB.
func TestRegressResolveErrorOffsetAllocation(t *testing.T) {
	rs, err := schema.Resolve(schema.MustParse(`{"type":"array","items":"null"}`),
		schema.MustParse(`{"type":"array","items":["null","long"]}`))
	if err != nil {
		t.Fatal(err)
	}
	data := []byte{0x80, 0x80, 0x80, 0x01, 0} // 2^20 nulls
	var v value.Value
	alloc := allocDuring(func() { err = avro.Unmarshal(rs, data, &v) })
	if !errors.Is(err, avro.ErrLimit) {
		t.Errorf("err = %v, want ErrLimit", err)
	}
	if alloc > 12<<20 {
		t.Errorf("allocated %d bytes for 5 bytes of input", alloc)
	}
	// The offset of an error deep in a resolved datum is still exact.
	rs2, err := schema.Resolve(schema.MustParse(`{"type":"array","items":"int"}`),
		schema.MustParse(`{"type":"array","items":"double"}`))
	if err != nil {
		t.Fatal(err)
	}
	in := append([]byte{0x80, 0x10}, bytes.Repeat([]byte{2}, 1023)...) // 1024 items, the last missing
	err = avro.Unmarshal(rs2, in, &v)
	var ae *avro.Error
	if !errors.As(err, &ae) || !errors.Is(err, avro.ErrTruncated) {
		t.Fatalf("err = %v, want ErrTruncated", err)
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// A big-decimal whose inner parts ran past its (complete) payload was
// ErrTruncated, so a streaming Decoder kept reading the rest of the stream
// (up to MaxLength) before it failed.
func TestRegressBigDecimalBadPayloadInStream(t *testing.T) {
	s := schema.MustParse(`{"type":"bytes","logicalType":"big-decimal"}`)
	good, err := avro.Marshal(s, big.NewRat(5, 2))
	if err != nil {
		t.Fatal(err)
	}
	stream := append([]byte{0x04, 0x06, 0x01}, bytes.Repeat(good, 1<<20)...)
	cr := &countingReader{r: bytes.NewReader(stream)}
	dec := avro.NewDecoder(cr, s)
	var r big.Rat
	if err := dec.Decode(&r); !errors.Is(err, avro.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	if cr.n > 1<<20 {
		t.Errorf("read %d bytes of the stream to reject a 3-byte datum", cr.n)
	}
}

// zeroStreamFile is a container file of schema text with one block of n
// copies of datum.
func zeroStreamFile(text string, datum []byte, n int) []byte {
	sync := bytes.Repeat([]byte{0x5a}, 16)
	b := []byte("Obj\x01")
	b = binary.AppendVarint(b, 1)
	b = binary.AppendVarint(b, int64(len("avro.schema")))
	b = append(b, "avro.schema"...)
	b = binary.AppendVarint(b, int64(len(text)))
	b = append(b, text...)
	b = append(b, 0)
	b = append(b, sync...)
	b = binary.AppendVarint(b, int64(n))
	b = binary.AppendVarint(b, int64(n*len(datum)))
	b = append(b, bytes.Repeat(datum, n)...)
	return append(b, sync...)
}

// The budget of zero-size items was per datum only: a stream of 4-byte
// datums that each declare 2^18 nulls made the Decoder (and the container
// Reader) allocate 4 MiB per datum, 8 GB for 8 KB of input, and one of
// 2^20 nulls each cost 2 ms of CPU per 5 bytes. The datums of a stream now
// share one budget, which grows with the bytes read.
func TestRegressZeroSizeItemsOverAStream(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":"null"}`)
	hostile := []byte{0x80, 0x80, 0x20, 0} // 2^18 nulls
	const n = 2000
	stream := bytes.Repeat(hostile, n)
	for _, target := range []string{"value", "struct"} {
		var decoded int
		var err error
		alloc := allocDuring(func() {
			dec := avro.NewDecoder(bytes.NewReader(stream), s)
			for {
				if target == "value" {
					var v value.Value
					err = dec.Decode(&v)
				} else {
					var v []struct{}
					err = dec.Decode(&v)
				}
				if err != nil {
					return
				}
				decoded++
			}
		})
		if !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: %d datums, then %v; want ErrLimit", target, decoded, err)
		}
		// The first datums fit the initial budget (MaxZeroSizeItems).
		if decoded < 4 || decoded > 10 {
			t.Errorf("%s: %d datums before ErrLimit", target, decoded)
		}
		if alloc > 64<<20 {
			t.Errorf("%s: allocated %d bytes for %d bytes of stream", target, alloc, len(stream))
		}
	}
	// The same records in a container file.
	file := zeroStreamFile(s.String(), hostile, n)
	var decoded int
	var err error
	alloc := allocDuring(func() {
		r, e := ocf.NewReader(bytes.NewReader(file))
		if e != nil {
			err = e
			return
		}
		for r.Next() {
			var v value.Value
			if err = r.Decode(&v); err != nil {
				return
			}
			decoded++
		}
		err = r.Err()
	})
	if !errors.Is(err, avro.ErrLimit) || decoded < 4 || decoded > 10 {
		t.Errorf("container: %d records, then %v; want ErrLimit after a few", decoded, err)
	}
	if alloc > 64<<20 {
		t.Errorf("container: allocated %d bytes for %d bytes of file", alloc, len(file))
	}

	// Legitimate streams are not affected: 100,000 datums of 10 nulls
	// (5 a byte), and datums of 1,000 empty records after a string of
	// 100 KiB.
	legit := bytes.Repeat([]byte{0x14, 0}, 100000)
	dec := avro.NewDecoder(bytes.NewReader(legit), s)
	for i := 0; ; i++ {
		var v []any
		if err := dec.Decode(&v); err == io.EOF {
			if i != 100000 {
				t.Errorf("%d datums", i)
			}
			break
		} else if err != nil || len(v) != 10 {
			t.Fatalf("datum %d: %v", i, err)
		}
	}
	rs := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"s","type":"string"},{"name":"a","type":{"type":"array","items":{"type":"record","name":"E","fields":[]}}}]}`)
	empties := make([]any, 1000)
	for i := range empties {
		empties[i] = map[string]any{}
	}
	one, err := avro.Marshal(rs, map[string]any{"s": string(make([]byte, 100<<10)), "a": empties})
	if err != nil {
		t.Fatal(err)
	}
	dec = avro.NewDecoder(bytes.NewReader(bytes.Repeat(one, 50)), rs)
	for i := 0; i < 50; i++ {
		var v value.Value
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
}

// With MaxItems and MaxZeroSizeItems raised to MaxInt64, the bytes to
// reserve for a slice (items times element size) could overflow and wrap
// to a small number, and the slice was then grown to the declared count:
// a panic. The product is checked now.
func TestRegressReserveOverflow(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[]}}`)
	opts := avro.DecodeOptions{MaxItems: 1<<63 - 1, MaxZeroSizeItems: 1<<63 - 1}
	data := binary.AppendVarint(nil, 1<<62) // 2^62 empty records
	data = append(data, 0)
	type big struct{ B [1 << 12]byte }
	for name, v := range map[string]any{"[]big": new([]big), "value": new(value.Value), "any": new(any)} {
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: panic: %v", name, p)
				}
			}()
			err = opts.Unmarshal(s, data, v)
		}()
		if !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: %v, want ErrLimit", name, err)
		}
	}
}

// A map block may declare a million entries that all repeat one key (two
// bytes each: an empty key and an empty value). Go maps were created with
// the declared count as their size hint, which allocated about 90 bytes
// per input byte for a map that ends with one entry; the hint is now
// capped, so memory follows the distinct keys.
func TestRegressMapDuplicateKeysHint(t *testing.T) {
	const entries = 1 << 20
	data := binary.AppendVarint(nil, entries)
	data = append(data, bytes.Repeat([]byte{0, 0}, entries)...)
	data = append(data, 0)
	s := schema.MustParse(`{"type":"map","values":"string"}`)
	type key string
	for name, decode := range map[string]func() error{
		"map[string]string": func() error { var m map[string]string; return avro.Unmarshal(s, data, &m) },
		"map[key]string":    func() error { var m map[key]string; return avro.Unmarshal(s, data, &m) },
		"any":               func() error { var m any; return avro.Unmarshal(s, data, &m) },
	} {
		var err error
		got := allocDuring(func() { err = decode() })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if limit := uint64(1<<20 + 4*len(data)); got > limit {
			t.Errorf("%s: %d bytes allocated for %d input bytes of one distinct key, want at most %d", name, got, len(data), limit)
		}
	}
}

// Bytes written by a writer schema and read as a string (the bytes-to-
// string promotion) are copied by the transcoder; with ValidateUTF8 the
// reader's string decoder must still reject invalid UTF-8, in every
// target, and pass it through without the option.
func TestResolvedBytesAsStringValidatesUTF8(t *testing.T) {
	w := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"s","type":"bytes"}]}`)
	r := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"s","type":"string"}]}`)
	rs, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte{6, 'a', 0xff, 'b'}
	strict := avro.DecodeOptions{ValidateUTF8: true}
	type rec struct {
		S string `avro:"s"`
	}
	targets := map[string]func() any{
		"struct": func() any { return new(rec) },
		"any":    func() any { return new(any) },
		"value":  func() any { return new(value.Value) },
	}
	for name, target := range targets {
		err := strict.Unmarshal(rs, data, target())
		if !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s: ValidateUTF8 read of invalid UTF-8 through bytes->string: %v, want ErrInvalid", name, err)
		}
		var e *avro.Error
		if errors.As(err, &e) && e.Path != "s" {
			t.Errorf("%s: error path %q, want s", name, e.Path)
		}
		if err := avro.Unmarshal(rs, data, target()); err != nil {
			t.Errorf("%s: default read: %v", name, err)
		}
	}
}

// An array written as thousands of one-item blocks grew its value.Value
// storage by one block at a time, copying everything decoded so far for
// every block: time and allocation quadratic in the length (found by
// FuzzUnmarshalValue: 2 KB of input took seconds). Growth is geometric
// now, so the allocation stays proportional to the array.
func TestRegressValueArrayManyBlocks(t *testing.T) {
	const blocks = 5000
	for _, c := range []struct {
		items string
		item  []byte
	}{
		{`"null"`, nil},
		{`"boolean"`, []byte{1}},
		{`"long"`, []byte{0x7e}},
		{`{"type":"record","name":"E","fields":[]}`, nil},
		{`"string"`, []byte{2, 'x'}},
	} {
		s := schema.MustParse(`{"type":"array","items":` + c.items + `}`)
		var data []byte
		for range blocks {
			data = append(data, 2)
			data = append(data, c.item...)
		}
		data = append(data, 0)
		var v value.Value
		var err error
		got := allocDuring(func() { err = avro.Unmarshal(s, data, &v) })
		if err != nil {
			t.Fatalf("%s: %v", c.items, err)
		}
		if v.Len() != blocks {
			t.Fatalf("%s: %d items, want %d", c.items, v.Len(), blocks)
		}
		if limit := uint64(1<<20 + 200*blocks); got > limit {
			t.Errorf("%s: %d one-item blocks allocated %d bytes, want at most %d", c.items, blocks, got, limit)
		}
		// The other targets grow geometrically too.
		var a any
		if got := allocDuring(func() { err = avro.Unmarshal(s, data, &a) }); err != nil || got > uint64(1<<20+200*blocks) {
			t.Errorf("%s into any: %d bytes, %v", c.items, got, err)
		}
	}
	var bools []bool
	var err error
	data := append(bytes.Repeat([]byte{2, 1}, blocks), 0)
	s := schema.MustParse(`{"type":"array","items":"boolean"}`)
	if got := allocDuring(func() { err = avro.Unmarshal(s, data, &bools) }); err != nil || got > uint64(1<<20+200*blocks) || len(bools) != blocks {
		t.Errorf("[]bool: %d bytes, %d items, %v", got, len(bools), err)
	}
}

// A block's items must fit in the bytes left: count times the item's
// minimum size, compared in 128 bits. With MaxItems raised to MaxInt64 a
// count of 2^45 fixed values of 2^20 bytes is 2^65 bytes, past 64 bits:
// it must be truncated input, not a wrapped product that fits. A block
// that fills the input exactly decodes; one item more is truncated.
func TestRegressBoundItemsProduct(t *testing.T) {
	opts := avro.DecodeOptions{MaxItems: 1<<63 - 1}
	big := schema.MustParse(`{"type":"array","items":{"type":"fixed","name":"F","size":1048576}}`)
	data := append(binary.AppendVarint(nil, 1<<45), make([]byte, 64)...)
	for name, v := range map[string]any{"[][]byte": new([][]byte), "value": new(value.Value), "any": new(any)} {
		if err := opts.Unmarshal(big, data, v); !errors.Is(err, avro.ErrTruncated) {
			t.Errorf("2^45 fixed(2^20) into %s: %v, want ErrTruncated", name, err)
		}
	}

	s := schema.MustParse(`{"type":"array","items":{"type":"fixed","name":"F","size":4}}`)
	exact := append(binary.AppendVarint(nil, 2), "abcdefgh"...)
	exact = append(exact, 0)
	var got [][4]byte
	if err := avro.Unmarshal(s, exact, &got); err != nil || len(got) != 2 || string(got[1][:]) != "efgh" {
		t.Errorf("2 fixed(4) in 8 bytes: %q, %v", got, err)
	}
	over := append(binary.AppendVarint(nil, 3), "abcdefgh"...)
	over = append(over, 0)
	if err := avro.Unmarshal(s, over, &got); !errors.Is(err, avro.ErrTruncated) {
		t.Errorf("3 fixed(4) in 9 bytes: %v, want ErrTruncated", err)
	}
}
