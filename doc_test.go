package avro_test

import (
	"bytes"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// docPackages are the directories of the module's packages, relative to
// the module root, whose go doc output users read.
var docPackages = []string{".", "schema", "value", "ocf", "kafka", "varint", "avrojson", "registry"}

var (
	// sourceFileRE matches a Go source file name such as codec_time.go.
	sourceFileRE = regexp.MustCompile(`\b\w+\.go\b`)
	// unexportedLiteralRE matches a composite literal of an unexported
	// type, as go doc would show it in a var block: &ocfError{...}.
	unexportedLiteralRE = regexp.MustCompile(`&?\b[a-z]\w*\{`)
	wordRE              = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
)

// docText is what go doc -all shows of one package: the doc comments, and
// the declarations of its exported constants and variables.
type docText struct {
	comments []string // "where: text"
	values   []string // printed const and var declarations
	types    []string // printed type declarations
	missing  []string // exported names without a doc comment
	private  map[string]bool
}

func loadDocText(t *testing.T, dir string) docText {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 {
		t.Fatalf("%s: %d packages", dir, len(pkgs))
	}
	var files []*ast.File
	dt := docText{private: map[string]bool{}}
	for _, p := range pkgs {
		for _, f := range p.Files {
			files = append(files, f)
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					// Methods too: a doc may name r.storedLimit as storedLimit.
					if !d.Name.IsExported() && identLike(d.Name.Name) {
						dt.private[d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							if !sp.Name.IsExported() && identLike(sp.Name.Name) {
								dt.private[sp.Name.Name] = true
							}
						case *ast.ValueSpec:
							for _, n := range sp.Names {
								if !n.IsExported() && identLike(n.Name) {
									dt.private[n.Name] = true
								}
							}
						}
					}
				}
			}
		}
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/avrogo/avro/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	add := func(where, text string) {
		if strings.TrimSpace(text) == "" {
			dt.missing = append(dt.missing, where)
			return
		}
		dt.comments = append(dt.comments, where+": "+text)
	}
	printDecl := func(d *ast.GenDecl) string {
		var b bytes.Buffer
		if err := printer.Fprint(&b, fset, d); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			text := v.Doc
			if text == "" {
				// A group without a comment of its own is documented
				// when each of its specs is.
				for _, sp := range v.Decl.Specs {
					vs := sp.(*ast.ValueSpec)
					if vs.Doc == nil && vs.Comment == nil {
						text = ""
						break
					}
					text += vs.Doc.Text()
				}
			}
			add(strings.Join(v.Names, ", "), text)
			decl := printDecl(v.Decl)
			dt.values = append(dt.values, decl)
			// The comments inside a grouped declaration are shown too.
			dt.comments = append(dt.comments, strings.Join(v.Names, ", ")+" (block): "+decl)
		}
	}
	funcs := func(prefix string, fs []*doc.Func) {
		for _, f := range fs {
			add(prefix+f.Name, f.Doc)
		}
	}
	add("package "+pkg.Name, pkg.Doc)
	values(pkg.Consts)
	values(pkg.Vars)
	funcs("", pkg.Funcs)
	for _, ty := range pkg.Types {
		add(ty.Name, ty.Doc)
		// Struct fields and interface methods: the printed declaration,
		// filtered to the exported parts as go doc shows it.
		decl := printDecl(ty.Decl)
		dt.comments = append(dt.comments, ty.Name+" (decl): "+decl)
		dt.types = append(dt.types, decl)
		values(ty.Consts)
		values(ty.Vars)
		funcs("", ty.Funcs)
		funcs(ty.Name+".", ty.Methods)
	}
	return dt
}

// The documentation go doc shows users names no source files, test data,
// unexported identifiers or deprecated API (such as codec_time.go,
// testdata/hostile, decodeLongsImpl, storedLimit, &ocfError{...}), and
// covers every exported name.
func TestDocumentationIsForUsers(t *testing.T) {
	internal := internalQualifiers(t)
	for _, dir := range docPackages {
		dt := loadDocText(t, dir)
		for _, name := range dt.missing {
			t.Errorf("%s: %s has no doc comment", dir, name)
		}
		for _, c := range dt.comments {
			where, text, _ := strings.Cut(c, ": ")
			if strings.Contains(where, "(block)") || strings.Contains(where, "(decl)") {
				// Only the comments of a printed declaration are prose.
				text = commentLines(text)
			}
			if m := sourceFileRE.FindString(text); m != "" {
				t.Errorf("%s: %s: names the source file %s", dir, where, m)
			}
			if strings.Contains(text, "testdata/") {
				t.Errorf("%s: %s: names the test data", dir, where)
			}
			if strings.Contains(text, "Deprecated:") {
				t.Errorf("%s: %s: deprecated API in a v0 module", dir, where)
			}
			for _, w := range wordRE.FindAllString(text, -1) {
				if dt.private[w] {
					t.Errorf("%s: %s: names the unexported identifier %s", dir, where, w)
				}
			}
		}
		for _, v := range dt.values {
			if m := unexportedLiteralRE.FindString(codeLines(v)); m != "" {
				t.Errorf("%s: a value is shown as a literal of an unexported type (%s): %s", dir, m, v)
			}
			if m := internal.FindString(codeLines(v)); m != "" {
				t.Errorf("%s: a value is shown by an internal package's name (%s): %s", dir, m, v)
			}
		}
		for _, d := range dt.types {
			if m := internal.FindString(codeLines(d)); m != "" {
				t.Errorf("%s: a type is declared by an internal package's name (%s): %s", dir, m, d)
			}
			for _, w := range wordRE.FindAllString(codeLines(d), -1) {
				if dt.private[w] {
					t.Errorf("%s: a type is declared with the unexported %s: %s", dir, w, d)
				}
			}
		}
	}
}

// internalQualifiers matches a name qualified by one of the module's
// internal packages (codec.Duration), which users can neither import nor
// look up.
func internalQualifiers(t *testing.T) *regexp.Regexp {
	entries, err := os.ReadDir("internal")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatal("no internal packages")
	}
	return regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\.[A-Z]`)
}

// identLike reports whether an unexported name cannot be an English word
// in a comment (decodeLongsImpl, ocfError, max_len, row2): the names that
// are words (codec, path, slice) or Go's predeclared names are not checked.
func identLike(name string) bool {
	return strings.ContainsAny(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") && name != "_" &&
		types.Universe.Lookup(name) == nil // int64, float32: Go's own names
}

// commentLines returns the // comments of a printed declaration.
func commentLines(decl string) string {
	var b strings.Builder
	for _, l := range strings.Split(decl, "\n") {
		if _, c, ok := strings.Cut(l, "//"); ok {
			b.WriteString(c)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// codeLines returns a printed declaration without its comments.
func codeLines(decl string) string {
	var b strings.Builder
	for _, l := range strings.Split(decl, "\n") {
		code, _, _ := strings.Cut(l, "//")
		b.WriteString(code)
		b.WriteByte('\n')
	}
	return b.String()
}
