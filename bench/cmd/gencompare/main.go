// Command gencompare runs Go code generators for Avro schemas over the
// same small schemas, each of which exercises one shape (optional fields,
// unions, enums, fixed, logical types, recursion, name collisions, doc
// strings), and prints two Markdown tables: whether each generator's output
// was generated, compiles and passes go vet, and how each field's Go type
// comes out. bench/GENERATORS.md holds its output and explains it.
//
// Run it inside bench/:
//
//	go run ./cmd/gencompare                   # prints the tables
//	go run ./cmd/gencompare -o GENERATORS.tables.md
//	go run ./cmd/gencompare -gen 'ours={tool:github.com/avrogo/avro/cmd/avrogen} -pkg {pkg} -o {dir}/types.go {schema}'
//
// The generators are hamba's avrogen, heetch's avrogo and gogen-avro, at
// the versions bench/go.mod pins as tools; -gen adds a column for another
// generator given as a command template. The placeholders of a template
// are {pkg} (the Go package name to generate), {dir} (the directory to
// write the Go files to), {schema} (the schema file) and {tool:PATH} (the
// command PATH, built once from the bench module). A template runs in
// bench/, so `go run PATH` works too, at the cost of a link per schema.
//
// Each generator's code goes to a package of its own, one per schema, in a
// temporary module that requires what bench/go.mod requires (with the same
// go.sum), so that the generated code's runtime packages resolve to the
// versions pinned here and nothing but the Go module proxy is needed.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gencompare:", err)
		os.Exit(2)
	}
}

func run() error {
	var extra genFlags
	schemaDir := flag.String("schemas", "testdata/gencompare", "the directory of .avsc schemas")
	out := flag.String("o", "", "write the tables to this file instead of standard output")
	work := flag.String("work", "", "generate into this directory and keep it (default: a temporary directory, removed)")
	peers := flag.Bool("peers", true, "run the three peer generators (false: only the -gen ones)")
	flag.Var(&extra, "gen", "another generator, as `name=template` (repeatable; see the package doc)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: go run ./cmd/gencompare [flags]  (inside bench/)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		return errors.New("unexpected arguments")
	}

	var gens []generator
	if *peers {
		gens = append(gens, peerGenerators...)
	}
	gens = append(gens, extra...)
	if len(gens) == 0 {
		return errors.New("no generators to run")
	}

	benchDir, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(benchDir, "go.mod")); err != nil {
		return errors.New("run it inside bench/ (no go.mod here)")
	}
	schemas, err := loadSchemas(*schemaDir)
	if err != nil {
		return err
	}

	root := *work
	if root == "" {
		root, err = os.MkdirTemp("", "gencompare-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(root)
	} else if root, err = filepath.Abs(root); err != nil {
		return err
	}

	env, err := newEnv(benchDir, root)
	if err != nil {
		return err
	}
	results := make([][]result, len(gens))
	for i := range gens {
		if err := env.resolve(&gens[i]); err != nil {
			return fmt.Errorf("%s: %w", gens[i].name, err)
		}
		fmt.Fprintf(os.Stderr, "gencompare: %s (%s)\n", gens[i].name, gens[i].version)
		results[i], err = env.runAll(gens[i], i, schemas)
		if err != nil {
			return fmt.Errorf("%s: %w", gens[i].name, err)
		}
	}

	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	writeTables(w, gens, schemas, results)
	return nil
}

// genFlags collects the -gen flags.
type genFlags []generator

func (g *genFlags) String() string {
	names := make([]string, len(*g))
	for i, x := range *g {
		names[i] = x.name
	}
	return strings.Join(names, ",")
}

func (g *genFlags) Set(s string) error {
	name, tmpl, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.TrimSpace(tmpl) == "" {
		return errors.New("want name=template")
	}
	if !strings.Contains(tmpl, "{schema}") {
		return errors.New("the template has no {schema}")
	}
	if slices.ContainsFunc(*g, func(x generator) bool { return x.name == name }) {
		return fmt.Errorf("generator %q given twice", name)
	}
	*g = append(*g, generator{name: name, template: tmpl})
	return nil
}
