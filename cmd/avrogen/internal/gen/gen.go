// Package gen writes Go types for Avro schemas: the code behind the
// avrogen command.
package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/avrogo/avro/schema"
)

// Config is what the command's flags choose.
type Config struct {
	Package    string // the package clause
	PackageDoc string // the package's doc comment
	FullName   bool   // type names keep the namespace
	Tags       []Tag  // extra struct tags
	Encoders   bool   // MarshalAvro and UnmarshalAvro methods on records

	// Logical maps a logical type name ("timestamp-millis") to the Go
	// type its values get instead of the default; Types maps the full
	// name of a named type to a Go type used instead of generating one.
	// A Go type is a type expression, its package written in full:
	// "int64", "github.com/google/uuid.UUID", "*example.com/money.Amount".
	Logical map[string]string
	Types   map[string]string

	// Initialisms are words written in upper case in Go names, beside
	// Go's usual ones (ID, URL, HTTP, ...).
	Initialisms []string
}

// Tag is one extra struct tag: its key and how field names are written
// in it (snake, camel, upper-camel, kebab or original).
type Tag struct {
	Key, Style string
}

// TagStyles are the styles a Tag may have.
var TagStyles = []string{"snake", "camel", "upper-camel", "kebab", "original"}

// Input is one schema to generate types for.
type Input struct {
	// Name says where the schema came from (a file name); it names the
	// Go type of a root that is not a named type.
	Name   string
	Schema *schema.Schema
	// Text is the schema as the generated code embeds it: parsed after
	// the texts of the inputs before it, it gives Schema.
	Text string
	// Root asks for a Go type for a root that is not a record, enum or
	// fixed (an array, a map, a union, a primitive).
	Root bool
}

// Result is the generated file and what the generator has to say about
// the names it chose.
type Result struct {
	Code     []byte
	Warnings []string
	Roots    []Root // one for each input whose root has a Go type
}

// Root is the Go type of an input's root schema.
type Root struct {
	Input string // the input's Name
	Type  string // the Go type's name in the package
	// Func is set when the schema is returned by the function TypeSchema
	// rather than a Schema method (an interface or an alias).
	Func bool
}

// Generate writes one Go file with the types of the inputs: every named
// type they define and, for the inputs that ask for it, their roots.
func Generate(cfg Config, inputs []Input) (Result, error) {
	if cfg.Package == "" {
		return Result{}, fmt.Errorf("no package name given")
	}
	for _, t := range cfg.Tags {
		if !validStyle(t.Style) {
			return Result{}, fmt.Errorf("struct tag %s: unknown style %q (want one of %s)", t.Key, t.Style, strings.Join(TagStyles, ", "))
		}
	}
	g := newGenerator(cfg)
	if err := g.collect(inputs); err != nil {
		return Result{}, err
	}
	if err := g.build(); err != nil {
		return Result{}, err
	}
	src := g.emit()
	code, err := format.Source(src)
	if err != nil {
		return Result{}, fmt.Errorf("internal error: the generated code does not parse: %v\n%s", err, src)
	}
	return Result{Code: code, Warnings: g.warnings, Roots: g.rootList(inputs)}, nil
}

func validStyle(s string) bool {
	for _, t := range TagStyles {
		if s == t {
			return true
		}
	}
	return false
}

// generator holds what one Generate call has learnt about the schemas.
type generator struct {
	cfg      Config
	extra    map[string]bool   // more initialisms
	imports  map[string]string // package path -> name in the file
	pkgNames map[string]string // name in the file -> package path
	names    *namer            // the package's exported identifiers
	warnings []string

	named  []*namedType // in definition order
	byNode map[*schema.Schema]*namedType
	roots  []*rootType
	texts  []string // the inputs' texts, in parse order
	unions []*unionType

	// schemas lists what the generated schema table holds: a named
	// type's full name, or a root by its index in texts.
	schemas []schemaRef
}

type schemaRef struct {
	fullName string
	text     int
}

// namedType is a record, enum or fixed of the inputs.
type namedType struct {
	s      *schema.Schema
	goName string
	custom *goType // set when a flag or go.type gives its Go type
	skip   bool    // no Go type of its own (a decimal or duration fixed)
	fields []*field
	index  int // in the schema table
	// markers are the union interfaces the type's Go type implements.
	markers []*unionType
}

type field struct {
	f      *schema.Field
	goName string
	typ    goType
}

// rootType is the Go type of an input whose root is not a named type.
type rootType struct {
	s      *schema.Schema
	input  string
	goName string
	typ    goType
	index  int
	union  *unionType // when the root is a union of several branches
}

func newGenerator(cfg Config) *generator {
	extra := map[string]bool{}
	for _, w := range cfg.Initialisms {
		extra[strings.ToUpper(strings.TrimSpace(w))] = true
	}
	return &generator{
		cfg:      cfg,
		extra:    extra,
		imports:  map[string]string{},
		pkgNames: map[string]string{},
		names:    newNamer(),
		byNode:   map[*schema.Schema]*namedType{},
	}
}

// collect gathers the named types of the inputs and names them.
func (g *generator) collect(inputs []Input) error {
	for _, in := range inputs {
		g.texts = append(g.texts, in.Text)
		for _, n := range in.Schema.NamedTypes() {
			if _, ok := g.byNode[n]; ok {
				continue
			}
			nt := &namedType{s: n}
			if goT, ok, err := g.customType(n); err != nil {
				return err
			} else if ok {
				nt.custom = &goT
			}
			if n.Kind() == schema.Fixed && (n.Logical() == schema.Decimal || n.Logical() == schema.Duration) {
				nt.skip = true
			}
			g.byNode[n] = nt
			g.named = append(g.named, nt)
		}
	}
	g.nameTypes()
	for i, in := range inputs {
		if in.Schema.Kind().IsNamed() || !in.Root {
			continue
		}
		base := in.Name
		if j := strings.LastIndexAny(base, `/\`); j >= 0 {
			base = base[j+1:]
		}
		for _, ext := range []string{".avsc", ".avpr", ".json", ".avro"} {
			base = strings.TrimSuffix(base, ext)
		}
		r := &rootType{s: in.Schema, input: in.Name, goName: g.names.take(g.exported(base))}
		r.index = len(g.schemas)
		g.schemas = append(g.schemas, schemaRef{text: i})
		g.roots = append(g.roots, r)
	}
	return nil
}

// nameTypes gives the named types their Go names. Without -fullname a
// type is named by its short name; types whose short names collide are
// all named with as many namespace components as tell them apart, and
// the choice is reported.
func (g *generator) nameTypes() {
	base := map[*namedType]string{}
	groups := map[string][]*namedType{}
	for _, nt := range g.named {
		if nt.custom != nil || nt.skip {
			continue
		}
		name := nt.s.Name()
		if g.cfg.FullName {
			name = nt.s.FullName()
		}
		b := g.exported(name)
		base[nt] = b
		groups[b] = append(groups[b], nt)
	}
	for b, group := range groups {
		if len(group) < 2 {
			continue
		}
		for depth := 1; ; depth++ {
			names := map[string]bool{}
			all := true
			for _, nt := range group {
				n := g.qualified(nt.s, depth)
				if names[n] {
					all = false
				}
				names[n] = true
			}
			if all || depth > 64 {
				var msg []string
				for _, nt := range group {
					base[nt] = g.qualified(nt.s, depth)
					msg = append(msg, nt.s.FullName()+" is "+base[nt])
				}
				sort.Strings(msg)
				g.warnings = append(g.warnings, fmt.Sprintf("the types %s share the Go name %s: %s", fullNames(group), b, strings.Join(msg, ", ")))
				break
			}
		}
	}
	for _, nt := range g.named {
		if nt.custom != nil || nt.skip {
			continue
		}
		want := base[nt]
		nt.goName = g.names.take(want)
		if nt.goName != want {
			g.warnings = append(g.warnings, fmt.Sprintf("%s is named %s: %s is taken", nt.s.FullName(), nt.goName, want))
		}
		nt.index = len(g.schemas)
		g.schemas = append(g.schemas, schemaRef{fullName: nt.s.FullName()})
	}
}

// qualified is the Go name of s with the last depth components of its
// namespace in front.
func (g *generator) qualified(s *schema.Schema, depth int) string {
	parts := strings.Split(s.FullName(), ".")
	if depth+1 < len(parts) {
		parts = parts[len(parts)-depth-1:]
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(g.exported(p))
	}
	return b.String()
}

func fullNames(group []*namedType) string {
	var names []string
	for _, nt := range group {
		names = append(names, nt.s.FullName())
	}
	sort.Strings(names)
	return strings.Join(names, " and ")
}

// exported is the Go name of an Avro name.
func (g *generator) exported(name string) string { return exportedWith(name, g.extra) }

// use records that the file imports path and returns the name the file
// knows it by.
func (g *generator) use(path string) string {
	if name, ok := g.imports[path]; ok {
		return name
	}
	name := path[strings.LastIndexByte(path, '/')+1:]
	if i := strings.IndexAny(name, ".-"); i >= 0 {
		name = name[:i] // gopkg.in/yaml.v3 is package yaml
	}
	if isMajorVersion(name) {
		// example.com/pkg/v2 is package pkg
		trimmed := strings.TrimSuffix(path, "/"+name)
		name = trimmed[strings.LastIndexByte(trimmed, '/')+1:]
	}
	name = importName(name)
	want := name
	for i := 2; g.pkgNames[name] != "" || !usableImportName(name); i++ {
		name = want + "_" + itoa(i)
	}
	g.imports[path] = name
	g.pkgNames[name] = path
	return name
}

// importName is the name a file may know a package by whose path ends in
// elem: elem in lower case, so that no generated type (all exported) can
// take it, when it is an identifier that no name of the generated code (a
// predeclared name, a local variable) hides or is hidden by.
func importName(elem string) string {
	var b strings.Builder
	for _, r := range elem {
		if r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name != "" {
		name = strings.ToLower(name[:1]) + name[1:]
	}
	switch {
	case name == "" || name[0] >= '0' && name[0] <= '9' || name[0] == '_':
		name = "pkg" + name
	case !usableImportName(name):
		name += "pkg"
	}
	return name
}

// usableImportName reports whether a file may import a package as name.
func usableImportName(name string) bool {
	return !token.IsKeyword(name) && types.Universe.Lookup(name) == nil && !generatedLocals[name]
}

// generatedLocals are the unexported names the generated code declares.
var generatedLocals = map[string]bool{
	"avroSchemas": true, "data": true, "err": true, "i": true, "init": true, "p": true,
	"roots": true, "s": true, "text": true, "v": true, "x": true,
}

func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func (g *generator) rootList(inputs []Input) []Root {
	var out []Root
	for _, in := range inputs {
		if nt := g.byNode[in.Schema]; nt != nil {
			if nt.goName != "" {
				out = append(out, Root{Input: in.Name, Type: nt.goName})
			}
			continue
		}
		for _, r := range g.roots {
			if r.s == in.Schema && r.input == in.Name {
				out = append(out, Root{Input: in.Name, Type: r.goName, Func: r.union != nil || !r.methods()})
			}
		}
	}
	return out
}

// build works out the Go types of every record field and root.
func (g *generator) build() error {
	for _, nt := range g.named {
		if nt.custom != nil || nt.skip || nt.s.Kind() != schema.Record {
			continue
		}
		reserved := []string{"Schema"}
		if g.cfg.Encoders {
			reserved = append(reserved, "MarshalAvro", "UnmarshalAvro")
		}
		fn := newNamer(reserved...)
		for _, f := range nt.s.Fields() {
			fd := &field{f: f, goName: fn.take(g.exported(f.Name()))}
			nt.fields = append(nt.fields, fd)
		}
	}
	byValue := g.byValueCycles()
	for _, nt := range g.named {
		for _, fd := range nt.fields {
			t, err := g.typeOf(fd.f.Type(), nt.goName+fd.goName)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", nt.s.FullName(), fd.f.Name(), err)
			}
			if byValue[fd.f] {
				t = t.pointer()
			}
			fd.typ = t
		}
	}
	for _, r := range g.roots {
		t, err := g.rootTypeOf(r)
		if err != nil {
			return fmt.Errorf("%s: %w", r.goName, err)
		}
		r.typ = t
	}
	return nil
}

// byValueCycles finds the record fields that would make a Go struct
// contain itself (a record whose field is, by value, a record that leads
// back to it): those fields get a pointer. Such schemas have no finite
// value, but they parse, and their code must compile.
func (g *generator) byValueCycles() map[*schema.Field]bool {
	back := map[*schema.Field]bool{}
	state := map[*schema.Schema]int{} // 1 on the path, 2 done
	var visit func(s *schema.Schema)
	visit = func(s *schema.Schema) {
		state[s] = 1
		for _, f := range s.Fields() {
			t := f.Type()
			if t.Kind() != schema.Record {
				continue
			}
			if nt := g.byNode[t]; nt != nil && nt.custom != nil {
				continue
			}
			switch state[t] {
			case 1:
				back[f] = true
			case 0:
				visit(t)
			}
		}
		state[s] = 2
	}
	for _, nt := range g.named {
		if nt.s.Kind() == schema.Record && state[nt.s] == 0 {
			visit(nt.s)
		}
	}
	return back
}

// emit writes the unformatted file.
func (g *generator) emit() []byte {
	var body bytes.Buffer
	w := &writer{g: g, b: &body}
	for _, nt := range g.named {
		if nt.custom != nil || nt.skip {
			continue
		}
		switch nt.s.Kind() {
		case schema.Record:
			w.record(nt)
		case schema.Enum:
			w.enum(nt)
		case schema.Fixed:
			w.fixed(nt)
		}
	}
	for _, r := range g.roots {
		w.root(r)
	}
	for _, u := range g.unions {
		w.union(u)
	}
	w.registrations()
	w.schemaTable()

	var out bytes.Buffer
	out.WriteString("// Code generated by avrogen. DO NOT EDIT.\n\n")
	if doc := strings.TrimSpace(g.cfg.PackageDoc); doc != "" {
		if !strings.HasSuffix(doc, ".") {
			doc += "."
		}
		for _, line := range strings.Split(doc, "\n") {
			out.WriteString(strings.TrimRight("// "+line, " ") + "\n")
		}
	}
	fmt.Fprintf(&out, "package %s\n\n", g.cfg.Package)
	if len(g.imports) > 0 {
		paths := make([]string, 0, len(g.imports))
		for p := range g.imports {
			paths = append(paths, p)
		}
		sort.Slice(paths, func(i, j int) bool {
			si, sj := !strings.Contains(paths[i], "."), !strings.Contains(paths[j], ".")
			if si != sj {
				return si
			}
			return paths[i] < paths[j]
		})
		out.WriteString("import (\n")
		std := true
		for _, p := range paths {
			if std && strings.Contains(p, ".") {
				std = false
				out.WriteString("\n")
			}
			name := g.imports[p]
			if name == p[strings.LastIndexByte(p, '/')+1:] {
				fmt.Fprintf(&out, "\t%q\n", p)
			} else {
				fmt.Fprintf(&out, "\t%s %q\n", name, p)
			}
		}
		out.WriteString(")\n\n")
	}
	out.Write(body.Bytes())
	return out.Bytes()
}
