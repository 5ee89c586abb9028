package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// generator is one column of the tables: a command template (see the
// package doc for its placeholders).
type generator struct {
	name     string
	template string
	version  string // filled in by resolve
	argv     []string
}

// peerGenerators are the generators compared by default: this library's
// avrogen and the peers, each pinned in bench/go.mod by a tool directive.
var peerGenerators = []generator{
	{name: "avrogen (ours)", template: "{tool:github.com/avrogo/avro/cmd/avrogen} -pkg {pkg} -o {dir}/types.go {schema}"},
	{name: "hamba avrogen", template: "{tool:github.com/hamba/avro/v2/cmd/avrogen} -pkg {pkg} -o {dir}/types.go {schema}"},
	{name: "heetch avrogo", template: "{tool:github.com/heetch/avro/cmd/avrogo} -p {pkg} -d {dir} {schema}"},
	{name: "gogen-avro", template: "{tool:github.com/actgardner/gogen-avro/v10/cmd/gogen-avro} -package {pkg} {dir} {schema}"},
}

// result is what one generator did with one schema.
type result struct {
	genErr   string // the generator's error; empty if it wrote code
	buildErr string // the compiler's first error
	vetErr   string // go vet's first report
	pkg      *goPackage
}

// env is the working tree: the bench module, the built tools, and one
// module per generator for the generated code.
type env struct {
	benchDir string
	root     string
	binDir   string
	goMod    string // the go.mod of each generated module, after its module line
	goSum    []byte
	built    map[string]string // tool import path -> binary
}

func newEnv(benchDir, root string) (*env, error) {
	e := &env{benchDir: benchDir, root: root, binDir: filepath.Join(root, "bin"), built: map[string]string{}}
	if err := os.MkdirAll(e.binDir, 0o755); err != nil {
		return nil, err
	}
	var err error
	if e.goMod, err = generatedGoMod(benchDir); err != nil {
		return nil, err
	}
	if e.goSum, err = os.ReadFile(filepath.Join(benchDir, "go.sum")); err != nil {
		return nil, err
	}
	return e, nil
}

// generatedGoMod returns the requirements of bench/go.mod, with its
// replacements made absolute, for the modules of generated code.
func generatedGoMod(benchDir string) (string, error) {
	out, err := goCmd(benchDir, "mod", "edit", "-json")
	if err != nil {
		return "", err
	}
	var mod struct {
		Go      string
		Require []struct{ Path, Version string }
		Replace []struct {
			Old struct{ Path, Version string }
			New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ngo %s\n\nrequire (\n", mod.Go)
	for _, r := range mod.Require {
		fmt.Fprintf(&b, "\t%s %s\n", r.Path, r.Version)
	}
	b.WriteString(")\n")
	for _, r := range mod.Replace {
		to := r.New.Path
		if r.New.Version != "" {
			to += " " + r.New.Version
		} else if !filepath.IsAbs(to) {
			to = filepath.Join(benchDir, to)
		}
		fmt.Fprintf(&b, "\nreplace %s => %s\n", r.Old.Path, to)
	}
	return b.String(), nil
}

var toolRE = regexp.MustCompile(`\{tool:([^}]+)\}`)

// resolve builds the tools of g's template (once each) and finds the
// version of the module that provides them.
func (e *env) resolve(g *generator) error {
	var versions []string
	var err error
	tmpl := toolRE.ReplaceAllStringFunc(g.template, func(m string) string {
		path := toolRE.FindStringSubmatch(m)[1]
		bin, ok := e.built[path]
		if !ok {
			bin = filepath.Join(e.binDir, fmt.Sprintf("tool%d", len(e.built)))
			if _, berr := goCmd(e.benchDir, "build", "-o", bin, path); berr != nil {
				err = berr
				return m
			}
			e.built[path] = bin
		}
		out, lerr := goCmd(e.benchDir, "list", "-f", "{{with .Module}}{{.Path}} {{or .Version \"(local)\"}}{{end}}", path)
		if lerr != nil {
			err = lerr
			return m
		}
		versions = append(versions, strings.TrimSpace(string(out)))
		return bin
	})
	if err != nil {
		return err
	}
	g.argv = strings.Fields(tmpl)
	g.version = strings.Join(versions, ", ")
	if g.version == "" {
		g.version = g.argv[0]
	}
	return nil
}

// runAll generates the code of every schema with g, into a module of its
// own, and builds and vets each package.
func (e *env) runAll(g generator, index int, schemas []*schemaInfo) ([]result, error) {
	modDir := filepath.Join(e.root, fmt.Sprintf("gen%d", index))
	modPath := fmt.Sprintf("gencompare.test/gen%d", index)
	if err := os.MkdirAll(modDir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(modDir, "go.mod"), []byte("module "+modPath+"\n"+e.goMod), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(modDir, "go.sum"), e.goSum, 0o644); err != nil {
		return nil, err
	}
	results := make([]result, len(schemas))
	for i, s := range schemas {
		r := &results[i]
		dir := filepath.Join(modDir, s.pkg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		argv := make([]string, len(g.argv))
		for j, a := range g.argv {
			argv[j] = strings.NewReplacer("{pkg}", s.pkg, "{dir}", dir, "{schema}", s.path).Replace(a)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = e.benchDir
		var stderr bytes.Buffer
		cmd.Stdout = &stderr
		cmd.Stderr = &stderr
		err := cmd.Run()
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		switch {
		case err != nil:
			r.genErr = firstLine(stderr.String(), err.Error())
		case len(files) == 0:
			r.genErr = "no Go files written"
		}
		if len(files) == 0 {
			continue
		}
		r.pkg = parsePackage(dir)
		if _, err := goCmd(modDir, "build", "./"+s.pkg); err != nil {
			r.buildErr = firstReport(err.Error(), dir, s.pkg)
			continue
		}
		if _, err := goCmd(modDir, "vet", "./"+s.pkg); err != nil {
			r.vetErr = firstReport(err.Error(), dir, s.pkg)
		}
	}
	return results, nil
}

// goCmd runs the go command in dir; its error holds the command's output.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s%s", out, stderr.Bytes())
	}
	return out, nil
}

// firstLine is the first non-empty line of s, or def.
func firstLine(s, def string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return def
}

// firstReport is the first line of go build or go vet output that is not
// a package header, with the directory of the package cut off.
func firstReport(out, dir, pkg string) string {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		l = strings.ReplaceAll(l, dir+string(filepath.Separator), "")
		l = strings.TrimPrefix(l, "./")
		return strings.TrimPrefix(l, pkg+"/")
	}
	return firstLine(out, "failed")
}
