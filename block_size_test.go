package avro_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/structgen"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/avrogo/avro/varint"
)

// Block byte sizes. An array or map block with a negative count -n is
// followed by a long, "the number of bytes in the block", which lets a
// reader skip the block without reading its items. A reader that skips
// the block jumps by the size, one that decodes it reads the items: when
// the size is wrong, the same bytes mean one thing to the first and
// another to the second. The Apache Java (1.8.2) and Python (1.11) readers
// and avsc (5.7.9) all have this differential: they read blockSizeExample
// as a=[1], b="\x00\x06xyz" through the writer's schema and as b="xyz"
// through a reader schema without a (they ignore the size when they
// decode and jump by it when they skip). Here the items of a block must
// end exactly at its size, or the datum is ErrInvalid, on every path.

// blockSizeWriter has an array field a, then a string field b.
const blockSizeWriter = `{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"array","items":"long"}},{"name":"b","type":"string"}]}`

// blockSizeExample is a block of one item (1) that says it takes 3 bytes:
// jumping by the size lands on 00 06 "xyz", which reads as the end of the
// array and then b = "xyz".
var blockSizeExample = []byte{0x01, 0x06, 0x02, 0x00, 0x0a, 0x00, 0x06, 0x78, 0x79, 0x7a}

// blockPath is one way of reading a datum of a record {a, b}: it returns
// what it decoded, for comparisons.
type blockPath struct {
	name string
	read func(data []byte) (any, error)
}

// blockPaths returns every way of reading datums of the record schema w
// (fields a, then b): decoded into structs (all fields, and only b, so
// that a is skipped), any, value.Value, []any items, a Go array where a
// is an array of long; through resolution by readers without a, with the
// fields in the other order, and with a in a union; by UnmarshalNext, the
// streaming Decoder (also one byte per read, which frames the datum), and
// from a container file.
func blockPaths(t *testing.T, w *schema.Schema) []blockPath {
	t.Helper()
	a := w.Fields()[0].Type()
	aText := a.String()
	onlyB := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"string"}]}`)
	resolve := func(reader string) *schema.Schema {
		rs, err := schema.Resolve(w, schema.MustParse(reader))
		if err != nil {
			t.Fatalf("Resolve(%s): %v", reader, err)
		}
		return rs
	}
	withoutA := resolve(onlyB.String())
	reordered := resolve(`{"type":"record","name":"R","fields":[{"name":"b","type":"string"},{"name":"a","type":` + aText + `}]}`)
	inUnion := resolve(`{"type":"record","name":"R","fields":[{"name":"a","type":["null",` + aText + `]},{"name":"b","type":"string"}]}`)
	full, partial := structgen.TypeOf(w), structgen.TypeOfSome(w, 2)
	into := func(s *schema.Schema, newTarget func() any) func([]byte) (any, error) {
		return func(data []byte) (any, error) {
			p := newTarget()
			err := avro.Unmarshal(s, data, p)
			return reflect.ValueOf(p).Elem().Interface(), err
		}
	}
	newStruct := func(t reflect.Type) func() any { return func() any { return reflect.New(t).Interface() } }
	newAny := func() any { return new(any) }
	newValue := func() any { return new(value.Value) }
	decoder := func(s *schema.Schema, oneByte bool, newTarget func() any) func([]byte) (any, error) {
		return func(data []byte) (any, error) {
			var r io.Reader = bytes.NewReader(data)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			dec := avro.NewDecoder(r, s)
			p := newTarget()
			if err := dec.Decode(p); err != nil {
				return nil, err
			}
			if err := dec.Decode(newTarget()); err != io.EOF {
				return nil, fmt.Errorf("second Decode: %v, want io.EOF", err)
			}
			return reflect.ValueOf(p).Elem().Interface(), nil
		}
	}
	paths := []blockPath{
		{"struct", into(w, newStruct(full))},
		{"struct without a", into(w, newStruct(partial))},
		{"any", into(w, newAny)},
		{"value", into(w, newValue)},
		{"struct of []any", into(w, newStruct(reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeFor[any](), Tag: `avro:"a"`},
			{Name: "B", Type: reflect.TypeFor[string](), Tag: `avro:"b"`}})))},
		{"resolved without a, struct", into(withoutA, newStruct(structgen.TypeOf(onlyB)))},
		{"resolved without a, any", into(withoutA, newAny)},
		{"resolved without a, value", into(withoutA, newValue)},
		{"resolved reordered, any", into(reordered, newAny)},
		{"resolved reordered, struct without a", into(reordered, newStruct(reflect.StructOf([]reflect.StructField{
			{Name: "B", Type: reflect.TypeFor[string](), Tag: `avro:"b"`}})))},
		{"resolved into a union, value", into(inUnion, newValue)},
		{"UnmarshalNext", func(data []byte) (any, error) {
			var v value.Value
			rest, err := avro.UnmarshalNext(w, data, &v)
			if err == nil && len(rest) != 0 {
				err = fmt.Errorf("%d bytes left", len(rest))
			}
			return v, err
		}},
		{"Decoder", decoder(w, false, newAny)},
		{"Decoder, one byte per read", decoder(w, true, newAny)},
		{"Decoder, one byte per read, struct without a", decoder(w, true, newStruct(partial))},
		{"ocf", func(data []byte) (any, error) {
			r, err := ocf.NewReader(bytes.NewReader(hostileContainer(w.String(), data)))
			if err != nil {
				return nil, err
			}
			var v value.Value
			if !r.Next() {
				return nil, fmt.Errorf("no record: %v", r.Err())
			}
			if err := r.Decode(&v); err != nil {
				return nil, err
			}
			return v, nil
		}},
	}
	if a.Kind() == schema.Array && a.Items().Kind() == schema.Long {
		paths = append(paths, blockPath{"struct of a Go array", into(w, newStruct(reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeFor[[128]int64](), Tag: `avro:"a"`},
			{Name: "B", Type: reflect.TypeFor[string](), Tag: `avro:"b"`}})))})
	}
	if a.Kind() == schema.Array && a.Items().Kind() == schema.Int {
		promoted := resolve(`{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"array","items":"long"}},{"name":"b","type":"string"}]}`)
		paths = append(paths, blockPath{"resolved int to long, any", into(promoted, newAny)})
	}
	return paths
}

// wantBlockInvalid checks that err is ErrInvalid in an *avro.Error that
// names a place under field a.
func wantBlockInvalid(t *testing.T, what string, err error) {
	t.Helper()
	var ae *avro.Error
	switch {
	case !errors.Is(err, avro.ErrInvalid):
		t.Errorf("%s: %v, want ErrInvalid", what, err)
	case !errors.As(err, &ae):
		t.Errorf("%s: %v is not an *avro.Error", what, err)
	case ae.Offset < 0 || (ae.Path != "a" && !strings.HasPrefix(ae.Path, "a[") && !strings.HasPrefix(ae.Path, "a.")):
		t.Errorf("%s: %v: want an offset and a path in a", what, err)
	}
}

// TestBlockSizeExampleIsInvalid: the block of blockSizeExample says 3
// bytes for an item of 1. A decoder read its items and ignored the size
// (a=[1], b="\x00\x06xyz") while a skipper, on the same bytes, jumped by
// it (b="xyz"), and both returned a nil error; through a reader with the
// fields in the other order, the transcoder copied the block as far as
// its size says and the decode of the copy failed as an internal error.
func TestBlockSizeExampleIsInvalid(t *testing.T) {
	w := schema.MustParse(blockSizeWriter)
	for _, p := range blockPaths(t, w) {
		v, err := p.read(blockSizeExample)
		wantBlockInvalid(t, p.name, err)
		var ae *avro.Error
		// The block's item ends at offset 3, where the size says 5.
		if errors.As(err, &ae) && ae.Offset != 3 {
			t.Errorf("%s: error at offset %d, want 3 (%v)", p.name, ae.Offset, err)
		}
		if err == nil {
			t.Errorf("%s decoded %v", p.name, v)
		}
	}
	// The typed struct the report used, and the same datum with the
	// right size (1), which decodes.
	var both struct {
		A []int64 `avro:"a"`
		B string  `avro:"b"`
	}
	wantBlockInvalid(t, "struct{A, B}", avro.Unmarshal(w, blockSizeExample, &both))
	var onlyB struct {
		B string `avro:"b"`
	}
	wantBlockInvalid(t, "struct{B}", avro.Unmarshal(w, blockSizeExample, &onlyB))
	good := []byte{0x01, 0x02, 0x02, 0x00, 0x06, 0x78, 0x79, 0x7a}
	if err := avro.Unmarshal(w, good, &both); err != nil || len(both.A) != 1 || both.A[0] != 1 || both.B != "xyz" {
		t.Errorf("the right size: %+v, %v", both, err)
	}
	if err := avro.Unmarshal(w, good, &onlyB); err != nil || onlyB.B != "xyz" {
		t.Errorf("the right size, skipped: %+v, %v", onlyB, err)
	}
}

// blockItems is one kind of collection item for the block size cases:
// the schema of a, and the encoding of one block's items (keys included
// for a map) and their count.
type blockItems struct {
	name  string
	a     string
	items []byte
	count int64
}

func blockItemCases() []blockItems {
	zz := func(v int64) []byte { return varint.AppendLong(nil, v) }
	str := func(s string) []byte { return append(zz(int64(len(s))), s...) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	f64 := func(f float64) []byte {
		b := make([]byte, 8)
		u := math.Float64bits(f)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		return b
	}
	rec := `{"type":"record","name":"P","fields":[{"name":"x","type":"int"},{"name":"s","type":"string"}]}`
	arr := func(items string) string { return `{"type":"array","items":` + items + `}` }
	mp := func(values string) string { return `{"type":"map","values":` + values + `}` }
	return []blockItems{
		{"array of long", arr(`"long"`), cat(zz(1), zz(300)), 2},
		{"array of int", arr(`"int"`), cat(zz(-7), zz(1<<20)), 2},
		{"array of double", arr(`"double"`), cat(f64(1.5), f64(-2)), 2},
		{"array of float", arr(`"float"`), []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0x40}, 2},
		{"array of boolean", arr(`"boolean"`), []byte{1, 0, 1}, 3},
		{"array of string", arr(`"string"`), cat(str("hi"), str(""), str("there")), 3},
		{"array of bytes", arr(`"bytes"`), cat(str("\x01\x02"), str("")), 2},
		{"array of enum", arr(`{"type":"enum","name":"E","symbols":["A","B"]}`), cat(zz(1), zz(0)), 2},
		{"array of fixed", arr(`{"type":"fixed","name":"F","size":2}`), []byte("abcd"), 2},
		{"array of records", arr(rec), cat(zz(5), str("z"), zz(6), str("")), 2},
		{"array of unions", arr(`["null","long"]`), cat(zz(1), zz(7), zz(0)), 2},
		{"array of nulls", arr(`"null"`), nil, 4},
		{"array of plain arrays", arr(arr(`"long"`)), cat(zz(1), zz(3), zz(0), zz(0)), 2},
		{"map of string", mp(`"string"`), cat(str("k"), str("v"), str("m"), str("")), 2},
		{"map of long", mp(`"long"`), cat(str("k"), zz(1), str("m"), zz(-300)), 2},
		{"map of int", mp(`"int"`), cat(str("k"), zz(1)), 1},
		{"map of double", mp(`"double"`), cat(str("k"), f64(0.5)), 1},
		{"map of boolean", mp(`"boolean"`), cat(str("k"), []byte{1}), 1},
		{"map of bytes", mp(`"bytes"`), cat(str("k"), str("\xff")), 1},
		{"map of records", mp(rec), cat(str("k"), zz(1), str("p"), str("m"), zz(2), str("")), 2},
		{"map of arrays", mp(arr(`"int"`)), cat(str("k"), zz(2), zz(1), zz(2), zz(0)), 1},
		{"map of unions", mp(`["null","string"]`), cat(str("k"), zz(0), str("m"), zz(1), str("s")), 2},
	}
}

// blockDatum is a datum of record {a, b}: a in one block of items with
// the given size (-1: a plain count), then b = "end".
func blockDatum(items []byte, count, size int64) []byte {
	var b []byte
	if size < 0 {
		b = varint.AppendLong(b, count)
	} else {
		b = varint.AppendLong(b, -count)
		b = varint.AppendLong(b, size)
	}
	b = append(b, items...)
	b = append(b, 0)
	b = varint.AppendLong(b, 3)
	return append(b, "end"...)
}

func blockWriter(a string) *schema.Schema {
	return schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":` + a + `},{"name":"b","type":"string"}]}`)
}

// TestBlockSizeMustMatchItems: for arrays and maps of every kind of item,
// and every path (each element kind has its own decode loop: the typed
// slices of long, int, double, float, boolean, string and bytes, the maps
// of strings and of primitives, any, value.Value, skippers, the
// transcoder), a block whose size is right decodes as the same datum
// written with a plain count, and a block whose size is too large, too
// small, zero or huge is ErrInvalid. Every path but the framer's ignored
// the size when it decoded and jumped by it when it skipped.
func TestBlockSizeMustMatchItems(t *testing.T) {
	for _, c := range blockItemCases() {
		w := blockWriter(c.a)
		n := int64(len(c.items))
		sizes := map[string]int64{"one byte too many": n + 1, "huge": 1 << 40}
		if n > 0 {
			sizes["one byte too few"] = n - 1
			sizes["zero"] = 0
		} else {
			sizes["one byte"] = 1
		}
		plain, sized := blockDatum(c.items, c.count, -1), blockDatum(c.items, c.count, n)
		for _, p := range blockPaths(t, w) {
			want, err := p.read(plain)
			if err != nil {
				t.Fatalf("%s, %s: plain count: %v", c.name, p.name, err)
			}
			if b := decodedB(want); b != "end" {
				t.Errorf("%s, %s: plain count: b = %q, want end", c.name, p.name, b)
			}
			got, err := p.read(sized)
			if err != nil {
				t.Errorf("%s, %s: the right size: %v", c.name, p.name, err)
			} else if !sameDecoded(got, want) {
				t.Errorf("%s, %s: the right size decodes as %v, a plain count as %v", c.name, p.name, got, want)
			}
			for label, size := range sizes {
				_, err := p.read(blockDatum(c.items, c.count, size))
				wantBlockInvalid(t, fmt.Sprintf("%s, %s, size %s", c.name, p.name, label), err)
			}
		}
	}
}

// decodedB returns field b of a datum a path decoded.
func decodedB(v any) string {
	switch v := v.(type) {
	case value.Value:
		return v.Record().Field("b").Str()
	case map[string]any:
		s, _ := v["b"].(string)
		return s
	}
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		if rv.Type().Field(i).Tag.Get("avro") == "b" {
			return rv.Field(i).String()
		}
	}
	return ""
}

// sameDecoded compares two decoded datums, value.Value by value.Equal.
func sameDecoded(a, b any) bool {
	va, okA := a.(value.Value)
	vb, okB := b.(value.Value)
	if okA && okB {
		return value.Equal(va, vb)
	}
	return reflect.DeepEqual(a, b)
}

// TestBlockSizeNested: arrays of arrays whose inner or outer blocks give
// their sizes. An inner block's items must end at its size, and within
// the outer block: an inner block that runs past the outer one's end is
// ErrInvalid even when its own size holds its items. (The streaming
// Decoder's framer, reading one byte at a time, panicked on that one: it
// let the inner items run past the outer end, then sliced the input at
// the outer end below its position.)
func TestBlockSizeNested(t *testing.T) {
	zz := func(v int64) []byte { return varint.AppendLong(nil, v) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	w := blockWriter(`{"type":"array","items":{"type":"array","items":"long"}}`)
	inner := cat(zz(-2), zz(2), zz(1), zz(2), zz(0)) // [1, 2], sized right: 5 bytes
	badInner := cat(zz(-2), zz(3), zz(1), zz(2), zz(0))
	tail := cat(zz(0), zz(3), []byte("end"))
	cases := []struct {
		name string
		data []byte
		ok   bool
	}{
		{"both right", cat(zz(-1), zz(5), inner, tail), true},
		{"inner right, outer plain", cat(zz(1), inner, tail), true},
		{"inner wrong, outer plain", cat(zz(1), badInner, tail), false},
		{"inner wrong, outer right", cat(zz(-1), zz(5), badInner, tail), false},
		{"inner right, outer too large", cat(zz(-1), zz(6), inner, tail), false},
		{"inner right, outer too small", cat(zz(-1), zz(4), inner, tail), false},
		// The outer block ends after the inner one's first item; the
		// inner one's size would hold both.
		{"inner runs past the outer end", cat(zz(-1), zz(3), inner, tail), false},
		{"two outer items, the second past the outer end", cat(zz(-2), zz(5), inner, inner, tail), false},
	}
	for _, c := range cases {
		for _, p := range blockPaths(t, w) {
			_, err := p.read(c.data)
			if c.ok {
				if err != nil {
					t.Errorf("%s, %s: %v", c.name, p.name, err)
				}
				continue
			}
			wantBlockInvalid(t, c.name+", "+p.name, err)
		}
	}
}

// javaBlockingVectors are datums written by Apache Avro Java's
// BlockingBinaryEncoder, whose blocks give their sizes (mixed, for long
// collections, with blocks that do not), with the same datums written
// plainly (testdata/blocksize/gen.py).
func javaBlockingVectors(t *testing.T) []struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Sized  string          `json:"sized"`
	Plain  string          `json:"plain"`
} {
	raw, err := os.ReadFile(filepath.Join("testdata", "blocksize", "java_blocking.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Vectors []struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
			Sized  string          `json:"sized"`
			Plain  string          `json:"plain"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Vectors) < 15 {
		t.Fatalf("only %d vectors", len(doc.Vectors))
	}
	return doc.Vectors
}

// TestBlockSizeJavaWriter: what Java writes with block sizes reads, on
// every path, as the same datum written without them, so the check of
// the sizes refuses no legitimate data.
func TestBlockSizeJavaWriter(t *testing.T) {
	for _, v := range javaBlockingVectors(t) {
		w, err := schema.Parse(string(v.Schema))
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		sized, err1 := hex.DecodeString(v.Sized)
		plain, err2 := hex.DecodeString(v.Plain)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad hex", v.Name)
		}
		if v.Name != "empty array" && bytes.Equal(sized, plain) {
			t.Fatalf("%s: the sized encoding has no sizes", v.Name)
		}
		for _, p := range blockPaths(t, w) {
			want, err := p.read(plain)
			if err != nil {
				t.Fatalf("%s, %s: plain: %v", v.Name, p.name, err)
			}
			if b := decodedB(want); b != "end" {
				t.Errorf("%s, %s: plain: b = %q, want end", v.Name, p.name, b)
			}
			got, err := p.read(sized)
			if err != nil {
				t.Errorf("%s, %s: sized: %v", v.Name, p.name, err)
			} else if !sameDecoded(got, want) {
				t.Errorf("%s, %s: sized decodes as %v, plain as %v", v.Name, p.name, got, want)
			}
		}
	}
}

// stallReader gives its data one byte per Read and then, rather than
// block as a connection that stays open would, records that the Decoder
// asked for more and reports the end.
type stallReader struct {
	data   []byte
	waited bool
}

func (r *stallReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		r.waited = true
		return 0, io.EOF
	}
	p[0], r.data = r.data[0], r.data[1:]
	return 1, nil
}

// TestDecoderFramerStopsAtSizedBlockEnds: the streaming Decoder frames a
// datum after its second truncated decode, and the framer must stop
// wherever the decode fails without more bytes, or on a connection that
// stays open Decode waits for bytes that cannot make the datum valid. The
// framer let the items of an inner sized block run past the end of the
// outer block (it kept only the innermost end), and read the items of a
// block that declares more of them than its size can hold.
func TestDecoderFramerStopsAtSizedBlockEnds(t *testing.T) {
	zz := func(v int64) []byte { return varint.AppendLong(nil, v) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	nested := schema.MustParse(`{"type":"array","items":{"type":"array","items":"long"}}`)
	longs := schema.MustParse(`{"type":"array","items":"long"}`)
	// Plain one-item blocks first, so that the decode is cut short twice
	// before the framer takes over.
	plainNested := cat(zz(1), zz(1), zz(1), zz(0), zz(1), zz(1), zz(2), zz(0))
	plainLongs := cat(zz(1), zz(1), zz(1), zz(2))
	cases := []struct {
		name string
		s    *schema.Schema
		data []byte
	}{
		// An outer block of 3 bytes: the inner block's header (2 bytes)
		// and its first item; the inner block says 20 bytes for 5 items,
		// and the stream pauses after its third.
		{"inner items past the outer end", nested, cat(plainNested, zz(-1), zz(3), zz(-5), zz(20), zz(1), zz(2), zz(3))},
		// Five items of a byte or more cannot fit in 2 bytes; the stream
		// pauses after the two.
		{"more items than the size holds", longs, cat(plainLongs, zz(-5), zz(2), zz(1), zz(1))},
	}
	for _, c := range cases {
		r := &stallReader{data: c.data}
		var v any
		err := avro.NewDecoder(r, c.s).Decode(&v)
		if !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", c.name, err)
		}
		if r.waited {
			t.Errorf("%s: Decode asked for bytes past the datum's bad block", c.name)
		}
	}
}
