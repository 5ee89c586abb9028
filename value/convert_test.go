package value

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/avrogo/avro/schema"
)

const allSchema = `{"type": "record", "name": "All", "namespace": "t", "fields": [
	{"name": "n", "type": "null"},
	{"name": "b", "type": "boolean"},
	{"name": "i", "type": "int"},
	{"name": "l", "type": "long"},
	{"name": "f", "type": "float"},
	{"name": "d", "type": "double"},
	{"name": "by", "type": "bytes"},
	{"name": "s", "type": "string"},
	{"name": "e", "type": {"type": "enum", "name": "Suit", "symbols": ["S", "H", "D", "C"]}},
	{"name": "fx", "type": {"type": "fixed", "name": "F4", "size": 4}},
	{"name": "ai", "type": {"type": "array", "items": "int"}},
	{"name": "al", "type": {"type": "array", "items": "long"}},
	{"name": "af", "type": {"type": "array", "items": "float"}},
	{"name": "ad", "type": {"type": "array", "items": "double"}},
	{"name": "ab", "type": {"type": "array", "items": "boolean"}},
	{"name": "as", "type": {"type": "array", "items": "string"}},
	{"name": "m", "type": {"type": "map", "values": "long"}},
	{"name": "u", "type": ["null", "string", "long"]},
	{"name": "ur", "type": ["null", {"type": "record", "name": "Inner", "fields": [{"name": "x", "type": "int"}]}]},
	{"name": "nested", "type": {"type": "array", "items": "Inner"}},
	{"name": "mu", "type": {"type": "map", "values": ["null", "Suit", "F4"]}},
	{"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
	{"name": "dec", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
	{"name": "def", "type": "string", "default": "dflt"},
	{"name": "udef", "type": ["long", "null"], "default": 7}
]}`

func allData() map[string]any {
	return map[string]any{
		"n": nil, "b": true, "i": int32(-5), "l": int64(1) << 40, "f": float32(1.25), "d": 2.5,
		"by": []byte{0, 1, 2}, "s": "str", "e": "D", "fx": []byte("abcd"),
		"ai": []any{int32(1), int32(2)}, "al": []any{int64(3)}, "af": []any{float32(0.5)},
		"ad": []any{1.5, math.Inf(-1)}, "ab": []any{true, false}, "as": []any{"x", "y"},
		"m":      map[string]any{"k1": int64(1), "k2": int64(2)},
		"u":      int64(9),
		"ur":     map[string]any{"x": int32(3)},
		"nested": []any{map[string]any{"x": int32(4)}, map[string]any{"x": int32(5)}},
		"mu":     map[string]any{"a": nil, "b": "C", "c": []byte("wxyz")},
		"ts":     int64(1700000000000), "dec": []byte{0x01, 0x00},
		"def": "given", "udef": nil,
	}
}

func TestRoundTripAllTypes(t *testing.T) {
	s := schema.MustParse(allSchema)
	in := allData()
	v, err := FromAny(s, in)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Record()
	// Representation checks.
	for name, elem := range map[string]Kind{"ai": KindInt, "al": KindLong, "af": KindFloat, "ad": KindDouble, "ab": KindBoolean, "as": KindGeneric} {
		if f := r.Field(name); f.ElemKind() != elem || f.IsTyped() != (elem != KindGeneric) {
			t.Errorf("%s: elem %v typed %v", name, f.ElemKind(), f.IsTyped())
		}
	}
	if u := r.Field("u"); u.Branch() != 2 || u.Long() != 9 {
		t.Errorf("u: branch %d", u.Branch())
	}
	if u := r.Field("ur"); u.Branch() != 1 || u.Record().Field("x").Int() != 3 {
		t.Errorf("ur: branch %d", u.Branch())
	}
	if u := r.Field("udef"); u.Branch() != 1 || !u.IsNull() {
		t.Errorf("udef: branch %d", u.Branch())
	}
	mu := r.Field("mu").Map()
	if a, _ := mu.Get("a"); a.Branch() != 0 {
		t.Error("mu a")
	}
	if b, _ := mu.Get("b"); b.Branch() != 1 || b.Symbol() != "C" {
		t.Error("mu b")
	}
	if c, _ := mu.Get("c"); c.Branch() != 2 || c.Kind() != KindFixed {
		t.Error("mu c")
	}
	if e := r.Field("e"); e.Symbol() != "D" || e.EnumIndex() != 2 {
		t.Error("enum")
	}
	if mu.Key(0) != "a" || mu.Key(2) != "c" {
		t.Error("map keys not sorted")
	}
	// Back to plain data.
	out := ToAny(v)
	if !reflect.DeepEqual(out, any(in)) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", out, in)
	}
	// FromAny of ToAny is Equal to the original Value.
	v2, err := FromAny(s, out)
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(v, v2) {
		t.Fatalf("Equal after round trip:\n%v\n%v", v, v2)
	}
	// Bytes are copied in.
	in["by"].([]byte)[0] = 99
	if r.Field("by").Bytes()[0] != 0 {
		t.Fatal("FromAny aliases input bytes")
	}
	want := `{"n": null, "b": true, "i": -5, "l": 1099511627776, "f": 1.25, "d": 2.5, "by": "\u0000\u0001\u0002", ` +
		`"s": "str", "e": "D", "fx": "abcd", "ai": [1, 2], "al": [3], "af": [0.5], "ad": [1.5, -Inf], ` +
		`"ab": [true, false], "as": ["x", "y"], "m": {"k1": 1, "k2": 2}, "u": 9, "ur": {"x": 3}, ` +
		`"nested": [{"x": 4}, {"x": 5}], "mu": {"a": null, "b": "C", "c": "wxyz"}, "ts": 1700000000000, ` +
		`"dec": "\u0001\u0000", "def": "given", "udef": null}`
	if got := v.String(); got != want {
		t.Fatalf("String:\n got %s\nwant %s", got, want)
	}
}

func TestFromAnyDefaults(t *testing.T) {
	s := schema.MustParse(allSchema)
	in := allData()
	delete(in, "def")
	delete(in, "udef")
	v, err := FromAny(s, in)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Record()
	if r.Field("def").Str() != "dflt" {
		t.Error("string default")
	}
	if u := r.Field("udef"); u.Branch() != 0 || u.Long() != 7 {
		t.Errorf("union default: %v branch %d", u, u.Branch())
	}
}

func TestFromAnyScalars(t *testing.T) {
	type myInt int16
	type myStr string
	type myFloat float64
	type myBool bool
	cases := []struct {
		schema string
		in     any
		want   Value
	}{
		{`"int"`, 7, Int(7)}, {`"int"`, int8(-7), Int(-7)}, {`"int"`, uint16(65535), Int(65535)},
		{`"int"`, uint(1), Int(1)}, {`"int"`, myInt(3), Int(3)}, {`"int"`, json.Number("12"), Int(12)},
		{`"int"`, int64(math.MinInt32), Int(math.MinInt32)},
		{`"long"`, uint64(math.MaxInt64), Long(math.MaxInt64)}, {`"long"`, uintptr(5), Long(5)},
		{`"long"`, uint8(5), Long(5)}, {`"long"`, uint32(5), Long(5)}, {`"long"`, int16(5), Long(5)},
		{`"float"`, 1.5, Float(1.5)}, {`"float"`, 3, Float(3)}, {`"float"`, json.Number("0.5"), Float(0.5)},
		{`"float"`, math.Inf(1), Float(float32(math.Inf(1)))}, {`"float"`, uint8(2), Float(2)},
		{`"double"`, float32(0.5), Double(0.5)}, {`"double"`, int64(1) << 53, Double(1 << 53)},
		{`"double"`, myFloat(2), Double(2)}, {`"double"`, uint64(1) << 53, Double(1 << 53)},
		{`"boolean"`, myBool(true), Bool(true)}, {`"string"`, myStr("s"), String("s")},
		{`"bytes"`, [2]byte{1, 2}, Bytes([]byte{1, 2})}, {`"null"`, nil, Null()},
		{`{"type": "fixed", "name": "U", "size": 16}`, [16]byte{15: 1}, Fixed(append(make([]byte, 15), 1))},
		{`{"type": "array", "items": "long"}`, []int{1, 2}, Int64s([]int64{1, 2})},
		{`{"type": "array", "items": "string"}`, []string{"a"}, Array([]Value{String("a")})},
		{`{"type": "array", "items": "double"}`, [2]float64{1, 2}, Float64s([]float64{1, 2})},
		{`{"type": "map", "values": "int"}`, map[string]int{"b": 2, "a": 1}, MapOf(NewMap([]string{"a", "b"}, []Value{Int(1), Int(2)}))},
		{`["int", "long"]`, int64(5), Union(0, Int(5))},
		{`["int", "long"]`, int64(1) << 40, Union(1, Long(1<<40))},
		{`["int", "double"]`, 1.0, Union(1, Double(1))},
		{`["null", "string"]`, nil, Union(0, Null())},
		{`["null", "string"]`, map[string]any{"string": "x"}, Union(1, String("x"))},
		{`["null", "long", "int"]`, map[string]any{"int": 5}, Union(2, Int(5))},
		{`["null", {"type": "map", "values": "int"}]`, map[string]any{"map": 1}, Union(1, MapOf(NewMap([]string{"map"}, []Value{Int(1)})))},
		{`["string", {"type": "enum", "name": "E", "symbols": ["A"]}]`, map[string]any{"E": "A"}, Union(1, Enum(0))},
		{`["null", {"type": "record", "name": "n.R", "fields": [{"name": "a", "type": "int"}]}]`,
			map[string]any{"n.R": map[string]any{"a": 1}}, Union(1, RecordOf(NewRecord(nil, []Value{Int(1)})))},
		{`["null", {"type": "record", "name": "n.R", "fields": [{"name": "a", "type": "int"}]}]`,
			map[string]any{"R": map[string]any{"a": 1}}, Union(1, RecordOf(NewRecord(nil, []Value{Int(1)})))},
		{`["null", "long"]`, Long(3), Union(1, Long(3))},
		{`["null", "long"]`, Union(1, Long(3)), Union(1, Long(3))},
		{`"long"`, Union(1, Long(3)), Long(3)},
	}
	for _, c := range cases {
		s := schema.MustParse(c.schema)
		got, err := FromAny(s, c.in)
		if err != nil {
			t.Errorf("%s %#v: %v", c.schema, c.in, err)
			continue
		}
		if !Equal(got, c.want) {
			t.Errorf("%s %#v: got %v (branch %d), want %v (branch %d)", c.schema, c.in, got, got.Branch(), c.want, c.want.Branch())
		}
	}
}

func TestFromAnyRecordValue(t *testing.T) {
	s := schema.MustParse(`{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]}`)
	r := NewRecord(s, []Value{Int(1)})
	for _, x := range []any{r, RecordOf(r)} {
		v, err := FromAny(s, x)
		if err != nil || v.Record() != r {
			t.Fatalf("%T: %v", x, err)
		}
	}
}

func TestFromAnyErrors(t *testing.T) {
	const nested = `{"type": "record", "name": "Top", "fields": [
		{"name": "items", "type": {"type": "array", "items": {"type": "record", "name": "Item", "fields": [
			{"name": "name", "type": "string"},
			{"name": "tags", "type": {"type": "map", "values": "int"}}]}}},
		{"name": "opt", "type": ["null", "Item"]}]}`
	item := func(name any) map[string]any { return map[string]any{"name": name, "tags": map[string]any{}} }
	cases := []struct {
		schema string
		in     any
		path   string
		msg    string
	}{
		{nested, map[string]any{"items": []any{item("a"), item("b"), item("c"), item(4)}, "opt": nil},
			"items[3].name", "cannot use int as string"},
		{nested, map[string]any{"items": []any{map[string]any{"name": "a", "tags": map[string]any{"k": "x"}}}, "opt": nil},
			`items[0].tags["k"]`, "cannot use string as int"},
		{nested, map[string]any{"items": []any{}, "opt": map[string]any{"name": "a"}},
			"opt.tags", "missing field"},
		{nested, map[string]any{"items": []any{}, "opt": nil, "extra": 1}, "extra", "no such field in record Top"},
		{nested, map[string]any{"opt": nil}, "items", "missing field"},
		{nested, map[string]any{"items": []any{}, "opt": map[string]any{"Item": map[string]any{"name": 1}}},
			"opt.name", "cannot use int as string"},
		{`"int"`, int64(1) << 31, "", "2147483648 overflows int"},
		{`"int"`, 1.0, "", "cannot use float64 as int"},
		{`"int"`, json.Number("1.5"), "", "is not an integer"},
		{`"long"`, uint64(1) << 63, "", "overflows long"},
		{`"long"`, "1", "", "cannot use string as long"},
		{`"float"`, 1e300, "", "overflows float"},
		{`"float"`, 1 << 25, "", "does not convert exactly to float"},
		{`"double"`, uint64(1)<<53 + 1, "", "does not convert exactly"},
		{`"double"`, json.Number("x"), "", "is not a number"},
		{`"double"`, nil, "", "cannot use nil as double"},
		{`"boolean"`, 1, "", "cannot use int as boolean"},
		{`"null"`, 0, "", "cannot use int as null"},
		{`"bytes"`, "s", "", "cannot use string as bytes"},
		{`{"type": "fixed", "name": "F", "size": 2}`, []byte{1}, "", "1 bytes for fixed F of size 2"},
		{`{"type": "enum", "name": "E", "symbols": ["A"]}`, "B", "", `"B" is not a symbol of enum E`},
		{`{"type": "array", "items": "int"}`, map[string]any{}, "", "cannot use map[string]interface {} as array"},
		{`{"type": "array", "items": "long"}`, []any{1, "x"}, "[1]", "cannot use string as long"},
		{`{"type": "map", "values": "int"}`, map[int]int{}, "", "as map"},
		{`{"type": "map", "values": "int"}`, []any{}, "", "as map"},
		{`["null", "string"]`, 5, "", "int fits no branch of union [null, string]"},
		{`["int", "string"]`, nil, "", "nil fits no branch"},
		{`["null", {"type": "enum", "name": "E", "symbols": ["A"]}]`, "B", "", `"B" is not a symbol`},
		{`["null", "string"]`, map[string]any{"string": 5}, "", "cannot use int as string"},
		{`"long"`, String("x"), "", "cannot use string Value as long"},
		{`["null", "long"]`, String("x"), "", "cannot use string Value as union [null, long]"},
		{`["null", "long"]`, Union(0, Long(1)), "", "long Value with branch 0 does not fit"},
		{`["null", "long"]`, Union(5, Long(1)), "", "branch 5"},
	}
	for _, c := range cases {
		s := schema.MustParse(c.schema)
		v, err := FromAny(s, c.in)
		if err == nil {
			t.Errorf("%s %#v: no error, got %v", c.schema, c.in, v)
			continue
		}
		var ce *ConvertError
		if !errors.As(err, &ce) {
			t.Errorf("%v: not a *ConvertError", err)
			continue
		}
		if ce.Path != c.path || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "value: ") {
			t.Errorf("%s %#v: error %q (path %q), want path %q and %q", c.schema, c.in, err, ce.Path, c.path, c.msg)
		}
		if ce.Unwrap() == nil {
			t.Error("Unwrap")
		}
	}
}

func TestFromAnyDepth(t *testing.T) {
	s := schema.MustParse(`{"type": "record", "name": "L", "fields": [{"name": "next", "type": ["null", "L"]}]}`)
	m := map[string]any{}
	m["next"] = m // contains itself
	if _, err := FromAny(s, m); err == nil || !strings.Contains(err.Error(), "deeper than") {
		t.Fatalf("self-containing input: %v", err)
	}
	var x any = nil
	for range 50 {
		x = map[string]any{"next": x}
	}
	v, err := FromAny(s, x)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ToAny(v), x) {
		t.Fatal("linked list round trip")
	}
}

func TestToAnyScalars(t *testing.T) {
	e := schema.MustParse(`{"type": "enum", "name": "E", "symbols": ["A", "B"]}`)
	cases := []struct {
		v    Value
		want any
	}{
		{Null(), nil}, {Bool(true), true}, {Int(1), int32(1)}, {Long(1), int64(1)}, {Float(1), float32(1)},
		{Double(1), 1.0}, {String("s"), "s"}, {Bytes([]byte{1}), []byte{1}}, {Fixed([]byte{2}), []byte{2}},
		{Enum(1), 1}, {EnumOf(e, 1), "B"}, {Union(3, Long(2)), int64(2)},
		{Int64s([]int64{1}), []any{int64(1)}}, {Bools(nil), []any{}},
		{MapOf(NewMap([]string{"a", "a"}, []Value{Int(1), Int(2)})), map[string]any{"a": int32(2)}},
	}
	for _, c := range cases {
		if got := ToAny(c.v); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ToAny(%v) = %#v, want %#v", c.v, got, c.want)
		}
	}
}
