package value

import (
	"testing"

	"github.com/avrogo/avro/schema"
)

const personSchema = `{"type": "record", "name": "Person", "namespace": "ex", "fields": [
	{"name": "name", "type": "string"},
	{"name": "age", "type": "int"},
	{"name": "email", "type": ["null", "string"], "default": null},
	{"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}}
]}`

func TestRecord(t *testing.T) {
	s := schema.MustParse(personSchema)
	color := s.Field("color").Type()
	r := NewRecord(s, []Value{String("Ann"), Int(41), Union(1, String("ann@example.com")), EnumOf(color, 2)})
	v := RecordOf(r)
	if v.Kind() != KindRecord || v.Record() != r || v.Schema() != s || r.Schema() != s || r.NumField() != 4 {
		t.Fatal("record basics")
	}
	if r.Field("name").Str() != "Ann" || r.FieldAt(1).Int() != 41 || r.Field("email").Branch() != 1 {
		t.Fatal("fields")
	}
	if c := r.Field("color"); c.Symbol() != "BLUE" || c.EnumIndex() != 2 || c.Schema() != color || c.Kind() != KindEnum {
		t.Fatalf("enum field: %v %d", c.Symbol(), c.EnumIndex())
	}
	if _, ok := r.Lookup("nope"); ok || !r.Field("nope").IsNull() {
		t.Fatal("Lookup unknown")
	}
	r.Set("age", Int(42))
	r.SetAt(2, Union(0, Null()))
	if r.Field("age").Int() != 42 || !r.Field("email").IsNull() {
		t.Fatal("Set")
	}
	if got := v.String(); got != `{"name": "Ann", "age": 42, "email": null, "color": "BLUE"}` {
		t.Fatal(got)
	}
	// NewRecord with nil fields: all null; copies given fields.
	fields := []Value{String("B"), Int(1), Null(), Enum(0)}
	r2 := NewRecord(s, fields)
	fields[0] = String("changed")
	if r2.Field("name").Str() != "B" {
		t.Fatal("NewRecord did not copy fields")
	}
	r3 := NewRecord(s, nil)
	for _, f := range r3.Fields() {
		if !f.IsNull() {
			t.Fatal("fresh record not null")
		}
	}
	// Equal: enum with and without schema compare by index; different names differ.
	if !Equal(RecordOf(r2), RecordOf(NewRecord(s, []Value{String("B"), Int(1), Null(), EnumOf(color, 0)}))) {
		t.Fatal("Equal records")
	}
	other := schema.MustParse(`{"type": "record", "name": "Other", "fields": [
		{"name": "name", "type": "string"}, {"name": "age", "type": "int"},
		{"name": "email", "type": ["null", "string"]}, {"name": "color", "type": "int"}]}`)
	if Equal(RecordOf(r2), RecordOf(NewRecord(other, fields))) {
		t.Fatal("records of different schemas are equal")
	}
	if Equal(RecordOf(r2), RecordOf(NewRecord(s, []Value{String("B"), Int(2), Null(), Enum(0)}))) {
		t.Fatal("different field values are equal")
	}
	for _, f := range []func(){
		func() { NewRecord(s, []Value{Int(1)}) },
		func() { NewRecord(color, nil) },
		func() { EnumOf(color, 3) },
		func() { EnumOf(s, 0) },
		func() { EnumOf(nil, 0) },
	} {
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

func TestEnumOfBranch(t *testing.T) {
	e := schema.MustParse(`{"type": "enum", "name": "E", "symbols": ["A", "B"]}`)
	v := EnumOf(e, 1).WithBranch(3)
	if v.Symbol() != "B" || v.EnumIndex() != 1 || v.Branch() != 3 || v.String() != `"B"` {
		t.Fatal("branched EnumOf")
	}
	if b := EnumOf(e, 1).WithBranch(400); b.Symbol() != "B" || b.EnumIndex() != 1 || b.Schema() != e {
		t.Fatal("boxed EnumOf")
	}
	if !Equal(EnumOf(e, 1), Enum(1)) || Equal(EnumOf(e, 0), Enum(1)) {
		t.Fatal("enum Equal")
	}
}
