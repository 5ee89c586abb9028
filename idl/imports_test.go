package idl

import (
	"path/filepath"
	"testing"
)

// TestSearchPathOrder checks where imports are looked up: the importing
// file's directory first, then the search path in order.
func TestSearchPathOrder(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main/main.avdl": "protocol P { import schema \"t.avsc\"; import schema \"u.avsc\"; }",
		"main/t.avsc":    `{"type":"fixed","name":"Local","size":1}`,
		"one/t.avsc":     `{"type":"fixed","name":"One","size":1}`,
		"one/u.avsc":     `{"type":"fixed","name":"FromOne","size":1}`,
		"two/u.avsc":     `{"type":"fixed","name":"FromTwo","size":1}`,
	})
	f, err := ParseFile(filepath.Join(dir, "main/main.avdl"),
		WithSearchPath(filepath.Join(dir, "one"), filepath.Join(dir, "two")))
	if err != nil {
		t.Fatal(err)
	}
	ts := f.Types()
	if len(ts) != 2 || ts[0].Name() != "Local" || ts[1].Name() != "FromOne" {
		t.Errorf("types %v, want Local FromOne", ts)
	}
}

// TestParseImportsRelativeToName checks that Parse looks up imports in the
// directory of the name it is given.
func TestParseImportsRelativeToName(t *testing.T) {
	dir := writeFiles(t, map[string]string{"t.avsc": `{"type":"enum","name":"E","symbols":["A"]}`})
	f, err := Parse(filepath.Join(dir, "virtual.avdl"), []byte("schema E; import schema \"t.avsc\";"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Schema() == nil || f.Schema().Name() != "E" {
		t.Errorf("schema %v", f.Schema())
	}
}
