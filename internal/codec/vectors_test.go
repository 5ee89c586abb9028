package codec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Test vectors of the Apache Avro reference implementations (the shared
// snapshot of github.com/apache/avro, see its MANIFEST.txt), run through
// the three Go mappings: any, value.Value and concrete Go types.

const vecDataDir = "../../../shared/testdata/apache-avro/"

func vecReadFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(vecDataDir + rel)
	if err != nil {
		t.Fatalf("test data: %v", err)
	}
	return b
}

// vecCmp compares decoded values: decimals by value, times by instant and
// location name, NaNs as equal, value.Value with value.Equal.
var vecCmp = cmp.Options{
	cmp.Comparer(func(a, b *big.Rat) bool {
		if a == nil || b == nil {
			return a == b
		}
		return a.Cmp(b) == 0
	}),
	cmp.Comparer(func(a, b big.Rat) bool { return a.Cmp(&b) == 0 }),
	cmp.Comparer(func(a, b time.Time) bool {
		return a.Equal(b) && a.Location().String() == b.Location().String()
	}),
	cmpopts.EquateNaNs(),
	cmp.Comparer(value.Equal),
}

// vecDecodeJSON parses JSON with numbers kept as json.Number, so that
// 64-bit integers stay exact and 5 and 5.0 stay different.
func vecDecodeJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return nil, err
	}
	return x, nil
}

// vecTag returns the tag and payload of a tagged value such as
// {"$bytes_hex": "00ff"}.
func vecTag(x any) (tag, payload string, ok bool) {
	m, isMap := x.(map[string]any)
	if !isMap || len(m) != 1 {
		return "", "", false
	}
	for k, v := range m {
		s, isStr := v.(string)
		if strings.HasPrefix(k, "$") && isStr {
			return k, s, true
		}
	}
	return "", "", false
}

func vecIsTimestamp(l schema.Logical) bool {
	switch l {
	case schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
		schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
		return true
	}
	return false
}

// vecUnitsToTime converts a count of the timestamp's units since the epoch.
func vecUnitsToTime(l schema.Logical, n int64) time.Time {
	switch l {
	case schema.TimestampMillis, schema.LocalTimestampMillis:
		return time.UnixMilli(n).UTC()
	case schema.TimestampMicros, schema.LocalTimestampMicros:
		return time.UnixMicro(n).UTC()
	}
	return time.Unix(0, n).UTC()
}

// vecParseClock parses a time of day "15:04:05[.ffffff]" into the time
// since midnight.
func vecParseClock(s string) (time.Duration, error) {
	t, err := time.Parse("15:04:05", s)
	if err != nil {
		return 0, err
	}
	return t.Sub(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)), nil
}

// vecParseDateTime parses an ISO 8601 date-time; one without an offset is
// a wall clock, read as UTC.
func vecParseDateTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t, err = time.Parse("2006-01-02T15:04:05.999999999", s)
	}
	return t.UTC(), err
}

func vecInt(x any, bits int) (int64, error) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, fmt.Errorf("want an integer, got %T %v", x, x)
	}
	i, err := n.Int64()
	if err != nil {
		return 0, err
	}
	if bits == 32 && i != int64(int32(i)) {
		return 0, fmt.Errorf("%d overflows int", i)
	}
	return i, nil
}

func vecIsIntToken(x any) bool {
	n, ok := x.(json.Number)
	return ok && !strings.ContainsAny(string(n), ".eE")
}

// vecNaN is the quiet NaN that Python and Java write (0x7ff8000000000000);
// math.NaN() has another payload bit, so its encoding differs.
var vecNaN = math.Float64frombits(0x7ff8000000000000)

func vecFloat(x any) (float64, error) {
	if tag, p, ok := vecTag(x); ok && tag == "$double" {
		switch p {
		case "NaN":
			return vecNaN, nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
	}
	n, ok := x.(json.Number)
	if !ok {
		return 0, fmt.Errorf("want a number, got %T %v", x, x)
	}
	return n.Float64()
}

func vecRat(s string, scale int) (*big.Rat, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("bad decimal %q", s)
	}
	return r, nil
}

// vecRatFromTwos reads a decimal's unscaled two's-complement big-endian
// bytes.
func vecRatFromTwos(b []byte, scale int) *big.Rat {
	n := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	return new(big.Rat).SetFrac(n, den)
}

// vecToGo converts a JSON datum in the tagged form of the test data
// ({"$bytes_hex"}, {"$decimal"}, {"$date"}, {"$time"}, {"$datetime"},
// {"$double"}) into the Go value that Unmarshal into an *any gives for
// schema s. With underlying set, logical types are ignored: the datum is
// the underlying Avro value (an int64 for a timestamp, bytes for a
// decimal), as value.ToAny gives it.
//
// A union takes the first branch the datum converts to; a JSON integer
// never goes to a float or double branch.
func vecToGo(s *schema.Schema, x any, underlying bool) (any, error) {
	l := s.Logical()
	if underlying {
		l = schema.NoLogical
	}
	tag, payload, tagged := vecTag(x)
	switch s.Kind() {
	case schema.Null:
		if x == nil {
			return nil, nil
		}
	case schema.Boolean:
		if b, ok := x.(bool); ok {
			return b, nil
		}
	case schema.Int:
		switch {
		case l == schema.Date && tag == "$date":
			return time.Parse(time.DateOnly, payload)
		case l == schema.TimeMillis && tag == "$time":
			return vecParseClock(payload)
		case tagged:
			break
		default:
			n, err := vecInt(x, 32)
			if err != nil {
				return nil, err
			}
			switch l {
			case schema.Date:
				return time.Unix(n*86400, 0).UTC(), nil
			case schema.TimeMillis:
				return time.Duration(n) * time.Millisecond, nil
			}
			return int32(n), nil
		}
	case schema.Long:
		switch {
		case vecIsTimestamp(l) && tag == "$datetime":
			return vecParseDateTime(payload)
		case l == schema.TimeMicros && tag == "$time":
			return vecParseClock(payload)
		case tagged:
			break
		default:
			n, err := vecInt(x, 64)
			if err != nil {
				return nil, err
			}
			switch {
			case vecIsTimestamp(l):
				return vecUnitsToTime(l, n), nil
			case l == schema.TimeMicros:
				return time.Duration(n) * time.Microsecond, nil
			}
			return n, nil
		}
	case schema.Float:
		f, err := vecFloat(x)
		if err != nil {
			return nil, err
		}
		return float32(f), nil
	case schema.Double:
		return vecFloat(x)
	case schema.String:
		if str, ok := x.(string); ok {
			return str, nil
		}
	case schema.Bytes, schema.Fixed:
		switch {
		case l == schema.Decimal && tag == "$decimal":
			return vecRat(payload, s.Scale())
		case tag == "$bytes_hex":
			b, err := hex.DecodeString(payload)
			if err != nil {
				return nil, err
			}
			if s.Kind() == schema.Fixed && len(b) != s.Size() {
				return nil, fmt.Errorf("%d bytes for fixed of %d", len(b), s.Size())
			}
			if l == schema.Decimal {
				return vecRatFromTwos(b, s.Scale()), nil
			}
			return b, nil
		}
	case schema.Enum:
		if str, ok := x.(string); ok && s.SymbolIndex(str) >= 0 {
			return str, nil
		}
	case schema.Array:
		if a, ok := x.([]any); ok {
			out := []any{}
			for _, it := range a {
				v, err := vecToGo(s.Items(), it, underlying)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			return out, nil
		}
	case schema.Map:
		if m, ok := x.(map[string]any); ok && !tagged {
			out := map[string]any{}
			for k, it := range m {
				v, err := vecToGo(s.Values(), it, underlying)
				if err != nil {
					return nil, err
				}
				out[k] = v
			}
			return out, nil
		}
	case schema.Record:
		if m, ok := x.(map[string]any); ok && !tagged {
			if len(m) != len(s.Fields()) {
				return nil, fmt.Errorf("record %s: %d keys for %d fields", s.FullName(), len(m), len(s.Fields()))
			}
			out := map[string]any{}
			for _, f := range s.Fields() {
				it, ok := m[f.Name()]
				if !ok {
					return nil, fmt.Errorf("record %s: no field %s", s.FullName(), f.Name())
				}
				v, err := vecToGo(f.Type(), it, underlying)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.Name(), err)
				}
				out[f.Name()] = v
			}
			return out, nil
		}
	case schema.Union:
		for _, b := range s.Branches() {
			if (b.Kind() == schema.Float || b.Kind() == schema.Double) && vecIsIntToken(x) {
				continue
			}
			if v, err := vecToGo(b, x, underlying); err == nil {
				return v, nil
			}
		}
	}
	return nil, fmt.Errorf("cannot convert %T %v to Avro %s", x, x, s.Kind())
}

// vecValueToGo converts a value.Value of schema s to the Go value that
// Unmarshal into an *any gives, checking that its kinds and union branches
// fit the schema. It decodes logical types from the underlying values
// itself, so it does not depend on the any codecs.
func vecValueToGo(s *schema.Schema, v value.Value) (any, error) {
	if s.Kind() == schema.Union {
		b := v.Branch()
		if b < 0 || b >= len(s.Branches()) {
			return nil, fmt.Errorf("union value with branch %d (%d branches)", b, len(s.Branches()))
		}
		return vecValueToGo(s.Branches()[b], v.WithBranch(-1))
	}
	if v.Branch() != -1 {
		return nil, fmt.Errorf("%s value with union branch %d outside a union", v.Kind(), v.Branch())
	}
	if v.Kind() != value.Kind(s.Kind()) {
		return nil, fmt.Errorf("%s value for Avro %s", v.Kind(), s.Kind())
	}
	switch s.Kind() {
	case schema.Null:
		return nil, nil
	case schema.Boolean:
		return v.Bool(), nil
	case schema.Int:
		n := v.Int()
		switch s.Logical() {
		case schema.Date:
			return time.Unix(int64(n)*86400, 0).UTC(), nil
		case schema.TimeMillis:
			return time.Duration(n) * time.Millisecond, nil
		}
		return n, nil
	case schema.Long:
		n := v.Long()
		switch {
		case vecIsTimestamp(s.Logical()):
			return vecUnitsToTime(s.Logical(), n), nil
		case s.Logical() == schema.TimeMicros:
			return time.Duration(n) * time.Microsecond, nil
		}
		return n, nil
	case schema.Float:
		return v.Float(), nil
	case schema.Double:
		return v.Double(), nil
	case schema.String:
		return v.Str(), nil
	case schema.Bytes, schema.Fixed:
		if s.Logical() == schema.Decimal {
			return vecRatFromTwos(v.Bytes(), s.Scale()), nil
		}
		return v.Bytes(), nil
	case schema.Enum:
		i := v.EnumIndex()
		if i < 0 || i >= len(s.Symbols()) {
			return nil, fmt.Errorf("enum index %d of %d symbols", i, len(s.Symbols()))
		}
		return s.Symbols()[i], nil
	case schema.Array:
		out := []any{}
		for i := range v.Len() {
			x, err := vecValueToGo(s.Items(), v.Index(i))
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	case schema.Map:
		out := map[string]any{}
		for k, e := range v.Map().All() {
			x, err := vecValueToGo(s.Values(), e)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case schema.Record:
		r := v.Record()
		if r.NumField() != len(s.Fields()) {
			return nil, fmt.Errorf("record of %d fields for %s of %d", r.NumField(), s.FullName(), len(s.Fields()))
		}
		out := map[string]any{}
		for i, f := range s.Fields() {
			x, err := vecValueToGo(f.Type(), r.FieldAt(i))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name(), err)
			}
			out[f.Name()] = x
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown kind %s", s.Kind())
}

// vecHasMap reports whether s contains a map: Go maps are encoded in
// iteration order, so the bytes of a datum holding a map of several
// entries are not unique.
func vecHasMap(s *schema.Schema) bool {
	seen := map[*schema.Schema]bool{}
	var walk func(*schema.Schema) bool
	walk = func(s *schema.Schema) bool {
		if seen[s] {
			return false
		}
		seen[s] = true
		switch s.Kind() {
		case schema.Map:
			return true
		case schema.Array:
			return walk(s.Items())
		case schema.Record:
			for _, f := range s.Fields() {
				if walk(f.Type()) {
					return true
				}
			}
		case schema.Union:
			for _, b := range s.Branches() {
				if walk(b) {
					return true
				}
			}
		}
		return false
	}
	return walk(s)
}

// vecSameEncoding checks that got encodes the same datum as want. The
// bytes must be equal, except that when s holds a map (which Marshal
// writes in Go's map order) they may differ in entry order: both must
// then have the same length and decode to equal values.
func vecSameEncoding(t *testing.T, what string, s *schema.Schema, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	if !vecHasMap(s) || len(got) != len(want) {
		t.Errorf("%s: bytes\n got %x\nwant %x", what, got, want)
		return
	}
	var gv, wv value.Value
	if err := Unmarshal(s, got, &gv); err != nil {
		t.Errorf("%s: bytes %x do not decode: %v", what, got, err)
		return
	}
	if err := Unmarshal(s, want, &wv); err != nil {
		t.Errorf("%s: reference bytes %x do not decode: %v", what, want, err)
		return
	}
	if !value.Equal(gv, wv) {
		t.Errorf("%s: bytes %x (%v)\nare not a reordering of %x (%v)", what, got, gv, want, wv)
	}
}

// vecCheckStruct marshals want (a Go value of its concrete type, both as
// the value and through a pointer to it), compares the bytes with wire,
// and unmarshals wire into a new value of the same type.
func vecCheckStruct(t *testing.T, s *schema.Schema, want any, wire []byte) {
	t.Helper()
	typ := reflect.TypeOf(want)
	got, err := Marshal(s, want)
	if err != nil {
		t.Errorf("Marshal(%s): %v", typ, err)
	} else {
		vecSameEncoding(t, "Marshal("+typ.String()+")", s, got, wire)
	}
	p := reflect.New(typ)
	p.Elem().Set(reflect.ValueOf(want))
	got, err = Marshal(s, p.Interface())
	if err != nil {
		t.Errorf("Marshal(*%s): %v", typ, err)
	} else {
		vecSameEncoding(t, "Marshal(*"+typ.String()+")", s, got, wire)
	}
	dst := reflect.New(typ)
	if err := Unmarshal(s, wire, dst.Interface()); err != nil {
		t.Errorf("Unmarshal into *%s: %v", typ, err)
		return
	}
	if diff := cmp.Diff(want, dst.Elem().Interface(), vecCmp); diff != "" {
		t.Errorf("Unmarshal into *%s (-want +got):\n%s", typ, diff)
	}
}

// vecCheckAnyAndValue checks the any and value.Value mappings of one datum
// against its reference encoding wire: goVal is the datum as Unmarshal
// into an *any gives it, under (optional) its underlying Avro value as
// value.ToAny gives it.
func vecCheckAnyAndValue(t *testing.T, s *schema.Schema, goVal any, under any, hasUnder bool, wire []byte) {
	t.Helper()
	// (a) any
	got, err := Marshal(s, goVal)
	if err != nil {
		t.Errorf("Marshal(any %#v): %v", goVal, err)
	} else {
		vecSameEncoding(t, "Marshal(any)", s, got, wire)
	}
	var back any
	if err := Unmarshal(s, wire, &back); err != nil {
		t.Errorf("Unmarshal into *any: %v", err)
	} else if diff := cmp.Diff(goVal, back, vecCmp); diff != "" {
		t.Errorf("Unmarshal into *any (-want +got):\n%s", diff)
	}
	if hasUnder {
		got, err := Marshal(s, under)
		if err != nil {
			t.Errorf("Marshal(underlying any %#v): %v", under, err)
		} else {
			vecSameEncoding(t, "Marshal(underlying any)", s, got, wire)
		}
	}

	// (b) value.Value
	var v value.Value
	if err := Unmarshal(s, wire, &v); err != nil {
		t.Errorf("Unmarshal into *value.Value: %v", err)
		return
	}
	if x, err := vecValueToGo(s, v); err != nil {
		t.Errorf("decoded value.Value %v does not fit the schema: %v", v, err)
	} else if diff := cmp.Diff(goVal, x, vecCmp); diff != "" {
		t.Errorf("Unmarshal into *value.Value: %v (-want +got):\n%s", v, diff)
	}
	if hasUnder {
		if diff := cmp.Diff(under, value.ToAny(v), vecCmp); diff != "" {
			t.Errorf("value.ToAny of the decoded value (-want +got):\n%s", diff)
		}
	}
	for _, x := range []any{v, &v} {
		got, err := Marshal(s, x)
		if err != nil {
			t.Errorf("Marshal(%T) of the decoded value.Value: %v", x, err)
		} else if !bytes.Equal(got, wire) {
			t.Errorf("Marshal(%T) of the decoded value.Value:\n got %x\nwant %x", x, got, wire)
		}
	}
	if hasUnder {
		fv, err := value.FromAny(s, under)
		if err != nil {
			t.Errorf("value.FromAny(%#v): %v", under, err)
		} else if !value.Equal(fv, v) {
			t.Errorf("value.FromAny(underlying) = %v, decoded %v", fv, v)
		}
	}
}

type vecCase struct {
	Schema     json.RawMessage `json:"schema"`
	Datum      json.RawMessage `json:"datum"`
	BinaryHex  string          `json:"binary_hex"`
	Underlying json.RawMessage `json:"underlying_value"`
}

type vecFile struct {
	RoundTrip []vecCase `json:"round_trip"`
	Zigzag    []struct {
		Value int64  `json:"value"`
		Hex   string `json:"hex"`
	} `json:"zigzag_varint"`
}

func vecLoad(t *testing.T) vecFile {
	t.Helper()
	var f vecFile
	if err := json.Unmarshal(vecReadFile(t, "derived/py-io-vectors.json"), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.RoundTrip) != 41 || len(f.Zigzag) != 9 {
		t.Fatalf("py-io-vectors.json: %d round_trip and %d zigzag cases, want 41 and 9", len(f.RoundTrip), len(f.Zigzag))
	}
	return f
}

// Concrete Go types for a subset of the round_trip cases.
type vecTestRec struct {
	F int64 `avro:"f"`
}

type vecLinked struct {
	Value int32      `avro:"value"`
	Next  *vecLinked `avro:"next"`
}

type vecLisp struct {
	Value any `avro:"value"`
}

type vecUUID [16]byte

type vecStructCase struct {
	idx    int    // index in round_trip
	schema string // the case's schema, compacted, to catch a misnumbering
	want   any
}

func vecRatOf(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

func vecStructCases() []vecStructCase {
	ptr := func(t time.Time) *time.Time { return &t }
	return []vecStructCase{
		{1, `"boolean"`, true},
		{2, `"string"`, "adsfasdf09809dsf-=adsf"},
		{2, `"string"`, []byte("adsfasdf09809dsf-=adsf")},
		{3, `"bytes"`, []byte("12345abcd")},
		{3, `"bytes"`, "12345abcd"},
		{4, `"int"`, int32(1234)},
		{4, `"int"`, 1234},
		{4, `"int"`, uint16(1234)},
		{5, `"long"`, int64(1234)},
		{5, `"long"`, int16(1234)},
		{6, `"float"`, float32(1234)},
		{6, `"float"`, float64(1234)},
		{7, `"double"`, float64(1234)},
		{7, `"double"`, float32(1234)},
		{8, `{"type":"fixed","name":"Test","size":1}`, [1]byte{0x42}},
		{9, `{"type":"fixed","logicalType":"decimal","name":"Test","size":8,"precision":5,"scale":4}`, vecRatOf("3.1415")},
		{10, `{"type":"fixed","logicalType":"decimal","name":"Test","size":8,"precision":5,"scale":4}`, *vecRatOf("-3.1415")},
		{11, `{"type":"fixed","logicalType":"decimal","name":"Test","size":8,"precision":1}`, vecRatOf("3")},
		{12, `{"type":"bytes","logicalType":"decimal","precision":5,"scale":4}`, vecRatOf("3.1415")},
		{13, `{"type":"bytes","logicalType":"decimal","precision":5,"scale":4}`, *vecRatOf("-3.1415")},
		{14, `{"type":"bytes","logicalType":"decimal","precision":1}`, vecRatOf("3")},
		{15, `{"type":"enum","name":"Test","symbols":["A","B"]}`, "B"},
		{15, `{"type":"enum","name":"Test","symbols":["A","B"]}`, 1},
		{16, `{"type":"array","items":"long"}`, []int64{1, 3, 2}},
		{16, `{"type":"array","items":"long"}`, []int{1, 3, 2}},
		{16, `{"type":"array","items":"long"}`, [3]int64{1, 3, 2}},
		{17, `{"type":"map","values":"long"}`, map[string]int64{"a": 1, "b": 3, "c": 2}},
		{19, `{"type":"int","logicalType":"date"}`, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{20, `{"type":"int","logicalType":"time-millis"}`, 24*time.Hour - time.Millisecond},
		{21, `{"type":"int","logicalType":"time-millis"}`, time.Duration(0)},
		{22, `{"type":"long","logicalType":"time-micros"}`, 24*time.Hour - time.Microsecond},
		{24, `{"type":"long","logicalType":"timestamp-millis"}`, time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{25, `{"type":"long","logicalType":"timestamp-millis"}`, time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC)},
		{26, `{"type":"long","logicalType":"timestamp-millis"}`, time.Date(2000, 1, 17, 16, 2, 1, 100e6, time.UTC)},
		{27, `{"type":"long","logicalType":"timestamp-micros"}`, time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{28, `{"type":"long","logicalType":"timestamp-micros"}`, time.Date(9999, 12, 31, 23, 59, 59, 999999e3, time.UTC)},
		{29, `{"type":"long","logicalType":"timestamp-micros"}`, time.Date(2000, 1, 17, 16, 2, 1, 123499e3, time.UTC)},
		{30, `{"type":"string","logicalType":"uuid"}`, "a4818e1c-8e59-11eb-8dcd-0242ac130003"},
		{31, `{"type":"string","logicalType":"uuid"}`, vecUUID{0x57, 0x0f, 0xee, 0xbe, 0x2b, 0xbc, 0x49, 0x37, 0x98, 0xdf, 0x28, 0x59, 0x44, 0xe1, 0xdb, 0xbd}},
		{32, `{"type":"string","logicalType":"unknown-logical-type"}`, "12345abcd"},
		{33, `{"type":"string","logicalType":"timestamp-millis"}`, "12345abcd"},
		{34, `{"type":"record","name":"Test","fields":[{"name":"f","type":"long"}]}`, vecTestRec{F: 5}},
		{35, `{"type":"record","name":"Lisp","fields":[{"name":"value","type":["null","string",{"type":"record","name":"Cons","fields":[{"name":"car","type":"Lisp"},{"name":"cdr","type":"Lisp"}]}]}]}`,
			vecLisp{Value: map[string]any{"car": map[string]any{"value": "head"}, "cdr": map[string]any{"value": nil}}}},
		{36, `{"type":"record","name":"record","fields":[{"name":"value","type":"int"},{"name":"next","type":["null","record"]}]}`,
			vecLinked{Value: 0, Next: &vecLinked{Value: 1}}},
		{37, `{"type":"record","name":"ns.long","fields":[{"name":"value","type":"int"},{"name":"next","type":["null","ns.long"]}]}`,
			vecLinked{Value: 0, Next: &vecLinked{Value: 1}}},
		{38, `[{"logicalType":"uuid","type":"string"},"null"]`, (*string)(nil)},
		{39, `[{"type":"long","logicalType":"timestamp-millis"},"null"]`, ptr(time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC))},
		{40, `[{"type":"long","logicalType":"timestamp-millis"},"null"]`, (*time.Time)(nil)},
	}
}

func vecCompact(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestVectorsPyIORoundTrip runs the round_trip vectors of the Python
// reference (lang/py test_io.py): the bytes Python wrote must be what
// Marshal writes and must decode back to the datum, through any,
// value.Value and (for a subset) concrete Go types.
func TestVectorsPyIORoundTrip(t *testing.T) {
	f := vecLoad(t)
	structs := map[int][]vecStructCase{}
	for _, sc := range vecStructCases() {
		structs[sc.idx] = append(structs[sc.idx], sc)
	}
	covered := 0
	for i, c := range f.RoundTrip {
		name := fmt.Sprintf("%02d_%.40s", i, vecCompact(t, c.Schema))
		t.Run(name, func(t *testing.T) {
			s, err := schema.Parse(string(c.Schema))
			if err != nil {
				t.Fatalf("schema.Parse(%s): %v", c.Schema, err)
			}
			wire, err := hex.DecodeString(c.BinaryHex)
			if err != nil {
				t.Fatal(err)
			}
			datum, err := vecDecodeJSON(c.Datum)
			if err != nil {
				t.Fatal(err)
			}
			goVal, err := vecToGo(s, datum, false)
			if err != nil {
				t.Fatalf("datum %s: %v", c.Datum, err)
			}
			ux, err := vecDecodeJSON(c.Underlying)
			if err != nil {
				t.Fatal(err)
			}
			under, err := vecToGo(s, ux, true)
			if err != nil {
				t.Fatalf("underlying_value %s: %v", c.Underlying, err)
			}
			vecCheckAnyAndValue(t, s, goVal, under, true, wire)

			for _, sc := range structs[i] {
				if got := vecCompact(t, c.Schema); got != sc.schema {
					t.Fatalf("struct case %d is for schema %s, the file has %s", i, sc.schema, got)
				}
				covered++
				vecCheckStruct(t, s, sc.want, wire)
			}
		})
	}
	if want := len(vecStructCases()); covered != want {
		t.Errorf("%d of %d struct cases ran", covered, want)
	}
}

// TestVectorsZigZag checks the zig-zag varints of the Python reference.
func TestVectorsZigZag(t *testing.T) {
	f := vecLoad(t)
	long := schema.MustParse(`"long"`)
	for _, c := range f.Zigzag {
		wire, err := hex.DecodeString(c.Hex)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Marshal(long, c.Value)
		if err != nil || !bytes.Equal(got, wire) {
			t.Errorf("Marshal(long, %d) = %x, %v; want %x", c.Value, got, err, wire)
		}
		var n int64
		if err := Unmarshal(long, wire, &n); err != nil || n != c.Value {
			t.Errorf("Unmarshal(long, %x) = %d, %v; want %d", wire, n, err, c.Value)
		}
		var x any
		if err := Unmarshal(long, wire, &x); err != nil || x != any(c.Value) {
			t.Errorf("Unmarshal(long, %x) into any = %#v, %v; want int64(%d)", wire, x, err, c.Value)
		}
		var v value.Value
		if err := Unmarshal(long, wire, &v); err != nil || v.Kind() != value.KindLong || v.Long() != c.Value {
			t.Errorf("Unmarshal(long, %x) into value.Value = %v, %v; want Long(%d)", wire, v, err, c.Value)
		}
	}
}

// The Go mirror of share/test/schemas/interop.avsc.
type vecInteropFoo struct {
	Label string `avro:"label"`
}

type vecInteropNode struct {
	Label    string           `avro:"label"`
	Children []vecInteropNode `avro:"children"`
}

type vecInterop struct {
	IntField    int32                    `avro:"intField"`
	LongField   int64                    `avro:"longField"`
	StringField string                   `avro:"stringField"`
	BoolField   bool                     `avro:"boolField"`
	FloatField  float32                  `avro:"floatField"`
	DoubleField float64                  `avro:"doubleField"`
	BytesField  []byte                   `avro:"bytesField"`
	NullField   any                      `avro:"nullField"`
	ArrayField  []float64                `avro:"arrayField"`
	MapField    map[string]vecInteropFoo `avro:"mapField"`
	UnionField  any                      `avro:"unionField"`
	EnumField   string                   `avro:"enumField"`
	FixedField  [16]byte                 `avro:"fixedField"`
	RecordField vecInteropNode           `avro:"recordField"`
}

func vecInteropSchema(t testing.TB) *schema.Schema {
	t.Helper()
	s, err := schema.Parse(string(vecReadFile(t, "share/test/schemas/interop.avsc")))
	if err != nil {
		t.Fatalf("interop.avsc: %v", err)
	}
	return s
}

// vecInteropDatum is the datum of the upstream interop data files
// (derived/interop/expected.json), in tagged JSON.
func vecInteropDatum(t testing.TB) json.RawMessage {
	t.Helper()
	var f struct {
		Datum json.RawMessage `json:"DATUM"`
	}
	if err := json.Unmarshal(vecReadFile(t, "derived/interop/expected.json"), &f); err != nil {
		t.Fatal(err)
	}
	return f.Datum
}

// vecInteropCases are interop.avsc datums as tagged JSON with the same
// datum as a vecInterop. The first is the upstream interop datum.
func vecInteropCases(t testing.TB) (datums []string, structs []vecInterop) {
	var fixed16 [16]byte
	copy(fixed16[:], "1019181716151413")
	var ff [16]byte
	for i := range ff {
		ff[i] = 0xff
	}
	datums = []string{
		string(vecInteropDatum(t)),
		`{"intField": -2147483648, "longField": 9223372036854775807, "stringField": "", "boolField": false,
		  "floatField": {"$double": "-Infinity"}, "doubleField": {"$double": "NaN"}, "bytesField": {"$bytes_hex": ""},
		  "nullField": null, "arrayField": [], "mapField": {}, "unionField": [{"$bytes_hex": "00ff"}, {"$bytes_hex": ""}],
		  "enumField": "A", "fixedField": {"$bytes_hex": "000102030405060708090a0b0c0d0e0f"},
		  "recordField": {"label": "", "children": []}}`,
		`{"intField": 2147483647, "longField": -9223372036854775808, "stringField": "héllo, 世界 🎉",
		  "boolField": true, "floatField": 3.4028234663852886e+38, "doubleField": 1.7976931348623157e+308,
		  "bytesField": {"$bytes_hex": "c3a9ff00"}, "nullField": null,
		  "arrayField": [-0.0, 5e-324, {"$double": "Infinity"}], "mapField": {"ключ": {"label": "значение"}},
		  "unionField": 0.5, "enumField": "B", "fixedField": {"$bytes_hex": "ffffffffffffffffffffffffffffffff"},
		  "recordField": {"label": "root", "children": [
		    {"label": "a", "children": [{"label": "a1", "children": []}]},
		    {"label": "b", "children": []}]}}`,
	}
	structs = []vecInterop{
		{
			IntField: 12, LongField: 15234324, StringField: "hey", BoolField: true,
			FloatField: 1234, DoubleField: -1234, BytesField: []byte("12312adf"),
			ArrayField: []float64{5, 0, 12},
			MapField:   map[string]vecInteropFoo{"a": {"a"}, "bee": {"cee"}},
			UnionField: float64(12), EnumField: "C", FixedField: fixed16,
			RecordField: vecInteropNode{Label: "blah", Children: []vecInteropNode{{Label: "inner", Children: []vecInteropNode{}}}},
		},
		{
			IntField: math.MinInt32, LongField: math.MaxInt64, StringField: "", BoolField: false,
			FloatField: float32(math.Inf(-1)), DoubleField: vecNaN, BytesField: []byte{},
			ArrayField: []float64{}, MapField: map[string]vecInteropFoo{},
			UnionField: []any{[]byte{0, 0xff}, []byte{}}, EnumField: "A",
			FixedField:  [16]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
			RecordField: vecInteropNode{Label: "", Children: []vecInteropNode{}},
		},
		{
			IntField: math.MaxInt32, LongField: math.MinInt64, StringField: "héllo, 世界 🎉", BoolField: true,
			FloatField: math.MaxFloat32, DoubleField: math.MaxFloat64, BytesField: []byte{0xc3, 0xa9, 0xff, 0},
			ArrayField: []float64{math.Copysign(0, -1), 5e-324, math.Inf(1)},
			MapField:   map[string]vecInteropFoo{"ключ": {"значение"}},
			UnionField: 0.5, EnumField: "B", FixedField: ff,
			RecordField: vecInteropNode{Label: "root", Children: []vecInteropNode{
				{Label: "a", Children: []vecInteropNode{{Label: "a1", Children: []vecInteropNode{}}}},
				{Label: "b", Children: []vecInteropNode{}},
			}},
		},
	}
	return datums, structs
}

// TestVectorsInteropSchema round-trips interop.avsc datums through the
// struct, any and value.Value mappings: all three write the same bytes
// and read them back to the same datum.
func TestVectorsInteropSchema(t *testing.T) {
	s := vecInteropSchema(t)
	datums, structs := vecInteropCases(t)
	for i, d := range datums {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			x, err := vecDecodeJSON([]byte(d))
			if err != nil {
				t.Fatal(err)
			}
			goVal, err := vecToGo(s, x, false)
			if err != nil {
				t.Fatal(err)
			}
			wire, err := Marshal(s, &structs[i])
			if err != nil {
				t.Fatalf("Marshal(*vecInterop): %v", err)
			}
			// The struct's bytes against a hand count of the first
			// fields: int, long and string lead the record.
			var prefix []byte
			prefix = appendVecZigZag(prefix, int64(structs[i].IntField))
			prefix = appendVecZigZag(prefix, structs[i].LongField)
			prefix = appendVecZigZag(prefix, int64(len(structs[i].StringField)))
			prefix = append(prefix, structs[i].StringField...)
			if !bytes.HasPrefix(wire, prefix) {
				t.Errorf("Marshal(*vecInterop) = %x, want prefix %x", wire, prefix)
			}
			vecCheckStruct(t, s, structs[i], wire)
			vecCheckAnyAndValue(t, s, goVal, nil, false, wire)
		})
	}
}

func appendVecZigZag(b []byte, n int64) []byte {
	u := uint64(n<<1) ^ uint64(n>>63)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// TestVectorsEmptyBytesRoundTrip: an empty bytes value decodes to an
// empty, non-nil []byte, so that in ["null","bytes"] (a []byte with nil
// for null) it is written back as bytes, not as null. Before the fix in
// decodeState.readBytes, 0200 (branch 1, empty bytes) was read as nil and
// written back as 00 (null).
func TestVectorsEmptyBytesRoundTrip(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":["null","bytes"]},{"name":"c","type":"bytes"}]}`)
	type rec struct {
		B []byte `avro:"b"`
		C []byte `avro:"c"`
	}
	wire := []byte{0x02, 0x00, 0x00}
	var r rec
	if err := Unmarshal(s, wire, &r); err != nil {
		t.Fatal(err)
	}
	if r.B == nil || len(r.B) != 0 || r.C == nil || len(r.C) != 0 {
		t.Errorf("Unmarshal(%x) = %#v, want empty non-nil slices", wire, r)
	}
	back, err := Marshal(s, &r)
	if err != nil || !bytes.Equal(back, wire) {
		t.Errorf("Marshal of the decoded record = %x, %v; want %x", back, err, wire)
	}
	var x any
	if err := Unmarshal(schema.MustParse(`"bytes"`), []byte{0}, &x); err != nil {
		t.Fatal(err)
	}
	if b, ok := x.([]byte); !ok || b == nil {
		t.Errorf("empty bytes into *any = %#v, want []byte{}", x)
	}
}
