package gen

import (
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

// Whatever schema parses, the generator writes Go code that parses, and
// never panics or hangs; the only schemas it refuses are those whose
// go.type property is not a Go type.
func FuzzGenerate(f *testing.F) {
	seeds, _ := filepath.Glob("../corpus/testdata/*.avsc")
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err == nil {
			f.Add(string(data), false)
		}
	}
	f.Add(`["null","string",{"type":"record","name":"R","fields":[{"name":"r","type":["null","R","int"]}]}]`, true)
	f.Add(`{"type":"record","name":"a.X","fields":[{"name":"x","type":{"type":"record","name":"b.X","fields":[]}}]}`, false)
	f.Add(`{"type":"string","go.type":"example.com/p.T"}`, true)
	f.Add(`{"type":"string","go.type":"net/netip"}`, false)
	f.Fuzz(func(t *testing.T, text string, full bool) {
		l := NewLoader()
		if l.Add(Source{Name: "fuzz.avsc", Text: text}) != nil {
			return
		}
		res, err := Generate(Config{Package: "p", FullName: full, Encoders: full, Tags: []Tag{{"json", "snake"}}}, l.Inputs())
		if err != nil {
			if errors.Is(err, ErrGoType) {
				return
			}
			t.Fatalf("Generate(%s): %v", text, err)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "out.go", res.Code, 0); err != nil {
			t.Fatalf("the code for %s does not parse: %v", text, err)
		}
	})
}
