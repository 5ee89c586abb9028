package corpus

import (
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

func rootOf(t *testing.T, group string) root {
	t.Helper()
	for _, r := range roots {
		if r.group == group {
			return r
		}
	}
	t.Fatalf("no root for %s", group)
	return root{}
}

// Data of an older schema reads into the newer schema's generated type
// through schema.Resolve: promotions, an enum's default for a symbol the
// reader lacks, and defaults for the fields the writer lacks.
func TestEvolutionIntoGeneratedTypes(t *testing.T) {
	v1, v2 := rootOf(t, "testdata/evolution_v1.avsc"), rootOf(t, "testdata/evolution_v2.avsc")
	resolved, err := schema.Resolve(v1.schema(), v2.schema())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, want string }{
		{`{"id":7,"status":"PAID","note":"x"}`, `{"id":7,"status":"PAID","lines":["one"],"coupon":null,"payment":null}`},
		{`{"id":-1,"status":"LOST","note":""}`, `{"id":-1,"status":"UNKNOWN","lines":["one"],"coupon":null,"payment":null}`},
	} {
		old := v1.new()
		if err := avrojson.Unmarshal(v1.schema(), []byte(c.old), old); err != nil {
			t.Fatal(err)
		}
		data, err := avro.Marshal(v1.schema(), old)
		if err != nil {
			t.Fatal(err)
		}
		v := v2.new()
		if err := avro.Unmarshal(resolved, data, v); err != nil {
			t.Fatalf("Unmarshal of %s into %T: %v", c.old, v, err)
		}
		got, err := avrojson.Marshal(v2.schema(), v)
		if err != nil || string(got) != c.want {
			t.Errorf("%s read as %T = %s, %v; want %s", c.old, v, got, err, c.want)
		}
	}
}
