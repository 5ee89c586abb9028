package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/avrogo/avro/schema"
)

// The records that avro tojson prints (the specification's JSON encoding)
// and those Python and avsc print (the peers' model, described in
// testdata/interop/peer.py) differ in form: unions are wrapped or not,
// bytes are code points or hex, Python holds logical types as dates and
// decimals, avsc longs are BigInt, and each prints floats its own way.
// norm brings a record of either form to one, guided by the schema, so
// that the records compare as values.

// A style is the JSON model a record is in.
type style int

const (
	specJSON    style = iota // avro tojson: the specification's JSON encoding
	peerRaw                  // avsc: logical types as their underlying values
	peerLogical              // Python: logical types as values of their own
)

// norm returns v, a value of s in style st, in the compared form: records
// and maps as maps, a union as {branch: value} (nil for null), numbers,
// bytes (hex) and decimals (a fraction) as text, timestamps and times in
// microseconds.
func norm(s *schema.Schema, v any, st style) (any, error) {
	switch s.Kind() {
	case schema.Null:
		if v != nil {
			return nil, fmt.Errorf("null: %v", v)
		}
		return nil, nil
	case schema.Boolean:
		if _, ok := v.(bool); !ok {
			return nil, fmt.Errorf("boolean: %v", v)
		}
		return v, nil
	case schema.Int, schema.Long:
		return normInteger(s, v, st)
	case schema.Float, schema.Double:
		return normFloat(s, v)
	case schema.String:
		if _, ok := v.(string); !ok {
			return nil, fmt.Errorf("string: %v", v)
		}
		return v, nil
	case schema.Enum:
		if x, ok := v.(string); !ok || s.SymbolIndex(x) < 0 {
			return nil, fmt.Errorf("enum %s: %v", s.FullName(), v)
		}
		return v, nil
	case schema.Bytes, schema.Fixed:
		return normBytes(s, v, st)
	case schema.Array:
		a, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("array: %v", v)
		}
		out := make([]any, len(a))
		for i := range a {
			n, err := norm(s.Items(), a[i], st)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = n
		}
		return out, nil
	case schema.Map:
		m, ok := v.(map[string]any)
		if !ok || isTagged(m) {
			return nil, fmt.Errorf("map: %v", v)
		}
		out := make(map[string]any, len(m))
		for k, x := range m {
			n, err := norm(s.Values(), x, st)
			if err != nil {
				return nil, fmt.Errorf("[%q]: %w", k, err)
			}
			out[k] = n
		}
		return out, nil
	case schema.Record:
		m, ok := v.(map[string]any)
		if !ok || len(m) != len(s.Fields()) {
			return nil, fmt.Errorf("record %s: %v", s.FullName(), v)
		}
		out := make(map[string]any, len(m))
		for _, f := range s.Fields() {
			x, ok := m[f.Name()]
			if !ok {
				return nil, fmt.Errorf("record %s: no field %s", s.FullName(), f.Name())
			}
			n, err := norm(f.Type(), x, st)
			if err != nil {
				return nil, fmt.Errorf(".%s: %w", f.Name(), err)
			}
			out[f.Name()] = n
		}
		return out, nil
	case schema.Union:
		return normUnion(s, v, st)
	}
	return nil, fmt.Errorf("kind %s", s.Kind())
}

func branchName(s *schema.Schema) string {
	if s.Kind().IsNamed() {
		return s.FullName()
	}
	return s.Kind().String()
}

// normUnion finds the branch by its name in the specification's encoding
// and, in the peers' model, as the first branch the value is a value of
// (the test schemas have no union where that is ambiguous).
func normUnion(s *schema.Schema, v any, st style) (any, error) {
	if v == nil {
		for _, b := range s.Branches() {
			if b.Kind() == schema.Null {
				return nil, nil
			}
		}
		return nil, fmt.Errorf("union without null: null")
	}
	if st == specJSON {
		m, ok := v.(map[string]any)
		if !ok || len(m) != 1 {
			return nil, fmt.Errorf("union: not one branch: %v", v)
		}
		for _, b := range s.Branches() {
			if x, ok := m[branchName(b)]; ok {
				n, err := norm(b, x, st)
				if err != nil {
					return nil, fmt.Errorf("<%s>%w", branchName(b), err)
				}
				return map[string]any{branchName(b): n}, nil
			}
		}
		return nil, fmt.Errorf("union: no branch %v", v)
	}
	for _, b := range s.Branches() {
		if n, err := norm(b, v, st); err == nil && b.Kind() != schema.Null {
			return map[string]any{branchName(b): n}, nil
		}
	}
	return nil, fmt.Errorf("union: no branch holds %v", v)
}

// isTagged reports whether m is one of the peers' tagged values.
func isTagged(m map[string]any) bool {
	if len(m) != 1 {
		return false
	}
	for k := range m {
		return strings.HasPrefix(k, "$")
	}
	return false
}

// tag returns the text or number of a peer's tagged value {key: x}.
func tag(v any, key string) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return nil, false
	}
	x, ok := m[key]
	return x, ok
}

func normInteger(s *schema.Schema, v any, st style) (any, error) {
	// The unit of the compared form is the microsecond.
	scale := int64(1)
	var pyTag string
	tagged := false
	switch s.Logical() {
	case schema.TimeMillis, schema.TimestampMillis:
		scale = 1000
	}
	switch s.Logical() {
	case schema.Date:
		pyTag = "$date"
	case schema.TimeMillis, schema.TimeMicros:
		pyTag = "$time_us"
	case schema.TimestampMillis, schema.TimestampMicros:
		pyTag = "$timestamp_us"
	}
	if st == peerLogical && pyTag != "" {
		x, ok := tag(v, pyTag)
		if !ok {
			return nil, fmt.Errorf("%s: not %s: %v", s.Logical(), pyTag, v)
		}
		v, scale = x, 1
		tagged = true
	} else if x, ok := tag(v, "$long"); ok && st == peerRaw && s.Kind() == schema.Long {
		v = json.Number(fmt.Sprint(x))
	}
	n, ok := v.(json.Number)
	if !ok {
		return nil, fmt.Errorf("%s: %v", s.Kind(), v)
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || !tagged && s.Kind() == schema.Int && int64(int32(i)) != i {
		return nil, fmt.Errorf("%s: %v", s.Kind(), n)
	}
	return new(big.Int).Mul(big.NewInt(i), big.NewInt(scale)).String(), nil
}

func normFloat(s *schema.Schema, v any) (any, error) {
	var text string
	switch x := v.(type) {
	case json.Number:
		text = string(x)
	case string: // NaN and the infinities in the JSON encoding
		text = x
	default:
		t, ok := tag(v, "$float")
		if !ok {
			return nil, fmt.Errorf("%s: %v", s.Kind(), v)
		}
		text = fmt.Sprint(t)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !math.IsInf(f, 0) {
		return nil, fmt.Errorf("%s: %v", s.Kind(), v)
	}
	if s.Kind() == schema.Float {
		return "f32 " + strconv.FormatFloat(float64(float32(f)), 'g', -1, 32), nil
	}
	return strconv.FormatFloat(f, 'g', -1, 64), nil
}

func normBytes(s *schema.Schema, v any, st style) (any, error) {
	var b []byte
	switch x := v.(type) {
	case string:
		if st != specJSON {
			return nil, fmt.Errorf("%s: %q", s.Kind(), x)
		}
		for _, r := range x {
			if r > 255 {
				return nil, fmt.Errorf("%s: code point %U", s.Kind(), r)
			}
			b = append(b, byte(r))
		}
	default:
		if d, ok := tag(v, "$decimal"); ok && st == peerLogical && s.Logical() == schema.Decimal {
			r, ok := new(big.Rat).SetString(fmt.Sprint(d))
			if !ok {
				return nil, fmt.Errorf("decimal: %v", d)
			}
			return "decimal " + r.RatString(), nil
		}
		h, ok := tag(v, "$bytes_hex")
		if !ok || st == specJSON || st == peerLogical && s.Logical() == schema.Decimal {
			return nil, fmt.Errorf("%s: %v", s.Kind(), v)
		}
		var err error
		if b, err = hex.DecodeString(fmt.Sprint(h)); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Kind(), err)
		}
	}
	if s.Kind() == schema.Fixed && len(b) != s.Size() {
		return nil, fmt.Errorf("fixed %s: %d bytes", s.FullName(), len(b))
	}
	if s.Logical() == schema.Decimal {
		u := new(big.Int).SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
		r := new(big.Rat).SetFrac(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s.Scale())), nil))
		return "decimal " + r.RatString(), nil
	}
	return fmt.Sprintf("%x", b), nil
}

// normRecords normalises records, failing on the first that is not a
// value of s.
func normRecords(s *schema.Schema, recs []any, st style) ([]any, error) {
	out := make([]any, len(recs))
	for i, r := range recs {
		n, err := norm(s, r, st)
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		out[i] = n
	}
	return out, nil
}

// firstDiff names the first place where two normalised values differ.
func firstDiff(a, b any, path string) string {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range a {
			keys[k] = true
		}
		for k := range b {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if d := firstDiff(a[k], b[k], path+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			break
		}
		for i := range a {
			if d := firstDiff(a[i], b[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if reflect.DeepEqual(a, b) {
		return ""
	}
	return fmt.Sprintf("%s: %v != %v", path, a, b)
}
