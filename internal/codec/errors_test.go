package codec

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

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Error reporting and hostile input: every decode error is an *Error with
// the path and offset of the bad value, matching one of the sentinels;
// declared counts and lengths never drive allocation; depth is bounded.

// errAs returns err as an *Error, failing the test when it is not one or
// does not match sentinel.
func errAs(t *testing.T, err, sentinel error, context string) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want %v", context, sentinel)
	}
	var ae *Error
	if !errors.As(err, &ae) {
		t.Fatalf("%s: %T %v is not an *avro.Error", context, err, err)
	}
	if !errors.Is(err, sentinel) {
		t.Fatalf("%s: %v does not match %v", context, err, sentinel)
	}
	return ae
}

// wantErr is errAs for a caller that needs no more than the checks.
func wantErr(t *testing.T, err, sentinel error, context string) {
	t.Helper()
	_ = errAs(t, err, sentinel, context)
}

const errOrderSchema = `{"type":"record","name":"Order","namespace":"errt","fields":[
	{"name":"id","type":"long"},
	{"name":"items","type":{"type":"array","items":{"type":"record","name":"Item","fields":[
		{"name":"name","type":"string"},{"name":"qty","type":"int"}]}}},
	{"name":"byName","type":{"type":"map","values":"Item"}},
	{"name":"flags","type":{"type":"array","items":"boolean"}},
	{"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B"]}},
	{"name":"note","type":["null","string"]}]}`

type errItem struct {
	Name string `avro:"name"`
	Qty  int32  `avro:"qty"`
}

type errOrder struct {
	ID     int64              `avro:"id"`
	Items  []errItem          `avro:"items"`
	ByName map[string]errItem `avro:"byName"`
	Flags  []bool             `avro:"flags"`
	Kind   string             `avro:"kind"`
	Note   *string            `avro:"note"`
}

// errOrderParts builds an Order datum piece by piece, so that the offset
// of every piece is known. bad replaces one piece by name.
func errOrderParts(bad map[string][]byte) (data []byte, offsets map[string]int) {
	offsets = map[string]int{}
	add := func(name string, b []byte) {
		if r, ok := bad[name]; ok {
			b = r
		}
		offsets[name] = len(data)
		data = append(data, b...)
	}
	add("id", propLong(12345))
	add("items.count", propLong(5))
	for i := range 5 {
		add(fmt.Sprintf("items[%d].name", i), propStr(fmt.Sprintf("item%d", i)))
		add(fmt.Sprintf("items[%d].qty", i), propLong(int64(i)))
	}
	add("items.end", propLong(0))
	add("byName.count", propLong(2))
	add("byName.k0", propStr("k0"))
	add(`byName["k0"].name`, propStr("x"))
	add(`byName["k0"].qty`, propLong(1))
	add("byName.k1", propStr("k1"))
	add(`byName["k1"].name`, propStr("y"))
	add(`byName["k1"].qty`, propLong(2))
	add("byName.end", propLong(0))
	add("flags.count", propLong(4))
	add("flags[0]", []byte{1})
	add("flags[1]", []byte{0})
	add("flags[2]", []byte{1})
	add("flags[3]", []byte{1})
	add("flags.end", propLong(0))
	add("kind", propLong(1))
	add("note", propCat(propLong(1), propStr("hello")))
	return data, offsets
}

func TestErrPathAndOffset(t *testing.T) {
	s := propParse(t, errOrderSchema)
	good, _ := errOrderParts(nil)
	var o errOrder
	if err := Unmarshal(s, good, &o); err != nil {
		t.Fatalf("valid datum: %v", err)
	}
	cases := []struct {
		piece    string
		bad      []byte
		sentinel error
		path     string
	}{
		{"items[3].name", propLong(-1), ErrInvalid, "items[3].name"},
		{"items[3].qty", propLong(math.MaxInt32 + 1), ErrInvalid, "items[3].qty"},
		{"items[0].name", []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, ErrInvalid, "items[0].name"},
		{`byName["k1"].qty`, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, ErrInvalid, `byName["k1"].qty`},
		{"byName.k1", propLong(-3), ErrInvalid, "byName[1]"},
		{"flags[2]", []byte{2}, ErrInvalid, "flags"},
		{"kind", propLong(2), ErrInvalid, "kind"},
		{"kind", propLong(-1), ErrInvalid, "kind"},
		{"note", propLong(2), ErrInvalid, "note"},
		{"note", propLong(-1), ErrInvalid, "note"},
		{"items.count", propCat(propLong(-1), propLong(-5)), ErrInvalid, "items"},
		{"items.count", propLong(math.MinInt64), ErrInvalid, "items"},
	}
	for _, tc := range cases {
		t.Run(tc.piece+"="+fmt.Sprintf("%x", tc.bad), func(t *testing.T) {
			data, offsets := errOrderParts(map[string][]byte{tc.piece: tc.bad})
			start := offsets[tc.piece]
			end := start + len(tc.bad)
			for _, target := range []any{new(errOrder), new(any), new(value.Value), new(map[string]any)} {
				err := Unmarshal(s, data, target)
				ae := errAs(t, err, tc.sentinel, fmt.Sprintf("into %T", target))
				if ae.Op != "unmarshal" {
					t.Errorf("into %T: Op %q", target, ae.Op)
				}
				if ae.Offset < int64(start) || ae.Offset > int64(end) {
					t.Errorf("into %T: offset %d, want within the bad piece [%d, %d]", target, ae.Offset, start, end)
				}
				if _, isStruct := target.(*errOrder); isStruct || !strings.HasPrefix(tc.path, "flags") {
					if ae.Path != tc.path {
						t.Errorf("into %T: path %q, want %q", target, ae.Path, tc.path)
					}
				} else if !strings.HasPrefix(ae.Path, "flags") {
					t.Errorf("into %T: path %q, want flags or flags[2]", target, ae.Path)
				}
				if msg := err.Error(); !strings.Contains(msg, ae.Path) || !strings.Contains(msg, fmt.Sprint(ae.Offset)) {
					t.Errorf("message %q lacks the path or the offset", msg)
				}
			}
		})
	}

	// Trailing bytes after a datum.
	err := Unmarshal(s, append(bytes.Clone(good), 0), &o)
	ae := errAs(t, err, ErrInvalid, "trailing byte")
	if ae.Offset != int64(len(good)) {
		t.Errorf("trailing byte at offset %d, want %d", ae.Offset, len(good))
	}

	// A Decoder reports the offset in the stream: the bad datum is the
	// second one.
	data, offsets := errOrderParts(map[string][]byte{"items[3].name": propLong(-1)})
	stream := append(bytes.Clone(good), data...)
	dec := NewDecoder(bytes.NewReader(stream), s)
	if err := dec.Decode(&o); err != nil {
		t.Fatal(err)
	}
	err = dec.Decode(&o)
	ae = errAs(t, err, ErrInvalid, "Decoder, second datum")
	want := int64(len(good) + offsets["items[3].name"])
	if ae.Path != "items[3].name" || ae.Offset < want || ae.Offset > want+1 {
		t.Errorf("Decoder error at %s offset %d, want items[3].name at %d", ae.Path, ae.Offset, want)
	}
}

// TestErrMarshalPath checks the path of encode errors.
func TestErrMarshalPath(t *testing.T) {
	s := propParse(t, errOrderSchema)
	o := errOrder{Items: []errItem{{}, {}, {}}, ByName: map[string]errItem{"k": {}}, Kind: "A"}
	o.Kind = "Z"
	_, err := Marshal(s, &o)
	ae := errAs(t, err, ErrRange, "bad enum symbol")
	if ae.Path != "kind" || ae.Offset != -1 || ae.Op != "marshal" {
		t.Errorf("got %+v, want path kind, offset -1, op marshal", ae)
	}
	type wideItem struct {
		Name string `avro:"name"`
		Qty  int64  `avro:"qty"`
	}
	type wideOrder struct {
		ID     int64
		Items  []wideItem
		ByName map[string]wideItem
		Flags  []bool
		Kind   string
		Note   *string
	}
	w := wideOrder{Items: []wideItem{{}, {}, {Qty: 1 << 40}}, Kind: "A"}
	_, err = Marshal(s, &w)
	if ae := errAs(t, err, ErrRange, "int64 too wide for int"); ae.Path != "items[2].qty" {
		t.Errorf("path %q, want items[2].qty", ae.Path)
	}
	w = wideOrder{ByName: map[string]wideItem{"big": {Qty: -1 << 40}}, Kind: "A"}
	_, err = Marshal(s, &w)
	if ae := errAs(t, err, ErrRange, "int64 too wide for int in a map"); ae.Path != `byName["big"].qty` {
		t.Errorf("path %q, want byName[\"big\"].qty", ae.Path)
	}
}

// errRichSchema has a value of every kind; its datum ends with a non-zero
// long, so no strict prefix of it is a complete datum.
const errRichSchema = `{"type":"record","name":"Rich","namespace":"errt","fields":[
	{"name":"b","type":"boolean"},
	{"name":"i","type":"int"},
	{"name":"l","type":"long"},
	{"name":"f","type":"float"},
	{"name":"d","type":"double"},
	{"name":"s","type":"string"},
	{"name":"by","type":"bytes"},
	{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y","Z"]}},
	{"name":"fx","type":{"type":"fixed","name":"F","size":5}},
	{"name":"longs","type":{"type":"array","items":"long"}},
	{"name":"dbls","type":{"type":"array","items":"double"}},
	{"name":"strs","type":{"type":"array","items":"string"}},
	{"name":"m","type":{"type":"map","values":"int"}},
	{"name":"u","type":["null","string","long"]},
	{"name":"rec","type":{"type":"record","name":"In","fields":[{"name":"x","type":"long"}]}},
	{"name":"recs","type":{"type":"array","items":"In"}},
	{"name":"last","type":"long"}]}`

type errRich struct {
	B     bool
	I     int32
	L     int64
	F     float32
	D     float64
	S     string
	By    []byte
	E     string
	Fx    [5]byte
	Longs []int64
	Dbls  []float64
	Strs  []string
	M     map[string]int
	U     any
	Rec   struct{ X int64 }
	Recs  []struct{ X int64 }
	Last  int64
}

func errRichValue() errRich {
	return errRich{B: true, I: -300, L: 1 << 50, F: 1.5, D: -2.25, S: "héllo", By: []byte{0, 1, 2}, E: "Z",
		Fx: [5]byte{1, 2, 3, 4, 5}, Longs: []int64{1, -1000, 1 << 40}, Dbls: []float64{math.Pi}, Strs: []string{"a", "", "ccc"},
		M: map[string]int{"one": 1, "two": -2}, U: "u", Rec: struct{ X int64 }{-7},
		Recs: []struct{ X int64 }{{1}, {300}}, Last: 99}
}

// Encoding a struct that has no field for a schema field without a
// default says so plainly, rather than that the Go type cannot represent
// the field's Avro type.
func TestErrStructLacksFieldWithoutDefault(t *testing.T) {
	type Line struct {
		SKU string `avro:"sku"`
	}
	type Order struct {
		Lines []Line `avro:"lines"`
	}
	s := schema.MustParse(`{"type":"record","name":"Order","fields":[
		{"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[
			{"name":"sku","type":"string"},
			{"name":"qty","type":"int"},
			{"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}},
			{"name":"note","type":["null","string"]},
			{"name":"ship","type":{"type":"record","name":"com.example.Ship","fields":[]}}]}}}]}`)
	_, err := Marshal(s, &Order{})
	var te *TypeError
	if !errors.As(err, &te) || te.Path != "lines[].qty" || te.GoType != reflect.TypeFor[Line]().String() || te.Schema != "int" {
		t.Fatalf("error %v (%#v), want a *TypeError at lines[].qty", err, te)
	}
	if want := `avro: lines[].qty: struct ` + reflect.TypeFor[Line]().String() + ` has no field for "qty" (int), and the schema gives it no default`; err.Error() != want {
		t.Errorf("message %q\nwant      %q", err, want)
	}
	for _, tc := range []struct{ field, typ string }{
		{"at", "timestamp-millis"},
		{"note", `["null","string"]`},
		{"ship", "com.example.Ship"},
	} {
		type One struct {
			SKU string `avro:"sku"`
		}
		fields := `{"name":"sku","type":"string"},{"name":"` + tc.field + `","type":` + map[string]string{
			"at": `{"type":"long","logicalType":"timestamp-millis"}`, "note": `["null","string"]`,
			"ship": `{"type":"record","name":"com.example.Ship","fields":[]}`}[tc.field] + `}`
		_, err := Marshal(schema.MustParse(`{"type":"record","name":"R","fields":[`+fields+`]}`), &One{})
		want := `avro: ` + tc.field + `: struct ` + reflect.TypeFor[One]().String() + ` has no field for "` + tc.field + `" (` + tc.typ + `), and the schema gives it no default`
		if !errors.As(err, &te) || err.Error() != want {
			t.Errorf("message %v\nwant    %s", err, want)
		}
	}
	// An anonymous struct is named by its type alone.
	_, err = Marshal(schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"n","type":"int"}]}`), &struct{ X int }{})
	if want := `avro: n: struct { X int } has no field for "n" (int), and the schema gives it no default`; err == nil || err.Error() != want {
		t.Errorf("anonymous struct: %v, want %s", err, want)
	}
	// Decoding skips the field: only encoding needs it.
	var o Order
	if err := Unmarshal(s, []byte{0x02, 0x02, 'x', 0x04, 0x00, 0x00, 0x00}, &o); err != nil || len(o.Lines) != 1 || o.Lines[0].SKU != "x" {
		t.Errorf("decode: %+v, %v", o, err)
	}
}

func TestErrTruncatedEveryPrefix(t *testing.T) {
	s := propParse(t, errRichSchema)
	v := errRichValue()
	data, err := Marshal(s, &v)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range [][]byte{data} {
		for i := range len(d) {
			prefix := d[:i]
			for _, target := range []any{new(errRich), new(any), new(value.Value), new(map[string]any)} {
				err := Unmarshal(s, prefix, target)
				wantErr(t, err, ErrTruncated, fmt.Sprintf("prefix %d/%d into %T", i, len(d), target))
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("prefix %d into %T: %v does not match io.ErrUnexpectedEOF", i, target, err)
				}
			}
			// The streaming Decoder: io.EOF for an empty stream, else
			// ErrTruncated.
			dec := NewDecoder(bytes.NewReader(prefix), s)
			err := dec.Decode(new(errRich))
			if i == 0 {
				if err != io.EOF {
					t.Fatalf("Decoder on an empty stream: %v, want io.EOF", err)
				}
				continue
			}
			wantErr(t, err, ErrTruncated, fmt.Sprintf("Decoder, prefix %d", i))
		}
	}
}

// TestErrTruncatedNegativeBlock cuts a negative-count block between its
// count, its size and its items.
func TestErrTruncatedNegativeBlock(t *testing.T) {
	s := propParse(t, `{"type":"array","items":"string"}`)
	data := propCat(propLong(-2), propLong(4), propStr("ab"), propStr(""), propLong(0))
	var got []string
	if err := Unmarshal(s, data, &got); err != nil || len(got) != 2 || got[0] != "ab" {
		t.Fatalf("negative block: %q, %v", got, err)
	}
	for i := range len(data) {
		wantErr(t, Unmarshal(s, data[:i], &got), ErrTruncated, fmt.Sprintf("prefix %d", i))
		wantErr(t, Unmarshal(s, data[:i], new(value.Value)), ErrTruncated, fmt.Sprintf("prefix %d into value.Value", i))
	}
}

// TestErrInvalidScalars covers invalid bytes for each scalar decoder,
// into typed, any and value.Value targets.
func TestErrInvalidScalars(t *testing.T) {
	overlong := append(bytes.Repeat([]byte{0x80}, 10), 0x01)
	tenthTooBig := append(bytes.Repeat([]byte{0xff}, 9), 0x02)
	cases := []struct {
		name     string
		schema   string
		data     []byte
		target   func() any
		sentinel error
	}{
		{"bool 2", `"boolean"`, []byte{2}, func() any { return new(bool) }, ErrInvalid},
		{"bool ff", `"boolean"`, []byte{0xff}, func() any { return new(bool) }, ErrInvalid},
		{"bools fast path", `{"type":"array","items":"boolean"}`, []byte{6, 1, 0, 3, 0}, func() any { return new([]bool) }, ErrInvalid},
		{"overlong long", `"long"`, overlong, func() any { return new(int64) }, ErrInvalid},
		{"long 10th byte", `"long"`, tenthTooBig, func() any { return new(int64) }, ErrInvalid},
		{"overlong int", `"int"`, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, func() any { return new(int32) }, ErrInvalid},
		{"int overflow", `"int"`, []byte{0xff, 0xff, 0xff, 0xff, 0x1f}, func() any { return new(int32) }, ErrInvalid},
		{"overlong in []int64", `{"type":"array","items":"long"}`, propCat([]byte{4, 2}, overlong, []byte{0}), func() any { return new([]int64) }, ErrInvalid},
		{"overlong in []int32", `{"type":"array","items":"int"}`, []byte{4, 2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0}, func() any { return new([]int32) }, ErrInvalid},
		{"negative string length", `"string"`, propLong(-1), func() any { return new(string) }, ErrInvalid},
		{"negative bytes length", `"bytes"`, propLong(-10), func() any { return new([]byte) }, ErrInvalid},
		{"negative length in []string", `{"type":"array","items":"string"}`, propCat(propLong(1), propLong(-2), propLong(0)), func() any { return new([]string) }, ErrInvalid},
		{"negative map key length", `{"type":"map","values":"int"}`, propCat(propLong(1), propLong(-2), propLong(0)), func() any { return new(map[string]int) }, ErrInvalid},
		{"negative block size", `{"type":"array","items":"long"}`, propCat(propLong(-1), propLong(-1), propLong(0), propLong(0)), func() any { return new([]int64) }, ErrInvalid},
		{"negative map block size", `{"type":"map","values":"long"}`, propCat(propLong(-1), propLong(-7), propStr("k"), propLong(0), propLong(0)), func() any { return new(map[string]int64) }, ErrInvalid},
		{"MinInt64 count", `{"type":"array","items":"long"}`, propLong(math.MinInt64), func() any { return new([]int64) }, ErrInvalid},
		{"MinInt64 map count", `{"type":"map","values":"long"}`, propLong(math.MinInt64), func() any { return new(map[string]int64) }, ErrInvalid},
		{"enum index", `{"type":"enum","name":"E","symbols":["A"]}`, propLong(1), func() any { return new(string) }, ErrInvalid},
		{"union index", `["null","int"]`, propLong(2), func() any { return new(*int32) }, ErrInvalid},
		{"union index negative", `["null","int"]`, propLong(-1), func() any { return new(*int32) }, ErrInvalid},
		{"union index huge", `["null","int"]`, propLong(math.MaxInt64), func() any { return new(*int32) }, ErrInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := propParse(t, tc.schema)
			for _, target := range []any{tc.target(), new(any), new(value.Value)} {
				wantErr(t, Unmarshal(s, tc.data, target), tc.sentinel, fmt.Sprintf("into %T", target))
			}
			// Skipped as a field the struct lacks: the same error.
			rec := propParse(t, `{"type":"record","name":"Skip","fields":[{"name":"gone","type":`+tc.schema+`}]}`)
			wantErr(t, Unmarshal(rec, tc.data, new(struct{})), tc.sentinel, "skipped field")
		})
	}
}

var errSink []byte

// errMeasure runs f and returns the bytes it allocated.
func errMeasure(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestErrHostileCounts feeds tiny payloads that declare huge counts and
// lengths. Each must fail (or, for zero-size items within the budget,
// succeed) without allocating more than a few MiB; only 2^20 items, the
// zero-size budget, can succeed, so no decode can loop over more.
func TestErrHostileCounts(t *testing.T) {
	const maxAlloc = 8 << 20
	// The measurement itself sees a large allocation.
	if n := errMeasure(func() { errSink = make([]byte, 16<<20) }); n < 16<<20 {
		t.Fatalf("errMeasure saw %d bytes for a 16 MiB allocation", n)
	}
	errSink = nil
	type payload struct {
		name string
		data []byte
		// fits is set for the payloads that a schema of zero-size items
		// may read: 2^20 items, the default budget, and the end.
		fits bool
	}
	counts := []payload{
		{"2^31 items", propLong(1 << 31), false},
		{"2^40 items", propLong(1 << 40), false},
		{"2^62 items", propLong(1 << 62), false},
		{"MaxInt64 items", propLong(math.MaxInt64), false},
		{"MinInt64 count", propLong(math.MinInt64), false},
		{"-2^40 count, size 1", propCat(propLong(-1<<40), propLong(1)), false},
		{"-2^31 count, size 2^40", propCat(propLong(-1<<31), propLong(1<<40)), false},
		{"2^20 items", propLong(1 << 20), false},
		{"2^20 items then end", propCat(propLong(1<<20), propLong(0)), true},
		{"2^31 items then 1 item", propCat(propLong(1<<31), []byte{0, 0, 0, 0}), false},
	}
	schemas := []struct {
		name, text string
		typed      func() any
	}{
		{"array<long>", `{"type":"array","items":"long"}`, func() any { return new([]int64) }},
		{"array<double>", `{"type":"array","items":"double"}`, func() any { return new([]float64) }},
		{"array<string>", `{"type":"array","items":"string"}`, func() any { return new([]string) }},
		{"array<bytes>", `{"type":"array","items":"bytes"}`, func() any { return new([][]byte) }},
		{"array<record>", `{"type":"array","items":` + propPointSchema + `}`, func() any { return new([]propPoint) }},
		{"array<null>", `{"type":"array","items":"null"}`, func() any { return new([]any) }},
		{"array<empty record>", `{"type":"array","items":{"type":"record","name":"Z","fields":[]}}`, func() any { return new([]struct{}) }},
		{"array<empty record> into [][64]byte-sized structs", `{"type":"array","items":{"type":"record","name":"Z","fields":[]}}`, func() any { return new([]struct{ Pad [64]byte }) }},
		{"array<array<null>>", `{"type":"array","items":{"type":"array","items":"null"}}`, func() any { return new([][]any) }},
		{"map<string>", `{"type":"map","values":"string"}`, func() any { return new(map[string]string) }},
		{"map<null>", `{"type":"map","values":"null"}`, func() any { return new(map[string]any) }},
		{"map<long> named key", `{"type":"map","values":"long"}`, func() any { return new(map[propKey]int64) }},
		{"array<long> into Go array", `{"type":"array","items":"long"}`, func() any { return new([4]int64) }},
	}
	for _, sc := range schemas {
		s := propParse(t, sc.text)
		// Skipping: a record whose only field the Go struct lacks.
		skip := propParse(t, `{"type":"record","name":"Sk","fields":[{"name":"gone","type":`+sc.text+`}]}`)
		for _, p := range counts {
			targets := []struct {
				name string
				run  func() error
			}{
				{"typed", func() error { return Unmarshal(s, p.data, sc.typed()) }},
				{"any", func() error { return Unmarshal(s, p.data, new(any)) }},
				{"value.Value", func() error { return Unmarshal(s, p.data, new(value.Value)) }},
				{"skipped", func() error { return Unmarshal(skip, p.data, new(struct{})) }},
				{"Decoder", func() error { return NewDecoder(bytes.NewReader(p.data), s).Decode(sc.typed()) }},
			}
			for _, tg := range targets {
				// Warm the codec cache, so that the measurement sees the
				// decode only.
				_ = tg.run()
				var err error
				alloc := errMeasure(func() { err = tg.run() })
				ctx := fmt.Sprintf("%s, %s, %s", sc.name, p.name, tg.name)
				if alloc > maxAlloc {
					t.Errorf("%s: allocated %d bytes (err %v)", ctx, alloc, err)
				}
				if err == nil {
					if !p.fits {
						t.Errorf("%s: no error", ctx)
					}
					continue // zero-size items within the budget
				}
				var ae *Error
				if !errors.As(err, &ae) {
					t.Errorf("%s: %T %v is not an *avro.Error", ctx, err, err)
					continue
				}
				if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrRange) {
					t.Errorf("%s: %v matches no sentinel", ctx, err)
				}
			}
		}
	}

	// Payloads that must be errors: real items are bounded by the bytes
	// left, zero-size items by the budget.
	mustFail := []struct {
		schema string
		data   []byte
		want   error // nil: ErrTruncated or ErrLimit
	}{
		{`{"type":"array","items":"long"}`, propLong(1 << 31), nil},
		{`{"type":"array","items":"long"}`, propLong(1 << 40), nil},
		{`{"type":"array","items":"long"}`, propLong(1 << 29), ErrTruncated},
		{`{"type":"array","items":"null"}`, propLong(1 << 40), ErrLimit},
		{`{"type":"array","items":"null"}`, propCat(propLong(1<<20), propLong(1<<20), propLong(0)), ErrLimit},
		{`{"type":"map","values":"null"}`, propLong(1 << 31), nil},
		{`{"type":"map","values":"null"}`, propLong(1 << 29), ErrTruncated},
		{`{"type":"array","items":"long"}`, propLong(math.MinInt64), ErrInvalid},
		{`"string"`, propLong(1 << 40), ErrLimit},
		{`"bytes"`, propLong(1 << 31), ErrLimit},
		{`"string"`, propLong(1 << 29), ErrTruncated},
		{`"bytes"`, propLong(math.MaxInt64), ErrLimit},
	}
	for _, mf := range mustFail {
		s := propParse(t, mf.schema)
		for _, target := range []any{new(any), new(value.Value)} {
			ctx := fmt.Sprintf("%s % x into %T", mf.schema, mf.data, target)
			err := Unmarshal(s, mf.data, target)
			if mf.want != nil {
				wantErr(t, err, mf.want, ctx)
			} else if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrLimit) {
				t.Errorf("%s: %v, want ErrTruncated or ErrLimit", ctx, err)
			}
		}
	}
	// A limit lower than the default applies.
	s := propParse(t, `{"type":"array","items":"long"}`)
	data, _ := Marshal(s, make([]int64, 100))
	wantErr(t, DecodeOptions{MaxItems: 99}.Unmarshal(s, data, new([]int64)), ErrLimit, "MaxItems 99")
	if err := (DecodeOptions{MaxItems: 100}).Unmarshal(s, data, new([]int64)); err != nil {
		t.Errorf("MaxItems 100: %v", err)
	}
	sStr := propParse(t, `"string"`)
	wantErr(t, DecodeOptions{MaxLength: 3}.Unmarshal(sStr, propStr("abcd"), new(string)), ErrLimit, "MaxLength 3")
	wantErr(t, DecodeOptions{MaxAlloc: 1000}.Unmarshal(s, mustMarshal(t, s, make([]int64, 1000)), new([]int64)), ErrLimit, "MaxAlloc 1000")
	sNull := propParse(t, `{"type":"array","items":"null"}`)
	wantErr(t, DecodeOptions{MaxZeroSizeItems: 10}.Unmarshal(sNull, propCat(propLong(11), propLong(0)), new([]any)), ErrLimit, "MaxZeroSizeItems 10")
}

func mustMarshal(t *testing.T, s *schema.Schema, v any) []byte {
	t.Helper()
	b, err := Marshal(s, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// errChain returns the encoding of n propNodes linked by next: value 0,
// no children, then the next node.
func errChain(n int) []byte {
	return append(bytes.Repeat([]byte{0, 0, 2}, n-1), 0, 0, 0)
}

// errNestedChildren returns n propNodes nested through children.
func errNestedChildren(n int) []byte {
	var b []byte
	for range n - 1 {
		b = append(b, 0, 2) // value 0, one child
	}
	b = append(b, 0, 0, 0) // the innermost: value, no children, no next
	for range n - 1 {
		b = append(b, 0, 0) // end of children, no next
	}
	return b
}

func TestErrDepthLimit(t *testing.T) {
	s := propParse(t, propNodeSchema)
	sMap := propParse(t, `{"type":"record","name":"M","fields":[{"name":"m","type":{"type":"map","values":"M"}}]}`)
	// The struct lacks "children" and "next": they are skipped.
	type shallow struct{ Value int64 }
	targets := []func() any{
		func() any { return new(propNode) },
		func() any { return new(any) },
		func() any { return new(value.Value) },
		func() any { return new(map[string]any) },
		func() any { return new(shallow) },
	}
	for _, tf := range targets {
		name := fmt.Sprintf("%T", tf())
		// 100 nodes through next: within the default.
		if err := Unmarshal(s, errChain(100), tf()); err != nil {
			t.Errorf("%s: 100-deep list: %v", name, err)
		}
		// Deep data is ErrLimit, however deep, never a stack overflow.
		for _, n := range []int{200, 1000, 1_000_000} {
			wantErr(t, Unmarshal(s, errChain(n), tf()), ErrLimit, fmt.Sprintf("%s: %d-deep list", name, n))
			wantErr(t, Unmarshal(s, errNestedChildren(n), tf()), ErrLimit, fmt.Sprintf("%s: %d-deep tree", name, n))
			wantErr(t, NewDecoder(bytes.NewReader(errChain(n)), s).Decode(tf()), ErrLimit, fmt.Sprintf("%s: Decoder, %d-deep list", name, n))
		}
		// MaxDepth raises and lowers the limit.
		if err := (DecodeOptions{MaxDepth: 300}).Unmarshal(s, errChain(200), tf()); err != nil {
			t.Errorf("%s: 200-deep list with MaxDepth 300: %v", name, err)
		}
		if err := (DecodeOptions{MaxDepth: 1000}).NewDecoder(bytes.NewReader(errChain(200)), s).Decode(tf()); err != nil {
			t.Errorf("%s: Decoder, 200-deep list with MaxDepth 1000: %v", name, err)
		}
		wantErr(t, DecodeOptions{MaxDepth: 10}.Unmarshal(s, errChain(20), tf()), ErrLimit, name+": MaxDepth 10")
		if err := (DecodeOptions{MaxDepth: 10}).Unmarshal(s, errChain(5), tf()); err != nil {
			t.Errorf("%s: 5-deep list with MaxDepth 10: %v", name, err)
		}
	}
	// Through maps: each level is a record and a map.
	deepMap := append(bytes.Repeat(propCat(propLong(1), propStr("k")), 10000), bytes.Repeat([]byte{0}, 10001)...)
	type mnode struct{ M map[string]mnode }
	for _, target := range []any{new(mnode), new(any), new(value.Value), new(struct{})} {
		wantErr(t, Unmarshal(sMap, deepMap, target), ErrLimit, fmt.Sprintf("deep maps into %T", target))
	}

	// Encoding: a deep value is ErrLimit by default and fine with a
	// higher EncodeOptions.MaxDepth.
	var deep *propNode
	for i := range 300 {
		deep = &propNode{Value: int64(i), Next: deep}
	}
	_, err := Marshal(s, deep)
	wantErr(t, err, ErrLimit, "Marshal of a 300-deep list")
	if _, err := (EncodeOptions{MaxDepth: 400}).Marshal(s, deep); err != nil {
		t.Errorf("Marshal with MaxDepth 400: %v", err)
	}
}

// TestErrCyclicMarshal: a value that contains itself is ErrLimit, not a
// stack overflow, through pointers, slices, maps and value.Value.
func TestErrCyclicMarshal(t *testing.T) {
	s := propParse(t, propNodeSchema)
	n := &propNode{Value: 1}
	n.Next = n
	_, err := Marshal(s, n)
	wantErr(t, err, ErrLimit, "self-pointing *propNode")
	_, err = Append(make([]byte, 0, 64), s, n)
	wantErr(t, err, ErrLimit, "Append of a self-pointing *propNode")
	err = NewEncoder(io.Discard, s).Encode(n)
	wantErr(t, err, ErrLimit, "Encoder of a self-pointing *propNode")

	c := &propNode{Children: make([]propNode, 1)}
	c.Children[0].Children = c.Children
	_, err = Marshal(s, c)
	wantErr(t, err, ErrLimit, "self-containing slice")

	m := map[string]any{"value": int64(1), "children": []any{}}
	m["next"] = m
	var a any = m
	_, err = Marshal(s, &a)
	wantErr(t, err, ErrLimit, "self-containing map[string]any")
	_, err = Marshal(s, m)
	wantErr(t, err, ErrLimit, "self-containing map[string]any as a map")

	rec := value.NewRecord(s, []value.Value{value.Long(1), value.Array(nil), value.Null()})
	rec.Set("next", value.Union(1, value.RecordOf(rec)))
	_, err = Marshal(s, value.RecordOf(rec))
	wantErr(t, err, ErrLimit, "self-containing value.Record")
}

func TestErrInvalidUnmarshal(t *testing.T) {
	s := propParse(t, `"long"`)
	data := propLong(5)
	var x int64
	var nilPtr *int64
	for _, v := range []any{nil, x, nilPtr, "string", struct{}{}} {
		for name, run := range map[string]func() error{
			"Unmarshal":                func() error { return Unmarshal(s, data, v) },
			"DecodeOptions.Unmarshal":  func() error { return DecodeOptions{}.Unmarshal(s, data, v) },
			"Decoder.Decode":           func() error { return NewDecoder(bytes.NewReader(data), s).Decode(v) },
			"UnmarshalNext (prefixed)": func() error { _, err := UnmarshalNext(s, data, v); return err },
		} {
			err := run()
			var iue *InvalidUnmarshalError
			if !errors.As(err, &iue) {
				t.Errorf("%s(%T %v) = %v, want *InvalidUnmarshalError", name, v, v, err)
				continue
			}
			if iue.Error() == "" {
				t.Errorf("empty message")
			}
		}
	}
	// And a valid pointer works after those.
	if err := Unmarshal(s, data, &x); err != nil || x != 5 {
		t.Fatalf("Unmarshal(&x) = %d, %v", x, err)
	}
}

// TestStringMapErrors checks the inline loops of map[string]string: the
// bytes they write, and the path of every decode error, which names the
// entry by index while its key is unread and by key after.
func TestStringMapErrors(t *testing.T) {
	s := propParse(t, `{"type":"record","name":"M","fields":[{"name":"attrs","type":{"type":"map","values":"string"}}]}`)
	type rec struct {
		Attrs map[string]string `avro:"attrs"`
	}
	data, err := Marshal(s, &rec{Attrs: map[string]string{"k": "vv"}})
	if err != nil {
		t.Fatal(err)
	}
	// One block of one entry: count 1, "k", "vv", the end of the map.
	if want := []byte{2, 2, 'k', 4, 'v', 'v', 0}; !bytes.Equal(data, want) {
		t.Fatalf("encoded % x, want % x", data, want)
	}
	var got rec
	if err := Unmarshal(s, data, &got); err != nil || got.Attrs["k"] != "vv" || len(got.Attrs) != 1 {
		t.Fatalf("decoded %v, %v", got.Attrs, err)
	}
	for _, c := range []struct {
		data []byte
		path string
	}{
		{data[:3], `attrs["k"]`},              // the value is missing
		{data[:5], `attrs["k"]`},              // the value is cut short
		{[]byte{2, 10, 'k', 'x'}, "attrs[0]"}, // the key is cut short
		{[]byte{4, 2, 'k', 0, 1}, "attrs[1]"}, // the second key's length is odd (negative)
		// the second block's key is cut short: entries count across blocks
		{[]byte{2, 2, 'k', 2, 'v', 2, 10, 'x', 'y'}, "attrs[1]"},
	} {
		err := Unmarshal(s, c.data, new(rec))
		var ae *Error
		if !errors.As(err, &ae) || ae.Path != c.path {
			t.Errorf("% x: %v, want an *Error at %s", c.data, err, c.path)
		}
	}
	strict := DecodeOptions{ValidateUTF8: true}
	bad := []byte{2, 2, 'k', 2, 0xff, 0}
	var ae *Error
	if err := strict.Unmarshal(s, bad, new(rec)); !errors.Is(err, ErrInvalid) || !errors.As(err, &ae) || ae.Path != `attrs["k"]` {
		t.Errorf("invalid UTF-8 value: %v, want ErrInvalid at attrs[\"k\"]", err)
	}
}
