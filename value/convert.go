package value

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/avrogo/avro/schema"
)

// ToAny converts v to the plain Go data model that avro.Unmarshal into an
// *any produces: nil for null, bool, int32 for int, int64 for long,
// float32, float64, string, []byte for bytes and fixed (sharing v's
// memory), the symbol string for an enum (its index as an int when the
// Value has no schema), []any for arrays (typed arrays too), map[string]any
// for maps (a repeated key keeps its last value) and records (keyed by
// field name, or by the decimal index of the field when the record has no
// schema). Union branches are dropped: a union value converts to the value
// of its branch. ToAny panics on a Value nested deeper than 1,000 levels
// (one that contains itself).
func ToAny(v Value) any { return toAny(v, 0) }

func toAny(v Value, depth int) any {
	if depth > maxDepth {
		panic("value: ToAny: value nested too deeply (does it contain itself?)")
	}
	v = v.unbox()
	switch v.Kind() {
	case KindBoolean:
		return v.Bool()
	case KindInt:
		return v.Int()
	case KindLong:
		return v.Long()
	case KindFloat:
		return v.Float()
	case KindDouble:
		return v.Double()
	case KindString:
		return v.Str()
	case KindBytes, KindFixed:
		return v.Bytes()
	case KindEnum:
		if s := v.Symbol(); s != "" {
			return s
		}
		return v.EnumIndex()
	case KindArray:
		out := make([]any, v.n())
		for i := range out {
			out[i] = toAny(v.Index(i), depth+1)
		}
		return out
	case KindMap:
		m := v.Map()
		out := make(map[string]any, m.Len())
		vals := m.Values()
		for i, k := range m.Keys() {
			out[k] = toAny(vals[i], depth+1)
		}
		return out
	case KindRecord:
		r := v.Record()
		out := make(map[string]any, r.n)
		for i, f := range r.Fields() {
			out[r.name(i)] = toAny(f, depth+1)
		}
		return out
	}
	return nil
}

// ConvertError is the error FromAny returns. Path locates the offending
// part of the input, as field names, [index] for array items and ["key"]
// for map values: `items[3].name`, or "" for the top level.
type ConvertError struct {
	Path string
	Err  error
}

// Error implements error.
func (e *ConvertError) Error() string {
	if e.Path == "" {
		return "value: " + e.Err.Error()
	}
	return "value: " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *ConvertError) Unwrap() error { return e.Err }

// mismatchError says the Go type of a value does not fit the schema kind at
// all; union matching skips such branches silently.
type mismatchError struct {
	want string
	got  any
}

func (e *mismatchError) Error() string {
	if e.got == nil {
		return "cannot use nil as " + e.want
	}
	return fmt.Sprintf("cannot use %T as %s", e.got, e.want)
}

func mismatch(s *schema.Schema, x any) error {
	return &ConvertError{Err: &mismatchError{want: typeName(s), got: x}}
}

func fail(format string, args ...any) error {
	return &ConvertError{Err: fmt.Errorf(format, args...)}
}

// atPath prefixes the path of err with seg: a field name, "[3]" or
// `["key"]`.
func atPath(err error, seg string) error {
	e, ok := err.(*ConvertError)
	if !ok {
		return &ConvertError{Path: seg, Err: err}
	}
	switch {
	case e.Path == "":
		e.Path = seg
	case e.Path[0] == '[':
		e.Path = seg + e.Path
	default:
		e.Path = seg + "." + e.Path
	}
	return e
}

func typeName(s *schema.Schema) string {
	if s.Kind().IsNamed() {
		return s.Kind().String() + " " + s.FullName()
	}
	if s.Kind() == schema.Union {
		names := make([]string, len(s.Branches()))
		for i, b := range s.Branches() {
			names[i] = b.FullName()
		}
		return "union [" + strings.Join(names, ", ") + "]"
	}
	return s.Kind().String()
}

// FromAny converts plain Go data to a Value of schema s, setting union
// branches. It accepts what ToAny produces, and more:
//
//   - null: nil.
//   - boolean: bool. string: string. bytes: []byte (copied).
//   - int and long: any Go integer type (and json.Number) within range;
//     floating-point values are not accepted.
//   - float and double: any Go float type (and json.Number), or an integer
//     whose magnitude is at most 2^24 (float) or 2^53 (double), which
//     converts exactly; a float64 beyond the float32 range is an error.
//   - fixed: a []byte or [N]byte of the fixed's size (copied).
//   - enum: the symbol string.
//   - array: any slice or array; items of int, long, float, double or
//     boolean make a typed array (Int32s, Int64s, ...).
//   - map: any map with string keys; the entries are sorted by key.
//   - record: map[string]any keyed by field name; a missing field takes
//     its default, an unknown key is an error.
//   - union: a one-key map[string]any{"name": x} whose key is the full
//     name (or name) of a branch, or a primitive or "array"/"map", selects
//     that branch (the goavro convention); otherwise x goes to the first
//     branch that accepts it (so with ["int", "long"] an int64 that fits
//     in 32 bits becomes an int).
//   - any schema: a Value (or *Record) is taken as it is once its kind
//     fits; in a union it keeps a branch it has, or gets the first branch
//     of its kind.
//
// Errors are *ConvertError values with a path: `items[3].name: ...`.
func FromAny(s *schema.Schema, x any) (Value, error) {
	v, err := fromAny(s, x, 0)
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

func fromAny(s *schema.Schema, x any, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, fail("value nested deeper than %d levels", maxDepth)
	}
	if r, ok := x.(*Record); ok && r != nil {
		x = RecordOf(r)
	}
	if v, ok := x.(Value); ok {
		return fromValue(s, v)
	}
	switch s.Kind() {
	case schema.Null:
		if x == nil {
			return Value{}, nil
		}
	case schema.Boolean:
		switch b := x.(type) {
		case bool:
			return Bool(b), nil
		case nil:
		default:
			if rv := reflect.ValueOf(x); rv.Kind() == reflect.Bool {
				return Bool(rv.Bool()), nil
			}
		}
	case schema.Int:
		i, err := intOf(s, x)
		if err != nil {
			return Value{}, err
		}
		if i < math.MinInt32 || i > math.MaxInt32 {
			return Value{}, fail("%d overflows int", i)
		}
		return Int(int32(i)), nil
	case schema.Long:
		i, err := intOf(s, x)
		if err != nil {
			return Value{}, err
		}
		return Long(i), nil
	case schema.Float:
		f, err := floatOf(s, x, 24)
		if err != nil {
			return Value{}, err
		}
		if !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
			return Value{}, fail("%g overflows float", f)
		}
		return Float(float32(f)), nil
	case schema.Double:
		f, err := floatOf(s, x, 53)
		if err != nil {
			return Value{}, err
		}
		return Double(f), nil
	case schema.String:
		if str, ok := stringOf(x); ok {
			return String(str), nil
		}
	case schema.Bytes:
		if b, ok := bytesOf(x); ok {
			return Bytes(b), nil
		}
	case schema.Fixed:
		if b, ok := bytesOf(x); ok {
			if len(b) != s.Size() {
				return Value{}, fail("%d bytes for %s of size %d", len(b), typeName(s), s.Size())
			}
			return Fixed(b), nil
		}
	case schema.Enum:
		if sym, ok := stringOf(x); ok {
			i := s.SymbolIndex(sym)
			if i < 0 {
				return Value{}, fail("%q is not a symbol of %s", sym, typeName(s))
			}
			return EnumOf(s, i), nil
		}
	case schema.Array:
		return arrayFromAny(s, x, depth)
	case schema.Map:
		return mapFromAny(s, x, depth)
	case schema.Record:
		if m, ok := x.(map[string]any); ok {
			return recordFromAny(s, m, depth)
		}
	case schema.Union:
		return unionFromAny(s, x, depth)
	}
	return Value{}, mismatch(s, x)
}

func fromValue(s *schema.Schema, v Value) (Value, error) {
	if s.Kind() != schema.Union {
		if v.Kind() != Kind(s.Kind()) {
			return Value{}, fail("cannot use %s Value as %s", v.Kind(), typeName(s))
		}
		return v.WithBranch(-1), nil
	}
	br := s.Branches()
	if b := v.Branch(); b >= 0 {
		if b >= len(br) || v.Kind() != Kind(br[b].Kind()) {
			return Value{}, fail("%s Value with branch %d does not fit %s", v.Kind(), b, typeName(s))
		}
		return v, nil
	}
	for i, b := range br {
		if Kind(b.Kind()) == v.Kind() {
			return v.WithBranch(i), nil
		}
	}
	return Value{}, fail("cannot use %s Value as %s", v.Kind(), typeName(s))
}

func intOf(s *schema.Schema, x any) (int64, error) {
	switch t := x.(type) {
	case int:
		return int64(t), nil
	case int64:
		return t, nil
	case int32:
		return int64(t), nil
	case int16:
		return int64(t), nil
	case int8:
		return int64(t), nil
	case uint8:
		return int64(t), nil
	case uint16:
		return int64(t), nil
	case uint32:
		return int64(t), nil
	case json.Number:
		i, err := t.Int64()
		if err != nil {
			return 0, fail("%s is not an integer in range for %s", t, typeName(s))
		}
		return i, nil
	case nil, float32, float64, string, bool:
		return 0, mismatch(s, x)
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return 0, fail("%d overflows %s", u, typeName(s))
		}
		return int64(u), nil
	}
	return 0, mismatch(s, x)
}

// floatOf converts x to float64; integers must have at most mant bits of
// magnitude so that they convert exactly.
func floatOf(s *schema.Schema, x any, mant uint) (float64, error) {
	switch t := x.(type) {
	case float64:
		return t, nil
	case float32:
		return float64(t), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return 0, fail("%s is not a number for %s", t, typeName(s))
		}
		return f, nil
	case nil, string, bool:
		return 0, mismatch(s, x)
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Float32, reflect.Float64:
		return rv.Float(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i := rv.Int()
		if i < -1<<mant || i > 1<<mant {
			return 0, fail("%d does not convert exactly to %s", i, typeName(s))
		}
		return float64(i), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > 1<<mant {
			return 0, fail("%d does not convert exactly to %s", u, typeName(s))
		}
		return float64(u), nil
	}
	return 0, mismatch(s, x)
}

func stringOf(x any) (string, bool) {
	if str, ok := x.(string); ok {
		return str, true
	}
	if x == nil {
		return "", false
	}
	if rv := reflect.ValueOf(x); rv.Kind() == reflect.String {
		return rv.String(), true
	}
	return "", false
}

// bytesOf returns a copy of a []byte or [N]byte.
func bytesOf(x any) ([]byte, bool) {
	if b, ok := x.([]byte); ok {
		return slices.Clone(b)[:len(b):len(b)], true
	}
	if x == nil {
		return nil, false
	}
	rv := reflect.ValueOf(x)
	if (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Type().Elem().Kind() == reflect.Uint8 {
		b := make([]byte, rv.Len())
		reflect.Copy(reflect.ValueOf(b), rv)
		return b, true
	}
	return nil, false
}

// seq returns the length of a slice or array x and a function that reads
// its elements.
func seq(x any) (int, func(int) any, bool) {
	switch t := x.(type) {
	case []any:
		return len(t), func(i int) any { return t[i] }, true
	case nil, string:
		return 0, nil, false
	}
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return 0, nil, false
	}
	return rv.Len(), func(i int) any { return rv.Index(i).Interface() }, true
}

func arrayFromAny(s *schema.Schema, x any, depth int) (Value, error) {
	n, at, ok := seq(x)
	if !ok {
		return Value{}, mismatch(s, x)
	}
	items := s.Items()
	var err error
	elem := func(i int) Value {
		if err != nil {
			return Value{}
		}
		var v Value
		v, err = fromAny(items, at(i), depth+1)
		if err != nil {
			err = atPath(err, "["+strconv.Itoa(i)+"]")
		}
		return v
	}
	var out Value
	switch items.Kind() {
	case schema.Int:
		a := make([]int32, n)
		for i := range a {
			a[i] = int32(elem(i).w)
		}
		out = Int32s(a)
	case schema.Long:
		a := make([]int64, n)
		for i := range a {
			a[i] = int64(elem(i).w)
		}
		out = Int64s(a)
	case schema.Float:
		a := make([]float32, n)
		for i := range a {
			a[i] = math.Float32frombits(uint32(elem(i).w))
		}
		out = Float32s(a)
	case schema.Double:
		a := make([]float64, n)
		for i := range a {
			a[i] = math.Float64frombits(elem(i).w)
		}
		out = Float64s(a)
	case schema.Boolean:
		a := make([]bool, n)
		for i := range a {
			a[i] = elem(i).w != 0
		}
		out = Bools(a)
	default:
		a := make([]Value, n)
		for i := range a {
			a[i] = elem(i)
		}
		out = Array(a)
	}
	if err != nil {
		return Value{}, err
	}
	return out, nil
}

func mapFromAny(s *schema.Schema, x any, depth int) (Value, error) {
	var keys []string
	var get func(string) any
	switch m := x.(type) {
	case map[string]any:
		keys = make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		get = func(k string) any { return m[k] }
	case nil:
		return Value{}, mismatch(s, x)
	default:
		rv := reflect.ValueOf(x)
		if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
			return Value{}, mismatch(s, x)
		}
		byKey := make(map[string]reflect.Value, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			k := it.Key().String()
			keys = append(keys, k)
			byKey[k] = it.Value()
		}
		get = func(k string) any { return byKey[k].Interface() }
	}
	slices.Sort(keys)
	vals := make([]Value, len(keys))
	for i, k := range keys {
		v, err := fromAny(s.Values(), get(k), depth+1)
		if err != nil {
			return Value{}, atPath(err, "["+strconv.Quote(k)+"]")
		}
		vals[i] = v
	}
	return MapOf(NewMap(keys, vals)), nil
}

func recordFromAny(s *schema.Schema, m map[string]any, depth int) (Value, error) {
	fields := s.Fields()
	r := NewRecord(s, nil)
	vals := r.Fields()
	found := 0
	for i, f := range fields {
		x, ok := m[f.Name()]
		if ok {
			found++
		} else {
			def, has := f.Default()
			if !has {
				return Value{}, atPath(fail("missing field with no default"), f.Name())
			}
			if b := f.DefaultBranch(); b >= 0 {
				v, err := fromAny(f.Type().Branches()[b], def, depth+1)
				if err != nil {
					return Value{}, atPath(err, f.Name())
				}
				vals[i] = v.WithBranch(b)
				continue
			}
			x = def
		}
		v, err := fromAny(f.Type(), x, depth+1)
		if err != nil {
			return Value{}, atPath(err, f.Name())
		}
		vals[i] = v
	}
	if found < len(m) {
		var unknown []string
		for k := range m {
			if s.Field(k) == nil {
				unknown = append(unknown, k)
			}
		}
		slices.Sort(unknown)
		return Value{}, atPath(fail("no such field in %s", typeName(s)), unknown[0])
	}
	return RecordOf(r), nil
}

// branchNamed returns the index of the union branch that name names, or
// -1: a full name first, then a named branch's short name, so that a short
// name never hides a later branch's full name.
func branchNamed(s *schema.Schema, name string) int {
	for i, b := range s.Branches() {
		if b.FullName() == name {
			return i
		}
	}
	for i, b := range s.Branches() {
		if b.Kind().IsNamed() && b.Name() == name {
			return i
		}
	}
	return -1
}

func unionFromAny(s *schema.Schema, x any, depth int) (Value, error) {
	var wrapErr error
	if m, ok := x.(map[string]any); ok && len(m) == 1 {
		for name, inner := range m {
			if i := branchNamed(s, name); i >= 0 {
				v, err := fromAny(s.Branches()[i], inner, depth+1)
				if err == nil {
					return v.WithBranch(i), nil
				}
				wrapErr = err
			}
		}
	}
	var firstErr error
	for i, b := range s.Branches() {
		v, err := fromAny(b, x, depth+1)
		if err == nil {
			return v.WithBranch(i), nil
		}
		if firstErr == nil && !isMismatch(err) {
			firstErr = err
		}
	}
	switch {
	case wrapErr != nil:
		return Value{}, wrapErr
	case firstErr != nil:
		return Value{}, firstErr
	case x == nil:
		return Value{}, fail("nil fits no branch of %s", typeName(s))
	}
	return Value{}, fail("%T fits no branch of %s", x, typeName(s))
}

func isMismatch(err error) bool {
	e, ok := err.(*ConvertError)
	if !ok || e.Path != "" {
		return false
	}
	_, ok = e.Err.(*mismatchError)
	return ok
}
