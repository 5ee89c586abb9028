package idl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestErrors checks that each kind of bad input gives an *Error with the
// place and what was expected.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"missing semicolon", "protocol P {\n  record R { string x }\n}", 2, 23, `expected ';' after field "x", found "}"`},
		{"missing semicolon variant", "protocol P { record R { string x, y = 1 } }", 1, 41, `expected ';' after field "y"`},
		{"unknown type", "protocol P {\n record R { Missing m; }\n}", 2, 13, `undefined type "Missing"`},
		{"unknown type in namespace", "@namespace(\"n\") protocol P { void m() throws Oops; }", 1, 46, `undefined type "n.Oops"`},
		{"duplicate type", "protocol P { fixed F(1); enum F { A } }", 1, 31, `type "F" is already defined`},
		{"duplicate type variant", "protocol P { record R { int a; } record R { long a; } }", 1, 41, `type "R" is already defined`},
		{"duplicate field", "protocol P { record R { int a; long a; } }", 1, 37, `duplicate field "a" in record "R"`},
		{"duplicate symbol", "protocol P { enum E { A, B, A } }", 1, 29, `duplicate enum symbol "A"`},
		{"bad int default", "protocol P { record R { int a = \"x\"; } }", 1, 29, `invalid default for field "a" of record "R"`},
		{"bad enum default value", "protocol P { enum E { A } record R { E e = \"B\"; } }", 1, 40, `invalid default for field "e"`},
		{"bad record default", "protocol P { record R { int a; } record S { R r = {\"b\": 1}; } }", 1, 47, `invalid default for field "r"`},
		{"record default lacking a field", "protocol P { record R { int a; int b = 1; } record S { R r = {\"b\": 2}; } }", 1, 58, `invalid default for field "r"`},
		{"bad fixed default", "protocol P { fixed F(2); record S { F f = 12; } }", 1, 39, `invalid default for field "f"`},
		{"bad union default", "protocol P { record S { union { null, int } u = \"x\"; } }", 1, 45, `invalid default for field "u"`},
		{"bad map default", "protocol P { record S { map<int> m = {\"a\": \"x\"}; } }", 1, 34, `invalid default for field "m"`},
		{"bad parameter default", "protocol P { void m(int a = \"x\"); }", 1, 25, `invalid default for field "a" of message "m"`},
		{"enum default not a symbol", "protocol P { enum E { A } = B; }", 1, 29, `the default "B" of enum "E" is not one of its symbols`},
		{"oneway with a result", "protocol P { int m() oneway; }", 1, 22, `one-way message "m" must return void`},
		{"optional array", "protocol P { record R { array<int>? a; } }", 1, 35, `expected a field name, found "?"`},
		{"annotated reference", "protocol P { fixed F(1); record R { @p(1) F f; } }", 1, 43, "type references may not be annotated"},
		{"annotated message returning a reference", "protocol P { fixed F(1); @p(1) F m(); }", 1, 32, "type references may not be annotated"},
		{"primitive name", "protocol P { record int {} }", 1, 21, `illegal name "int"`},
		{"bad order", "protocol P { record R { int @order(\"up\") a; } }", 1, 36, `@order(...) must contain "ASCENDING", "DESCENDING" or "IGNORE"`},
		{"bad namespace", "@namespace(1) protocol P {}", 1, 12, "@namespace(...) must contain a String value"},
		{"bad aliases", "protocol P { @aliases([1]) record R {} }", 1, 23, "@aliases(...) must contain an array of String values"},
		{"unterminated string", "protocol P { record R { string s = \"abc; } }", 1, 36, "unterminated string"},
		{"unterminated comment", "protocol P { /* x", 1, 14, "unterminated comment"},
		{"bad character", "protocol P { # }", 1, 14, `unexpected character '#'`},
		{"text after protocol", "protocol P {} protocol Q {}", 1, 15, `expected end of file, found "protocol"`},
		{"message in schema syntax", "schema int; void m();", 1, 13, "expected a record, enum, fixed or import"},
		{"empty object", "protocol P { record R { map<int> m = {}; } }", 1, 39, `expected a string key after '{' or ','`},
		{"bad decimal scale", "protocol P { record R { decimal(2,3) d; } }", 1, 33, "invalid decimal scale 3 for precision 2"},
		{"missing import", "protocol P { import idl \"nowhere.avdl\"; }", 1, 25, `cannot find import "nowhere.avdl"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(filepath.Join(t.TempDir(), "in.avdl"), []byte(tc.src))
			var ie *Error
			if !errors.As(err, &ie) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if !strings.Contains(ie.Msg, tc.msg) || ie.Line != tc.line || ie.Column != tc.col {
				t.Errorf("got %d:%d %q, want %d:%d %q", ie.Line, ie.Column, ie.Msg, tc.line, tc.col, tc.msg)
			}
			if !strings.HasSuffix(ie.File, "in.avdl") {
				t.Errorf("file %q", ie.File)
			}
		})
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestImportErrors checks the errors of imported files: they name the
// imported file, and a missing file wraps fs.ErrNotExist.
func TestImportErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.avdl":    "protocol P {\n  import idl \"sub/bad.avdl\";\n}",
		"sub/bad.avdl": "protocol Q { record R { string s } }",
		"missing.avdl": "protocol P {\n  import schema \"none.avsc\";\n}",
		"badjson.avdl": "protocol P { import protocol \"bad.avpr\"; }",
		"bad.avpr":     `{"protocol": "X", "types": [`,
	})
	_, err := ParseFile(filepath.Join(dir, "main.avdl"))
	var ie *Error
	if !errors.As(err, &ie) || ie.File != filepath.Join(dir, "sub/bad.avdl") || ie.Line != 1 || ie.Column != 34 {
		t.Errorf("got %v, want the error in sub/bad.avdl at 1:34", err)
	}
	_, err = ParseFile(filepath.Join(dir, "missing.avdl"))
	if !errors.As(err, &ie) || !errors.Is(err, fs.ErrNotExist) || ie.Line != 2 || ie.Column != 17 {
		t.Errorf("got %v, want a missing none.avsc at 2:17", err)
	}
	_, err = ParseFile(filepath.Join(dir, "badjson.avdl"))
	if !errors.As(err, &ie) || ie.File != filepath.Join(dir, "bad.avpr") {
		t.Errorf("got %v, want invalid JSON in bad.avpr", err)
	}
	_, err = ParseFile(filepath.Join(dir, "absent.avdl"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v, want fs.ErrNotExist", err)
	}
}

// TestSchemaFileImportsProtocol checks that a file in the schema syntax may
// import a protocol: it takes the types, not the protocol or its messages.
func TestSchemaFileImportsProtocol(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.avdl": "namespace n;\nschema R;\nimport idl \"p.avdl\";\nrecord R { F f; }",
		"p.avdl":    "@namespace(\"n\") protocol P { fixed F(2); void ping(); }",
	})
	f, err := ParseFile(filepath.Join(dir, "main.avdl"))
	if err != nil {
		t.Fatal(err)
	}
	if f.ProtocolJSON() != nil {
		t.Errorf("protocol JSON %s", f.ProtocolJSON())
	}
	want := `{"type":"record","name":"R","namespace":"n","fields":[{"name":"f","type":{"type":"fixed","name":"F","size":2}}]}`
	if d := sameJSONText(f.SchemaJSON(), []byte(want)); d != "" {
		t.Error(d)
	}
	if len(f.Types()) != 2 || f.Types()[0].FullName() != "n.F" || f.Schema() != f.Types()[1] {
		t.Errorf("types %v", f.Types())
	}
}

// TestSameRedefinition checks that a type defined twice the same way, as
// when two imported schema files share a type, is one type, as in Java.
func TestSameRedefinition(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.avdl": "protocol P { import schema \"a.avsc\"; import schema \"b.avsc\"; record R { E e; } }",
		"a.avsc":    `{"type":"record","name":"A","fields":[{"name":"e","type":{"type":"enum","name":"E","symbols":["X"]}}]}`,
		"b.avsc":    `{"type":"record","name":"B","fields":[{"name":"e","type":{"type":"enum","name":"E","symbols":["X"]}}]}`,
	})
	f, err := ParseFile(filepath.Join(dir, "main.avdl"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range f.Types() {
		names = append(names, s.FullName())
	}
	if got := strings.Join(names, " "); got != "A E B R" {
		t.Errorf("types %s, want A E B R", got)
	}
	if f.Types()[2].Field("e").Type() != f.Types()[1] {
		t.Error("B's field is not the first E")
	}
	if n := strings.Count(string(f.ProtocolJSON()), `"symbols"`); n != 1 {
		t.Errorf("E defined %d times in %s", n, f.ProtocolJSON())
	}
}

// TestLimits checks each limit gives an *Error wrapping ErrLimit.
func TestLimits(t *testing.T) {
	deep := "protocol P { record R { " + strings.Repeat("array<", 50) + "int" + strings.Repeat(">", 50) + " a; } }"
	if _, err := Parse("deep.avdl", []byte(deep), WithMaxDepth(40)); !errors.Is(err, ErrLimit) {
		t.Errorf("deep types: got %v", err)
	}
	if _, err := Parse("deep.avdl", []byte(deep), WithMaxDepth(200)); err != nil {
		t.Errorf("deep types within the limit: %v", err)
	}
	deepJSON := "protocol P { @p(" + strings.Repeat("[", 50) + strings.Repeat("]", 50) + ") record R {} }"
	if _, err := Parse("deep.avdl", []byte(deepJSON), WithMaxDepth(40)); !errors.Is(err, ErrLimit) {
		t.Errorf("deep JSON: got %v", err)
	}
	if _, err := Parse("big.avdl", []byte("protocol P {}   "), WithMaxSize(10)); !errors.Is(err, ErrLimit) {
		t.Errorf("size: got %v", err)
	}
	dir := writeFiles(t, map[string]string{
		"a.avdl": "protocol A { import idl \"b.avdl\"; }",
		"b.avdl": "protocol B { import idl \"c.avdl\"; }",
		"c.avdl": "protocol C { import idl \"d.avdl\"; }",
		"d.avdl": "protocol D { record R {} }",
	})
	if _, err := ParseFile(filepath.Join(dir, "a.avdl"), WithMaxImportDepth(2)); !errors.Is(err, ErrLimit) {
		t.Errorf("import depth: got %v", err)
	}
	if _, err := ParseFile(filepath.Join(dir, "a.avdl"), WithMaxImportDepth(3)); err != nil {
		t.Errorf("import depth within the limit: %v", err)
	}
	if _, err := ParseFile(filepath.Join(dir, "d.avdl"), WithMaxSize(10)); !errors.Is(err, ErrLimit) {
		t.Errorf("file size: got %v", err)
	}
	many := "protocol P { record R { array<int> a = [" + strings.Repeat("0,", 1000) + "0]; } }"
	if _, err := Parse("many.avdl", []byte(many), WithMaxTokens(1000)); !errors.Is(err, ErrLimit) {
		t.Errorf("tokens: got %v", err)
	}
	if _, err := Parse("many.avdl", []byte(many), WithMaxTokens(3000)); err != nil {
		t.Errorf("tokens within the limit: %v", err)
	}
	if _, err := ParseFile(filepath.Join(dir, "a.avdl"), WithMaxTokens(30)); !errors.Is(err, ErrLimit) {
		t.Errorf("tokens of all imports: got %v", err)
	}
	if _, err := ParseFile(filepath.Join(dir, "a.avdl"), WithMaxTokens(40)); err != nil {
		t.Errorf("tokens of all imports within the limit: %v", err)
	}
	var vars []string
	for i := range 100 {
		vars = append(vars, "v"+strconv.Itoa(i))
	}
	amplified := "protocol P { record R { @big(\"" + strings.Repeat("x", 20000) + "\") string " + strings.Join(vars, ", ") + "; } }"
	if _, err := Parse("amplified.avdl", []byte(amplified), WithMaxSize(100000)); !errors.Is(err, ErrLimit) {
		t.Errorf("amplified output: got %v", err)
	}
	if _, err := Parse("amplified.avdl", []byte(amplified)); err != nil {
		t.Errorf("amplified output within the default limit: %v", err)
	}
	costly := "protocol P { record R { union { null, R } a = null; union { null, R } b = null; } " +
		"record S { R r = " + strings.Repeat(`{"a": `, 30) + "null" + strings.Repeat("}", 30) + "; } }"
	if _, err := Parse("costly.avdl", []byte(costly)); err != nil {
		t.Errorf("a deep but cheap default: %v", err)
	}
}
