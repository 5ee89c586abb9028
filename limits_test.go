package avro_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// bigPointee is far larger than its encoding (the schema's record has no
// fields): its padding is a Go field the schema lacks.
type bigPointee struct {
	Pad [8192]byte `avro:"-"`
}

type bigEmbedded struct {
	A   any        `avro:"a"`
	Pad [8192]byte `avro:"-"`
}

type embedsBig struct{ *bigEmbedded }

// bigShape is an interface a union of registered types decodes into.
type bigShape interface{ shape() }

type bigShapeImpl struct {
	Pad [8192]byte `avro:"-"`
}

func (*bigShapeImpl) shape() {}

func init() { avro.Register("limits.items.S", (*bigShapeImpl)(nil)) }

// zeroItems is an array block of n zero-size items and the array's end.
func zeroItems(n int64) []byte { return append(binary.AppendVarint(nil, n), 0) }

// Zero-size items (null, an empty record) decoded into Go values that
// allocate per item (a pointee, a union's pointee, a map entry, a record
// decoded into a map, an embedded *struct, an interface union's holder)
// charge each allocation to MaxAlloc: only the slice or map holding them
// was charged, and 4 bytes (500,000 empty records) into []*bigPointee
// allocated 4.1 GB.
func TestPerItemAllocationsCharged(t *testing.T) {
	const n = 200_000 // under the zero-size budget (2^20), 1.6 GB of pointees
	empty := `{"type":"record","name":"E","fields":[]}`
	nullField := `{"type":"record","name":"R","fields":[{"name":"a","type":"null"}]}`
	fourEmpty := `{"type":"record","name":"R","fields":[{"name":"a","type":` + empty +
		`},{"name":"b","type":"E"},{"name":"c","type":"E"},{"name":"d","type":"E"}]}`

	// A map's blocks: the first of one entry, then n entries with keys of
	// 3 distinct bytes (n is below 2^24).
	mapBlocks := append(binary.AppendVarint(nil, 1), 2, 'a')
	mapBlocks = binary.AppendVarint(mapBlocks, n)
	for i := range n {
		mapBlocks = append(mapBlocks, 6, byte(i), byte(i>>8), byte(i>>16))
	}
	mapBlocks = append(mapBlocks, 0)

	unionItems := binary.AppendVarint(nil, n)
	for range n {
		unionItems = append(unionItems, 2) // branch 1, the empty record
	}
	unionItems = append(unionItems, 0)

	cases := []struct {
		name, schema string
		data         []byte
		target       func() any
	}{
		{"pointee", `{"type":"array","items":` + empty + `}`, zeroItems(n),
			func() any { return new([]*bigPointee) }},
		{"union pointee", `{"type":"array","items":["null",` + empty + `]}`, unionItems,
			func() any { return new([]*bigPointee) }},
		{"map entries after the first block", `{"type":"map","values":` + empty + `}`, mapBlocks,
			func() any { return new(map[string]bigPointee) }},
		{"record into a map", `{"type":"array","items":` + fourEmpty + `}`, zeroItems(n),
			func() any { return new([]map[string]bigPointee) }},
		{"embedded pointer", `{"type":"array","items":` + nullField + `}`, zeroItems(n),
			func() any { return new([]embedsBig) }},
		{"interface union", `{"type":"array","items":["null",{"type":"record","name":"limits.items.S","fields":[]}]}`, unionItems,
			func() any { return new([]bigShape) }},
		{"empty records into any", `{"type":"array","items":` + empty + `}`, zeroItems(1_000_000),
			func() any { return new(any) }},
		{"empty records into maps", `{"type":"array","items":` + empty + `}`, zeroItems(1_000_000),
			func() any { return new([]map[string]any) }},
		{"empty records into values", `{"type":"array","items":` + empty + `}`, zeroItems(1_000_000),
			func() any { return new(value.Value) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := schema.MustParse(c.schema)
			var err error
			got := allocDuring(func() { err = avro.Unmarshal(s, c.data, c.target()) })
			if err != nil && !errors.Is(err, avro.ErrLimit) {
				t.Errorf("%d input bytes: %v, want nil or ErrLimit", len(c.data), err)
			}
			if limit := hostileAllocBound(c.data); got > limit {
				t.Errorf("%d input bytes: %d bytes allocated, want at most %d", len(c.data), got, limit)
			}
		})
	}
}

// An array of many one-item blocks grows its slice again and again, and
// each growth makes a new array. Only the growth was charged, so with a
// limit of 64 MiB such a decode allocated five times that; now each new
// array is charged whole, and the decode ends in ErrLimit near the limit.
func TestSliceGrowthCharged(t *testing.T) {
	type elem struct {
		A   int64      `avro:"a"`
		Pad [1016]byte `avro:"-"`
	}
	s := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"a","type":"long"}]}}`)
	const blocks = 200_000 // 200 MB of elements
	data := append(bytes.Repeat([]byte{2, 0}, blocks), 0)
	const limit = 64 << 20
	var v []elem
	var err error
	got := allocDuring(func() { err = avro.DecodeOptions{MaxAlloc: limit}.Unmarshal(s, data, &v) })
	if !errors.Is(err, avro.ErrLimit) {
		t.Errorf("%d one-item blocks of 1 KB elements: %v, want ErrLimit", blocks, err)
	}
	if got > 2*limit {
		t.Errorf("%d bytes allocated, want at most %d", got, 2*limit)
	}

	// The same into the generic models, whose arrays grow by doubling.
	longs := schema.MustParse(`{"type":"array","items":"long"}`)
	data = append(bytes.Repeat([]byte{2, 2}, blocks), 0)
	const small = 4 << 20
	for name, target := range map[string]any{"any": new(any), "value": new(value.Value)} {
		got := allocDuring(func() { err = avro.DecodeOptions{MaxAlloc: small}.Unmarshal(longs, data, target) })
		if err != nil && !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: %v", name, err)
		}
		if got > 2*small {
			t.Errorf("%s: %d bytes allocated, want at most %d", name, got, 2*small)
		}
	}

	// Within the limit, the same blocks decode.
	few := append(bytes.Repeat([]byte{2, 0}, 5000), 0)
	if err := (avro.DecodeOptions{MaxAlloc: limit}).Unmarshal(s, few, &v); err != nil || len(v) != 5000 {
		t.Errorf("5000 one-item blocks: %d items, %v", len(v), err)
	}
}

// When the reader's decoder failed on transcoded bytes, the transcoder ran
// again recording a mark for every value to map the error offset back:
// 5 bytes declaring 2^20 nulls read as ["null","long"] allocated 280 MB.
func TestResolveErrorOffsetAllocationBounded(t *testing.T) {
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

// A resolved read transcodes the writer's bytes into the reader's shape,
// reader defaults included, and then decodes that. The transcoded output
// grew by append's quarters, and an error transcoded the datum again
// into a second buffer: a 3-byte datum of 4,000 empty records whose
// reader adds a 1,000-byte default allocated 46.8 MB under the default
// budget of 4 MiB. The output now grows by doubling up to the limit, and
// the second transcode reuses it: the decode allocates at most about
// three times the budget (the output, bounded by the limit on its own as
// a pooled scratch buffer, its growth, and the decode's values). Charging
// the output to the budget instead made reads that fit fail: the last
// case, 3 MB of defaults for 10 KB of input.
func TestResolvedOutputCharged(t *testing.T) {
	w := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[]}}`)
	r := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[
	  {"name":"b","type":"bytes","default":"` + strings.Repeat("x", 1000) + `"},
	  {"name":"c","type":{"type":"array","items":"long"},"default":[1,2,3,4,5,6,7,8,9,10]}]}}`)
	rs, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	type elem struct {
		B []byte  `avro:"b"`
		C []int64 `avro:"c"`
	}
	for _, n := range []int64{4000, 1<<20 - 1} {
		data := zeroItems(n)
		budget := uint64(avro.DefaultAllocFloor + avro.DefaultAllocPerByte*len(data))
		for name, target := range map[string]func() any{
			"struct": func() any { return new([]elem) },
			"any":    func() any { return new(any) },
			"value":  func() any { return new(value.Value) },
		} {
			var err error
			got := allocDuring(func() { err = avro.Unmarshal(rs, data, target()) })
			if !errors.Is(err, avro.ErrLimit) {
				t.Errorf("%d records into %s: %v, want ErrLimit", n, name, err)
			}
			if got > 7*budget/2 {
				t.Errorf("%d records into %s: %d bytes allocated, want at most %d (3.5 times the budget)", n, name, got, 7*budget/2)
			}
		}
	}
	// 100 such records fit the budget and decode, defaults filled in.
	var out []elem
	if err := avro.Unmarshal(rs, zeroItems(100), &out); err != nil || len(out) != 100 || len(out[99].B) != 1000 || len(out[99].C) != 10 {
		t.Errorf("100 records: %d, %v", len(out), err)
	}

	// 10,000 records of 1 byte, with a default of 300 bytes added: 3 MB
	// of defaults and 3 MB decoded, under a budget of 4.6 MB.
	w2 := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"a","type":"int"}]}}`)
	r2 := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"a","type":"int"},
	  {"name":"s","type":"string","default":"` + strings.Repeat("d", 300) + `"}]}}`)
	rs2, err := schema.Resolve(w2, r2)
	if err != nil {
		t.Fatal(err)
	}
	data := append(binary.AppendVarint(nil, 10_000), bytes.Repeat([]byte{2}, 10_000)...)
	data = append(data, 0)
	var got []struct {
		A int32  `avro:"a"`
		S string `avro:"s"`
	}
	if err := avro.Unmarshal(rs2, data, &got); err != nil || len(got) != 10_000 || len(got[9999].S) != 300 {
		t.Errorf("10,000 records with a 300-byte default: %d, %v", len(got), err)
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
func TestZeroSizeItemsBudgetOverAStream(t *testing.T) {
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

// A record of null fields takes no bytes but a decoding step per field, so
// an array of them is charged to the zero-size budget once per value each
// item holds: an array of 2^20 records of 1,000 nulls is 5 bytes and a
// billion steps, on every path that reads an array.
func TestZeroSizeRecordItemsChargedPerValue(t *testing.T) {
	fields := make([]string, 999)
	for i := range fields {
		fields[i] = fmt.Sprintf(`{"name":"f%d","type":"null"}`, i)
	}
	// 999 nulls and a nested empty record: 1,001 values an item.
	item := `{"type":"record","name":"Z","fields":[` + strings.Join(fields, ",") +
		`,{"name":"e","type":{"type":"record","name":"E","fields":[]}}]}`
	arr := schema.MustParse(`{"type":"array","items":` + item + `}`)
	// The array in a record whose reader drops it: the skipping path.
	outer := `{"type":"record","name":"O","fields":[{"name":"a","type":{"type":"array","items":` + item + `}},{"name":"n","type":"int"}]}`
	resolved, err := schema.Resolve(schema.MustParse(outer), schema.MustParse(`{"type":"record","name":"O","fields":[{"name":"n","type":"int"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	// Room for a thousand generic records of a thousand fields.
	o := avro.DecodeOptions{MaxAlloc: 1 << 30}
	paths := []struct {
		name   string
		s      *schema.Schema
		suffix []byte
		decode func(s *schema.Schema, data []byte) error
	}{
		{"any", arr, nil, func(s *schema.Schema, data []byte) error { var v any; return o.Unmarshal(s, data, &v) }},
		{"value", arr, nil, func(s *schema.Schema, data []byte) error { var v value.Value; return o.Unmarshal(s, data, &v) }},
		{"struct", arr, nil, func(s *schema.Schema, data []byte) error { var v []struct{}; return o.Unmarshal(s, data, &v) }},
		{"stream", arr, nil, func(s *schema.Schema, data []byte) error {
			var v any
			return o.NewDecoder(bytes.NewReader(data), s).Decode(&v)
		}},
		{"stream in pieces", arr, nil, func(s *schema.Schema, data []byte) error {
			var v []struct{}
			return o.NewDecoder(iotest.OneByteReader(bytes.NewReader(data)), s).Decode(&v)
		}},
		{"skipped", resolved, []byte{2}, func(s *schema.Schema, data []byte) error {
			var v struct {
				N int32 `avro:"n"`
			}
			return o.Unmarshal(s, data, &v)
		}},
	}
	for _, p := range paths {
		// 1,000 items are 1,001,000 values, within the budget (2^20).
		if err := p.decode(p.s, append(zeroItems(1000), p.suffix...)); err != nil {
			t.Errorf("%s: 1,000 items: %v", p.name, err)
		}
		// 2,000 items are 2,002,000 values.
		if err := p.decode(p.s, append(zeroItems(2000), p.suffix...)); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: 2,000 items: %v, want ErrLimit", p.name, err)
		}
	}
}

// A container block of a schema whose records take no bytes declares its
// records in a header of a few bytes: 50 blocks of 2^20 null records were
// 1 KB of file and 52 million records to iterate. The records are
// zero-size items of the file's budget now (MaxZeroSizeItems plus 64 a
// byte), so the second such block is an error; a block that fits the
// budget reads.
func TestContainerZeroByteRecordsBudget(t *testing.T) {
	for _, text := range []string{`"null"`, `{"type":"record","name":"E","fields":[]}`} {
		sync := bytes.Repeat([]byte{0x5a}, 16)
		var file []byte
		for i := range 50 {
			block := append(binary.AppendVarint(nil, 1<<20), 0) // 2^20 records, 0 bytes
			if i == 0 {
				file = zeroStreamFile(text, nil, 0)
				file = file[:len(file)-len(sync)-2] // the header only: drop the empty block
			}
			file = append(append(file, block...), sync...)
		}
		r, err := ocf.NewReader(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		records := 0
		for r.Next() {
			var v any
			if err := r.Decode(&v); err != nil {
				break
			}
			records++
		}
		if !errors.Is(r.Err(), ocf.ErrInvalidBlock) || records != 1<<20 {
			t.Errorf("%s: %d records, then %v; want the first block's 2^20, then ErrInvalidBlock", text, records, r.Err())
		}
	}
}

// TestMaxDepthHasACeiling: a MaxDepth past CeilingMaxDepth counts as the
// ceiling, so that no setting lets data recurse the decoder or encoder
// past what the stack holds.
func TestMaxDepthHasACeiling(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"N","fields":[{"name":"next","type":["null","N"]}]}`)
	deep := append(bytes.Repeat([]byte{2}, 2*avro.CeilingMaxDepth), 0)
	o := avro.DecodeOptions{MaxDepth: 1 << 30}
	var v any
	if err := o.Unmarshal(s, deep, &v); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("%d levels with MaxDepth 2^30: %v, want ErrLimit", len(deep), err)
	}
	shallow := append(bytes.Repeat([]byte{2}, avro.CeilingMaxDepth/2), 0)
	if err := o.Unmarshal(s, shallow, &v); err != nil {
		t.Errorf("%d levels: %v", len(shallow), err)
	}
	eo := avro.EncodeOptions{MaxDepth: 1 << 30}
	if _, err := eo.Marshal(s, &v); err != nil {
		t.Errorf("encoding %d levels: %v", len(shallow), err)
	}
	for range avro.CeilingMaxDepth {
		v = map[string]any{"next": v}
	}
	if _, err := eo.Marshal(s, &v); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("encoding past the ceiling: %v, want ErrLimit", err)
	}
}
