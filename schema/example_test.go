package schema_test

import (
	"fmt"

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
	// fields[0].type: unknown type "com.example.Foo"
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
