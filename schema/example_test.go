package schema_test

import (
	"errors"
	"fmt"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

func ExampleParse() {
	s, err := schema.Parse(`{
		"type": "record", "name": "User", "namespace": "com.example",
		"fields": [
			{"name": "id", "type": "long"},
			{"name": "email", "type": ["null", "string"], "default": null},
			{"name": "created", "type": {"type": "long", "logicalType": "timestamp-millis"}}
		]
	}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.FullName(), s.Kind())
	for _, f := range s.Fields() {
		fmt.Println(f.Index(), f.Name(), f.Type().Kind(), f.Type().Logical() != schema.NoLogical)
	}
	def, _ := s.Field("email").Default()
	fmt.Println(def, s.Field("email").DefaultBranch())

	// Errors locate the problem.
	_, err = schema.Parse(`{"type":"record","name":"R","fields":[{"name":"a","type":"com.example.Foo"}]}`)
	fmt.Println(err)
	// Output:
	// com.example.User record
	// 0 id long false
	// 1 email union false
	// 2 created long true
	// <nil> 0
	// schema: fields[0].type: unknown type "com.example.Foo"
}

func ExampleSchema_Canonical() {
	s := schema.MustParse(`{"type": "fixed", "name": "MD5", "namespace": "org.apache.avro.ipc",
		"size": 16, "doc": "dropped from the canonical form"}`)
	fmt.Println(s.Canonical())
	fmt.Printf("%#x\n", s.Fingerprint())
	fmt.Printf("%x\n", s.FingerprintMD5())

	i := schema.MustParse(`"int"`)
	fmt.Printf("%#x\n", i.Fingerprint())
	// Output:
	// {"name":"org.apache.avro.ipc.MD5","type":"fixed","size":16}
	// 0x5d69d652466630e7
	// 6e4d03bb651764b419873ccef6c4ff36
	// 0x7275d51a3f395c8f
}

func ExampleParser() {
	p := schema.NewParser()
	// One text per type, as in a directory of .avsc files.
	if _, err := p.Parse(`{"type": "enum", "name": "com.example.Color", "symbols": ["RED", "GREEN"]}`); err != nil {
		fmt.Println(err)
		return
	}
	car, err := p.Parse(`{"type": "record", "name": "com.example.Car",
		"fields": [{"name": "color", "type": "Color", "default": "RED"}]}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(car.Field("color").Type() == p.Lookup("com.example.Color"))
	fmt.Println(car.Canonical())
	// Output:
	// true
	// {"name":"com.example.Car","type":"record","fields":[{"name":"color","type":{"name":"com.example.Color","type":"enum","symbols":["RED","GREEN"]}}]}
}

// Data written with an old schema is read with the new one through the
// schema Resolve returns: the new field takes its default, the removed one
// is skipped and the int is promoted to a long.
func ExampleResolve() {
	v1 := schema.MustParse(`{"type": "record", "name": "User", "fields": [
		{"name": "id", "type": "int"},
		{"name": "nickname", "type": "string"}]}`)
	v2 := schema.MustParse(`{"type": "record", "name": "User", "fields": [
		{"name": "id", "type": "long"},
		{"name": "country", "type": "string", "default": "unknown"}]}`)

	old, err := avro.Marshal(v1, map[string]any{"id": 7, "nickname": "ada"})
	if err != nil {
		fmt.Println(err)
		return
	}

	r, err := schema.Resolve(v1, v2) // once per pair of schemas; keep it
	if err != nil {
		fmt.Println(err)
		return
	}
	type User struct {
		ID      int64  `avro:"id"`
		Country string `avro:"country"`
	}
	var u User
	if err := avro.Unmarshal(r, old, &u); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", u)

	// A field the reader needs and the writer lacks, without a default,
	// makes the schemas incompatible.
	v3 := schema.MustParse(`{"type": "record", "name": "User", "fields": [
		{"name": "id", "type": "long"},
		{"name": "email", "type": "string"}]}`)
	_, err = schema.Resolve(v1, v3)
	fmt.Println(err)
	// Output:
	// {ID:7 Country:unknown}
	// schema: incompatible schemas: /fields/1: reader field "email" has no default and the writer record User has no such field
}

// CheckCompatibility lists every reason why a reader cannot read a
// writer's data, including those only some data would hit, such as an enum
// symbol the reader lacks.
func ExampleCheckCompatibility() {
	writer := schema.MustParse(`{"type": "record", "name": "Order", "fields": [
		{"name": "qty", "type": "long"},
		{"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID", "SHIPPED"]}}]}`)
	reader := schema.MustParse(`{"type": "record", "name": "Order", "fields": [
		{"name": "qty", "type": "int"},
		{"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID"]}}]}`)

	err := schema.CheckCompatibility(reader, writer)
	var ce *schema.CompatibilityError
	if errors.As(err, &ce) {
		for _, in := range ce.Items {
			fmt.Printf("%s: %s\n", in.Path, in.Reason)
		}
	}
	// The other way round every datum reads.
	fmt.Println(schema.CheckCompatibility(writer, reader))
	// Output:
	// /fields/0/type: writer type long cannot be read as int
	// /fields/1/type/symbols: writer symbols "SHIPPED" are not in reader enum Status, which has no default
	// <nil>
}

// CheckMode applies a registry's compatibility mode to a new version of a
// schema: under Backward the new schema must read the data of the latest
// one, under BackwardTransitive that of every earlier one.
func ExampleCheckMode() {
	v1 := schema.MustParse(`{"type": "record", "name": "User", "fields": [
		{"name": "id", "type": "long"}]}`)
	v2 := schema.MustParse(`{"type": "record", "name": "User", "fields": [
		{"name": "id", "type": "long"},
		{"name": "email", "type": "string", "default": ""}]}`)
	// v3 drops the default: it reads v2's data, which has an email, but
	// not v1's.
	v3 := schema.MustParse(`{"type": "record", "name": "User", "fields": [
		{"name": "id", "type": "long"},
		{"name": "email", "type": "string"}]}`)

	fmt.Println(schema.CheckMode(schema.Backward, v2, v1))
	fmt.Println(schema.CheckMode(schema.Backward, v3, v1, v2))
	err := schema.CheckMode(schema.BackwardTransitive, v3, v1, v2)
	var me *schema.ModeError
	if errors.As(err, &me) {
		for _, f := range me.Failures {
			fmt.Printf("%v: cannot read version %d: %s\n", me.Mode, f.Previous+1, f.Err.Items[0].Reason)
		}
	}
	// Output:
	// <nil>
	// <nil>
	// BACKWARD_TRANSITIVE: cannot read version 1: reader field "email" has no default and the writer record User has no such field
}
