package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// goPackage is the generated source of one schema, parsed but not type
// checked (it need not compile to be read).
type goPackage struct {
	parseErr string
	decls    map[string][]*ast.TypeSpec // type name -> its declarations
	docs     map[*ast.TypeSpec]string
}

func parsePackage(dir string) *goPackage {
	p := &goPackage{decls: map[string][]*ast.TypeSpec{}, docs: map[*ast.TypeSpec]string{}}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(files)
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil && p.parseErr == "" {
			p.parseErr = strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
		}
		if f == nil {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				p.decls[ts.Name.Name] = append(p.decls[ts.Name.Name], ts)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				p.docs[ts] = doc.Text()
			}
		}
	}
	return p
}

// normName is a name in lower case without anything but letters and
// digits, to match a schema's names with Go names.
func normName(s string) string {
	return strings.Map(identRune, s)
}

// record finds the struct generated for the record of s: the type whose
// name is the record's, or ends with it (a name with its namespace).
func (p *goPackage) record(s *schemaInfo) (*ast.TypeSpec, *ast.StructType) {
	want := normName(s.short)
	var best *ast.TypeSpec
	names := make([]string, 0, len(p.decls))
	for n := range p.decls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, ts := range p.decls[n] {
			st, ok := ts.Type.(*ast.StructType)
			if !ok || !strings.HasSuffix(normName(n), want) || !hasField(st, s.fields) {
				continue
			}
			if normName(n) == want {
				return ts, st
			}
			if best == nil {
				best = ts
			}
		}
	}
	if best == nil {
		return nil, nil
	}
	return best, best.Type.(*ast.StructType)
}

func hasField(st *ast.StructType, fields []fieldInfo) bool {
	return len(fields) == 0 || structField(st, fields[0].name) != nil
}

// structField finds the Go field of an Avro field: by its avro or json
// tag, else by its name.
func structField(st *ast.StructType, avroName string) *ast.Field {
	for _, f := range st.Fields.List {
		if f.Tag == nil {
			continue
		}
		tag, err := strconv.Unquote(f.Tag.Value)
		if err != nil {
			continue
		}
		for _, key := range []string{"avro", "json"} {
			if v, ok := reflect.StructTag(tag).Lookup(key); ok {
				if name, _, _ := strings.Cut(v, ","); name == avroName {
					return f
				}
			}
		}
	}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if normName(n.Name) == normName(avroName) {
				return f
			}
		}
	}
	return nil
}

// describe writes what the named types of the package used in e are,
// except self: wrapper structs by their fields, the others by their
// underlying type.
func (p *goPackage) describe(e ast.Expr, self string) string {
	var parts []string
	seen := map[string]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			return false
		case *ast.Ident:
			if n.Name == self || seen[n.Name] || len(p.decls[n.Name]) == 0 {
				return true
			}
			seen[n.Name] = true
			var ds []string
			for _, ts := range p.decls[n.Name] {
				ds = append(ds, declString(ts))
			}
			d := strings.Join(slices.Compact(slices.Clone(ds)), " and ")
			if len(ds) > 1 {
				d += fmt.Sprintf(" (declared %d times)", len(ds))
			}
			parts = append(parts, d)
		}
		return true
	})
	return strings.Join(parts, "; ")
}

func declString(ts *ast.TypeSpec) string {
	switch t := ts.Type.(type) {
	case *ast.StructType:
		var names []string
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 {
				names = append(names, types.ExprString(f.Type))
			}
			for _, n := range f.Names {
				names = append(names, n.Name)
			}
		}
		if len(names) > 6 {
			names = append(names[:5], "...")
		}
		return ts.Name.Name + "{" + strings.Join(names, ", ") + "}"
	case *ast.InterfaceType:
		return ts.Name.Name + " interface"
	}
	op := " "
	if ts.Assign.IsValid() {
		op = " = "
	}
	return ts.Name.Name + op + types.ExprString(ts.Type)
}

// fieldDoc is the doc comment of a Go field, or its line comment.
func fieldDoc(f *ast.Field) string {
	if f.Doc != nil {
		return f.Doc.Text()
	}
	return f.Comment.Text()
}
