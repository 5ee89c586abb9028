package avro_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// []time.Duration for an array of time-micros took the []int64 fast path,
// which copies the longs raw: a millisecond was written as 1,000,000
// microseconds, and read back as a microsecond. Every element must go
// through time.Duration's mapping, as a lone time.Duration does.
func TestArrayOfDurationsConvertsEachItem(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":{"type":"long","logicalType":"time-micros"}}`)
	want := []byte{2, 0xd0, 0x0f, 0} // one block of 1000 µs
	got, err := avro.Marshal(s, []time.Duration{time.Millisecond})
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Marshal([1ms]) = %x, %v; want %x", got, err, want)
	}
	var d []time.Duration
	if err := avro.Unmarshal(s, want, &d); err != nil || len(d) != 1 || d[0] != time.Millisecond {
		t.Errorf("Unmarshal(%x) = %v, %v; want [1ms]", want, d, err)
	}
	// A lone value and an array agree.
	one, err := avro.Marshal(schema.MustParse(`{"type":"long","logicalType":"time-micros"}`), time.Millisecond)
	if err != nil || !bytes.Equal(one, want[1:3]) {
		t.Errorf("Marshal(1ms) = %x, %v; want %x", one, err, want[1:3])
	}
}

// With MaxItems and MaxZeroSizeItems raised to MaxInt64, the bytes to
// reserve for a slice (items times element size) could overflow and wrap
// to a small number, and the slice was then grown to the declared count:
// a panic. The product is checked now.
func TestArrayReserveOverflow(t *testing.T) {
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

// A block's items must fit in the bytes left: count times the item's
// minimum size, compared in 128 bits. With MaxItems raised to MaxInt64 a
// count of 2^45 fixed values of 2^20 bytes is 2^65 bytes, past 64 bits:
// it must be truncated input, not a wrapped product that fits. A block
// that fills the input exactly decodes; one item more is truncated.
func TestArrayBlockItemsBoundIn128Bits(t *testing.T) {
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

// An array written as thousands of one-item blocks grew its value.Value
// storage by one block at a time, copying everything decoded so far for
// every block: time and allocation quadratic in the length (2 KB of
// input took seconds). Growth is geometric now, so the allocation stays
// proportional to the array.
func TestArrayManyBlocksGrowGeometrically(t *testing.T) {
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
