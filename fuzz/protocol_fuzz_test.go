package fuzz

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/avrogo/avro/schema"
)

// FuzzParseProtocol: ParseProtocol never panics or hangs, and a protocol
// it accepts prints to JSON that parses again to the same text.
func FuzzParseProtocol(f *testing.F) {
	seeds, _ := filepath.Glob("../../shared/testdata/apache-avro/share/test/schemas/*.avpr")
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(string(data), false)
		}
	}
	f.Add(`{"protocol":"P","namespace":"a","types":[{"type":"error","name":"E","fields":[]}],"messages":{"m":{"request":[{"name":"x","type":["null","E"]}],"response":"E","errors":["E"]}}}`, false)
	f.Add(`{"protocol":"Протокол","types":[{"type":"enum","name":"Е","symbols":["А"]}]}`, true)
	f.Fuzz(func(t *testing.T, text string, unicode bool) {
		opts := schema.ParseOptions{UnicodeNames: unicode}
		p, err := opts.ParseProtocol(text)
		if err != nil {
			return
		}
		out := p.String()
		q, err := opts.ParseProtocol(out)
		if err != nil {
			t.Fatalf("ParseProtocol(%s) printed\n%s\nwhich does not parse: %v", text, out, err)
		}
		if q.String() != out {
			t.Fatalf("printed twice:\n%s\n%s", out, q.String())
		}
	})
}
