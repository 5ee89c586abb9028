package value_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// checkSameAsAvroJSON decodes datum as s into a Value and checks that
// MarshalJSON gives the bytes avrojson.Marshal gives, and json.Marshal the
// same with encoding/json's escaping of <, > and &.
func checkSameAsAvroJSON(t *testing.T, s *schema.Schema, datum []byte) {
	t.Helper()
	var v value.Value
	if err := avro.Unmarshal(s, datum, &v); err != nil {
		t.Fatalf("Unmarshal %s: %v", s, err)
	}
	want, err := avrojson.Marshal(s, &v)
	if err != nil {
		t.Fatalf("avrojson.Marshal %s: %v", s, err)
	}
	got, err := v.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON %s: %v", s, err)
	}
	if string(got) != string(want) {
		t.Fatalf("schema %s\nMarshalJSON:      %s\navrojson.Marshal: %s", s, got, want)
	}
	got, err = json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal %s: %v", s, err)
	}
	var escaped bytes.Buffer
	json.HTMLEscape(&escaped, want)
	if string(got) != escaped.String() {
		t.Fatalf("schema %s\njson.Marshal:     %s\navrojson.Marshal: %s", s, got, escaped.Bytes())
	}
}

// TestMarshalJSONUnionFixed: a fixed branch of a union is written under
// its full name, as the Avro JSON encoding of the schema writes it.
func TestMarshalJSONUnionFixed(t *testing.T) {
	for _, c := range []struct{ schema, datum string }{
		// The case: ["null", fixed] in a record field.
		{`{"type":"record","name":"R","namespace":"org.acme","fields":[
			{"name":"f","type":["null",{"type":"fixed","name":"MD5","size":2}]}]}`, "\x02AB"},
		// A fixed branch beside another fixed, in a map in an array.
		{`{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"array","items":{"type":"map","values":
			[{"type":"fixed","name":"F2","namespace":"x","size":2},{"type":"fixed","name":"F1","size":1},"null"]}}}]}`,
			"\x02\x04\x02k\x00AB\x02j\x02C\x00\x00"},
		// A decimal on a fixed, and a duration, as union branches.
		{`{"type":"record","name":"R","fields":[
			{"name":"d","type":["null",{"type":"fixed","name":"D","size":3,"logicalType":"decimal","precision":6,"scale":2}]},
			{"name":"u","type":["null",{"type":"fixed","name":"Du","size":12,"logicalType":"duration"}]}]}`,
			"\x02\x00\x01\x02\x02abcdefghijkl"},
		// Outside any record: a union at the top, in an array, in a map.
		{`["null",{"type":"fixed","name":"MD5","namespace":"org.acme","size":2}]`, "\x02AB"},
		{`{"type":"array","items":["null",{"type":"fixed","name":"F","size":1},{"type":"enum","name":"E","symbols":["S"]}]}`,
			"\x06\x02X\x04\x00\x00\x00"},
		{`{"type":"map","values":{"type":"array","items":[{"type":"fixed","name":"x.F2","size":2},"string"]}}`,
			"\x02\x02k\x04\x00AB\x02\x02c\x00\x00"},
	} {
		checkSameAsAvroJSON(t, schema.MustParse(c.schema), []byte(c.datum))
	}
}

// TestMarshalJSONValueFieldFixed: a struct field of type value.Value is
// outside any record Value, and its fixed branch is named too.
func TestMarshalJSONValueFieldFixed(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"f","type":["null",{"type":"fixed","name":"org.acme.MD5","size":2}]}]}`)
	var r struct {
		F value.Value `avro:"f"`
	}
	if err := avro.Unmarshal(s, []byte("\x02AB"), &r); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(r.F)
	if err != nil || string(got) != `{"org.acme.MD5":"AB"}` {
		t.Errorf("json.Marshal: %s, %v; want {\"org.acme.MD5\":\"AB\"}", got, err)
	}
}

// TestFixedOf: a fixed Value built with its schema keeps it through
// WithBranch, is Equal to the one built without, and encodes the same.
func TestFixedOf(t *testing.T) {
	s := schema.MustParse(`["string",{"type":"fixed","name":"a.F","size":3}]`)
	fs := s.Branches()[1]
	v := value.FixedOf(fs, []byte("abc")).WithBranch(1)
	if v.Schema() != fs || v.Branch() != 1 || v.Kind() != value.KindFixed || string(v.Bytes()) != "abc" || v.Len() != 3 {
		t.Fatalf("FixedOf.WithBranch(1): schema %v branch %d kind %v bytes %q", v.Schema(), v.Branch(), v.Kind(), v.Bytes())
	}
	if v.WithBranch(-1).Schema() != fs || v.WithBranch(-1).Branch() != -1 {
		t.Errorf("WithBranch(-1) lost the schema or kept the branch")
	}
	if !value.Equal(v, value.Fixed([]byte("abc")).WithBranch(1)) {
		t.Errorf("FixedOf is not Equal to Fixed of the same bytes")
	}
	got, err := avro.Marshal(s, &v)
	if err != nil || string(got) != "\x02abc" {
		t.Errorf("Marshal: %q, %v", got, err)
	}
	if j, err := json.Marshal(v); err != nil || string(j) != `{"a.F":"abc"}` {
		t.Errorf("json.Marshal: %s, %v", j, err)
	}
	for _, bad := range []func(){
		func() { value.FixedOf(fs, []byte("ab")) },
		func() { value.FixedOf(s, []byte("abc")) },
		func() { value.FixedOf(nil, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("FixedOf with a bad schema or size did not panic")
				}
			}()
			bad()
		}()
	}
}

// TestMarshalJSONSchemaProperty: for random schemas (every kind, every
// logical type, named types in unions at every depth) and random data,
// json.Marshal of the decoded Value is its Avro JSON encoding, byte for
// byte.
func TestMarshalJSONSchemaProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 2))
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := range n {
		g := &schemaGen{r: r}
		text := g.record(3)
		if i%2 == 1 {
			// Outside any record, where only the Value can name a branch.
			text = g.any(3, false)
		}
		s, err := schema.Parse(text)
		if err != nil {
			t.Fatalf("case %d: generated schema %s: %v", i, text, err)
		}
		for range 4 {
			checkSameAsAvroJSON(t, s, fixture.RandomDatum(nil, s, r, 4))
		}
	}
}

// schemaGen writes random schemas whose named types are all distinct.
type schemaGen struct {
	r     *rand.Rand
	names int
}

func (g *schemaGen) name() string {
	g.names++
	if g.r.IntN(2) == 0 {
		return fmt.Sprintf(`"name":"N%d","namespace":"ns%d"`, g.names, g.r.IntN(3))
	}
	return fmt.Sprintf(`"name":"N%d"`, g.names)
}

func (g *schemaGen) record(depth int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":"record",%s,"fields":[`, g.name())
	for i := range 1 + g.r.IntN(4) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"f%d","type":%s}`, i, g.any(depth-1, false))
	}
	b.WriteString("]}")
	return b.String()
}

var leafSchemas = []string{
	`"null"`, `"boolean"`, `"int"`, `"long"`, `"float"`, `"double"`, `"string"`, `"bytes"`,
	`{"type":"int","logicalType":"date"}`,
	`{"type":"int","logicalType":"time-millis"}`,
	`{"type":"long","logicalType":"time-micros"}`,
	`{"type":"long","logicalType":"timestamp-millis"}`,
	`{"type":"long","logicalType":"timestamp-micros"}`,
	`{"type":"long","logicalType":"timestamp-nanos"}`,
	`{"type":"long","logicalType":"local-timestamp-millis"}`,
	`{"type":"long","logicalType":"local-timestamp-micros"}`,
	`{"type":"long","logicalType":"local-timestamp-nanos"}`,
	`{"type":"string","logicalType":"uuid"}`,
	`{"type":"bytes","logicalType":"decimal","precision":9,"scale":3}`,
	`{"type":"bytes","logicalType":"decimal","precision":1,"scale":0}`,
}

// any returns a schema; inUnion says it is a union branch (no union).
func (g *schemaGen) any(depth int, inUnion bool) string {
	k := g.r.IntN(10)
	if depth <= 0 && k >= 5 {
		k = g.r.IntN(5)
	}
	switch k {
	case 0, 1:
		return leafSchemas[g.r.IntN(len(leafSchemas))]
	case 2:
		return fmt.Sprintf(`{"type":"fixed",%s,"size":%d}`, g.name(), g.r.IntN(4))
	case 3:
		switch g.r.IntN(3) {
		case 0:
			return fmt.Sprintf(`{"type":"fixed",%s,"size":5,"logicalType":"decimal","precision":12,"scale":%d}`, g.name(), g.r.IntN(13))
		case 1:
			return fmt.Sprintf(`{"type":"fixed",%s,"size":12,"logicalType":"duration"}`, g.name())
		}
		return fmt.Sprintf(`{"type":"fixed",%s,"size":16,"logicalType":"uuid"}`, g.name())
	case 4:
		return fmt.Sprintf(`{"type":"enum",%s,"symbols":["A","B","C"]}`, g.name())
	case 5:
		return fmt.Sprintf(`{"type":"array","items":%s}`, g.any(depth-1, false))
	case 6:
		return fmt.Sprintf(`{"type":"map","values":%s}`, g.any(depth-1, false))
	case 7:
		return g.record(depth)
	default:
		if inUnion {
			return g.record(depth)
		}
		return g.union(depth)
	}
}

// union returns a union of distinct branches: at most one of each
// unnamed kind, any number of named types.
func (g *schemaGen) union(depth int) string {
	seen := map[string]bool{}
	var branches []string
	for range 1 + g.r.IntN(4) {
		b := g.any(depth-1, true)
		kind := b
		if strings.HasPrefix(b, "{") {
			var m map[string]any
			if err := json.Unmarshal([]byte(b), &m); err != nil {
				panic(err)
			}
			switch m["type"] {
			case "record", "enum", "fixed":
				kind = ""
			default:
				kind, _ = m["type"].(string)
			}
		}
		kind = strings.Trim(kind, `"`)
		if kind != "" && seen[kind] {
			continue
		}
		seen[kind] = true
		branches = append(branches, b)
	}
	return "[" + strings.Join(branches, ",") + "]"
}
