package codec

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// hostileSeedInputs returns the datum inputs of testdata/hostile/cases.json
// (see hostile_test.go), cut to maxLen bytes, as fuzzing seeds for the
// package's own fuzz targets.
func hostileSeedInputs(tb testing.TB, maxLen int) [][]byte {
	tb.Helper()
	b, err := os.ReadFile("../../testdata/hostile/cases.json")
	if err != nil {
		tb.Fatal(err)
	}
	var m struct {
		Cases []struct {
			Input [][2]any `json:"input"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for _, c := range m.Cases {
		var in []byte
		for _, seg := range c.Input {
			h, _ := seg[0].(string)
			n, _ := seg[1].(float64)
			if strings.Contains(h, ":") {
				continue
			}
			p, err := hex.DecodeString(h)
			if err != nil {
				tb.Fatal(err)
			}
			for i := 0; i < int(n) && len(in) < maxLen; i++ {
				in = append(in, p...)
			}
		}
		out = append(out, in[:min(len(in), maxLen)])
	}
	if len(out) < 60 {
		tb.Fatalf("only %d hostile inputs", len(out))
	}
	return out
}
