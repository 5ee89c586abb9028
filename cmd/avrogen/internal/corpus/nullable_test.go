package corpus

import (
	"bytes"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
)

// A nullable array, map or bytes field is a slice or map, nil for null:
// null and empty stay apart both ways.
func TestNullableContainersKeepNullAndEmptyApart(t *testing.T) {
	r := rootOf(t, "testdata/shapes.avsc")
	s := r.schema()
	base := `"optional_record":null,"optional_string":null,"string_then_null":null,"one_branch":{"string":""},"only_null":null,` +
		`"primitives":{"int":1},"records":{"org.acme.shapes.Point":{"x":1,"y":2}},"null_and_records":null,"mixed":null,` +
		`"in_array":[],"in_map":{},"logical_branches":null,"color":"RED","hash":"abcd"`
	for _, c := range []string{
		`"optional_array":null,"optional_map":null,"optional_bytes":null`,
		`"optional_array":{"array":[]},"optional_map":{"map":{}},"optional_bytes":{"bytes":""}`,
		`"optional_array":{"array":["a"]},"optional_map":{"map":{"k":1}},"optional_bytes":{"bytes":"x"}`,
		`"optional_array":null,"optional_map":{"map":{}},"optional_bytes":{"bytes":""}`,
	} {
		text := "{" + c + "," + base + "}"
		want, err := avrojson.JSONToBinary(nil, s, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		v := r.new()
		if err := avro.Unmarshal(s, want, v); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		got, err := avro.Marshal(s, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: Marshal(Unmarshal(%x)) = %x, %v", c, want, got, err)
		}
		back, err := avrojson.Marshal(s, v)
		if err != nil || !strings.Contains(string(back), c) {
			t.Errorf("%s: avrojson.Marshal = %s, %v", c, back, err)
		}
	}
}
