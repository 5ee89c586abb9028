package idl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestdata runs the files of testdata, which cover what the upstream
// files do not: the schema syntax, "type?", the logical type keywords and
// the examples of the Avro 1.12 IDL page. Each .avdl gives the .avpr
// (protocol) or .avsc (main schema) beside it.
func TestTestdata(t *testing.T) {
	var inputs []string
	err := filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".avdl") {
			inputs = append(inputs, path)
		}
		return err
	})
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	ran := 0
	for _, in := range inputs {
		base := strings.TrimSuffix(in, ".avdl")
		t.Run(strings.TrimPrefix(base, "testdata/"), func(t *testing.T) {
			if want, err := os.ReadFile(base + ".avpr"); err == nil {
				ran++
				checkProtocol(t, in, want)
				return
			}
			want, err := os.ReadFile(base + ".avsc")
			if err != nil {
				t.Fatalf("no expected output for %s", in)
			}
			ran++
			f, err := ParseFile(in)
			if err != nil {
				t.Fatal(err)
			}
			if f.ProtocolJSON() != nil || f.Schema() == nil {
				t.Fatalf("a schema file gives protocol %s, schema %v", f.ProtocolJSON(), f.Schema())
			}
			if d := sameJSONText(f.SchemaJSON(), want); d != "" {
				t.Errorf("%s\n%s", d, f.SchemaJSON())
			}
		})
	}
	if ran != len(inputs) {
		t.Errorf("ran %d of %d inputs", ran, len(inputs))
	}
}
