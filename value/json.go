package value

import (
	"errors"
	"slices"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/schema"
)

// MarshalJSON implements json.Marshaler with the Avro JSON encoding of v.
// Below a record, the record's schema says how every field is written, so
// a Value decoded with its schema gives the same text as package avrojson
// gives for that schema: a union branch is written {"type": value}, named
// as the schema names it (the full name of a record, enum or fixed, else
// its Avro type), and a null branch as null. Logical types are written as
// their underlying value, as the specification says.
//
// Outside any record (an array, map or union at the top), and in a Value
// built by hand, MarshalJSON writes what the Value knows: null, booleans
// and numbers as JSON values (NaN and the infinities as the strings
// "NaN", "Infinity" and "-Infinity"), strings as strings, bytes and fixed
// as strings of the code points U+0000 to U+00FF, enums as their symbol
// (as their index when the Value has no schema), arrays as arrays, and
// maps and records as objects in entry and field order. A union branch is
// then named by the full name of its record, enum or fixed, or by its
// Avro type. A decoder gives the enums and, outside records, the fixed
// union branches it reads their schema (see EnumOf and FixedOf), so a
// Value decoded with its schema is written as its Avro JSON at every
// depth; an enum or fixed value built without its schema has no name to
// write and is written bare.
//
// For the encoding of a Value as any schema, with every union tagged as
// the schema names it, use package avrojson. A Value that contains itself,
// or is nested deeper than 1,000 levels, is an error.
func (v Value) MarshalJSON() ([]byte, error) {
	var w jsonWriter
	if err := w.write(v, nil); err != nil {
		return nil, err
	}
	return w.b, nil
}

type jsonWriter struct {
	b    []byte
	path []identity
}

var errCycle = errors.New("value: MarshalJSON: the value contains itself or is nested deeper than 1000 levels")

// write writes v, which is of schema s when s is not nil.
func (w *jsonWriter) write(v Value, s *schema.Schema) error {
	if s != nil && s.Kind() == schema.Union {
		if b, bs := v.Branch(), s.Branches(); b >= 0 && b < len(bs) && fits(v, bs[b]) {
			if bs[b].Kind() == schema.Null {
				w.b = append(w.b, "null"...)
				return nil
			}
			return w.tagged(v, schemaBranchName(bs[b]), bs[b])
		}
		s = nil // a Value that does not follow its schema is written as it is
	}
	if v.Branch() >= 0 && !v.IsNull() {
		if name := branchName(v); name != "" {
			return w.tagged(v, name, nil)
		}
	}
	return w.bare(v, s)
}

// tagged writes v as the union branch name, of schema s when s is not nil.
func (w *jsonWriter) tagged(v Value, name string, s *schema.Schema) error {
	w.b = append(w.b, '{')
	w.b = jsontext.AppendString(w.b, name)
	w.b = append(w.b, ':')
	if err := w.bare(v, s); err != nil {
		return err
	}
	w.b = append(w.b, '}')
	return nil
}

// fits reports whether v has the kind of a value of schema s, so that s
// can say how to write it.
func fits(v Value, s *schema.Schema) bool {
	k := v.Kind()
	switch s.Kind() {
	case schema.Int, schema.Long:
		return k == KindInt || k == KindLong
	case schema.Float, schema.Double:
		return k == KindFloat || k == KindDouble || k == KindInt || k == KindLong
	case schema.Union:
		return false
	}
	return schema.Kind(k) == s.Kind()
}

// schemaBranchName is the name of a union branch of schema s.
func schemaBranchName(s *schema.Schema) string {
	if s.Kind().IsNamed() {
		return s.FullName()
	}
	return s.Kind().String()
}

// branchName is the name of the branch a union Value is written under, or
// "" when the Value cannot tell it.
func branchName(v Value) string {
	switch k := v.Kind(); k {
	case KindRecord:
		return v.Record().s.FullName()
	case KindEnum, KindFixed:
		if s := v.Schema(); s != nil {
			return s.FullName()
		}
		return ""
	default:
		return schema.Kind(k).String()
	}
}

// bare writes v without its union branch, of schema s when s is not nil.
func (w *jsonWriter) bare(v Value, s *schema.Schema) error {
	v = v.unbox()
	if s != nil && !fits(v, s) {
		s = nil
	}
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
		var items *schema.Schema
		if s != nil {
			items = s.Items()
		}
		w.b = append(w.b, '[')
		for i := range v.Len() {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			if err := w.write(v.Index(i), items); err != nil {
				return err
			}
		}
		w.b = append(w.b, ']')
	case KindMap:
		m := v.Map()
		vals := m.Values()
		var values *schema.Schema
		if s != nil {
			values = s.Values()
		}
		w.b = append(w.b, '{')
		for i, k := range m.Keys() {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = jsontext.AppendString(w.b, k)
			w.b = append(w.b, ':')
			if err := w.write(vals[i], values); err != nil {
				return err
			}
		}
		w.b = append(w.b, '}')
	case KindRecord:
		r := v.Record()
		// The record's own schema, not the one it was reached by, says how
		// its fields are written: it is what the Value was decoded with.
		var fields []*schema.Field
		if r.s != nil && len(r.s.Fields()) == r.n {
			fields = r.s.Fields()
		}
		w.b = append(w.b, '{')
		for i, f := range r.Fields() {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = jsontext.AppendString(w.b, r.name(i))
			w.b = append(w.b, ':')
			var fs *schema.Schema
			if fields != nil {
				fs = fields[i].Type()
			}
			if err := w.write(f, fs); err != nil {
				return err
			}
		}
		w.b = append(w.b, '}')
	}
	return nil
}
