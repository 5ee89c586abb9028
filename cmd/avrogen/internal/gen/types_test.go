package gen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// A go.type property or a flag that names no Go type is refused with
// ErrGoType, whatever is wrong with the name, and the message says
// where the name came from.
func TestBadGoTypeIsErrGoType(t *testing.T) {
	cases := []struct {
		schema string
		cfg    Config
		from   string
	}{
		{`{"type":"string","go.type":"net/netip"}`, Config{}, "go.type"},
		{`{"type":"string","go.type":"netip"}`, Config{}, "go.type"},
		{`{"type":"string","go.type":".Addr"}`, Config{}, "go.type"},
		{`{"type":"string","go.type":"example.com/p."}`, Config{}, "go.type"},
		{`{"type":"string","go.type":"example.com/p.[]T"}`, Config{}, "go.type"},
		{`{"type":"string","go.type":""}`, Config{}, "go.type"},
		{`{"type":"string","go.type":7}`, Config{}, "go.type"},
		{`{"type":"fixed","name":"F","size":2}`, Config{Types: map[string]string{"F": "[x]byte"}}, "-type F"},
		{`{"type":"int","logicalType":"date"}`, Config{Logical: map[string]string{"date": "civil"}}, "-logical date"},
	}
	for _, c := range cases {
		l := NewLoader()
		if err := l.Add(Source{Name: "t.avsc", Text: c.schema}); err != nil {
			t.Fatalf("%s: %v", c.schema, err)
		}
		c.cfg.Package = "p"
		_, err := Generate(c.cfg, l.Inputs())
		if !errors.Is(err, ErrGoType) {
			t.Errorf("%s with %+v: got %v, want ErrGoType", c.schema, c.cfg, err)
			continue
		}
		if !strings.Contains(err.Error(), c.from) {
			t.Errorf("%s: %q does not say it came from %s", c.schema, err, c.from)
		}
	}
}

// A go.type may name a package whose last path element is not the name a
// file can use (a keyword, a predeclared name, a name the generated code
// declares, no identifier at all): the file imports it under a name of
// its own, and the code still type-checks.
func TestGoTypeImportNames(t *testing.T) {
	paths := []string{"0", "example.com/string", "example.com/x", "example.com/err", "example.com/v2",
		"example.com/my-pkg", "example.com/type", "example.com/_x", "example.com/a/x", "gopkg.in/yaml.v3"}
	var fields []string
	for i, p := range paths {
		fields = append(fields, fmt.Sprintf(`{"name":"f%d","type":["null",{"type":"string","go.type":%q}]}`, i, p+".T"))
	}
	text := `{"type":"record","name":"R","fields":[` + strings.Join(fields, ",") + `]}`
	l := NewLoader()
	if err := l.Add(Source{Name: "r.avsc", Text: text}); err != nil {
		t.Fatal(err)
	}
	res, err := Generate(Config{Package: "p", Encoders: true}, l.Inputs())
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "out.go", res.Code, 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Code)
	}
	conf := types.Config{Importer: fakeImporter{importer.ForCompiler(fset, "source", nil)}}
	if _, err := conf.Check("p", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("the code does not type-check: %v\n%s", err, res.Code)
	}
}

// fakeImporter gives every package outside the standard library and this
// module a type T over string.
type fakeImporter struct{ std types.Importer }

func (f fakeImporter) Import(path string) (*types.Package, error) {
	if !strings.Contains(path, ".") || strings.HasPrefix(path, "github.com/avrogo/avro") {
		if path != "0" {
			return f.std.Import(path)
		}
	}
	pkg := types.NewPackage(path, "whatever")
	obj := types.NewTypeName(token.NoPos, pkg, "T", nil)
	types.NewNamed(obj, types.Typ[types.String], nil)
	pkg.Scope().Insert(obj)
	pkg.MarkComplete()
	return pkg, nil
}
