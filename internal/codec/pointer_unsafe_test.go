package codec

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUnsafeIsFenced guards the fence of pointer_unsafe.go: a codec that
// imports unsafe again instead of using its operations fails here. Files
// of every build are read, not only those of this one.
func TestUnsafeIsFenced(t *testing.T) {
	fenced := map[string]bool{"pointer_unsafe.go": true, "map_walk_swiss.go": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "unsafe" {
				seen[name] = true
				if !fenced[name] {
					t.Errorf("%s imports unsafe: use the operations of pointer_unsafe.go", name)
				}
			}
		}
	}
	for name := range fenced {
		if !seen[name] {
			t.Errorf("%s no longer imports unsafe: take it off the list of fenced files", name)
		}
	}
}
