package idl

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics or hangs, and that what it
// accepts prints as valid JSON, the same on every parse.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/*.avdl", "testdata/*/*.avdl", filepath.Join(compilerIDL, "input", "*.avdl"), filepath.Join(toolsIDL, "*.avdl")} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("protocol P { record R { R? r = null; } }"))
	dir := f.TempDir()
	name := filepath.Join(dir, "fuzz.avdl")
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse(name, src, WithMaxSize(1<<16), WithMaxDepth(100))
		if err != nil {
			return
		}
		out := file.ProtocolJSON()
		if out == nil {
			out = file.SchemaJSON()
		}
		if out != nil && !json.Valid(out) {
			t.Fatalf("invalid JSON %s", out)
		}
		again, err := Parse(name, src, WithMaxSize(1<<16), WithMaxDepth(100))
		if err != nil {
			t.Fatalf("second parse: %v", err)
		}
		if !bytes.Equal(again.ProtocolJSON(), file.ProtocolJSON()) || !bytes.Equal(again.SchemaJSON(), file.SchemaJSON()) {
			t.Fatal("two parses differ")
		}
	})
}
