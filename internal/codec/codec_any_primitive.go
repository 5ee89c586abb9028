package codec

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"

	"github.com/avrogo/avro/schema"
)

// The codecs of the primitive types for values held in an any (see
// codec_any.go for the mapping).

type anyNull struct{}

func (anyNull) decodeAny(*decodeState, *anyBoxes) any { return nil }
func (anyNull) accepts(v any) bool                    { return v == nil }
func (anyNull) encodeAny(v any, e *encodeState) {
	if v != nil {
		anyMismatch(e, v, "null")
	}
}

type anyBool struct{}

func (anyBool) decodeAny(d *decodeState, b *anyBoxes) any { return d.ReadBool() }

func (anyBool) encodeAny(v any, e *encodeState) {
	b, ok := v.(bool)
	if !ok {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Bool {
			b, ok = rv.Bool(), true
		}
	}
	if !ok {
		anyMismatch(e, v, "boolean")
		return
	}
	e.WriteBool(b)
}

func (anyBool) accepts(v any) bool {
	if _, ok := v.(bool); ok {
		return true
	}
	return reflect.ValueOf(v).Kind() == reflect.Bool
}

// anyInteger returns the integer in v. isInt is false when v holds no Go
// integer; fits is false for an unsigned value above math.MaxInt64.
func anyInteger(v any) (x int64, isInt, fits bool) {
	switch v := v.(type) {
	case int:
		return int64(v), true, true
	case int64:
		return v, true, true
	case int32:
		return int64(v), true, true
	case int16:
		return int64(v), true, true
	case int8:
		return int64(v), true, true
	case uint8:
		return int64(v), true, true
	case uint16:
		return int64(v), true, true
	case uint32:
		return int64(v), true, true
	case uint:
		return int64(v), true, uint64(v) <= math.MaxInt64
	case uint64:
		return int64(v), true, v <= math.MaxInt64
	case json.Number:
		return numberInteger(v)
	case nil, string, float64, bool, float32, []byte, []any, map[string]any:
		return 0, false, false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		return int64(u), true, u <= math.MaxInt64
	}
	return 0, false, false
}

type anyInt struct{}

func (anyInt) decodeAny(d *decodeState, b *anyBoxes) any { return b.int32(d.ReadInt()) }

func (anyInt) encodeAny(v any, e *encodeState) {
	x, isInt, fits := anyInteger(v)
	if !isInt {
		anyMismatch(e, v, "int")
		return
	}
	if !fits || x != int64(int32(x)) {
		e.Failf(ErrRange, "%v does not fit an Avro int", v)
		return
	}
	e.WriteLong(x)
}

func (anyInt) accepts(v any) bool {
	x, isInt, fits := anyInteger(v)
	return isInt && fits && x == int64(int32(x))
}

type anyLong struct{}

func (anyLong) decodeAny(d *decodeState, b *anyBoxes) any { return b.int64(d.ReadLong()) }

func (anyLong) encodeAny(v any, e *encodeState) {
	x, isInt, fits := anyInteger(v)
	if !isInt {
		anyMismatch(e, v, "long")
		return
	}
	if !fits {
		e.Failf(ErrRange, "%v does not fit an Avro long", v)
		return
	}
	e.WriteLong(x)
}

func (anyLong) accepts(v any) bool {
	_, isInt, fits := anyInteger(v)
	return isInt && fits
}

// anyFloat64 returns the number in v as a float64: floats exactly,
// integers rounded to the nearest float64.
func anyFloat64(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	}
	if x, isInt, fits := anyInteger(v); isInt {
		if !fits {
			return float64(uint64(x)), true
		}
		return float64(x), true
	}
	rv := reflect.ValueOf(v)
	if k := rv.Kind(); k == reflect.Float32 || k == reflect.Float64 {
		return rv.Float(), true
	}
	return 0, false
}

type anyFloat struct{}

func (anyFloat) decodeAny(d *decodeState, b *anyBoxes) any { return b.float32(d.ReadFloat()) }

func (anyFloat) encodeAny(v any, e *encodeState) {
	if f, ok := v.(float32); ok {
		e.WriteFloat(f)
		return
	}
	if n, ok := v.(json.Number); ok {
		encodeNumber(e, n, schema.Float)
		return
	}
	f, ok := anyFloat64(v)
	if !ok {
		anyMismatch(e, v, "float")
		return
	}
	// Rounding to float32 is the conversion; only a finite value that
	// overflows to infinity is out of range.
	f32 := float32(f)
	if math.IsInf(float64(f32), 0) && !math.IsInf(f, 0) {
		e.Failf(ErrRange, "%v overflows an Avro float", v)
		return
	}
	e.WriteFloat(f32)
}

func (anyFloat) accepts(v any) bool {
	f, ok := anyFloat64(v)
	return ok && (math.IsInf(f, 0) || !math.IsInf(float64(float32(f)), 0))
}

type anyDouble struct{}

func (anyDouble) decodeAny(d *decodeState, b *anyBoxes) any { return b.float64(d.ReadDouble()) }

func (anyDouble) encodeAny(v any, e *encodeState) {
	f, ok := anyFloat64(v)
	if !ok {
		anyMismatch(e, v, "double")
		return
	}
	e.WriteDouble(f)
}

func (anyDouble) accepts(v any) bool {
	_, ok := anyFloat64(v)
	return ok
}

// anyText returns the string or bytes in v (a string, a []byte, or a type
// of those kinds).
func anyText(v any) (s string, b []byte, ok bool) {
	switch v := v.(type) {
	case string:
		return v, nil, true
	case []byte:
		return "", v, true
	}
	rv := reflect.ValueOf(v)
	switch {
	case rv.Kind() == reflect.String:
		return rv.String(), nil, true
	case rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8:
		return "", rv.Bytes(), true
	}
	return "", nil, false
}

func encodeAnyText(v any, e *encodeState, avroType string) {
	s, b, ok := anyText(v)
	switch {
	case !ok:
		anyMismatch(e, v, avroType)
	case b != nil:
		e.WriteBytes(b)
	default:
		e.WriteString(s)
	}
}

type anyString struct{}

func (anyString) decodeAny(d *decodeState, b *anyBoxes) any { return b.string(d.ReadString()) }
func (anyString) encodeAny(v any, e *encodeState) {
	if s, ok := v.(string); ok {
		e.WriteString(s)
		return
	}
	encodeAnyText(v, e, "string")
}

func (anyString) accepts(v any) bool {
	_, _, ok := anyText(v)
	return ok
}

type anyBytes struct{}

func (anyBytes) decodeAny(d *decodeState, b *anyBoxes) any {
	if b := d.ReadBytes(); d.Err == nil {
		return b
	}
	return nil
}

func (anyBytes) encodeAny(v any, e *encodeState) {
	if b, ok := v.([]byte); ok {
		e.WriteBytes(b)
		return
	}
	encodeAnyText(v, e, "bytes")
}

func (anyBytes) accepts(v any) bool {
	_, _, ok := anyText(v)
	return ok
}
