package avrojson_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// Marshal writes structs, slices, maps of strings, pointers and the
// primitive kinds straight from the Go value, and the rest through the
// binary encoding. These tests hold the direct writers to the rendering
// of the binary encoding, byte for byte, in every flavour.

const directSchema = `{"type":"record","name":"Top","namespace":"t","fields":[
 {"name":"i","type":"int"},{"name":"l","type":"long"},
 {"name":"f","type":"float"},{"name":"d","type":"double"},
 {"name":"b","type":"boolean"},{"name":"s","type":"string"},
 {"name":"raw","type":"bytes"},{"name":"n","type":"null"},
 {"name":"i8","type":"int"},{"name":"u16","type":"long"},
 {"name":"date","type":{"type":"int","logicalType":"date"}},
 {"name":"tsl","type":{"type":"long","logicalType":"timestamp-millis"}},
 {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"}},
 {"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","GREEN"]}},
 {"name":"fx","type":{"type":"fixed","name":"F4","size":4}},
 {"name":"opt","type":["null","string"],"default":null},
 {"name":"optl","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},
 {"name":"rev","type":["string","null"]},
 {"name":"child","type":["null",{"type":"record","name":"Child","fields":[
   {"name":"name","type":"string"},{"name":"next","type":["null","Child"]}]}],"default":null},
 {"name":"kids","type":{"type":"array","items":"Child"}},
 {"name":"longs","type":{"type":"array","items":"long"}},
 {"name":"ints","type":{"type":"array","items":"int"}},
 {"name":"doubles","type":{"type":"array","items":"double"}},
 {"name":"floats","type":{"type":"array","items":"float"}},
 {"name":"bools","type":{"type":"array","items":"boolean"}},
 {"name":"strs","type":{"type":"array","items":"string"}},
 {"name":"dates","type":{"type":"array","items":{"type":"int","logicalType":"date"}}},
 {"name":"attrs","type":{"type":"map","values":"string"}},
 {"name":"counts","type":{"type":"map","values":"long"}},
 {"name":"nested","type":{"type":"array","items":{"type":"array","items":"string"}}},
 {"name":"ptr","type":"Child"},
 {"name":"missing","type":{"type":"array","items":"int"},"default":[1,2,3]},
 {"name":"gone","type":["null","string"],"default":null},
 {"name":"embedded","type":"string"},
 {"name":"deep","type":"string"}
]}`

type directChild struct {
	Name string       `avro:"name"`
	Next *directChild `avro:"next"`
}

type DirectEmbedded struct {
	Embedded string `avro:"embedded"`
}

type DirectDeep struct {
	Deep string `avro:"deep"`
}

type directTop struct {
	I      int32             `avro:"i"`
	L      int64             `avro:"l"`
	F      float32           `avro:"f"`
	D      float64           `avro:"d"`
	B      bool              `avro:"b"`
	S      string            `avro:"s"`
	Raw    []byte            `avro:"raw"`
	N      any               `avro:"n"`
	I8     int8              `avro:"i8"`
	U16    uint16            `avro:"u16"`
	Date   int32             `avro:"date"`
	TSL    int64             `avro:"tsl"`
	TS     time.Time         `avro:"ts"`
	Color  string            `avro:"color"`
	FX     [4]byte           `avro:"fx"`
	Opt    *string           `avro:"opt"`
	OptL   *int64            `avro:"optl"`
	Rev    *string           `avro:"rev"`
	Child  *directChild      `avro:"child"`
	Kids   []directChild     `avro:"kids"`
	Longs  []int64           `avro:"longs"`
	Ints   []int32           `avro:"ints"`
	Dbls   []float64         `avro:"doubles"`
	Flts   []float32         `avro:"floats"`
	Bools  []bool            `avro:"bools"`
	Strs   []string          `avro:"strs"`
	Dates  []int32           `avro:"dates"`
	Attrs  map[string]string `avro:"attrs"`
	Counts map[string]int64  `avro:"counts"`
	Nested [][]string        `avro:"nested"`
	Ptr    *directChild      `avro:"ptr"`
	DirectEmbedded
	*DirectDeep
}

// fill sets v (addressable) to random contents: strings with escapes,
// non-ASCII and invalid UTF-8, floats with NaN, infinities and -0, maps of
// at most one entry (so both encodings write the same order), nil and
// empty slices.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		bits := v.Type().Bits()
		x := int64(r.Uint64()) >> (64 - bits)
		if r.IntN(3) == 0 {
			x %= 1000
		}
		v.SetInt(x)
	case reflect.Uint16:
		v.SetUint(uint64(r.IntN(1 << 16)))
	case reflect.Float32, reflect.Float64:
		specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 1e21, 1e-7, 123456789012345678}
		x := r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
		if r.IntN(5) == 0 {
			x = specials[r.IntN(len(specials))]
		}
		if v.Kind() == reflect.Float64 && r.IntN(4) == 0 {
			x = math.Float64frombits(r.Uint64())
		}
		v.SetFloat(x)
	case reflect.String:
		v.SetString(randomText(r))
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, r.IntN(6))
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			v.SetBytes(b)
			return
		}
		n := r.IntN(4)
		if depth > 3 {
			n = 0
		}
		if n == 0 && r.IntN(2) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(r, v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(r, v.Index(i), depth+1)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		if r.IntN(2) == 0 {
			k := reflect.New(v.Type().Key()).Elem()
			fill(r, k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		if depth > 3 || r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.UnixMicro(r.Int64N(1<<50) - 1<<49).UTC()))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).Anonymous && v.Field(i).Kind() == reflect.Pointer {
				p := reflect.New(v.Type().Field(i).Type.Elem())
				fill(r, p.Elem(), depth+1)
				v.Field(i).Set(p)
				continue
			}
			fill(r, v.Field(i), depth+1)
		}
	}
}

func randomText(r *rand.Rand) string {
	parts := []string{"a", "Zürich", "\"", "\\", "\n", "\x01", "\x7f", "\xff", "日本", "\u2028", "</", "ab cd"}
	var b strings.Builder
	for range r.IntN(5) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

func directFlavours() map[string]avrojson.Options {
	out := map[string]avrojson.Options{}
	for _, u := range []avrojson.Unions{avrojson.TaggedUnions, avrojson.TaggedLogicalUnions, avrojson.BareUnions} {
		for _, l := range []avrojson.Logical{avrojson.UnderlyingLogical, avrojson.ReadableLogical} {
			for _, by := range []avrojson.Bytes{avrojson.CodePointBytes, avrojson.Base64Bytes} {
				o := avrojson.Options{Unions: u, Logical: l, Bytes: by}
				out[strings.Join([]string{unionName(u), logicalName(l), bytesName(by)}, "/")] = o
			}
		}
	}
	out["validate"] = avrojson.Options{Decode: avro.DecodeOptions{ValidateUTF8: true}}
	return out
}

func unionName(u avrojson.Unions) string {
	return map[avrojson.Unions]string{avrojson.TaggedUnions: "tagged", avrojson.TaggedLogicalUnions: "logical", avrojson.BareUnions: "bare"}[u]
}

func logicalName(l avrojson.Logical) string {
	if l == avrojson.ReadableLogical {
		return "readable"
	}
	return "underlying"
}

func bytesName(b avrojson.Bytes) string {
	if b == avrojson.Base64Bytes {
		return "base64"
	}
	return "codepoints"
}

// TestMarshalWritesTheBinaryRendering: for random structs of every shape,
// Marshal writes what BinaryToJSON writes of avro.Marshal's bytes, and
// fails where it fails, in every flavour.
func TestMarshalWritesTheBinaryRendering(t *testing.T) {
	s := schema.MustParse(directSchema)
	r := rand.New(rand.NewPCG(7, 28))
	n := 400
	if raceEnabled {
		n = 60
	}
	flavours := directFlavours()
	for i := range n {
		var v directTop
		fill(r, reflect.ValueOf(&v).Elem(), 0)
		v.Color = []string{"RED", "GREEN"}[r.IntN(2)]
		bin, err := avro.Marshal(s, &v)
		if err != nil {
			// The binary encoder's error, from either path; a text that
			// is validated may fail at an earlier string first.
			for name, o := range flavours {
				_, jerr := o.Marshal(s, &v)
				if o.Decode.ValidateUTF8 && errors.Is(jerr, avro.ErrInvalid) {
					continue
				}
				if jerr == nil || jerr.Error() != err.Error() {
					t.Fatalf("value %d, %s: Marshal error %v, want %v", i, name, jerr, err)
				}
			}
			continue
		}
		for name, o := range flavours {
			want, werr := o.BinaryToJSON(nil, s, bin)
			got, gerr := o.Marshal(s, &v)
			if (werr != nil) != (gerr != nil) {
				t.Fatalf("value %d, %s: Marshal error %v, rendering error %v", i, name, gerr, werr)
			}
			if werr != nil {
				if !errors.Is(gerr, avro.ErrInvalid) {
					t.Fatalf("value %d, %s: Marshal error %v, want ErrInvalid like %v", i, name, gerr, werr)
				}
				continue
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("value %d, %s:\n got %s\nwant %s", i, name, got, want)
			}
			// A value (not a pointer) takes the same path.
			byValue, err := o.Marshal(s, v)
			if err != nil || !bytes.Equal(byValue, want) {
				t.Fatalf("value %d, %s, by value: %v\n got %s\nwant %s", i, name, err, byValue, want)
			}
		}
	}
}

// TestMarshalErrorsOfDirectWriters: the errors of the direct writers carry
// the path of the field, as the binary encoder's do.
func TestMarshalErrorsOfDirectWriters(t *testing.T) {
	s := schema.MustParse(directSchema)
	o := avrojson.Options{Decode: avro.DecodeOptions{ValidateUTF8: true}}
	cases := []struct {
		name string
		set  func(v *directTop)
		path string
		want error
	}{
		{"string", func(v *directTop) { v.S = "\xff" }, "s", avro.ErrInvalid},
		{"array item", func(v *directTop) { v.Strs = []string{"ok", "\xfe"} }, "strs[1]", avro.ErrInvalid},
		{"map value", func(v *directTop) { v.Attrs = map[string]string{"k": "\xfe"} }, `attrs["k"]`, avro.ErrInvalid},
		{"nested record", func(v *directTop) { v.Kids = []directChild{{Name: "a"}, {Name: "\xfe"}} }, "kids[1].name", avro.ErrInvalid},
		{"pointer without null", func(v *directTop) { v.Ptr = nil }, "ptr", avro.ErrRange},
		{"null branch second", func(v *directTop) { v.Rev = nil }, "", nil},
		{"rendered", func(v *directTop) { v.Color = "BLUE" }, "color", avro.ErrRange},
	}
	for _, c := range cases {
		v := directTop{Color: "RED", Ptr: &directChild{}, DirectDeep: &DirectDeep{}}
		c.set(&v)
		_, err := o.Marshal(s, &v)
		if c.want == nil {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var ae *avro.Error
		if !errors.Is(err, c.want) || !errors.As(err, &ae) || ae.Path != c.path {
			t.Errorf("%s: %v, want %v at %q", c.name, err, c.want, c.path)
		}
	}
}

// TestMarshalDepthBounded: a value that contains itself is an ErrLimit,
// not a stack overflow, in the direct writers too.
func TestMarshalDepthBounded(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"N","fields":[{"name":"next","type":["null","N"]}]}`)
	type node struct {
		Next *node `avro:"next"`
	}
	n := &node{}
	n.Next = n
	if _, err := avrojson.Marshal(s, n); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("cyclic value: %v, want ErrLimit", err)
	}
}

// selfPointer is a pointer type whose element is itself.
type selfPointer *selfPointer

// TestMarshalSelfPointerType: a self-referring pointer type is refused
// when its encoder is compiled, in JSON as in binary, without recursing.
func TestMarshalSelfPointerType(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"x","type":["null","string"]}]}`)
	type rec struct {
		X selfPointer `avro:"x"`
	}
	p := new(selfPointer)
	*p = p
	var te *avro.TypeError
	if got, err := avrojson.Marshal(s, &rec{X: p}); !errors.As(err, &te) {
		t.Errorf("got %s, %v, want a *TypeError", got, err)
	}
}

// TestMarshalGenericWritesTheBinaryRendering: generic values
// (map[string]any and []any, as avro.Unmarshal gives them, and with values
// of other Go types put in) are written as BinaryToJSON writes their
// binary encoding, and fail where it fails, in every flavour.
func TestMarshalGenericWritesTheBinaryRendering(t *testing.T) {
	s := schema.MustParse(directSchema)
	r := rand.New(rand.NewPCG(8, 28))
	n := 300
	if raceEnabled {
		n = 40
	}
	others := []any{nil, 5, int64(-3), int32(7), float32(1.5), 2.5, "x", []byte("b"), true, []int64{1, 2}, []any{"a"},
		map[string]any{"name": "n", "next": nil}, map[string]any{"string": "tagged"}, map[string]string{"k": "v"}, int64(1) << 40, 1 << 30}
	flavours := directFlavours()
	for i := range n {
		var v directTop
		fill(r, reflect.ValueOf(&v).Elem(), 0)
		v.Color = []string{"RED", "GREEN"}[r.IntN(2)]
		bin, err := avro.Marshal(s, &v)
		if err != nil {
			continue
		}
		var g map[string]any
		if err := avro.Unmarshal(s, bin, &g); err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			// A field, or a value inside one, of another Go type.
			names := []string{"i", "l", "f", "d", "b", "s", "raw", "n", "opt", "rev", "child", "kids", "longs", "attrs", "counts", "ptr"}
			name := names[r.IntN(len(names))]
			x := others[r.IntN(len(others))]
			switch cur := g[name].(type) {
			case []any:
				if len(cur) > 0 {
					cur[r.IntN(len(cur))] = x
					break
				}
				g[name] = x
			case map[string]any:
				if r.IntN(2) == 0 {
					cur["extra"] = x
					break
				}
				g[name] = x
			default:
				g[name] = x
			}
		}
		for name, o := range flavours {
			got, gerr := o.Marshal(s, g)
			gbin, berr := avro.Marshal(s, g)
			if o.Decode.ValidateUTF8 && errors.Is(gerr, avro.ErrInvalid) {
				// A string that is not UTF-8, which the binary encoding
				// passes; the rendering fails on it too.
				if _, werr := o.BinaryToJSON(nil, s, gbin); berr == nil && werr == nil {
					t.Fatalf("value %d, %s: Marshal error %v, but the rendering takes it", i, name, gerr)
				}
				continue
			}
			if berr != nil {
				if gerr == nil || gerr.Error() != berr.Error() {
					t.Fatalf("value %d, %s: Marshal error %v, binary encoding error %v", i, name, gerr, berr)
				}
				continue
			}
			want, werr := o.BinaryToJSON(nil, s, gbin)
			if (werr != nil) != (gerr != nil) {
				t.Fatalf("value %d, %s: Marshal error %v, rendering error %v", i, name, gerr, werr)
			}
			if werr == nil && !bytes.Equal(got, want) {
				t.Fatalf("value %d, %s:\n got %s\nwant %s", i, name, got, want)
			}
		}
	}
}

// TestMarshalGenericErrorPath: the errors of the generic writers carry
// the path of the field.
func TestMarshalGenericErrorPath(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"n","type":"int"},{"name":"s","type":"string"},{"name":"l","type":"long"}]}`)
	o := avrojson.Options{Decode: avro.DecodeOptions{ValidateUTF8: true}}
	for _, c := range []struct {
		v    map[string]any
		path string
		want error
	}{
		{map[string]any{"n": int32(1), "s": "\xff", "l": int64(2)}, "s", avro.ErrInvalid},
		{map[string]any{"n": int32(1), "s": "ok", "l": "2"}, "l", avro.ErrRange},
		{map[string]any{"n": int32(1), "s": "ok"}, "l", avro.ErrRange},
	} {
		_, err := o.Marshal(s, c.v)
		var ae *avro.Error
		if !errors.Is(err, c.want) || !errors.As(err, &ae) || ae.Path != c.path {
			t.Errorf("%v: %v, want %v at %q", c.v, err, c.want, c.path)
		}
	}
}

type fieldName string

// A record held in a map is written as its binary encoding renders,
// whether its fields are placed by walking the map (a map past one group
// holding the fields, with a few other keys, or without the fields that
// have defaults) or looked up (a map with many other keys; names equal
// in length and in their first and last four bytes).
func TestMarshalGenericRecordFieldPlacement(t *testing.T) {
	for _, names := range [][2]string{{"name", "note"}, {"created_at_utc", "created_on_utc"}} {
		s := schema.MustParse(fmt.Sprintf(`{"type":"record","name":"R","fields":[
			{"name":"id","type":"int"},{"name":%q,"type":"string"},{"name":"score","type":"double"},
			{"name":"ok","type":"boolean"},{"name":"a","type":"long"},{"name":"b","type":"long"},
			{"name":"c","type":["null","string"]},{"name":"d","type":"float"},{"name":"e","type":"bytes"},
			{"name":"f","type":"long"},{"name":"g","type":"long"},{"name":"h","type":"long"},
			{"name":"i","type":"long"},{"name":"j","type":"long"},{"name":"k","type":"long"},
			{"name":"inner","type":{"type":"record","name":"I","fields":[{"name":"seq","type":"long"},{"name":"label","type":"string"}]}},
			{"name":%q,"type":"string","default":"none"}]}`, names[0], names[1]))
		full := func() map[string]any {
			return map[string]any{"id": int32(7), names[0]: "ada", "score": 1.5, "ok": true, "a": int64(1), "b": int64(-2),
				"c": nil, "d": float32(0.5), "e": []byte{0, 255},
				"f": int64(1), "g": int64(2), "h": int64(3), "i": int64(4), "j": int64(5), "k": int64(6),
				"inner": map[string]any{"seq": int64(-3), "label": "x"}, names[1]: "set"}
		}
		withOthers := full()
		withOthers["other"], withOthers["more"] = 1, "x"
		withMany := full()
		for i := range 40 {
			withMany[fmt.Sprintf("k%d", i)] = i
		}
		defaulted := full()
		delete(defaulted, names[1])
		nilValue := full()
		nilValue[names[1]] = nil
		missing := full()
		delete(missing, "score")
		cases := map[string]map[string]any{"fields": full(), "a few others": withOthers, "many others": withMany,
			"defaulted": defaulted, "a nil value": nilValue, "missing": missing}
		for name, m := range cases {
			got, err := avrojson.Marshal(s, m)
			bin, berr := avro.Marshal(s, m)
			// A map of another string kind is looked up field by field,
			// through reflection: the binary encoding of the table's
			// walk must be its.
			other := map[fieldName]any{}
			for k, v := range m {
				other[fieldName(k)] = v
			}
			if obin, oerr := avro.Marshal(s, other); !bytes.Equal(obin, bin) || (oerr == nil) != (berr == nil) {
				t.Errorf("%v, %s: binary % x, %v; looked up % x, %v", names, name, bin, berr, obin, oerr)
			}
			if berr != nil {
				if err == nil || err.Error() != berr.Error() {
					t.Errorf("%v, %s: Marshal error %v, binary encoding error %v", names, name, err, berr)
				}
				continue
			}
			want, werr := avrojson.BinaryToJSON(nil, s, bin)
			if err != nil || werr != nil || !bytes.Equal(got, want) {
				t.Errorf("%v, %s: %s, %v\nwant %s, %v", names, name, got, err, want, werr)
			}
		}
	}
}
