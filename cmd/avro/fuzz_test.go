package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCommandInput feeds arbitrary bytes to the commands that read
// container files (as standard input) and schemas (as the schema
// argument). A command never panics or hangs on them, and every failure
// is a data failure (exit 1) reported on standard error under the
// command's name, never a usage error. The scripts/test fuzz run finds
// this target by its name, as it does the targets of fuzz/.
func FuzzCommandInput(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.*")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
			f.Add(b[:len(b)/2])
		}
	}
	f.Add(writeReadings(f, 12, "deflate"))
	f.Add([]byte(readingSchema))
	f.Add([]byte(`["null",{"type":"map","values":{"type":"fixed","name":"F","size":3}}]`))
	f.Add([]byte("Obj\x01\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, args := range [][]string{
			{"tojson", "-"},
			{"tojson", "--plain", "-"},
			{"count", "-"},
			{"validate", "-"},
			{"getschema", "-"},
			{"getmeta", "-"},
			{"cat", "-", "-"},
		} {
			checkFuzzRun(t, args, data)
		}
		// repair goes back in its input, which must be a file.
		in := filepath.Join(t.TempDir(), "in.avro")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkFuzzRun(t, []string{"repair", "--mode", "report", in}, nil)
		checkFuzzRun(t, []string{"repair", in, filepath.Join(filepath.Dir(in), "out.avro")}, nil)
		// The bytes as a schema: inline when they could be JSON text,
		// from standard input always.
		for _, args := range [][]string{
			{"canonical", "-"},
			{"fingerprint", "-"},
			{"fingerprint", "--alg", "sha256", "-"},
			{"compat", "-", readingSchema},
		} {
			checkFuzzRun(t, args, data)
		}
		if s := string(data); strings.HasPrefix(strings.TrimSpace(s), "{") || strings.HasPrefix(strings.TrimSpace(s), "[") {
			checkFuzzRun(t, []string{"canonical", s}, nil)
		}
	})
}

func checkFuzzRun(t *testing.T, args []string, stdin []byte) {
	t.Helper()
	_, errb, code := runAvro(args, stdin)
	switch code {
	case exitOK:
	case exitFail:
		if args[0] == "compat" || args[0] == "validate" || args[0] == "repair" {
			return // their report may go to standard output
		}
		if !strings.HasPrefix(string(errb), "avro "+args[0]+": ") {
			t.Errorf("avro %s: exit 1 with standard error %q, want the command's report", strings.Join(args, " "), errb)
		}
	default:
		t.Errorf("avro %s: exit %d, stderr %q", strings.Join(args, " "), code, errb)
	}
}
