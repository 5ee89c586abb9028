package corpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/avrogo/avro/cmd/avrogen/internal/gen"
)

// schemaGen draws random schemas in the shapes that stress the names
// and types the generator chooses: names that collide once made Go
// identifiers, Go keywords, initialisms, names its methods take,
// namespaces that differ only in part, unions of every branch kind, and
// recursion.
type schemaGen struct {
	r     *rand.Rand
	n     int
	named []string // full names defined so far, for references
}

var genNames = []string{"X", "x", "Schema", "schema", "ID", "id", "type", "Type", "a_b", "aB", "AB", "String",
	"Int", "func", "IsValid", "MarshalAvro", "url", "URL", "Default", "default", "Item", "Value", "x2", "X_2"}

var genSpaces = []string{"", "a", "b", "a.b", "b.a", "org.x"}

func (g *schemaGen) name() string {
	g.n++
	return genNames[g.r.IntN(len(genNames))] + strings.Repeat("_", g.n%3) + fmt.Sprint(g.n/7)
}

func (g *schemaGen) schema(depth int) string {
	if depth > 3 {
		return g.leaf()
	}
	switch g.r.IntN(9) {
	case 0, 1:
		return g.record(depth)
	case 2:
		return g.union(depth)
	case 3:
		return `{"type":"array","items":` + g.schema(depth+1) + `}`
	case 4:
		return `{"type":"map","values":` + g.schema(depth+1) + `}`
	case 5:
		if len(g.named) > 0 {
			return fmt.Sprintf("%q", g.named[g.r.IntN(len(g.named))])
		}
	case 6:
		return g.logical()
	}
	return g.leaf()
}

func (g *schemaGen) leaf() string {
	switch g.r.IntN(4) {
	case 0:
		full := g.ns() + g.name()
		g.named = append(g.named, strings.TrimPrefix(full, "."))
		return fmt.Sprintf(`{"type":"enum","name":%q,"symbols":["A","a","DEFAULT","Default","is_valid"],"default":"a"}`, strings.TrimPrefix(full, "."))
	case 1:
		full := strings.TrimPrefix(g.ns()+g.name(), ".")
		g.named = append(g.named, full)
		return fmt.Sprintf(`{"type":"fixed","name":%q,"size":%d}`, full, 1+g.r.IntN(20))
	}
	return fmt.Sprintf("%q", []string{"null", "boolean", "int", "long", "float", "double", "bytes", "string"}[g.r.IntN(8)])
}

func (g *schemaGen) ns() string {
	if s := genSpaces[g.r.IntN(len(genSpaces))]; s != "" {
		return s + "."
	}
	return ""
}

func (g *schemaGen) logical() string {
	return []string{
		`{"type":"int","logicalType":"date"}`, `{"type":"long","logicalType":"timestamp-millis"}`,
		`{"type":"long","logicalType":"local-timestamp-nanos"}`, `{"type":"int","logicalType":"time-millis"}`,
		`{"type":"string","logicalType":"uuid"}`, `{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}`,
		`{"type":"bytes","logicalType":"big-decimal"}`,
	}[g.r.IntN(7)]
}

func (g *schemaGen) record(depth int) string {
	full := strings.TrimPrefix(g.ns()+g.name(), ".")
	var fields []string
	seen := map[string]bool{}
	for range 1 + g.r.IntN(5) {
		f := genNames[g.r.IntN(len(genNames))]
		if seen[f] {
			continue
		}
		seen[f] = true
		t := g.schema(depth + 1)
		if g.r.IntN(5) == 0 {
			t = fmt.Sprintf(`["null",%q]`, full) // recursion
		}
		fields = append(fields, fmt.Sprintf(`{"name":%q,"type":%s}`, f, t))
	}
	g.named = append(g.named, full)
	return fmt.Sprintf(`{"type":"record","name":%q,"fields":[%s]}`, full, strings.Join(fields, ","))
}

// union draws branches of distinct kinds (named types may repeat kinds).
func (g *schemaGen) union(depth int) string {
	var branches []string
	used := map[string]bool{}
	for range 1 + g.r.IntN(5) {
		b := g.schema(depth + 1)
		if strings.HasPrefix(b, "[") {
			continue
		}
		key := b
		if i := strings.Index(b, `"type":"`); i >= 0 && !strings.Contains(b, `"name"`) {
			key = b[i : i+12]
		}
		if strings.Contains(b, `"logicalType"`) {
			key = b[:14] // the underlying type decides
		}
		if used[key] {
			continue
		}
		used[key] = true
		branches = append(branches, b)
	}
	return "[" + strings.Join(branches, ",") + "]"
}

// Code generated for random schemas compiles and passes go vet, with and
// without the flags that change names and tags.
func TestRandomSchemasCompile(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 12))
	dir := t.TempDir()
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	goMod := "module randomgen\n\ngo 1.24\n\nrequire github.com/avrogo/avro v0.0.0\n\nreplace github.com/avrogo/avro => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	made := 0
	for i := 0; made < 40 && i < 400; i++ {
		g := &schemaGen{r: r}
		text := g.record(0)
		l := gen.NewLoader()
		if l.Add(gen.Source{Name: fmt.Sprintf("s%d.avsc", i), Text: text}) != nil {
			continue
		}
		cfg := gen.Config{Package: fmt.Sprintf("p%d", made)}
		if made%2 == 1 {
			cfg.FullName, cfg.Encoders = true, true
			cfg.Tags = []gen.Tag{{Key: "json", Style: "snake"}, {Key: "yaml", Style: "upper-camel"}}
		}
		res, err := gen.Generate(cfg, l.Inputs())
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		pd := filepath.Join(dir, cfg.Package)
		if err := os.MkdirAll(pd, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pd, "types.go"), res.Code, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pd, "schema.avsc"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		made++
	}
	if made < 40 {
		t.Fatalf("only %d random schemas parse", made)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the generated code: %v\n%s\n(the packages are in %s)", err, out, dir)
	}
}
