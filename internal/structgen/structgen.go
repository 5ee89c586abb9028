// Package structgen builds Go struct types for record schemas at run
// time, for tests that decode generated or fuzzed schemas into structs.
package structgen

import (
	"fmt"
	"reflect"

	"github.com/avrogo/avro/schema"
)

var anyType = reflect.TypeOf((*any)(nil)).Elem()

// TypeOf returns a Go type for values of s, with avro tags on struct
// fields: records become structs (fields F0, F1, ...), ["null", X] a
// pointer to X's type, other unions, null and a record met again inside
// itself (recursion) any.
func TypeOf(s *schema.Schema) reflect.Type { return typeOf(s, map[*schema.Schema]bool{}) }

// TypeOfSome is TypeOf for a record that keeps only the fields whose bit
// is set in keep (bit i for field i; fields past 63 are kept), so that
// tests can decode into structs lacking some of the schema's fields. A
// schema that is not a record gets TypeOf.
func TypeOfSome(s *schema.Schema, keep uint64) reflect.Type {
	if s.Kind() != schema.Record {
		return TypeOf(s)
	}
	open := map[*schema.Schema]bool{s: true}
	var fields []reflect.StructField
	for i, f := range s.Fields() {
		if i < 64 && keep&(1<<i) == 0 {
			continue
		}
		fields = append(fields, field(i, f, open))
	}
	return reflect.StructOf(fields)
}

func field(i int, f *schema.Field, open map[*schema.Schema]bool) reflect.StructField {
	return reflect.StructField{
		Name: fmt.Sprintf("F%d", i),
		Type: typeOf(f.Type(), open),
		Tag:  reflect.StructTag(`avro:"` + f.Name() + `"`),
	}
}

func typeOf(s *schema.Schema, open map[*schema.Schema]bool) reflect.Type {
	switch s.Kind() {
	case schema.Boolean:
		return reflect.TypeOf(false)
	case schema.Int:
		return reflect.TypeOf(int32(0))
	case schema.Long:
		return reflect.TypeOf(int64(0))
	case schema.Float:
		return reflect.TypeOf(float32(0))
	case schema.Double:
		return reflect.TypeOf(float64(0))
	case schema.String, schema.Enum:
		return reflect.TypeOf("")
	case schema.Bytes, schema.Fixed:
		return reflect.TypeOf([]byte(nil))
	case schema.Array:
		return reflect.SliceOf(typeOf(s.Items(), open))
	case schema.Map:
		return reflect.MapOf(reflect.TypeOf(""), typeOf(s.Values(), open))
	case schema.Union:
		if b := s.Branches(); len(b) == 2 && b[0].Kind() == schema.Null && b[1].Kind() != schema.Null && !open[b[1]] {
			return reflect.PointerTo(typeOf(b[1], open))
		}
	case schema.Record:
		if open[s] {
			return anyType
		}
		open[s] = true
		defer delete(open, s)
		fields := make([]reflect.StructField, 0, len(s.Fields()))
		for i, f := range s.Fields() {
			fields = append(fields, field(i, f, open))
		}
		return reflect.StructOf(fields)
	}
	return anyType
}
