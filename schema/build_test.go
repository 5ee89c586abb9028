package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestNodeBuild(t *testing.T) {
	ptr := func(n Node) *Node { return &n }
	nullable := func(n Node) Node { return Node{Type: "union", Branches: []Node{{Type: "null"}, n}} }
	cases := []struct {
		name string
		node Node
		want string
	}{
		{"primitive", Node{Type: "long"}, `"long"`},
		{"logical", Node{Type: "long", Logical: "timestamp-micros"}, `{"type":"long","logicalType":"timestamp-micros"}`},
		{"decimal", Node{Type: "bytes", Logical: "decimal", Precision: 9, Scale: 2}, `{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}`},
		{"props", Node{Type: "string", Props: map[string]any{"connect.name": "x", "b": 1.5}}, `{"type":"string","b":1.5,"connect.name":"x"}`},
		{"array", Node{Type: "array", Items: ptr(Node{Type: "int"})}, `{"type":"array","items":"int"}`},
		{"map", Node{Type: "map", Values: ptr(nullable(Node{Type: "string"}))}, `{"type":"map","values":["null","string"]}`},
		{"fixed", Node{Type: "fixed", Name: "a.MD5", Aliases: []string{"a.Hash"}, Size: 16}, `{"type":"fixed","name":"MD5","namespace":"a","aliases":["a.Hash"],"size":16}`},
		{"enum", Node{Type: "enum", Name: "Suit", Namespace: "cards", Doc: "d", Symbols: []string{"A", "B"}, EnumDefault: "B"},
			`{"type":"enum","name":"Suit","namespace":"cards","doc":"d","symbols":["A","B"],"default":"B"}`},
		{"recursive record", Node{Type: "record", Name: "List", Namespace: "n", Fields: []FieldNode{
			{Name: "head", Type: Node{Type: "long"}, Doc: "first", Aliases: []string{"car"}, Order: "descending", Props: map[string]any{"p": true}},
			{Name: "tail", Type: nullable(Node{Type: "n.List"}), HasDefault: true},
		}}, `{"type":"record","name":"List","namespace":"n","fields":[
			{"name":"head","type":"long","doc":"first","aliases":["car"],"order":"descending","p":true},
			{"name":"tail","type":["null","List"],"default":null}]}`},
		{"defaults of every type", Node{Type: "error", Name: "D", Fields: []FieldNode{
			{Name: "b", Type: Node{Type: "bytes"}, Default: []byte{0, 0xff, 'a'}},
			{Name: "f", Type: Node{Type: "fixed", Name: "F2", Size: 2}, Default: [2]byte{1, 2}},
			{Name: "u", Type: Node{Type: "union", Branches: []Node{{Type: "int"}, {Type: "null"}}}, Default: 3},
			{Name: "r", Type: Node{Type: "record", Name: "In", Fields: []FieldNode{{Name: "x", Type: Node{Type: "double"}}}}, Default: map[string]any{"x": 1.5}},
			{Name: "m", Type: Node{Type: "map", Values: ptr(Node{Type: "boolean"})}, Default: map[string]bool{"k": true}},
			{Name: "a", Type: Node{Type: "array", Items: ptr(Node{Type: "F2"})}, Default: []any{[]byte{3, 4}}},
			{Name: "raw", Type: Node{Type: "long"}, Default: json.RawMessage(`9007199254740993`)},
			{Name: "e", Type: Node{Type: "enum", Name: "E", Symbols: []string{"X"}}, Default: "X"},
		}}, `{"type":"error","name":"D","fields":[
			{"name":"b","type":"bytes","default":"\u0000\u00ffa"},
			{"name":"f","type":{"type":"fixed","name":"F2","size":2},"default":"\u0001\u0002"},
			{"name":"u","type":["int","null"],"default":3},
			{"name":"r","type":{"type":"record","name":"In","fields":[{"name":"x","type":"double"}]},"default":{"x":1.5}},
			{"name":"m","type":{"type":"map","values":"boolean"},"default":{"k":true}},
			{"name":"a","type":{"type":"array","items":"F2"},"default":["\u0003\u0004"]},
			{"name":"raw","type":"long","default":9007199254740993},
			{"name":"e","type":{"type":"enum","name":"E","symbols":["X"]},"default":"X"}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := c.node.Schema()
			if err != nil {
				t.Fatalf("Schema: %v", err)
			}
			want := MustParse(c.want)
			if s.String() != want.String() || s.Canonical() != want.Canonical() {
				t.Errorf("built\n%s\nwant\n%s", s, want)
			}
			back, err := Parse(s.String())
			if err != nil || back.String() != s.String() {
				t.Errorf("String does not parse back: %v", err)
			}
			if again := NodeOf(s).MustSchema(); again.String() != s.String() {
				t.Errorf("NodeOf rebuilt\n%s\nwant\n%s", again, s)
			}
			for _, f := range s.Fields() {
				wf := want.Field(f.Name())
				if !bytes.Equal(f.DefaultBinary(), wf.DefaultBinary()) {
					t.Errorf("field %s: default %x, want %x", f.Name(), f.DefaultBinary(), wf.DefaultBinary())
				}
			}
		})
	}
}

// An invalid node fails as its text fails in Parse.
func TestNodeErrors(t *testing.T) {
	cases := []struct {
		name string
		node Node
		want string
	}{
		{"unknown type", Node{Type: "recrod"}, "recrod"},
		{"bad name", Node{Type: "fixed", Name: "1x", Size: 1}, "1x"},
		{"duplicate field", Node{Type: "record", Name: "R", Fields: []FieldNode{{Name: "a", Type: Node{Type: "int"}}, {Name: "a", Type: Node{Type: "int"}}}}, "a"},
		{"negative size", Node{Type: "fixed", Name: "F", Size: -1}, "size"},
		{"bad default", Node{Type: "record", Name: "R", Fields: []FieldNode{{Name: "a", Type: Node{Type: "int"}, Default: "x"}}}, "default"},
		{"array without items", Node{Type: "array"}, "element"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.node.Schema()
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Schema = %v, want an *Error with %q", err, c.want)
			}
			text, _ := c.node.MarshalJSON()
			if _, perr := Parse(string(text)); c.name != "array without items" && (perr == nil || perr.Error() != err.Error()) {
				t.Errorf("Parse of the node's text = %v, want the same error as Schema (%v)", perr, err)
			}
		})
	}
	// A decimal whose precision a fixed cannot hold is not a decimal, as
	// in Parse: the logical type is kept as a property.
	s := Node{Type: "fixed", Name: "F", Size: 2, Logical: "decimal", Precision: 9}.MustSchema()
	if s.Logical() != NoLogical {
		t.Errorf("decimal(9) on fixed 2 has logical type %v, want none (as Parse)", s.Logical())
	}
}

// NodeOf rebuilds every schema of the upstream test data.
func TestNodeOfTestdata(t *testing.T) {
	var files []string
	for _, pattern := range []string{"share/test/schemas/*.avsc", "lang/java/avro/src/test/resources/*.avsc", "lang/c/tests/schema_tests/pass/*", "lang/js/test/dat/*.avsc"} {
		m, err := filepath.Glob(testdata + pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	n := 0
	for _, f := range files {
		s, err := Parse(readFile(t, strings.TrimPrefix(f, testdata)))
		if err != nil {
			continue // files that are meant to fail, or need other files
		}
		n++
		back, err := NodeOf(s).Schema()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if back.String() != s.String() {
			t.Errorf("%s: rebuilt\n%s\nwant\n%s", f, back, s)
		}
	}
	if n < 40 {
		t.Errorf("only %d schemas rebuilt", n)
	}
}

func TestEncodeDefault(t *testing.T) {
	rec := MustParse(`{"type":"record","name":"R","fields":[
		{"name":"i","type":"int","default":-3},
		{"name":"s","type":"string","default":"hé"},
		{"name":"u","type":["null","long"],"default":null},
		{"name":"r","type":{"type":"record","name":"In","fields":[{"name":"x","type":"int","default":5},{"name":"y","type":"bytes"}]},"default":{"y":"\u00ff"}},
		{"name":"a","type":{"type":"array","items":"double"},"default":[1,2.5]}]}`)
	texts := []string{`-3`, `"hé"`, `null`, `{"y":"\u00ff"}`, `[1,2.5]`}
	for i, f := range rec.Fields() {
		got, err := f.Type().EncodeDefault(texts[i])
		if err != nil || !bytes.Equal(got, f.DefaultBinary()) {
			t.Errorf("%s: EncodeDefault(%s) = %x, %v; want %x", f.Name(), texts[i], got, err, f.DefaultBinary())
		}
	}
	for _, bad := range []struct{ schema, text string }{
		{`"int"`, `"x"`}, {`"int"`, `1.5`}, {`"int"`, `4294967296`}, {`["string","int"]`, `null`},
		{`{"type":"fixed","name":"F","size":2}`, `"a"`}, {`"bytes"`, `"\u0100"`}, {`"string"`, `{`},
		{`{"type":"enum","name":"E","symbols":["A"]}`, `"B"`},
	} {
		_, err := MustParse(bad.schema).EncodeDefault(bad.text)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: EncodeDefault(%s) = %v, want an *Error", bad.schema, bad.text, err)
		}
	}
}
