package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/avrogo/avro/cmd/avrogen/internal/gen"
	"github.com/avrogo/avro/idl"
	"github.com/avrogo/avro/ocf"
)

// shared is the upstream test data, from this package's directory.
const shared = "../../../../../shared/testdata"

// invalid are the upstream schema files that are not valid schemas: the
// generator must refuse them.
var invalid = map[string]bool{
	"apache-avro/lang/c++/jsonschemas/nested.error": true,
	"apache-avro/lang/c++/jsonschemas/verboseint":   true,
}

// group is a set of schema texts generated together (files that refer to
// each other), or one text.
type group struct {
	name string
	srcs []gen.Source
}

// corpusGroups lists every schema of the upstream test data: the schema
// files, the schemas of the container files, the derived lists of valid
// schemas, and this package's own schemas for the shapes the upstream
// data lacks.
func corpusGroups() ([]group, []string, error) {
	var groups []group
	var refused []string
	seen := map[string]bool{}
	add := func(name string, srcs ...gen.Source) {
		key := ""
		for _, s := range srcs {
			key += strings.TrimSpace(s.Text) + "\x00"
		}
		if seen[key] {
			return
		}
		seen[key] = true
		groups = append(groups, group{name: name, srcs: srcs})
	}
	file := func(rel string) (gen.Source, error) {
		data, err := os.ReadFile(filepath.Join(shared, rel))
		return gen.Source{Name: rel, Text: string(data), Protocol: strings.HasSuffix(rel, ".avpr")}, err
	}
	patterns := []string{
		"apache-avro/share/test/schemas/*.avsc",
		"apache-avro/share/test/schemas/*.avpr",
		"apache-avro/share/schemas/org/apache/avro/*/*.avsc",
		"apache-avro/lang/c++/jsonschemas/*",
		"apache-avro/lang/c/tests/schema_tests/pass/*",
		"apache-avro/lang/java/avro/src/test/resources/*.avsc",
		"apache-avro/lang/java/compiler/src/test/idl/putOnClassPath/*.avsc",
		"apache-avro/lang/java/tools/src/test/idl/*.avsc",
		"apache-avro/lang/java/trevni/avro/src/test/cases/*/input.avsc",
		"apache-avro/lang/java/trevni/avro/src/test/cases/*/*/input.avsc",
		"apache-avro/share/test/data/messageV1/*.avsc",
		"apache-avro/share/test/data/schemas/*/schema.json",
	}
	for _, pat := range patterns {
		paths, err := filepath.Glob(filepath.Join(shared, pat))
		if err != nil {
			return nil, nil, err
		}
		sort.Strings(paths)
		for _, p := range paths {
			rel, _ := filepath.Rel(shared, p)
			src, err := file(rel)
			if err != nil {
				return nil, nil, err
			}
			if invalid[rel] {
				refused = append(refused, rel)
				continue
			}
			add(rel, src)
		}
	}
	// Files that refer to each other's types.
	for _, dir := range []string{
		"apache-avro/lang/java/avro/src/test/resources/multipleFile",
		"apache-avro/lang/js/test/dat",
		"apache-avro/lang/java/compiler/src/test/idl/input",
	} {
		paths, _ := filepath.Glob(filepath.Join(shared, dir, "*.av[sp][cr]"))
		sort.Strings(paths)
		var srcs []gen.Source
		for _, p := range paths {
			rel, _ := filepath.Rel(shared, p)
			src, err := file(rel)
			if err != nil {
				return nil, nil, err
			}
			srcs = append(srcs, src)
		}
		add(dir, srcs...)
	}
	// The IDL files of Java's compiler tests, with the classpath folder
	// on the search path as Java's tests have it.
	idls, _ := filepath.Glob(filepath.Join(shared, "apache-avro/lang/java/compiler/src/test/idl/input/*.avdl"))
	sort.Strings(idls)
	for _, p := range idls {
		rel, _ := filepath.Rel(shared, p)
		srcs, err := gen.IDLSources(p, idl.WithSearchPath(filepath.Join(shared, "apache-avro/lang/java/compiler/src/test/idl/putOnClassPath")))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", rel, err)
		}
		for i := range srcs {
			srcs[i].Name = rel
		}
		if len(srcs) > 0 {
			add(rel, srcs...)
		}
	}
	// The schemas of the container files.
	var avros []string
	err := filepath.WalkDir(shared, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".avro") {
			avros = append(avros, p)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(avros)
	for _, p := range avros {
		f, err := os.Open(p)
		if err != nil {
			return nil, nil, err
		}
		r, err := ocf.NewReader(f)
		if err == nil {
			rel, _ := filepath.Rel(shared, p)
			add(rel, gen.Source{Name: rel, Text: r.Schema().String()})
		}
		_ = f.Close() // read only
	}
	// The derived lists.
	var examples struct {
		Examples []struct {
			Schema string `json:"schema"`
			Valid  bool   `json:"valid"`
		} `json:"examples"`
	}
	if err := readJSON("apache-avro/derived/py-schema-examples.json", &examples); err != nil {
		return nil, nil, err
	}
	for i, e := range examples.Examples {
		if e.Valid {
			add("py_example_"+strconv.Itoa(i), gen.Source{Name: "py_example_" + strconv.Itoa(i), Text: e.Schema})
		}
	}
	var cpp map[string]json.RawMessage
	if err := readJSON("apache-avro/derived/cpp-schema-cases.json", &cpp); err != nil {
		return nil, nil, err
	}
	for _, list := range []string{"basicSchemas", "roundTripSchemas"} {
		var texts []json.RawMessage
		if err := json.Unmarshal(cpp[list], &texts); err != nil {
			return nil, nil, err
		}
		for i, t := range texts {
			text := string(t)
			var str string
			if json.Unmarshal(t, &str) == nil {
				text = str // the list holds schema texts as JSON strings
			}
			add("cpp_"+list+"_"+strconv.Itoa(i), gen.Source{Name: "cpp_" + list + "_" + strconv.Itoa(i), Text: text})
		}
	}
	// This package's own schemas: the shapes the generator's output is
	// reviewed on.
	own, _ := filepath.Glob("testdata/*.avsc")
	sort.Strings(own)
	for _, p := range own {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		add(p, gen.Source{Name: p, Text: string(data)})
	}
	return groups, refused, nil
}

func readJSON(rel string, v any) error {
	data, err := os.ReadFile(filepath.Join(shared, rel))
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// definitions returns the String of each named type a group defines,
// parsed on its own, or an error when the group does not parse.
func definitions(g group) (map[string]string, error) {
	l := gen.NewLoader()
	if err := l.Add(g.srcs...); err != nil {
		return nil, err
	}
	defs := map[string]string{}
	for _, in := range l.Inputs() {
		for _, n := range in.Schema.NamedTypes() {
			defs[n.FullName()] = n.String()
		}
	}
	return defs, nil
}
