package schema

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustParse(t *testing.T, text string) *Schema {
	t.Helper()
	s, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse(%s): %v", text, err)
	}
	return s
}

func TestFullNames(t *testing.T) {
	s := mustParse(t, `{"type":"record","name":"R","namespace":"a.b","fields":[
		{"name":"f1","type":{"type":"enum","name":"E","symbols":["X"]}},
		{"name":"f2","type":{"type":"fixed","name":"c.F","namespace":"ignored","size":2}},
		{"name":"f3","type":{"type":"record","name":"In","namespace":"","fields":[
			{"name":"g","type":{"type":"enum","name":"G","symbols":["Y"]}}]}},
		{"name":"f4","type":"E"},
		{"name":"f5","type":"a.b.E"},
		{"name":"f6","type":"c.F"},
		{"name":"f7","type":"G"},
		{"name":"f8","type":{"type":"record","name":"Deep","fields":[
			{"name":"h","type":{"type":"fixed","name":"H","size":1}}]}}
	]}`)
	want := map[string][2]string{
		"f1": {"a.b.E", "a.b"}, "f2": {"c.F", "c"}, "f3": {"In", ""},
		"f4": {"a.b.E", "a.b"}, "f5": {"a.b.E", "a.b"}, "f6": {"c.F", "c"},
		"f7": {"G", ""}, "f8": {"a.b.Deep", "a.b"},
	}
	for name, w := range want {
		typ := s.Field(name).Type()
		if typ.FullName() != w[0] || typ.Namespace() != w[1] {
			t.Errorf("%s: FullName %q Namespace %q, want %q %q", name, typ.FullName(), typ.Namespace(), w[0], w[1])
		}
	}
	if s.Field("f1").Type() != s.Field("f4").Type() || s.Field("f4").Type() != s.Field("f5").Type() {
		t.Errorf("references by short and full name are not the defining node")
	}
	if got := s.Field("f8").Type().Fields()[0].Type().FullName(); got != "a.b.H" {
		t.Errorf("namespace inherited through two levels: %q, want a.b.H", got)
	}
	if s.Name() != "R" || s.FullName() != "a.b.R" {
		t.Errorf("Name %q FullName %q", s.Name(), s.FullName())
	}
	// A namespace of another type is not searched, but the null namespace
	// is (as in Java).
	mustParse(t, `{"type":"record","name":"R","fields":[
		{"name":"a","type":{"type":"enum","name":"E","symbols":["X"]}},
		{"name":"b","type":{"type":"record","name":"x.S","fields":[{"name":"e","type":"E"}]}}]}`)
	// Primitive names can be used in a namespace: "int" remains the primitive.
	s = mustParse(t, `{"type":"record","name":"ns.int","fields":[{"name":"v","type":"int"},{"name":"n","type":["null","ns.int"]}]}`)
	if s.Field("v").Type().Kind() != Int || s.Field("n").Type().Branches()[1] != s {
		t.Errorf("ns.int resolution wrong: %s", s)
	}
	// Complex type names may be names.
	s = mustParse(t, `["null",{"type":"fixed","name":"record","size":1},{"type":"enum","name":"array","symbols":["A"]}]`)
	if s.Branches()[1].FullName() != "record" {
		t.Errorf("fixed named record: %s", s)
	}
	checkRoundTrip(t, "fixed named record", s)
}

// TestNullNamespaceShadowed checks that String keeps full names when a
// null-namespace type and a type of the enclosing namespace share a short
// name.
func TestNullNamespaceShadowed(t *testing.T) {
	s := mustParse(t, `{"type":"record","name":"Top","fields":[
		{"name":"a","type":{"type":"enum","name":"E","symbols":["A"]}},
		{"name":"r","type":{"type":"record","name":"x.R","fields":[
			{"name":"b","type":{"type":"enum","name":"E","symbols":["B"]}},
			{"name":"c","type":"E"},
			{"name":"d","type":{"type":"E","namespace":""}}]}}]}`)
	r := s.Field("r").Type()
	if r.Field("c").Type().FullName() != "x.E" || r.Field("d").Type().FullName() != "E" {
		t.Fatalf("c is %s, d is %s", r.Field("c").Type().FullName(), r.Field("d").Type().FullName())
	}
	checkRoundTrip(t, "shadowed", s)
}

func TestRecursion(t *testing.T) {
	s := mustParse(t, `{"type":"record","name":"LongList","fields":[
		{"name":"value","type":"long"},
		{"name":"next","type":["null","LongList"],"default":null}]}`)
	if s.Field("next").Type().Branches()[1] != s {
		t.Fatal("the recursive reference is not the record itself")
	}
	if s.MinEncodedSize() != 2 {
		t.Errorf("MinEncodedSize = %d, want 2", s.MinEncodedSize())
	}
	want := `{"name":"LongList","type":"record","fields":[{"name":"value","type":"long"},{"name":"next","type":["null","LongList"]}]}`
	if s.Canonical() != want {
		t.Errorf("Canonical = %s", s.Canonical())
	}
	// The union alone must define the record.
	u := s.Field("next").Type()
	if got := u.Canonical(); got != `["null",`+want+`]` {
		t.Errorf("union Canonical = %s", got)
	}
	checkRoundTrip(t, "LongList", s)

	// Mutual recursion through a nested definition.
	s = mustParse(t, `{"type":"record","name":"A","fields":[
		{"name":"b","type":{"type":"record","name":"B","fields":[
			{"name":"a","type":["null","A"]},
			{"name":"arr","type":{"type":"array","items":"B"}}]}}]}`)
	b := s.Field("b").Type()
	if b.Field("a").Type().Branches()[1] != s || b.Field("arr").Type().Items() != b {
		t.Fatal("mutual recursion is not a cycle")
	}
	if got, want := b.Canonical(), `{"name":"B","type":"record","fields":[{"name":"a","type":["null",{"name":"A","type":"record","fields":[{"name":"b","type":"B"}]}]},{"name":"arr","type":{"type":"array","items":"B"}}]}`; got != want {
		t.Errorf("B alone: %s\nwant %s", got, want)
	}
	checkRoundTrip(t, "A", s)
	// A record that contains itself directly has no finite value but is a
	// valid schema; its minimum size counts the recursive field as 0.
	s = mustParse(t, `{"type":"record","name":"R","fields":[{"name":"i","type":"int"},{"name":"r","type":"R"}]}`)
	if s.MinEncodedSize() != 1 {
		t.Errorf("MinEncodedSize = %d, want 1", s.MinEncodedSize())
	}
}

// TestNestedCanonical checks that each node's canonical form is the one
// of the node parsed alone, for every node of the test schemas.
func TestNestedCanonical(t *testing.T) {
	for name, text := range allSchemaTexts(t) {
		if len(text) > 20000 {
			continue // String per node is quadratic; large_schema alone would take seconds
		}
		s, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		walk(s, func(n *Schema) {
			alone := MustParse(n.String())
			if n.Canonical() != alone.Canonical() || n.Fingerprint() != alone.Fingerprint() {
				t.Errorf("%s: node %s: Canonical %s, parsed alone %s", name, n.FullName(), n.Canonical(), alone.Canonical())
			}
		})
	}
}

func TestAliases(t *testing.T) {
	s := mustParse(t, `{"type":"record","name":"a.b","aliases":["c","x.y"],"fields":[
		{"name":"f","type":"int","aliases":["g","h"]},
		{"name":"e","type":{"type":"enum","name":"E","namespace":"n","aliases":["Old","m.Older"],"symbols":["A"]}}]}`)
	if diff := cmp.Diff([]string{"a.c", "x.y"}, s.Aliases()); diff != "" {
		t.Errorf("record aliases (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"g", "h"}, s.Field("f").Aliases()); diff != "" {
		t.Errorf("field aliases (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"n.Old", "m.Older"}, s.Field("e").Type().Aliases()); diff != "" {
		t.Errorf("enum aliases (-want +got):\n%s", diff)
	}
	// Aliases are not names: invalid names are allowed (that is how old
	// invalid names are fixed), an empty one is not.
	mustParse(t, `{"type":"fixed","name":"F","size":1,"aliases":["old-name"]}`)
	checkError(t, `{"type":"fixed","name":"F","size":1,"aliases":[""]}`, "aliases[0]", "empty alias")
	checkError(t, `{"type":"fixed","name":"F","size":1,"aliases":"G"}`, "aliases", "must be an array")
	checkRoundTrip(t, "aliases", s)
}

func TestDefaults(t *testing.T) {
	cases := []struct {
		typ, def string
		want     any
		bin      string // hex
		branch   int
	}{
		{`"null"`, `null`, nil, "", -1},
		{`"boolean"`, `true`, true, "01", -1},
		{`"boolean"`, `false`, false, "00", -1},
		{`"int"`, `-1`, int32(-1), "01", -1},
		{`"int"`, `64`, int32(64), "8001", -1},
		{`"int"`, `2147483647`, int32(math.MaxInt32), "feffffff0f", -1},
		{`"long"`, `-8193`, int64(-8193), "818001", -1},
		{`"long"`, `9223372036854775807`, int64(math.MaxInt64), "feffffffffffffffff01", -1},
		{`"float"`, `1.5`, float32(1.5), "0000c03f", -1},
		{`"float"`, `2`, float32(2), "00000040", -1},
		{`"double"`, `-2.5e0`, -2.5, "00000000000004c0", -1},
		{`"bytes"`, `"\u00ff\u0000a"`, []byte{0xff, 0, 'a'}, "06ff0061", -1},
		{`"string"`, `"foo"`, "foo", "06666f6f", -1},
		{`"string"`, `"é"`, "é", "04c3a9", -1},
		{`{"type":"fixed","name":"F","size":2}`, `"\u0001\u00fe"`, []byte{1, 0xfe}, "01fe", -1},
		{`{"type":"enum","name":"E","symbols":["A","B","C"]}`, `"C"`, "C", "04", -1},
		{`{"type":"array","items":"long"}`, `[3,27]`, []any{int64(3), int64(27)}, "04063600", -1},
		{`{"type":"array","items":"long"}`, `[]`, []any{}, "00", -1},
		{`{"type":"map","values":"int"}`, `{"a":1}`, map[string]any{"a": int32(1)}, "0202610200", -1},
		{`{"type":"map","values":"int"}`, `{}`, map[string]any{}, "00", -1},
		{`["null","string"]`, `null`, nil, "00", 0},
		// Avro 1.12: the first branch that matches, not only the first.
		{`["null","string"]`, `"a"`, "a", "020261", 1},
		{`["int","long","double"]`, `1.5`, 1.5, "04000000000000f83f", 2},
		{`["int","long"]`, `3000000000`, int64(3000000000), "0280f882ad16", 1},
		{`{"type":"record","name":"P","fields":[{"name":"a","type":"long"},{"name":"b","type":"string","default":"x"}]}`,
			`{"a":27,"b":"foo"}`, map[string]any{"a": int64(27), "b": "foo"}, "3606666f6f", -1},
		// A missing member takes the field's default; unknown members are
		// ignored, as in Java.
		{`{"type":"record","name":"P","fields":[{"name":"a","type":"long"},{"name":"b","type":"string","default":"x"}]}`,
			`{"a":1,"zzz":true}`, map[string]any{"a": int64(1), "b": "x"}, "020278", -1},
		{`{"type":"bytes","logicalType":"decimal","precision":4}`, `"\u0001"`, []byte{1}, "0201", -1},
	}
	for _, c := range cases {
		text := fmt.Sprintf(`{"type":"record","name":"R","fields":[{"name":"f","type":%s,"default":%s}]}`, c.typ, c.def)
		s, err := Parse(text)
		if err != nil {
			t.Errorf("%s default %s: %v", c.typ, c.def, err)
			continue
		}
		f := s.Field("f")
		got, ok := f.Default()
		if !ok || !f.HasDefault() {
			t.Errorf("%s: no default", c.typ)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s default %s: Default() (-want +got):\n%s", c.typ, c.def, diff)
		}
		if h := hex.EncodeToString(f.DefaultBinary()); h != c.bin {
			t.Errorf("%s default %s: DefaultBinary() = %s, want %s", c.typ, c.def, h, c.bin)
		}
		if f.DefaultBranch() != c.branch {
			t.Errorf("%s default %s: DefaultBranch() = %d, want %d", c.typ, c.def, f.DefaultBranch(), c.branch)
		}
		checkRoundTrip(t, text, s)
	}
	// A field without default.
	f := mustParse(t, `{"type":"record","name":"R","fields":[{"name":"f","type":"int"}]}`).Field("f")
	if d, ok := f.Default(); ok || d != nil || f.HasDefault() || f.DefaultBinary() != nil || f.DefaultBranch() != -1 {
		t.Errorf("field without default reports one")
	}
	// A nested record default uses nested field defaults.
	s := mustParse(t, `{"type":"record","name":"Outer","fields":[
		{"name":"in","type":{"type":"record","name":"Inner","fields":[
			{"name":"x","type":"int","default":7},
			{"name":"y","type":["null","Inner"],"default":null}]},
		 "default":{}}]}`)
	d, _ := s.Field("in").Default()
	if diff := cmp.Diff(map[string]any{"x": int32(7), "y": nil}, d); diff != "" {
		t.Errorf("nested defaults (-want +got):\n%s", diff)
	}
	if h := hex.EncodeToString(s.Field("in").DefaultBinary()); h != "0e00" {
		t.Errorf("nested default binary %s, want 0e00", h)
	}
}

func TestInvalidDefaults(t *testing.T) {
	rec := func(typ, def string) string {
		return fmt.Sprintf(`{"type":"record","name":"R","fields":[{"name":"ok","type":"int"},{"name":"f","type":%s,"default":%s}]}`, typ, def)
	}
	cases := []struct {
		typ, def, path, msg string
	}{
		{`"double"`, `null`, "fields[1].default", `default null is not a valid double`},
		{`"double"`, `"string"`, "fields[1].default", `is not a valid double`},
		{`"double"`, `1e999`, "fields[1].default", `out of the range`},
		{`"float"`, `1e39`, "fields[1].default", `out of the range`},
		{`"int"`, `2147483648`, "fields[1].default", `not a valid int`},
		{`"int"`, `1.0`, "fields[1].default", `not a valid int`},
		{`"long"`, `"1"`, "fields[1].default", `not a valid long`},
		{`"null"`, `0`, "fields[1].default", `not a valid null`},
		{`"boolean"`, `0`, "fields[1].default", `not a valid boolean`},
		{`"bytes"`, `"\u0100"`, "fields[1].default", `above U+00FF`},
		{`"string"`, `1`, "fields[1].default", `not a valid string`},
		{`{"type":"fixed","name":"F","size":2}`, `"a"`, "fields[1].default", `default has 1 bytes, fixed F has 2`},
		{`{"type":"enum","name":"E","symbols":["A"]}`, `"B"`, "fields[1].default", `"B" is not a symbol of E`},
		{`{"type":"array","items":"int"}`, `[1,"x"]`, "fields[1].default[1]", `not a valid int`},
		{`{"type":"map","values":"int"}`, `{"k":"x"}`, "fields[1].default.k", `not a valid int`},
		{`{"type":"map","values":"int"}`, `[]`, "fields[1].default", `not a valid map`},
		{`{"type":"record","name":"P","fields":[{"name":"a","type":"int"}]}`, `{"b":1}`, "fields[1].default", `lacks field "a"`},
		{`{"type":"record","name":"P","fields":[{"name":"a","type":"int"}]}`, `{"a":"x"}`, "fields[1].default.a", `not a valid int`},
		{`["null","string"]`, `1`, "fields[1].default", `matches no branch of the union ["null","string"]`},
		{`[]`, `null`, "fields[1].default", `empty union`},
	}
	for _, c := range cases {
		checkError(t, rec(c.typ, c.def), c.path, c.msg)
	}
	checkError(t, `{"type":"enum","name":"E","symbols":["A"],"default":"B"}`, "default", `enum default "B" is not a symbol`)
	checkError(t, `{"type":"enum","name":"E","symbols":["A"],"default":1}`, "default", `must be a string`)
	// A record default inside the record's own definition must give
	// every field: r's own default is not there to fill it in.
	checkError(t, `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"r","type":["null","R"],"default":{"a":1}}]}`,
		"fields[1].default", "matches no branch")
}

// A default may hold a value of the record it belongs to (a linked list's
// next node, a tree's children); defaults were checked while the record's
// fields were still being parsed, so such a schema was rejected, where
// Java and Python accept it.
func TestDefaultOfItsOwnRecord(t *testing.T) {
	list := mustParse(t, `{"type":"record","name":"L","fields":[{"name":"v","type":"int"},
	  {"name":"next","type":["L","null"],"default":{"v":1,"next":null}}]}`)
	next := list.Field("next")
	want := []byte{0, 2, 2} // branch L, v = 1, next: branch null
	if !next.HasDefault() || !bytes.Equal(next.DefaultBinary(), want) {
		t.Errorf("next's default: %v, %x; want %x", next.HasDefault(), next.DefaultBinary(), want)
	}
	if dv, _ := next.Default(); dv == nil {
		t.Errorf("next has no default value")
	} else if d, ok := dv.(map[string]any); !ok || d["v"] != int32(1) || d["next"] != nil {
		t.Errorf("next's default value = %#v", dv)
	}
	tree := mustParse(t, `{"type":"record","name":"Node","fields":[{"name":"children","type":{"type":"array","items":"Node"},"default":[{"children":[]}]}]}`)
	if want := []byte{2, 0, 0}; !bytes.Equal(tree.Field("children").DefaultBinary(), want) {
		t.Errorf("children's default: %x, want %x", tree.Field("children").DefaultBinary(), want)
	}
}

// checkError parses text, which must fail with an *Error at path whose
// message contains msg.
func checkError(t *testing.T, text, path, msg string) {
	t.Helper()
	s, err := Parse(text)
	if err == nil {
		t.Errorf("Parse(%s) accepted it: %s", text, s)
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("Parse(%s): %T %v is not an *Error", text, err, err)
		return
	}
	if e.Path != path || !strings.Contains(e.Msg, msg) {
		t.Errorf("Parse(%s):\n got error %q (path %q)\nwant path %q, message containing %q", text, err, e.Path, path, msg)
	}
	want := "schema: "
	if path != "" {
		want += path + ": "
	}
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Error() = %q does not start with %q", err.Error(), want)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct{ text, path, msg string }{
		// Malformed JSON.
		{``, "", "invalid JSON at offset 0"},
		{`{"type":"int"`, "", "invalid JSON"},
		{`{"type":"int"} x`, "", "unexpected data after"},
		{`{"type":"int",}`, "", "invalid JSON"},
		{`"in\qt"`, "", "invalid escape"},
		{`{"type":"int","type":"long"}`, "", `duplicate JSON object key "type"`},
		{`01`, "", "invalid JSON"},
		// Not a schema.
		{`1`, "", "a schema must be a type name, an object or an array"},
		{`true`, "", "a schema must be"},
		{`{"no_type":1}`, "", `missing "type"`},
		{`{"type":7}`, "type", "must be a type name string"},
		{`{"type":{"type":"int"}}`, "type", "must be a type name string"},
		// Undefined references.
		{`"panther"`, "", `unknown type "panther"`},
		{`{"type":"panther"}`, "type", `unknown type "panther"`},
		{`{"type":"record","name":"R","namespace":"com.example","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"},{"name":"c","type":"com.example.Foo"}]}`,
			"fields[2].type", `unknown type "com.example.Foo"`},
		{`{"type":"array","items":{"type":"map","values":"Nope"}}`, "items.values", `unknown type "Nope"`},
		// Forward references are not allowed.
		{`["A",{"type":"fixed","name":"A","size":1}]`, "[0]", `unknown type "A"`},
		// Wrong attribute types.
		{`{"type":"record","name":"R","fields":"hi"}`, "fields", "must be an array"},
		{`{"type":"record","name":"R"}`, "", `record without "fields"`},
		{`{"type":"record","name":7,"fields":[]}`, "name", "must be a string"},
		{`{"type":"record","name":"R","namespace":1,"fields":[]}`, "namespace", "must be a string"},
		{`{"type":"record","name":"R","doc":1,"fields":[]}`, "doc", "must be a string"},
		{`{"type":"record","name":"R","fields":[1]}`, "fields[0]", "a field must be an object"},
		{`{"type":"record","name":"R","fields":[{"type":"int"}]}`, "fields[0]", `field without "name"`},
		{`{"type":"record","name":"R","fields":[{"name":"a"}]}`, "fields[0]", `field "a" without "type"`},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int","order":"up"}]}`, "fields[0].order", `must be "ascending"`},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int","doc":false}]}`, "fields[0].doc", "must be a string"},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int","aliases":[1]}]}`, "fields[0].aliases[0]", "must be a string"},
		{`{"type":"enum","name":"E","symbols":"A B"}`, "symbols", "must be an array of strings"},
		{`{"type":"enum","name":"E"}`, "", `enum without "symbols"`},
		{`{"type":"enum","symbols":["A"]}`, "", `enum without "name"`},
		{`{"type":"fixed","name":"F"}`, "", `fixed without "size"`},
		{`{"type":"fixed","name":"F","size":"16"}`, "size", "must be an integer"},
		{`{"type":"fixed","name":"F","size":1.5}`, "size", "must be an integer from 0"},
		{`{"type":"array"}`, "", `array without "items"`},
		{`{"type":"map","values":"int","items":"x"}`, "", ""},
		// Duplicates.
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"a","type":"long"}]}`, "fields[1].name", `duplicate field name "a"`},
		{`{"type":"enum","name":"E","symbols":["A","A"]}`, "symbols[1]", `duplicate enum symbol "A"`},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"fixed","name":"R","size":1}}]}`, "fields[0].type.name", `duplicate definition of "R"`},
		{`["string","long","long"]`, "[2]", `duplicate union branch "long"`},
		{`[{"type":"array","items":"int"},{"type":"array","items":"long"}]`, "[1]", `duplicate union branch "array"`},
		{`["long",{"type":"long","logicalType":"timestamp-millis"}]`, "[1]", `duplicate union branch "long"`},
		{`[{"type":"fixed","name":"F","size":1},"F"]`, "[1]", `duplicate union branch "F"`},
		{`["null",["int"]]`, "[1]", "may not directly contain a union"},
		// Redefined primitives.
		{`{"type":"enum","name":"int","symbols":["A"]}`, "name", `cannot redefine primitive type "int"`},
		{`{"type":"record","name":"R","namespace":"x","fields":[{"name":"f","type":{"type":"fixed","name":"string","namespace":"","size":1}}]}`, "fields[0].type.name", `cannot redefine primitive type "string"`},
		// Invalid names and symbols.
		{`{"type":"enum","name":"2d2","symbols":["c3po"]}`, "name", `invalid name "2d2"`},
		{`{"type":"fixed","name":"dr. spaceman","size":1}`, "name", `invalid name`},
		{`{"type":"fixed","name":"a..b","size":1}`, "name", `invalid name`},
		{`{"type":"fixed","name":"F","namespace":"a.-b","size":1}`, "namespace", `invalid namespace "a.-b"`},
		{`{"type":"enum","name":"E","symbols":["white space"]}`, "symbols[0]", `invalid enum symbol "white space"`},
		{`{"type":"record","name":"R","fields":[{"name":"1a","type":"int"}]}`, "fields[0].name", `invalid field name "1a"`},
		// Absurd sizes.
		{`{"type":"fixed","name":"F","size":1099511627776}`, "size", "must be an integer from 0 to 2147483647"},
		{`{"type":"fixed","name":"F","size":-2}`, "size", "must be an integer from 0"},
		{`{"type":"fixed","name":"F","size":99999999999999999999999}`, "size", "must be an integer from 0"},
	}
	for _, c := range cases {
		if c.msg == "" {
			// Valid: extra attributes are props.
			mustParse(t, c.text)
			continue
		}
		checkError(t, c.text, c.path, c.msg)
	}

	// Malformed JSON wraps encoding/json's error.
	_, err := Parse(`{"type": "int",, }`)
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		t.Errorf("malformed JSON error %v does not wrap *json.SyntaxError", err)
	}
}

// Schema errors start with "schema:" as the other packages' errors start
// with their name, and keep the file, the path and the wrapped error.
func TestErrorMessageNamesThePackage(t *testing.T) {
	_, err := Parse(`{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"map"}}]}`)
	if want := `schema: fields[0].type: map without "values"`; err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	file := filepath.Join(t.TempDir(), "r.avsc")
	if err := os.WriteFile(file, []byte(`{"type":"enum","name":"E","symbols":[1]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = NewParser().ParseFile(file)
	var e *Error
	if !errors.As(err, &e) || e.File != file || e.Path != "symbols[0]" {
		t.Fatalf("ParseFile error %v (%#v)", err, e)
	}
	if want := "schema: " + file + ": symbols[0]: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want the prefix %q", err, want)
	}
	_, err = Parse(`{"type": "int",, }`)
	var syn *json.SyntaxError
	if !errors.As(err, &syn) || !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "schema: ") || strings.HasPrefix(err.Error(), "schema: : ") {
		t.Errorf("malformed JSON: %q", err)
	}
}

// An unknown type name suggests the nearest primitive or defined name
// when one is close, and nothing when none is.
func TestUnknownTypeSuggestsANearName(t *testing.T) {
	const rec = `{"type":"record","name":"R","namespace":"com.example","fields":[` +
		`{"name":"a","type":{"type":"record","name":"Address","fields":[]}},` +
		`{"name":"b","type":{"type":"enum","name":"Status","namespace":"org.shop","symbols":["X"]}},` +
		`{"name":"c","type":%q}]}`
	for _, tc := range []struct{ text, want string }{
		{`"strng"`, `unknown type "strng" (did you mean "string"?)`},
		{`{"type":"array","items":"flaot"}`, `unknown type "flaot" (did you mean "float"?)`},
		{`["null","lnog"]`, `unknown type "lnog" (did you mean "long"?)`},
		{`"String"`, `unknown type "String" (did you mean "string"?)`},
		{fmt.Sprintf(rec, "Adress"), `unknown type "Adress" (did you mean "Address"?)`},
		{fmt.Sprintf(rec, "com.exmple.Address"), `unknown type "com.exmple.Address" (did you mean "com.example.Address"?)`},
		// The right short name in the wrong namespace: the full name.
		{fmt.Sprintf(rec, "Status"), `unknown type "Status" (did you mean "org.shop.Status"?)`},
		{fmt.Sprintf(rec, "Statsu"), `unknown type "Statsu" (did you mean "org.shop.Status"?)`},
		// Too far from every name: no suggestion.
		{`"panther"`, `unknown type "panther"`},
		{fmt.Sprintf(rec, "Customer"), `unknown type "Customer"`},
		{fmt.Sprintf(rec, "com.example.Foo"), `unknown type "com.example.Foo"`},
		{`"ab"`, `unknown type "ab"`},
	} {
		_, err := Parse(tc.text)
		var e *Error
		if !errors.As(err, &e) || e.Msg != tc.want || !strings.HasPrefix(err.Error(), "schema: ") {
			t.Errorf("Parse(%s): %v, want the message %q", tc.text, err, tc.want)
		}
	}

	// A Parser suggests the names of its earlier texts too.
	p := NewParser()
	if _, err := p.Parse(`{"type":"enum","name":"com.example.Color","symbols":["RED"]}`); err != nil {
		t.Fatal(err)
	}
	_, err := p.Parse(`{"type":"record","name":"com.example.Car","fields":[{"name":"c","type":"Colour"}]}`)
	var e *Error
	if want := `unknown type "Colour" (did you mean "Color"?)`; !errors.As(err, &e) || e.Msg != want || e.Path != "fields[0].type" {
		t.Errorf("Parser: %v, want %q", err, want)
	}
}

// editDistance agrees with the full table of the optimal string alignment
// distance, up to its limit.
func TestEditDistanceMatchesFullTable(t *testing.T) {
	full := func(a, b string) int {
		d := make([][]int, len(a)+1)
		for i := range d {
			d[i] = make([]int, len(b)+1)
			d[i][0] = i
		}
		for j := range d[0] {
			d[0][j] = j
		}
		for i := 1; i <= len(a); i++ {
			for j := 1; j <= len(b); j++ {
				cost := 1
				if a[i-1] == b[j-1] {
					cost = 0
				}
				d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
				if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
					d[i][j] = min(d[i][j], d[i-2][j-2]+1)
				}
			}
		}
		return d[len(a)][len(b)]
	}
	rnd := uint64(1)
	next := func(n int) int {
		rnd = rnd*6364136223846793005 + 1442695040888963407
		return int(rnd>>33) % n
	}
	word := func() string {
		b := make([]byte, next(9))
		for i := range b {
			b[i] = "abc"[next(3)]
		}
		return string(b)
	}
	for range 20000 {
		a, b, limit := word(), word(), 1+next(3)
		want := min(full(a, b), limit+1)
		if got := editDistance(a, b, limit); got != want {
			t.Fatalf("editDistance(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
		}
	}
}

// TestDeepNesting checks that absurd nesting is an error, not a stack
// overflow, for every shape of nesting.
func TestDeepNesting(t *testing.T) {
	const n = 100000
	texts := map[string]string{
		"arrays":  strings.Repeat(`{"type":"array","items":`, n) + `"int"` + strings.Repeat("}", n),
		"unions":  strings.Repeat("[", n) + strings.Repeat("]", n),
		"default": `{"type":"record","name":"R","fields":[{"name":"f","type":"int","default":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}]}`,
		"props":   `{"type":"int","x":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + `}`,
	}
	for name, text := range texts {
		_, err := Parse(text)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "JSON nesting deeper than 1000 levels") || !errors.Is(err, ErrLimit) {
			t.Errorf("%s: error %v, want the nesting limit, matching ErrLimit", name, err)
		}
	}
	// Just under the limit parses (and the recursive walks cope).
	depth := MaxDepth - 1
	s, err := Parse(strings.Repeat(`{"type":"array","items":`, depth) + `"int"` + strings.Repeat("}", depth))
	if err != nil {
		t.Fatalf("%d levels: %v", depth, err)
	}
	checkRoundTrip(t, "deep", s)
	if s.MinEncodedSize() != 1 {
		t.Errorf("MinEncodedSize = %d", s.MinEncodedSize())
	}
}

func TestIntFingerprints(t *testing.T) {
	s := mustParse(t, `"int"`)
	if got := s.Fingerprint(); got != 0x7275d51a3f395c8f {
		t.Errorf("Fingerprint = %#x", got)
	}
	if got := s.FingerprintMD5(); hex.EncodeToString(got[:]) != "ef524ea1b91e73173d938ade36c1db32" {
		t.Errorf("MD5 = %x", got)
	}
	if got := s.FingerprintSHA256(); hex.EncodeToString(got[:]) != "3f2b87a9fe7cc9b13835598c3981cd45e3e355309e5090aa0933d7becb6fba45" {
		t.Errorf("SHA-256 = %x", got)
	}
	if got := Rabin(nil); got != 0xc15d213aa4d7a795 {
		t.Errorf("Rabin(empty) = %#x", got)
	}
	// Logical types do not change the canonical form or fingerprints.
	ts := mustParse(t, `{"type":"long","logicalType":"timestamp-millis"}`)
	long := mustParse(t, `"long"`)
	if ts.Canonical() != `"long"` || ts.Fingerprint() != long.Fingerprint() || ts.FingerprintSHA256() != long.FingerprintSHA256() {
		t.Errorf("timestamp-millis canonical %s", ts.Canonical())
	}
}

func TestLogicalTypes(t *testing.T) {
	cases := []struct {
		text             string
		want             Logical
		precision, scale int
	}{
		{`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`, Decimal, 4, 2},
		{`{"type":"bytes","logicalType":"decimal","precision":4}`, Decimal, 4, 0},
		{`{"type":"bytes","logicalType":"decimal","precision":1000000}`, Decimal, 1000000, 0},
		{`{"type":"fixed","name":"D","size":8,"logicalType":"decimal","precision":18}`, Decimal, 18, 0},
		{`{"type":"fixed","name":"D","size":8,"logicalType":"decimal","precision":19}`, NoLogical, 0, 0},
		{`{"type":"fixed","name":"D","size":16,"logicalType":"decimal","precision":38,"scale":38}`, Decimal, 38, 38},
		{`{"type":"fixed","name":"D","size":16,"logicalType":"decimal","precision":39}`, NoLogical, 0, 0},
		{`{"type":"fixed","name":"D","size":1,"logicalType":"decimal","precision":2}`, Decimal, 2, 0},
		{`{"type":"fixed","name":"D","size":1,"logicalType":"decimal","precision":3}`, NoLogical, 0, 0},
		{`{"type":"fixed","name":"D","size":0,"logicalType":"decimal","precision":1}`, NoLogical, 0, 0},
		{`{"type":"bytes","logicalType":"decimal","precision":0}`, NoLogical, 0, 0},
		{`{"type":"bytes","logicalType":"decimal","precision":"4"}`, NoLogical, 0, 0},
		{`{"type":"bytes","logicalType":"decimal","precision":4,"scale":5}`, NoLogical, 0, 0},
		{`{"type":"bytes","logicalType":"decimal","precision":4,"scale":-1}`, NoLogical, 0, 0},
		{`{"type":"string","logicalType":"decimal","precision":4}`, NoLogical, 0, 0},
		{`{"type":"bytes","logicalType":"big-decimal"}`, BigDecimal, 0, 0},
		{`{"type":"bytes","logicalType":"big-decimal","scale":2}`, NoLogical, 0, 0},
		{`{"type":"fixed","name":"B","size":4,"logicalType":"big-decimal"}`, NoLogical, 0, 0},
		{`{"type":"string","logicalType":"uuid"}`, UUID, 0, 0},
		{`{"type":"fixed","name":"U","size":16,"logicalType":"uuid"}`, UUID, 0, 0},
		{`{"type":"fixed","name":"U","size":15,"logicalType":"uuid"}`, NoLogical, 0, 0},
		{`{"type":"int","logicalType":"date"}`, Date, 0, 0},
		{`{"type":"long","logicalType":"date"}`, NoLogical, 0, 0},
		{`{"type":"int","logicalType":"time-millis"}`, TimeMillis, 0, 0},
		{`{"type":"long","logicalType":"time-micros"}`, TimeMicros, 0, 0},
		{`{"type":"long","logicalType":"timestamp-millis"}`, TimestampMillis, 0, 0},
		{`{"type":"long","logicalType":"timestamp-micros"}`, TimestampMicros, 0, 0},
		{`{"type":"long","logicalType":"timestamp-nanos"}`, TimestampNanos, 0, 0},
		{`{"type":"long","logicalType":"local-timestamp-millis"}`, LocalTimestampMillis, 0, 0},
		{`{"type":"long","logicalType":"local-timestamp-micros"}`, LocalTimestampMicros, 0, 0},
		{`{"type":"long","logicalType":"local-timestamp-nanos"}`, LocalTimestampNanos, 0, 0},
		{`{"type":"int","logicalType":"timestamp-millis"}`, NoLogical, 0, 0},
		{`{"type":"fixed","name":"Du","size":12,"logicalType":"duration"}`, Duration, 0, 0},
		{`{"type":"fixed","name":"Du","size":16,"logicalType":"duration"}`, NoLogical, 0, 0},
		{`{"type":"string","logicalType":"unknown"}`, NoLogical, 0, 0},
		{`{"type":"string","logicalType":7}`, NoLogical, 0, 0},
		{`{"type":"record","name":"R","fields":[],"logicalType":"date"}`, NoLogical, 0, 0},
	}
	for _, c := range cases {
		s := mustParse(t, c.text)
		if s.Logical() != c.want || s.Precision() != c.precision || s.Scale() != c.scale {
			t.Errorf("%s: Logical %v precision %d scale %d, want %v %d %d", c.text, s.Logical(), s.Precision(), s.Scale(), c.want, c.precision, c.scale)
		}
		_, hasProp := s.Prop("logicalType")
		if hasProp != (c.want == NoLogical) {
			t.Errorf("%s: logicalType prop present = %v", c.text, hasProp)
		}
		if !sameJSON(t, s.String(), c.text) && c.scale == 0 && !strings.Contains(c.text, `"scale":0`) {
			t.Errorf("%s: String() = %s", c.text, s)
		}
		checkRoundTrip(t, c.text, s)
	}
	for size, want := range map[int]int{0: 0, 1: 2, 2: 4, 3: 6, 4: 9, 8: 18, 12: 28, 16: 38, 32: 76, 129: 310, 1 << 20: 2525222} {
		if got := MaxDecimalPrecision(size); got != want {
			t.Errorf("MaxDecimalPrecision(%d) = %d, want %d", size, got, want)
		}
	}
	// Logical types on a field type and in a union.
	s := mustParse(t, `{"type":"record","name":"R","fields":[{"name":"t","type":["null",{"type":"long","logicalType":"timestamp-micros"}]}]}`)
	if s.Field("t").Type().Branches()[1].Logical() != TimestampMicros {
		t.Errorf("logical type lost in a union")
	}
}

func TestMinEncodedSize(t *testing.T) {
	cases := map[string]int{
		`"null"`: 0, `"boolean"`: 1, `"int"`: 1, `"long"`: 1, `"float"`: 4, `"double"`: 8,
		`"bytes"`: 1, `"string"`: 1,
		`{"type":"enum","name":"E","symbols":["A"]}`:       1,
		`{"type":"array","items":"double"}`:                1,
		`{"type":"map","values":"double"}`:                 1,
		`["null","double"]`:                                1,
		`{"type":"fixed","name":"F","size":16}`:            16,
		`{"type":"fixed","name":"F","size":0}`:             0,
		`{"type":"record","name":"R","fields":[]}`:         0,
		`{"type":"long","logicalType":"timestamp-millis"}`: 1,
		`{"type":"record","name":"R","fields":[{"name":"a","type":"double"},{"name":"b","type":"null"},{"name":"c","type":{"type":"fixed","name":"F","size":3}},{"name":"d","type":"F"},{"name":"e","type":"string"}]}`: 15,
	}
	for text, want := range cases {
		if got := mustParse(t, text).MinEncodedSize(); got != want {
			t.Errorf("%s: MinEncodedSize = %d, want %d", text, got, want)
		}
	}
}

func TestProps(t *testing.T) {
	s := mustParse(t, `{"type":"record","name":"R","z":1,"a":{"k":[true,null,"s"]},"m":2.50,"fields":[
		{"name":"f","type":{"type":"string","avro.java.string":"String"},"y":"1","x":"2"}]}`)
	want := []Prop{{"z", json.Number("1")}, {"a", map[string]any{"k": []any{true, nil, "s"}}}, {"m", json.Number("2.50")}}
	if diff := cmp.Diff(want, s.Props()); diff != "" {
		t.Errorf("record props (-want +got):\n%s", diff)
	}
	if v, ok := s.Prop("m"); !ok || v != json.Number("2.50") {
		t.Errorf("Prop(m) = %v %v", v, ok)
	}
	if _, ok := s.Prop("nope"); ok {
		t.Errorf("Prop(nope) found")
	}
	f := s.Field("f")
	if diff := cmp.Diff([]Prop{{"y", "1"}, {"x", "2"}}, f.Props()); diff != "" {
		t.Errorf("field props (-want +got):\n%s", diff)
	}
	if v, _ := f.Type().Prop("avro.java.string"); v != "String" {
		t.Errorf("type prop = %v", v)
	}
	if got, want := s.String(), `{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"string","avro.java.string":"String"},"y":"1","x":"2"}],"z":1,"a":{"k":[true,null,"s"]},"m":2.50}`; got != want {
		t.Errorf("String() = %s\nwant %s", got, want)
	}
	checkRoundTrip(t, "props", s)
}

func TestStringForms(t *testing.T) {
	cases := map[string]string{
		`{"type":"int"}`: `"int"`,
		`{"type":"error","name":"E","namespace":"x","doc":"d\n\"q\"","fields":[{"name":"m","type":"string","doc":"<b>","order":"ignore"}]}`:                  `{"type":"error","name":"E","namespace":"x","doc":"d\n\"q\"","fields":[{"name":"m","type":"string","doc":"<b>","order":"ignore"}]}`,
		`{"type":"fixed","name":"a.F","size":4,"logicalType":"decimal","precision":9,"scale":2}`:                                                             `{"type":"fixed","name":"F","namespace":"a","size":4,"logicalType":"decimal","precision":9,"scale":2}`,
		`{"type":"record","name":"a.R","fields":[{"name":"x","type":{"type":"enum","name":"b.E","symbols":["A"],"default":"A"}},{"name":"y","type":"b.E"}]}`: `{"type":"record","name":"R","namespace":"a","fields":[{"name":"x","type":{"type":"enum","name":"E","namespace":"b","symbols":["A"],"default":"A"}},{"name":"y","type":"b.E"}]}`,
		`{"type":"record","name":"R","fields":[{"name":"b","type":"bytes","default":"\u00ff"}]}`:                                                             `{"type":"record","name":"R","fields":[{"name":"b","type":"bytes","default":"ÿ"}]}`,
	}
	for in, want := range cases {
		s := mustParse(t, in)
		if got := s.String(); got != want {
			t.Errorf("String() of %s\n got %s\nwant %s", in, got, want)
		}
		// encoding/json escapes <, > and & in what MarshalJSON returns.
		if b, err := json.Marshal(s); err != nil || !sameJSON(t, string(b), want) {
			t.Errorf("json.Marshal = %s, %v", b, err)
		}
		checkRoundTrip(t, in, s)
	}
	s := mustParse(t, `{"type":"error","name":"E","fields":[]}`)
	if !s.IsError() || s.Kind() != Record {
		t.Errorf("error record: IsError %v Kind %v", s.IsError(), s.Kind())
	}
	if got := fmt.Sprintf("%#v", mustParse(t, `"int"`)); got != `schema.MustParse("\"int\"")` {
		t.Errorf("GoString = %s", got)
	}
}

// The text of a schema that refers to types defined elsewhere names them
// without defining them (the types inside them included), and parses
// back, in a parser that knows them, to the schema it came from.
func TestStringReferring(t *testing.T) {
	p := NewParser()
	if _, err := p.Parse(`{"type":"record","name":"Address","namespace":"shop","fields":[
		{"name":"country","type":{"type":"enum","name":"Country","symbols":["NL","FR"]}}]}`); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Parse(`{"type":"record","name":"Point","fields":[{"name":"x","type":"int"}]}`); err != nil {
		t.Fatal(err)
	}
	order, err := p.Parse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"ship","type":"Address"},{"name":"bill","type":["null","shop.Address"]},
		{"name":"where","type":"Point"},{"name":"from","type":"Country"},
		{"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[{"name":"n","type":"int"}]}}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	got := order.StringReferring("shop.Address", "shop.Country", "Point", "shop.Order")
	const want = `{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"ship","type":"Address"},{"name":"bill","type":["null","Address"]},{"name":"where","type":"Point"},{"name":"from","type":"Country"},{"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[{"name":"n","type":"int"}]}}}]}`
	if got != want {
		t.Fatalf("StringReferring\n got %s\nwant %s", got, want)
	}
	// A fresh parser that knows the referenced types reads it back.
	q := NewParser()
	for _, ref := range []string{`{"type":"record","name":"Address","namespace":"shop","fields":[{"name":"country","type":{"type":"enum","name":"Country","symbols":["NL","FR"]}}]}`, `{"type":"record","name":"Point","fields":[{"name":"x","type":"int"}]}`} {
		if _, err := q.Parse(ref); err != nil {
			t.Fatal(err)
		}
	}
	back, err := q.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	if back.String() != order.String() {
		t.Errorf("parsed back to\n%s\nwant\n%s", back, order)
	}
	// With no names it is String.
	if order.StringReferring() != order.String() {
		t.Error("StringReferring() differs from String()")
	}
}

func TestNamedTypes(t *testing.T) {
	s := mustParse(t, `{"type":"record","name":"a.R","fields":[
		{"name":"m","type":{"type":"map","values":{"type":"enum","name":"E","symbols":["X"]}}},
		{"name":"u","type":["null",{"type":"fixed","name":"b.F","size":2},"a.E"]},
		{"name":"self","type":{"type":"array","items":"R"}},
		{"name":"n","type":"int"}]}`)
	var got []string
	for _, n := range s.NamedTypes() {
		got = append(got, n.FullName())
	}
	if want := []string{"a.R", "a.E", "b.F"}; !slices.Equal(got, want) {
		t.Errorf("NamedTypes = %v, want %v", got, want)
	}
	if n := mustParse(t, `{"type":"array","items":"long"}`).NamedTypes(); len(n) != 0 {
		t.Errorf("an array of longs has named types %v", n)
	}
}

func TestAccessorsOfOtherKinds(t *testing.T) {
	s := mustParse(t, `"int"`)
	if s.Fields() != nil || s.Field("x") != nil || s.Symbols() != nil || s.SymbolIndex("A") != -1 ||
		s.Items() != nil || s.Values() != nil || s.Branches() != nil || s.Size() != 0 || s.Name() != "int" || s.FullName() != "int" {
		t.Errorf("accessors of int return values")
	}
	e := mustParse(t, `{"type":"enum","name":"E","symbols":["A","B"]}`)
	if e.SymbolIndex("B") != 1 || e.SymbolIndex("C") != -1 {
		t.Errorf("SymbolIndex broken")
	}
	if _, ok := e.EnumDefault(); ok {
		t.Errorf("EnumDefault without default")
	}
	m := mustParse(t, `{"type":"map","values":"long"}`)
	if m.Items() != nil || m.Values().Kind() != Long {
		t.Errorf("map accessors")
	}
}

func TestParserRollback(t *testing.T) {
	p := NewParser()
	// The text defines A and B, then fails: neither may stay defined.
	_, err := p.Parse(`{"type":"record","name":"A","fields":[{"name":"b","type":{"type":"fixed","name":"B","size":1}},{"name":"c","type":"Missing"}]}`)
	if err == nil {
		t.Fatal("expected an error")
	}
	if p.Lookup("A") != nil || p.Lookup("B") != nil {
		t.Fatal("a failed parse left names defined")
	}
	if _, err := p.Parse(`{"type":"fixed","name":"B","size":2}`); err != nil {
		t.Fatal(err)
	}
	a, err := p.Parse(`{"type":"record","name":"A","fields":[{"name":"b","type":"B"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if a.Field("b").Type() != p.Lookup("B") || a.Field("b").Type().Size() != 2 {
		t.Errorf("A.b does not refer to the earlier B")
	}
	// An identical redefinition is the same node; a different one fails.
	b2, err := p.Parse(`{"type":"fixed","name":"B","size":2}`)
	if err != nil || b2 != p.Lookup("B") {
		t.Errorf("identical redefinition: %v, same node %v", err, b2 == p.Lookup("B"))
	}
	checkError2(t, p, `{"type":"fixed","name":"B","size":3}`, "name", `"B" is already defined differently`)
	// Within one text a repeated definition is still an error.
	checkError2(t, p, `[{"type":"fixed","name":"B","size":2},{"type":"fixed","name":"B","size":2}]`, "[1].name", `duplicate definition`)
	// A reference to an earlier text's type by short name in a namespace.
	q := NewParser()
	if _, err := q.Parse(`{"type":"enum","name":"x.E","symbols":["A"]}`); err != nil {
		t.Fatal(err)
	}
	r, err := q.Parse(`{"type":"record","name":"x.R","fields":[{"name":"e","type":"E"}]}`)
	if err != nil || r.Field("e").Type() != q.Lookup("x.E") {
		t.Fatalf("cross-text short reference: %v", err)
	}
	if r.Canonical() != `{"name":"x.R","type":"record","fields":[{"name":"e","type":{"name":"x.E","type":"enum","symbols":["A"]}}]}` {
		t.Errorf("canonical across texts: %s", r.Canonical())
	}
	var zero Parser // the zero Parser works too
	if _, err := zero.Parse(`"int"`); err != nil {
		t.Error(err)
	}
}

func checkError2(t *testing.T, p *Parser, text, path, msg string) {
	t.Helper()
	_, err := p.Parse(text)
	var e *Error
	if !errors.As(err, &e) || e.Path != path || !strings.Contains(e.Msg, msg) {
		t.Errorf("Parse(%s) = %v, want path %q and %q", text, err, path, msg)
	}
}

// TestConcurrentUse reads lazily computed forms from many goroutines; run
// with -race.
func TestConcurrentUse(t *testing.T) {
	s := MustParse(readFile(t, "share/test/schemas/interop.avsc"))
	var nodes []*Schema
	walk(s, func(n *Schema) { nodes = append(nodes, n) })
	want := make([]string, len(nodes))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, n := range nodes {
				c := n.Canonical()
				_ = n.Fingerprint()
				_ = n.FingerprintMD5()
				_ = n.String()
				if g == 0 {
					want[i] = c
				}
			}
		}()
	}
	wg.Wait()
	for i, n := range nodes {
		if n.Canonical() != want[i] {
			t.Errorf("node %d canonical changed", i)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `unknown type "nope"`) {
			t.Errorf("recover() = %v", r)
		}
	}()
	MustParse(`"nope"`)
}

func TestJSONDecoding(t *testing.T) {
	// Escapes, surrogate pairs and invalid UTF-8 in names and docs.
	s := mustParse(t, `{"type":"record","name":"\u0052","doc":"\ud83d\ude00 \ud800 \t/\/","fields":[]}`)
	if s.Name() != "R" || s.Doc() != "😀 \uFFFD \t//" {
		t.Errorf("Name %q Doc %q", s.Name(), s.Doc())
	}
	s = mustParse(t, "{\"type\":\"int\",\"doc\":\"a\xffb\"}")
	if s.Doc() != "a\uFFFDb" {
		t.Errorf("invalid UTF-8 doc = %q", s.Doc())
	}
	checkRoundTrip(t, "utf8", s)
	for _, bad := range []string{"\"\x01\"", `"\u12"`, `"\x"`, `[1,]`, `{"a" 1}`, `-`, `1.`, `1e`, `nul`, `"abc`, `[1 2]`, `{"a":1 "b":2}`} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
	// Large objects use an index for duplicate detection.
	var b strings.Builder
	b.WriteString(`{"type":"int"`)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, `,"p%d":%d`, i, i)
	}
	if _, err := Parse(b.String() + `}`); err != nil {
		t.Error(err)
	}
	if _, err := Parse(b.String() + `,"p39":0}`); err == nil || !strings.Contains(err.Error(), `duplicate JSON object key "p39"`) {
		t.Errorf("duplicate in a large object: %v", err)
	}
}

// A float default is read as a double and narrowed, as Java and Python
// read it; rounding the text straight to 32 bits gave another float for
// texts near a halfway point between two floats. A double that overflows
// a float is out of range.
func TestFloatDefaultNarrowsADouble(t *testing.T) {
	rec := func(def string) string {
		return `{"type":"record","name":"R","fields":[{"name":"f","type":"float","default":` + def + `}]}`
	}
	s := mustParse(t, rec("1.0000001788139343261718749"))
	if got := binary.LittleEndian.Uint32(s.Field("f").DefaultBinary()); got != 1065353218 {
		t.Errorf("default 1.0000001788139343261718749: float bits %d, want 1065353218 (Java's and Python's)", got)
	}
	if dv, _ := s.Field("f").Default(); dv != math.Float32frombits(1065353218) {
		t.Errorf("default value %v", dv)
	}
	checkError(t, rec("3.4028235677973366e38"), "fields[0].default", "out of the range of float")
	checkError(t, rec("1e39"), "fields[0].default", "out of the range of float")
	if got := binary.LittleEndian.Uint32(mustParse(t, rec("3.4028234663852886e38")).Field("f").DefaultBinary()); got != math.Float32bits(math.MaxFloat32) {
		t.Errorf("the largest float: bits %d", got)
	}
}

// Defaults are checked once the text is parsed; two things depended on
// when:
//   - a Parser compares a type repeated in a later text with the earlier
//     definition by its text, and the repeated one had no defaults yet,
//     so an identical type with a default was "defined differently";
//   - a record default that leaves out a later field takes that field's
//     default, which was not checked yet, so the order of the fields
//     decided whether the schema parsed.
func TestDefaultsCheckedAfterParseAgree(t *testing.T) {
	r := `{"type":"record","name":"R","fields":[{"name":"a","type":"int","default":1}]}`
	p := NewParser()
	if _, err := p.Parse(r); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Parse(`{"type":"record","name":"U","fields":[{"name":"r","type":` + r + `}]}`); err != nil {
		t.Errorf("a repeated identical type with a default: %v", err)
	}
	if _, err := p.Parse(`{"type":"record","name":"V","fields":[{"name":"r","type":{"type":"record","name":"R","fields":[{"name":"a","type":"int","default":2}]}}]}`); err == nil {
		t.Error("a repeated type with another default parsed")
	}
	for _, text := range []string{
		`{"type":"record","name":"T","fields":[{"name":"kids","type":{"type":"array","items":"T"},"default":[{"kids":[]}]},{"name":"v","type":"int","default":7}]}`,
		`{"type":"record","name":"T","fields":[{"name":"v","type":"int","default":7},{"name":"kids","type":{"type":"array","items":"T"},"default":[{"kids":[]}]}]}`,
	} {
		s, err := Parse(text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		// kids = one T with no kids and v = 7.
		if got, want := s.Field("kids").DefaultBinary(), []byte{2, 0, 14, 0}; !bytes.Equal(got, want) && !bytes.Equal(got, []byte{2, 14, 0, 0}) {
			t.Errorf("%s: kids default %x", text, got)
		}
	}
	// A default that needs itself is an error, not a loop.
	checkError(t, `{"type":"record","name":"R","fields":[{"name":"r","type":["R","null"],"default":{}}]}`, "fields[0].default", "matches no branch")
}
