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
		{`{"type":"string","go.type":"example.com/q.type"}`, Config{}, "go.type"},
		{`{"type":"string","go.type":"example.com/q.t"}`, Config{}, "go.type"},
		{`{"type":"string","go.type":"example.com/q._"}`, Config{}, "go.type"},
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
		"example.com/my-pkg", "example.com/type", "example.com/_x", "example.com/a/x", "gopkg.in/yaml.v3",
		"example.com/R", "a/float3", "b/float3", "c/int3", "d/int3", "example.com/plain", "example.com/lib/v2"}
	var fields []string
	for i, p := range paths {
		fields = append(fields, fmt.Sprintf(`{"name":"f%d","type":["null",{"type":"string","go.type":%q}]}`, i, p+".T"))
	}
	// An int field, so that the file uses int32, and a record named R.
	fields = append(fields, `{"name":"n","type":"int"}`)
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
	fake := map[string]bool{}
	for _, p := range paths {
		fake[p] = true
	}
	conf := types.Config{Importer: fakeImporter{importer.ForCompiler(fset, "source", nil), fake}}
	if _, err := conf.Check("p", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("the code does not type-check: %v\n%s", err, res.Code)
	}
	// Paths that name their package plainly are imported so.
	for _, want := range []string{"\t\"example.com/plain\"\n", "\tyaml \"gopkg.in/yaml.v3\"\n", "\tlib \"example.com/lib/v2\"\n"} {
		if !strings.Contains(string(res.Code), want) {
			t.Errorf("the imports have no %q:\n%s", want, res.Code)
		}
	}
}

// fakeImporter gives each of the fake packages a type T over string, and
// imports the others from source.
type fakeImporter struct {
	std  types.Importer
	fake map[string]bool
}

func (f fakeImporter) Import(path string) (*types.Package, error) {
	if !f.fake[path] {
		return f.std.Import(path)
	}
	// Named as the go tool would name it (gopkg.in/yaml.v3 is yaml,
	// example.com/lib/v2 is lib), so that an import without an alias
	// must name it right.
	name := path[strings.LastIndexByte(path, '/')+1:]
	if strings.HasPrefix(name, "v2") {
		name = strings.TrimSuffix(path, "/v2")
		name = name[strings.LastIndexByte(name, '/')+1:]
	}
	name, _, _ = strings.Cut(name, ".")
	pkg := types.NewPackage(path, name)
	obj := types.NewTypeName(token.NoPos, pkg, "T", nil)
	types.NewNamed(obj, types.Typ[types.String], nil)
	pkg.Scope().Insert(obj)
	pkg.MarkComplete()
	return pkg, nil
}
