package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts of TestGolden")

// A goldenCase is one command line, and the commands its standard output
// is piped into; its transcript (each command, its exit status, standard
// output and standard error) is compared with testdata/golden/NAME.golden.
type goldenCase struct {
	name  string
	args  []string
	stdin string
	// pipe holds further command lines, each reading the standard output
	// of the one before.
	pipe [][]string
}

// runAvro runs one command line in process and returns its streams and
// exit status.
func runAvro(args []string, stdin []byte) (stdout, stderr []byte, code int) {
	var out, errb bytes.Buffer
	e := &env{stdin: bytes.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code = run(context.Background(), e, args)
	return out.Bytes(), errb.Bytes(), code
}

// transcript runs a case and writes what a person at a terminal would
// read, binary output shown as its length.
func transcript(c goldenCase) string {
	var b strings.Builder
	stdin := []byte(c.stdin)
	for _, args := range append([][]string{c.args}, c.pipe...) {
		out, errb, code := runAvro(args, stdin)
		fmt.Fprintf(&b, "$ avro %s\nexit %d\n", strings.Join(args, " "), code)
		if bytes.HasPrefix(out, []byte("Obj\x01")) {
			fmt.Fprintf(&b, "--- stdout: a container file\n")
		} else {
			fmt.Fprintf(&b, "--- stdout\n%s", out)
		}
		fmt.Fprintf(&b, "--- stderr\n%s", errb)
		stdin = out
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	t.Chdir(workDir(t))
	seen := map[string]bool{}
	for _, c := range goldenCases {
		if seen[c.name] {
			t.Fatalf("two cases named %s", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			got := transcript(c)
			path := filepath.Join(goldenDir, c.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("transcript differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
			}
		})
	}
	if *update {
		return
	}
	// Every golden file belongs to a case, so that a renamed case does
	// not leave a stale transcript behind.
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.golden"))
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".golden"); !seen[name] {
			t.Errorf("%s belongs to no case", f)
		}
	}
}

var goldenDir, _ = filepath.Abs("testdata/golden")
