package avro_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Short strings and bytes of successive decodes share 1 KiB chunks kept
// with the pooled decode state. A region once handed out must never be
// written again: strings kept from earlier decodes stay intact, and
// writing into one decoded bytes value changes no other value.
func TestSharedChunksKeepEarlierDecodes(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"s","type":"string"},{"name":"b","type":"bytes"},
		{"name":"a","type":{"type":"array","items":"long"}}]}`)
	type rec struct {
		S string  `avro:"s"`
		B []byte  `avro:"b"`
		A []int64 `avro:"a"`
	}
	const n = 2000
	var structs []rec
	var values []value.Value
	for i := range n {
		want := rec{S: fmt.Sprintf("string-%d-%s", i, "xxxxxxxxxxxxxxxxxxxxxxxx"[:i%25]), B: []byte(fmt.Sprintf("b%d", i)),
			A: []int64{int64(i), -int64(i), 3}[:1+i%3]}
		data, err := avro.Marshal(s, &want)
		if err != nil {
			t.Fatal(err)
		}
		var got rec
		var v value.Value
		if err := avro.Unmarshal(s, data, &got); err != nil {
			t.Fatal(err)
		}
		if err := avro.Unmarshal(s, data, &v); err != nil {
			t.Fatal(err)
		}
		structs = append(structs, got)
		values = append(values, v)
	}
	for i, v := range values {
		if got := v.Record().FieldAt(2).Int64s(); len(got) != 1+i%3 || got[0] != int64(i) {
			t.Fatalf("value %d: a = %v after later decodes", i, got)
		}
	}
	// Scribble over every decoded bytes value of the generic form: its
	// capacity is its length, so an append cannot reach a neighbour, and
	// writes inside it touch nothing else.
	for _, v := range values {
		b := v.Record().FieldAt(1).Bytes()
		if cap(b) != len(b) {
			t.Fatalf("decoded bytes have spare capacity %d", cap(b)-len(b))
		}
		for j := range b {
			b[j] = '#'
		}
		_ = append(b, '!')
		a := v.Record().FieldAt(2).Int64s() // short typed arrays share the chunk too
		if cap(a) != len(a) {
			t.Fatalf("decoded []int64 has spare capacity %d", cap(a)-len(a))
		}
		for j := range a {
			a[j] = -1 << 62
		}
		_ = append(a, 1)
	}
	// The same for the structs' bytes, which are carved from the chunk too.
	for _, r := range structs {
		if cap(r.B) != len(r.B) {
			t.Fatalf("decoded []byte field has spare capacity %d", cap(r.B)-len(r.B))
		}
		for j := range r.B {
			r.B[j] = '%'
		}
		_ = append(r.B, '!')
	}
	for i := range n {
		wantS := fmt.Sprintf("string-%d-%s", i, "xxxxxxxxxxxxxxxxxxxxxxxx"[:i%25])
		wantB := strings.Repeat("%", len(fmt.Sprintf("b%d", i)))
		if structs[i].S != wantS || string(structs[i].B) != wantB {
			t.Fatalf("struct %d = %+v after later decodes", i, structs[i])
		}
		if got := values[i].Record().FieldAt(0).Str(); got != wantS {
			t.Fatalf("value %d: s = %q after later decodes", i, got)
		}
		if got := structs[i].A; len(got) != 1+i%3 || got[0] != int64(i) {
			t.Fatalf("struct %d: a = %v", i, got)
		}
		for _, x := range values[i].Record().FieldAt(2).Int64s() {
			if x != -1<<62 {
				t.Fatalf("value %d: a = %v: another value's write reached it", i, values[i].Record().FieldAt(2).Int64s())
			}
		}
	}
}

// An empty bytes value decodes to an empty, non-nil slice (nil would be
// the null of ["null","bytes"]), short and long values to slices of their
// own length.
func TestDecodedBytesLengths(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":"bytes"},{"name":"b","type":["null","bytes"]},{"name":"c","type":"bytes"},{"name":"d","type":"bytes"}]}`)
	type rec struct {
		A []byte  `avro:"a"`
		B *[]byte `avro:"b"`
		C []byte  `avro:"c"`
		D []byte  `avro:"d"`
	}
	empty := []byte{}
	in := rec{A: []byte{}, B: &empty, C: []byte(strings.Repeat("c", 256)), D: []byte(strings.Repeat("d", 257))}
	var out rec
	if err := avro.Unmarshal(s, mustMarshal(t, s, &in), &out); err != nil {
		t.Fatal(err)
	}
	if out.A == nil || len(out.A) != 0 || out.B == nil || *out.B == nil || len(*out.B) != 0 {
		t.Fatalf("empty bytes decoded as %#v and %#v", out.A, out.B)
	}
	if string(out.C) != string(in.C) || cap(out.C) != 256 || string(out.D) != string(in.D) || cap(out.D) != 257 {
		t.Fatalf("256 and 257 bytes decoded with lengths %d, %d and capacities %d, %d", len(out.C), len(out.D), cap(out.C), cap(out.D))
	}
}

func mustMarshal(t *testing.T, s *schema.Schema, v any) []byte {
	t.Helper()
	data, err := avro.Marshal(s, v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Blocks of eight or more strings are copied with one memmove and the
// strings point into the copy. Errors must still name the item, as the
// string-by-string path does, and every string must be its own value.
func TestStringBlocksCopiedAtOnce(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":"string"}`)
	want := []string{"", "a", "bc", "", "déf", "ghij", "", "k", "lmnop", "", "q"}
	data, err := avro.Marshal(s, want)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := avro.Unmarshal(s, data, &got); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// One string cut short: the error is at its index.
	cut := data[:len(data)-3]
	err = avro.Unmarshal(s, cut, &got)
	var e *avro.Error
	if !errors.As(err, &e) || !errors.Is(err, avro.ErrTruncated) || e.Path != "[10]" {
		t.Errorf("truncated block: %v (path %q), want ErrTruncated at [10]", err, pathOf(err))
	}
	// Invalid UTF-8 in item 7 with ValidateUTF8.
	bad := append([]string(nil), want...)
	bad[7] = "\xff"
	badData, err := avro.Marshal(s, bad)
	if err != nil {
		t.Fatal(err)
	}
	err = avro.DecodeOptions{ValidateUTF8: true}.Unmarshal(s, badData, &got)
	if !errors.Is(err, avro.ErrInvalid) || pathOf(err) != "[7]" {
		t.Errorf("invalid UTF-8: %v (path %q), want ErrInvalid at [7]", err, pathOf(err))
	}
	if err := avro.Unmarshal(s, badData, &got); err != nil || got[7] != "\xff" {
		t.Errorf("default decode of invalid UTF-8: %q, %v", got, err)
	}
	// A length over MaxLength in item 3.
	err = avro.DecodeOptions{MaxLength: 2}.Unmarshal(s, data, &got)
	if !errors.Is(err, avro.ErrLimit) || pathOf(err) != "[4]" {
		t.Errorf("MaxLength: %v (path %q), want ErrLimit at [4]", err, pathOf(err))
	}
}

func pathOf(err error) string {
	var e *avro.Error
	if errors.As(err, &e) {
		return e.Path
	}
	return ""
}
