package schema_test

import (
	"fmt"

	"github.com/avrogo/avro/schema"
)

// A schema built in code, validated as Parse validates text.
func ExampleNode() {
	s, err := schema.Node{Type: "record", Name: "com.example.Order", Fields: []schema.FieldNode{
		{Name: "id", Type: schema.Node{Type: "string", Logical: "uuid"}},
		{Name: "status", Type: schema.Node{Type: "enum", Name: "Status", Symbols: []string{"OPEN", "SHIPPED"}}},
		{Name: "items", Type: schema.Node{Type: "array", Items: &schema.Node{Type: "string"}}},
		{Name: "shipped", Type: schema.Node{Type: "union", Branches: []schema.Node{
			{Type: "null"}, {Type: "long", Logical: "timestamp-millis"}}}, HasDefault: true},
	}}.Schema()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s)
	// Output:
	// {"type":"record","name":"Order","namespace":"com.example","fields":[{"name":"id","type":{"type":"string","logicalType":"uuid"}},{"name":"status","type":{"type":"enum","name":"Status","symbols":["OPEN","SHIPPED"]}},{"name":"items","type":{"type":"array","items":"string"}},{"name":"shipped","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null}]}
}
