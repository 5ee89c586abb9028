package value

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"
)

func TestSize(t *testing.T) {
	if got := unsafe.Sizeof(Value{}); got != 16 {
		t.Fatalf("unsafe.Sizeof(Value{}) = %d, want 16", got)
	}
	// The arena places record headers in Value blocks on 64-bit platforms
	// only (arenaSlabs); elsewhere the header is smaller.
	if got := unsafe.Sizeof(Record{}); unsafe.Sizeof(uintptr(0)) == 8 && got != 2*unsafe.Sizeof(Value{}) {
		t.Fatalf("Record header is %d bytes, want two Values", got)
	}
}

func TestZeroIsNull(t *testing.T) {
	var v Value
	if v.Kind() != KindNull || !v.IsNull() || v.Branch() != -1 {
		t.Fatalf("zero Value: kind %v null %v branch %d", v.Kind(), v.IsNull(), v.Branch())
	}
	if !Equal(v, Null()) {
		t.Fatal("zero Value != Null()")
	}
	if v.String() != "null" {
		t.Fatalf("String() = %q", v.String())
	}
}

// mustPanic runs f and returns the *KindError it panics with.
// wantPanic is mustPanic for a caller that needs no more than the checks.
func wantPanic(t *testing.T, f func()) {
	t.Helper()
	_ = mustPanic(t, f)
}

func mustPanic(t *testing.T, f func()) (ke *KindError) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("no panic")
		}
		e, ok := r.(*KindError)
		if !ok {
			t.Fatalf("panic %v (%T), want *KindError", r, r)
		}
		ke = e
	}()
	f()
	return nil
}

func TestScalars(t *testing.T) {
	cases := []struct {
		v    Value
		kind Kind
		get  func(Value) any
		want any
		str  string
	}{
		{Bool(true), KindBoolean, func(v Value) any { return v.Bool() }, true, "true"},
		{Bool(false), KindBoolean, func(v Value) any { return v.Bool() }, false, "false"},
		{Int(-7), KindInt, func(v Value) any { return v.Int() }, int32(-7), "-7"},
		{Int(math.MaxInt32), KindInt, func(v Value) any { return v.Int() }, int32(math.MaxInt32), "2147483647"},
		{Int(math.MinInt32), KindInt, func(v Value) any { return v.Int() }, int32(math.MinInt32), "-2147483648"},
		{Long(math.MinInt64), KindLong, func(v Value) any { return v.Long() }, int64(math.MinInt64), "-9223372036854775808"},
		{Long(math.MaxInt64), KindLong, func(v Value) any { return v.Long() }, int64(math.MaxInt64), "9223372036854775807"},
		{Float(1.5), KindFloat, func(v Value) any { return v.Float() }, float32(1.5), "1.5"},
		{Float(float32(math.Inf(-1))), KindFloat, func(v Value) any { return v.Float() }, float32(math.Inf(-1)), "-Inf"},
		{Double(-0.25), KindDouble, func(v Value) any { return v.Double() }, -0.25, "-0.25"},
		{Double(math.MaxFloat64), KindDouble, func(v Value) any { return v.Double() }, math.MaxFloat64, "1.7976931348623157e+308"},
		{Enum(3), KindEnum, func(v Value) any { return v.EnumIndex() }, 3, "3"},
		{String("héllo"), KindString, func(v Value) any { return v.Str() }, "héllo", `"héllo"`},
		{String(""), KindString, func(v Value) any { return v.Str() }, "", `""`},
	}
	for _, c := range cases {
		for _, br := range []int{-1, 0, 1, 17, 254, 255, 1000} {
			v := c.v.WithBranch(br)
			if v.Kind() != c.kind {
				t.Errorf("%v branch %d: kind %v, want %v", c.want, br, v.Kind(), c.kind)
			}
			if got := c.get(v); got != c.want {
				t.Errorf("%v branch %d: got %v", c.want, br, got)
			}
			if v.Branch() != br {
				t.Errorf("%v: Branch() = %d, want %d", c.want, v.Branch(), br)
			}
			if v.String() != c.str {
				t.Errorf("%v: String() = %q, want %q", c.want, v.String(), c.str)
			}
			if v.IsNull() {
				t.Errorf("%v: IsNull", c.want)
			}
			if !Equal(v, c.v.WithBranch(br)) || (br >= 0 && Equal(v, c.v)) {
				t.Errorf("%v branch %d: Equal wrong", c.want, br)
			}
			if back := v.WithBranch(-1); back.Branch() != -1 || !Equal(back, c.v) {
				t.Errorf("%v branch %d: WithBranch(-1) did not restore", c.want, br)
			}
		}
	}
	if math.Float64bits(Double(math.NaN()).Double()) != math.Float64bits(math.NaN()) {
		t.Error("NaN bits changed")
	}
}

func TestNullBranch(t *testing.T) {
	for _, br := range []int{0, 1, 254, 255, 300} {
		v := Union(br, Null())
		if v.Kind() != KindNull || !v.IsNull() || v.Branch() != br {
			t.Fatalf("branch %d: kind %v null %v branch %d", br, v.Kind(), v.IsNull(), v.Branch())
		}
		if Equal(v, Null()) || !Equal(v, Union(br, Value{})) {
			t.Fatalf("branch %d: Equal wrong", br)
		}
	}
}

func TestBoxedBranch(t *testing.T) {
	big := []Value{
		Long(5), Str(t, "x"), Bytes([]byte{1}), Fixed([]byte{2}), Int64s([]int64{1, 2}),
		Float64s([]float64{0.5}), Array([]Value{Int(1)}), MapOf(NewMap([]string{"k"}, []Value{Int(1)})),
		RecordOf(NewRecord(nil, []Value{Int(1)})), Enum(2), Bools([]bool{true}), Int32s([]int32{3}), Float32s([]float32{4}),
	}
	for _, v := range big {
		u := v.WithBranch(70000)
		if u.tag() != tBoxed {
			t.Fatalf("%v: not boxed", v)
		}
		if u.Branch() != 70000 || u.Kind() != v.Kind() || !Equal(u.WithBranch(-1), v) || !Equal(u.WithBranch(3), v.WithBranch(3)) {
			t.Fatalf("%v: boxed branch broken: branch %d kind %v", v, u.Branch(), u.Kind())
		}
		if u.String() != v.String() {
			t.Fatalf("String: %q vs %q", u.String(), v.String())
		}
		// Accessors see through the box.
		switch v.Kind() {
		case KindLong:
			_ = u.Long()
		case KindString:
			_ = u.Str()
		case KindBytes, KindFixed:
			_ = u.Bytes()
		case KindArray:
			if u.Len() != v.Len() || !Equal(u.Index(0), v.Index(0)) || u.IsTyped() != v.IsTyped() || u.ElemKind() != v.ElemKind() {
				t.Fatal("boxed array")
			}
			_ = u.Array()
			switch v.ElemKind() {
			case KindLong:
				_ = u.Int64s()
			case KindDouble:
				_ = u.Float64s()
			case KindInt:
				_ = u.Int32s()
			case KindFloat:
				_ = u.Float32s()
			case KindBoolean:
				_ = u.Bools()
			}
		case KindMap:
			_ = u.Map()
			if u.Len() != 1 {
				t.Fatal("boxed map len")
			}
		case KindRecord:
			_ = u.Record()
		case KindEnum:
			if u.EnumIndex() != 2 {
				t.Fatal("boxed enum")
			}
		}
	}
	for _, f := range []func(){
		func() { Long(1).WithBranch(300).Int() },
		func() { String("a").WithBranch(300).Bytes() },
		func() { String("a").WithBranch(300).Int64s() },
	} {
		wantPanic(t, f)
	}
	if got := Int(1).WithBranch(300).Int(); got != 1 {
		t.Fatal(got)
	}
	if got := Double(2).WithBranch(300).Double(); got != 2 {
		t.Fatal(got)
	}
	if got := Float(2).WithBranch(300).Float(); got != 2 {
		t.Fatal(got)
	}
	if !Bool(true).WithBranch(300).Bool() {
		t.Fatal("bool")
	}
}

func Str(t *testing.T, s string) Value { return String(s) }

func TestWithBranchNegative(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for branch -2")
		}
	}()
	Long(1).WithBranch(-2)
}

func TestWrongKindPanics(t *testing.T) {
	vals := map[string]Value{
		"null": Null(), "boolean": Bool(true), "int": Int(1), "long": Long(1), "float": Float(1),
		"double": Double(1), "string": String("s"), "bytes": Bytes([]byte("b")), "fixed": Fixed([]byte("f")),
		"enum": Enum(0), "array": Array(nil), "map": MapOf(NewMap(nil, nil)), "record": RecordOf(NewRecord(nil, nil)),
	}
	accessors := map[string]func(Value){
		"Bool": func(v Value) { v.Bool() }, "Int": func(v Value) { v.Int() }, "Long": func(v Value) { v.Long() },
		"Float": func(v Value) { v.Float() }, "Double": func(v Value) { v.Double() }, "Str": func(v Value) { v.Str() },
		"Bytes": func(v Value) { v.Bytes() }, "EnumIndex": func(v Value) { v.EnumIndex() },
		"Record": func(v Value) { v.Record() }, "Map": func(v Value) { v.Map() },
		"Int32s": func(v Value) { v.Int32s() }, "Int64s": func(v Value) { v.Int64s() },
		"Float32s": func(v Value) { v.Float32s() }, "Float64s": func(v Value) { v.Float64s() },
		"Bools": func(v Value) { v.Bools() }, "Array": func(v Value) { v.Array() }, "Index": func(v Value) { v.Index(0) },
		"ElemKind": func(v Value) { v.ElemKind() }, "Symbol": func(v Value) { _ = v.Symbol() },
	}
	ok := map[string]string{
		"Bool": "boolean", "Int": "int", "Long": "long", "Float": "float", "Double": "double", "Str": "string",
		"Bytes": "bytes fixed", "EnumIndex": "enum", "Symbol": "enum", "Record": "record", "Map": "map",
		"Array": "array", "Index": "array", "ElemKind": "array",
	}
	for name, get := range accessors {
		for kind, v := range vals {
			if strings.Contains(" "+ok[name]+" ", " "+kind+" ") {
				continue
			}
			ke := mustPanic(t, func() { get(v) })
			if ke.Kind.String() != kind {
				t.Errorf("%s on %s: KindError.Kind = %v", name, kind, ke.Kind)
			}
			if !strings.Contains(ke.Error(), "on "+kind+" Value") || !strings.HasPrefix(ke.Error(), "value: call of Value.") {
				t.Errorf("%s on %s: message %q", name, kind, ke.Error())
			}
			var err error = ke
			var target *KindError
			if !errors.As(err, &target) {
				t.Error("errors.As")
			}
		}
	}
	if msg := mustPanic(t, func() { String("x").Long() }).Error(); msg != "value: call of Value.Long on string Value" {
		t.Errorf("message %q", msg)
	}
	wantPanic(t, func() { Long(1).Len() })
}

func TestKindString(t *testing.T) {
	want := map[Kind]string{KindNull: "null", KindBoolean: "boolean", KindInt: "int", KindLong: "long",
		KindFloat: "float", KindDouble: "double", KindBytes: "bytes", KindString: "string", KindRecord: "record",
		KindEnum: "enum", KindArray: "array", KindMap: "map", KindUnion: "union", KindFixed: "fixed", KindGeneric: "generic"}
	for k, s := range want {
		if k.String() != s {
			t.Errorf("%d: %q, want %q", k, k.String(), s)
		}
	}
}

func TestBytesAndFixed(t *testing.T) {
	b := []byte{0, 1, 'a', 0xff}
	for _, v := range []Value{Bytes(b), Fixed(b)} {
		got := v.Bytes()
		if string(got) != string(b) || cap(got) != len(got) || v.Len() != 4 {
			t.Fatalf("Bytes() = %v cap %d", got, cap(got))
		}
		if &got[0] != &b[0] {
			t.Fatal("Bytes took a copy; it should take ownership")
		}
		if v.String() != `"\u0000\u0001a\u00ff"` {
			t.Fatalf("String() = %s", v.String())
		}
	}
	if Bytes(b).Kind() != KindBytes || Fixed(b).Kind() != KindFixed || Equal(Bytes(b), Fixed(b)) {
		t.Fatal("bytes vs fixed")
	}
	for _, v := range []Value{Bytes(nil), Bytes([]byte{}), Fixed(nil), String(""), StringOwned(nil)} {
		if v.IsNull() || v.Len() != 0 || v.p != unsafe.Pointer(&zeroBase) {
			t.Fatalf("empty %v: null %v len %d", v.Kind(), v.IsNull(), v.Len())
		}
	}
	if got := Bytes(nil).Bytes(); got == nil || len(got) != 0 || cap(got) != 0 {
		t.Fatal("empty bytes")
	}
}

// TestNoAliasing checks the ownership rules: values made from parts of one
// buffer do not overwrite each other through append, String copies out of
// a []byte conversion, and StringOwned shares by contract.
func TestNoAliasing(t *testing.T) {
	buf := []byte("aaaabbbb")
	a, b := Bytes(buf[:4]), Bytes(buf[4:])
	got := append(a.Bytes(), 'X') // cap == len: must reallocate
	got[0] = 'Z'
	if string(b.Bytes()) != "bbbb" || string(a.Bytes()) != "aaaa" {
		t.Fatalf("append through a returned slice overwrote a neighbour: %q %q", a.Bytes(), b.Bytes())
	}
	src := []byte("hello")
	s := String(string(src)) // the conversion copies
	src[0] = 'J'
	if s.Str() != "hello" {
		t.Fatalf("String(string(b)) aliases b: %q", s.Str())
	}
	owned := []byte("world")
	o := StringOwned(owned)
	if unsafe.StringData(o.Str()) != &owned[0] {
		t.Fatal("StringOwned copied")
	}
	arr := []int64{1, 2, 3}
	x, y := Int64s(arr[:1]), Int64s(arr[1:])
	_ = append(x.Int64s(), 99)
	if y.Int64s()[0] != 2 {
		t.Fatal("typed array append overwrote neighbour")
	}
	if vs := Array([]Value{Int(1), Int(2)}).Array(); cap(vs) != 2 {
		t.Fatal("Array() has spare capacity")
	}
}

func TestEnum(t *testing.T) {
	v := Enum(2)
	if v.EnumIndex() != 2 || v.Symbol() != "" || v.Schema() != nil || v.Kind() != KindEnum {
		t.Fatal("schema-less enum")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Enum(-1) did not panic")
		}
	}()
	Enum(-1)
}

func TestTypedArrays(t *testing.T) {
	i32 := []int32{1, -2, 3}
	i64 := []int64{math.MinInt64, 0, math.MaxInt64}
	f32 := []float32{0.5, -1, float32(math.NaN())}
	f64 := []float64{0.25, math.Inf(1), math.Copysign(0, -1)}
	bs := []bool{true, false, true}
	cases := []struct {
		v     Value
		elem  Kind
		items []Value
	}{
		{Int32s(i32), KindInt, []Value{Int(1), Int(-2), Int(3)}},
		{Int64s(i64), KindLong, []Value{Long(math.MinInt64), Long(0), Long(math.MaxInt64)}},
		{Float32s(f32), KindFloat, []Value{Float(0.5), Float(-1), Float(float32(math.NaN()))}},
		{Float64s(f64), KindDouble, []Value{Double(0.25), Double(math.Inf(1)), Double(math.Copysign(0, -1))}},
		{Bools(bs), KindBoolean, []Value{Bool(true), Bool(false), Bool(true)}},
	}
	for _, c := range cases {
		v := c.v
		if v.Kind() != KindArray || !v.IsTyped() || v.ElemKind() != c.elem || v.Len() != 3 {
			t.Fatalf("%v: kind %v typed %v elem %v len %d", c.elem, v.Kind(), v.IsTyped(), v.ElemKind(), v.Len())
		}
		for i, want := range c.items {
			if !Equal(v.Index(i), want) {
				t.Errorf("%v[%d] = %v, want %v", c.elem, i, v.Index(i), want)
			}
		}
		generic := Array(c.items)
		if !Equal(v, generic) || !Equal(generic, v) {
			t.Errorf("%v: typed != generic", c.elem)
		}
		if arr := v.Array(); len(arr) != 3 || !Equal(Array(arr), v) {
			t.Errorf("%v: Array()", c.elem)
		}
		if generic.IsTyped() || generic.ElemKind() != KindGeneric {
			t.Error("generic array reports typed")
		}
		if v.WithBranch(4).Len() != 3 || v.WithBranch(4).Branch() != 4 {
			t.Error("branch on typed array")
		}
	}
	if &Int32s(i32).Int32s()[0] != &i32[0] || &Int64s(i64).Int64s()[0] != &i64[0] ||
		&Float32s(f32).Float32s()[0] != &f32[0] || &Float64s(f64).Float64s()[0] != &f64[0] || &Bools(bs).Bools()[0] != &bs[0] {
		t.Fatal("typed accessors do not share the slice")
	}
	if Int64s(nil).Len() != 0 || Int64s(nil).IsNull() || len(Int64s(nil).Int64s()) != 0 {
		t.Fatal("empty typed array")
	}
	if Equal(Int64s([]int64{1}), Int32s([]int32{1})) {
		t.Fatal("long array equals int array")
	}
	if Equal(Float64s([]float64{0}), Float64s([]float64{math.Copysign(0, -1)})) {
		t.Fatal("0 == -0 but doubles compare by bits")
	}
	if !Equal(Float64s([]float64{math.NaN()}), Float64s([]float64{math.NaN()})) {
		t.Fatal("NaN != NaN but doubles compare by bits")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("Index out of range did not panic")
			}
		}()
		Int64s(i64).Index(3)
	}()
	if s := Float64s([]float64{1.5, math.NaN()}).String(); s != "[1.5, NaN]" {
		t.Fatal(s)
	}
}

func TestMap(t *testing.T) {
	m := NewMap([]string{"b", "a"}, []Value{Int(2), Int(1)})
	v := MapOf(m)
	if v.Kind() != KindMap || v.Len() != 2 || v.Map() != m {
		t.Fatal("map basics")
	}
	if got, ok := m.Get("a"); !ok || got.Int() != 1 {
		t.Fatal("Get a")
	}
	if _, ok := m.Get("z"); ok {
		t.Fatal("Get z")
	}
	m.Set("a", Int(10))
	m.Set("c", Int(3))
	if m.Len() != 3 || m.Key(2) != "c" || m.ValueAt(0).Int() != 2 {
		t.Fatal("Set")
	}
	if s := v.String(); s != `{"b": 2, "a": 10, "c": 3}` {
		t.Fatal(s)
	}
	var keys []string
	for k := range m.All() {
		keys = append(keys, k)
		if k == "a" {
			break
		}
	}
	if strings.Join(keys, ",") != "b,a" || len(m.Keys()) != 3 || len(m.Values()) != 3 {
		t.Fatal("All/Keys/Values")
	}
	// Large maps use an index; duplicates: the last one wins.
	var ks []string
	var vs []Value
	for i := range 100 {
		ks = append(ks, "k"+itoa(i%50))
		vs = append(vs, Int(int32(i)))
	}
	big := NewMap(ks, vs)
	for i := range 50 {
		if got, ok := big.Get("k" + itoa(i)); !ok || got.Int() != int32(i+50) {
			t.Fatalf("big Get k%d = %v", i, got)
		}
	}
	big.Set("new", Int(-1))
	big.Set("k3", Int(-3))
	if got, _ := big.Get("new"); got.Int() != -1 {
		t.Fatal("Set after index")
	}
	if got, _ := big.Get("k3"); got.Int() != -3 || big.Len() != 101 {
		t.Fatal("replace after index")
	}
	// Equal ignores order.
	m1 := MapOf(NewMap([]string{"x", "y"}, []Value{Int(1), Int(2)}))
	m2 := MapOf(NewMap([]string{"y", "x"}, []Value{Int(2), Int(1)}))
	m3 := MapOf(NewMap([]string{"y", "x"}, []Value{Int(2), Int(3)}))
	m4 := MapOf(NewMap([]string{"y"}, []Value{Int(2)}))
	if !Equal(m1, m2) || Equal(m1, m3) || Equal(m1, m4) {
		t.Fatal("map Equal")
	}
	for _, f := range []func(){func() { NewMap([]string{"a"}, nil) }, func() { MapOf(nil) }, func() { RecordOf(nil) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			f()
		}()
	}
}

func TestArrayOfValues(t *testing.T) {
	elems := []Value{Null(), String("x"), Union(1, Long(5))}
	v := Array(elems)
	if v.Kind() != KindArray || v.Len() != 3 || v.IsTyped() {
		t.Fatal("array basics")
	}
	if &v.Array()[0] != &elems[0] {
		t.Fatal("Array copied")
	}
	if v.Index(2).Branch() != 1 || v.Index(1).Str() != "x" {
		t.Fatal("Index")
	}
	if s := v.String(); s != `[null, "x", 5]` {
		t.Fatal(s)
	}
	if Equal(v, Array(elems[:2])) || !Equal(Array(nil), Int64s(nil)) {
		t.Fatal("array Equal")
	}
}

func TestSchemalessRecord(t *testing.T) {
	r := NewRecord(nil, []Value{Int(1), String("a")})
	if r.NumField() != 2 || r.FieldAt(1).Str() != "a" || r.Schema() != nil {
		t.Fatal("schemaless record")
	}
	if _, ok := r.Lookup("x"); ok || !r.Field("x").IsNull() {
		t.Fatal("Lookup without schema")
	}
	r.SetAt(0, Long(3))
	if RecordOf(r).String() != `{"0": 3, "1": "a"}` {
		t.Fatal(RecordOf(r).String())
	}
	var zero Record
	if zero.NumField() != 0 || zero.Fields() != nil || RecordOf(&zero).String() != "{}" {
		t.Fatal("zero Record")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("Set unknown field did not panic")
			}
		}()
		r.Set("nope", Null())
	}()
}

func TestFormatQuoting(t *testing.T) {
	v := String("a\"b\\c\n\t\r\x01\xffé")
	if got := v.String(); got != `"a\"b\\c\n\t\r\u0001\ufffdé"` {
		t.Fatal(got)
	}
	if got := Double(math.NaN()).String() + Double(math.Inf(1)).String(); got != "NaN+Inf" {
		t.Fatal(got)
	}
}

func TestEqualMisc(t *testing.T) {
	if Equal(Int(1), Long(1)) || Equal(Long(1), Long(2)) || !Equal(Double(math.NaN()), Double(math.NaN())) ||
		Equal(Double(0), Double(math.Copysign(0, -1))) || Equal(String("a"), String("b")) || Equal(String("a"), String("ab")) ||
		!Equal(String("ab"), String(string([]byte("ab")))) || Equal(Enum(1), Enum(2)) || Equal(Bool(true), Bool(false)) ||
		Equal(Long(1), Union(0, Long(1))) || Equal(Union(1, Long(1)), Union(0, Long(1))) || !Equal(Null(), Null()) {
		t.Fatal("Equal")
	}
}

// TestSelfReference checks that a record that contains itself does not
// overflow the stack in String and Equal, and makes ToAny panic.
func TestSelfReference(t *testing.T) {
	r := NewRecord(nil, []Value{Null()})
	r.SetAt(0, RecordOf(r))
	if s := RecordOf(r).String(); !strings.Contains(s, "...") {
		t.Fatal("no truncation")
	}
	if !Equal(RecordOf(r), RecordOf(r)) {
		t.Fatal("self equal")
	}
	r2 := NewRecord(nil, []Value{Null()})
	r2.SetAt(0, RecordOf(r2))
	if Equal(RecordOf(r), RecordOf(r2)) {
		t.Fatal("two distinct cycles compare by identity past the depth limit")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("ToAny did not panic")
		}
	}()
	ToAny(RecordOf(r))
}

// A Value that contains itself (only the Set methods can build one)
// prints as "..." where it recurs. With only the depth bounded, a record
// whose two fields were itself took 2^1000 steps. A Value shared without
// a cycle prints in full each time.
func TestStringOfAValueInsideItself(t *testing.T) {
	r := NewRecord(nil, []Value{Null(), Null()})
	self := RecordOf(r)
	r.SetAt(0, self)
	r.SetAt(1, self)
	// Printed as a tree, this takes 2^depth steps: the test then runs
	// into go test's timeout.
	if got, want := self.String(), `{"0": ..., "1": ...}`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	arr := []Value{Long(1), Null()}
	a := Array(arr)
	arr[1] = a
	if got, want := a.String(), "[1, ...]"; got != want {
		t.Errorf("array inside itself: %q, want %q", got, want)
	}
	shared := Array([]Value{Long(7)})
	if got, want := Array([]Value{shared, shared}).String(), "[[7], [7]]"; got != want {
		t.Errorf("shared array: %q, want %q", got, want)
	}
}

// Equal compared maps by entry count and then looked a's keys up in b,
// so with a repeated key {a, a} was equal to {a, b} and {a, b} not to
// {a, a}. Maps compare by their keys' values now (the last entry of a
// repeated key is its value), both ways alike.
func TestEqualMapsWithRepeatedKeysSymmetric(t *testing.T) {
	m := func(keys []string, vals ...int64) Value {
		vs := make([]Value, len(vals))
		for i, v := range vals {
			vs[i] = Long(v)
		}
		return MapOf(NewMap(keys, vs))
	}
	cases := []struct {
		a, b Value
		want bool
	}{
		{m([]string{"a", "a"}, 2, 2), m([]string{"a", "b"}, 2, 3), false},
		{m([]string{"a", "a"}, 1, 2), m([]string{"a"}, 2), true},
		{m([]string{"a", "a"}, 2, 1), m([]string{"a"}, 2), false},
		{m([]string{"a", "b"}, 1, 2), m([]string{"b", "a"}, 2, 1), true},
	}
	long := func(extra string) Value { // more than 8 entries: the indexed path
		keys := []string{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", extra}
		return m(keys, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8)
	}
	cases = append(cases, struct {
		a, b Value
		want bool
	}{long("k8"), long("k9"), false})
	for i, c := range cases {
		if got := Equal(c.a, c.b); got != c.want {
			t.Errorf("case %d: Equal(%v, %v) = %v, want %v", i, c.a, c.b, got, c.want)
		}
		if got := Equal(c.b, c.a); got != c.want {
			t.Errorf("case %d: Equal(%v, %v) = %v, want %v", i, c.b, c.a, got, c.want)
		}
	}
}
