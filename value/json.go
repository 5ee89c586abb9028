package value

import (
	"errors"
	"slices"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/schema"
)

// MarshalJSON implements json.Marshaler with the Avro JSON encoding of v,
// as far as a Value knows it without its schema: null, booleans and
// numbers as JSON values (NaN and the infinities as the strings "NaN",
// "Infinity" and "-Infinity"), strings as strings, bytes and fixed as
// strings of the code points U+0000 to U+00FF, enums as their symbol (as
// their index when the Value has no schema), arrays as arrays, and maps
// and records as objects in entry and field order. A Value that carries a
// union branch is written {"type": value}, named by the full name of its
// record or enum, or by its Avro type; a fixed value, and an enum without
// its schema, have no name to write and are written bare.
//
// For the exact encoding of a schema, with every union tagged as the
// schema names it, use package avrojson. A Value that contains itself,
// or is nested deeper than 1,000 levels, is an error.
func (v Value) MarshalJSON() ([]byte, error) {
	var w jsonWriter
	if err := w.write(v); err != nil {
		return nil, err
	}
	return w.b, nil
}

type jsonWriter struct {
	b    []byte
	path []identity
}

var errCycle = errors.New("value: MarshalJSON: the value contains itself or is nested deeper than 1000 levels")

func (w *jsonWriter) write(v Value) error {
	if v.Branch() >= 0 && !v.IsNull() {
		if name := branchName(v); name != "" {
			w.b = append(w.b, '{')
			w.b = jsontext.AppendString(w.b, name)
			w.b = append(w.b, ':')
			if err := w.bare(v); err != nil {
				return err
			}
			w.b = append(w.b, '}')
			return nil
		}
	}
	return w.bare(v)
}

// branchName is the name of the branch a union Value is written under, or
// "" when the Value cannot tell it.
func branchName(v Value) string {
	switch k := v.Kind(); k {
	case KindRecord:
		return v.Record().s.FullName()
	case KindEnum:
		if s := v.Schema(); s != nil {
			return s.FullName()
		}
		return ""
	case KindFixed:
		return ""
	default:
		return schema.Kind(k).String()
	}
}

func (w *jsonWriter) bare(v Value) error {
	v = v.unbox()
	switch v.Kind() {
	case KindArray, KindMap, KindRecord:
		id := identity{v.p, v.w}
		if len(w.path) >= maxDepth || slices.Contains(w.path, id) {
			return errCycle
		}
		w.path = append(w.path, id)
		defer func() { w.path = w.path[:len(w.path)-1] }()
	}
	switch v.Kind() {
	case KindNull:
		w.b = append(w.b, "null"...)
	case KindBoolean:
		if v.Bool() {
			w.b = append(w.b, "true"...)
		} else {
			w.b = append(w.b, "false"...)
		}
	case KindInt:
		w.b = jsontext.AppendInt(w.b, int64(v.Int()))
	case KindLong:
		w.b = jsontext.AppendInt(w.b, v.Long())
	case KindFloat:
		w.b = jsontext.AppendNumber(w.b, float64(v.Float()), 32)
	case KindDouble:
		w.b = jsontext.AppendNumber(w.b, v.Double(), 64)
	case KindString:
		w.b = jsontext.AppendString(w.b, v.Str())
	case KindBytes, KindFixed:
		w.b = jsontext.AppendCodePoints(w.b, v.Bytes())
	case KindEnum:
		if s := v.Symbol(); s != "" {
			w.b = jsontext.AppendString(w.b, s)
		} else {
			w.b = jsontext.AppendInt(w.b, int64(v.EnumIndex()))
		}
	case KindArray:
		w.b = append(w.b, '[')
		for i := range v.Len() {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			if err := w.write(v.Index(i)); err != nil {
				return err
			}
		}
		w.b = append(w.b, ']')
	case KindMap:
		m := v.Map()
		vals := m.Values()
		w.b = append(w.b, '{')
		for i, k := range m.Keys() {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = jsontext.AppendString(w.b, k)
			w.b = append(w.b, ':')
			if err := w.write(vals[i]); err != nil {
				return err
			}
		}
		w.b = append(w.b, '}')
	case KindRecord:
		r := v.Record()
		w.b = append(w.b, '{')
		for i, f := range r.Fields() {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = jsontext.AppendString(w.b, r.name(i))
			w.b = append(w.b, ':')
			if err := w.write(f); err != nil {
				return err
			}
		}
		w.b = append(w.b, '}')
	}
	return nil
}
