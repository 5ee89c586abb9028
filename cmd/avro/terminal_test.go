package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The progress line is drawn on a real pseudo-terminal: the built command
// runs under script(1) (util-linux, Debian's bsdutils, which scripts/setup
// installs), whose standard output is everything the command wrote to the
// terminal. The line is drawn as soon as a command starts, at 0%, so the
// test does not depend on how fast the machine is: it looks for that
// first drawing, not for a later one.

// progressLine matches a drawing of the progress line of an input of known
// size: "\r[====    ]  40%  1.2 kB / 3.0 kB  45 records".
var progressLine = regexp.MustCompile(`\r\[[= ]{20}\] +\d+%  \d+(\.\d)? [kMG]?B / \d+(\.\d)? [kMG]?B  \d+ records`)

// inTerminal runs shell, a command line of the built command (as $AVRO),
// with a pseudo-terminal as its standard streams, in dir, and returns what
// the terminal received.
func inTerminal(t *testing.T, dir, shell string) string {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		t.Fatalf("script (util-linux, Debian bsdutils) is not installed: run scripts/setup (%v)", err)
	}
	cmd := exec.Command("script", "-qec", shell, "/dev/null")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AVRO="+avroBinary(t))
	cmd.Stdin = strings.NewReader("")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("script -qec %q: %v\n%s%s", shell, err, out, stderr.Bytes())
	}
	return string(out)
}

func TestProgressOnTerminal(t *testing.T) {
	dir := workDir(t)
	want, _, code := runAvro([]string{"tojson", filepath.Join(dir, "readings-deflate.avro")}, nil)
	if code != exitOK {
		t.Fatalf("tojson: exit %d", code)
	}
	for _, tc := range []struct {
		name, shell string
		drawn       bool
	}{
		// Output to a file, progress on the terminal.
		{"tojson", `"$AVRO" tojson readings-deflate.avro > out.json`, true},
		{"validate", `"$AVRO" validate readings.avro readings-deflate.avro > out.txt`, true},
		{"recodec", `"$AVRO" recodec --codec zstandard readings-deflate.avro out.avro`, true},
		{"cat", `"$AVRO" cat readings.avro readings-deflate.avro out.avro`, true},
		{"fromjson", `"$AVRO" tojson readings.avro > in.json && "$AVRO" fromjson --schema readings.avsc in.json out.avro`, true},
		// --quiet draws nothing.
		{"tojson-quiet", `"$AVRO" tojson --quiet readings-deflate.avro > out.json`, false},
		{"recodec-quiet", `"$AVRO" recodec --quiet --codec zstandard readings-deflate.avro out.avro`, false},
		// Standard error piped: nothing drawn there, nothing on the
		// terminal.
		{"tojson-stderr-piped", `"$AVRO" tojson readings-deflate.avro 2> err.txt > out.json`, false},
		{"recodec-stderr-piped", `"$AVRO" recodec --codec zstandard readings-deflate.avro out.avro 2>&1 | cat > err.txt`, false},
		// Records printed on the terminal: the line would mix with
		// them, so it is not drawn.
		{"tojson-to-terminal", `"$AVRO" tojson readings-deflate.avro`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []string{"out.json", "out.txt", "out.avro", "err.txt", "in.json"} {
				_ = os.Remove(filepath.Join(dir, f))
			}
			term := inTerminal(t, dir, tc.shell)
			if drawn := progressLine.MatchString(term); drawn != tc.drawn {
				t.Errorf("progress line drawn: %v, want %v; the terminal got %q", drawn, tc.drawn, term)
			}
			if tc.drawn && !strings.HasSuffix(term, "\r\x1b[K") {
				// The line is erased when the command ends.
				t.Errorf("the progress line is left on the terminal: %q", term)
			}
			if !tc.drawn && strings.Contains(term, "\x1b") {
				t.Errorf("escape codes on the terminal without a progress line: %q", term)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "err.txt")); err == nil && len(b) != 0 {
				t.Errorf("piped standard error got %q, want nothing", b)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "out.json")); err == nil && !bytes.Equal(b, want) && tc.name != "fromjson" {
				t.Errorf("tojson wrote other records with a terminal:\n%s", b)
			}
			if strings.HasSuffix(tc.name, "to-terminal") && !strings.Contains(strings.ReplaceAll(term, "\r\n", "\n"), string(want)) {
				t.Errorf("the records are not on the terminal: %q", term)
			}
		})
	}
}
