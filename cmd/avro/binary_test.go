package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Most tests run the command in process (runAvro). Those that need a real
// process, with its own standard streams (a pseudo-terminal), run the
// binary that avroBinary builds once for the whole test run.

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// avroBinary builds the command for the machine the tests run on and
// returns its path.
func avroBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "avro-cmd-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "avro")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		// For the host, even when the tests run for another
		// architecture (GOARCH=386, or s390x under an emulator): the
		// binary is run by tools of the host.
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GOARCH=") && !strings.HasPrefix(kv, "GOOS=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{binDir, javaDir} {
		if dir == "" {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}
