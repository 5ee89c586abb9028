package idl

import (
	"bytes"
	"fmt"
	"github.com/avrogo/avro/schema"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const upstream = "../../shared/testdata/apache-avro/lang/java"

var (
	compilerIDL = filepath.Join(upstream, "compiler/src/test/idl")
	classpath   = filepath.Join(compilerIDL, "putOnClassPath")
)

// sameJSONText compares two JSON texts as values, objects key by key in
// order (Java's order), numbers by value. It returns "" when equal.
func sameJSONText(got, want []byte) string {
	g, err := decodeJSON(got, 10000)
	if err != nil {
		return "got invalid JSON: " + err.Error()
	}
	w, err := decodeJSON(want, 10000)
	if err != nil {
		return "want invalid JSON: " + err.Error()
	}
	return diffJSON(g, w, "$")
}

func diffJSON(g, w *jvalue, path string) string {
	num := func(v *jvalue) (float64, bool) {
		switch v.kind {
		case jInt:
			return float64(v.i), true
		case jFloat:
			return v.f, true
		}
		return 0, false
	}
	if gf, ok := num(g); ok {
		if wf, ok := num(w); ok && (gf == wf || math.IsNaN(gf) && math.IsNaN(wf)) {
			return ""
		}
		return fmt.Sprintf("%s: got %s, want %s", path, text(g), text(w))
	}
	if g.kind != w.kind {
		return fmt.Sprintf("%s: got %s, want %s", path, text(g), text(w))
	}
	switch g.kind {
	case jArray:
		if len(g.arr) != len(w.arr) {
			return fmt.Sprintf("%s: got %s, want %s", path, text(g), text(w))
		}
		for i := range g.arr {
			if d := diffJSON(g.arr[i], w.arr[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case jObject:
		if strings.Join(g.keys, ",") != strings.Join(w.keys, ",") {
			return fmt.Sprintf("%s: got keys %v, want %v", path, g.keys, w.keys)
		}
		for i, k := range g.keys {
			if d := diffJSON(g.vals[i], w.vals[i], path+"."+k); d != "" {
				return d
			}
		}
	default:
		if text(g) != text(w) {
			return fmt.Sprintf("%s: got %s, want %s", path, text(g), text(w))
		}
	}
	return ""
}

func text(v *jvalue) string {
	var b strings.Builder
	var buf = new(bytesBuffer)
	v.write(&buf.Buffer)
	b.Write(buf.Bytes())
	return b.String()
}

// TestUpstreamCompiler runs every input of Java's compiler IDL tests that has
// an expected protocol, with the classpath directory on the search path.
func TestUpstreamCompiler(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join(compilerIDL, "input", "*.avdl"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		base := strings.TrimSuffix(filepath.Base(in), ".avdl")
		t.Run(base, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(compilerIDL, "output", base+".avpr"))
			if err != nil {
				t.Fatal(err)
			}
			checkProtocol(t, in, want)
		})
	}
}

func checkProtocol(t *testing.T, in string, want []byte) {
	t.Helper()
	f, err := parseFile(in, WithSearchPath(classpath))
	if err != nil {
		t.Fatal(err)
	}
	// The protocol, as schema.ParseProtocol reads Java's expected JSON,
	// is the one Protocol returns.
	fromJava, err := schema.ParseOptions{UnicodeNames: true}.ParseProtocol(string(want))
	if err != nil {
		t.Fatalf("Java's protocol does not parse: %v", err)
	}
	if p := f.Protocol(); p == nil || p.String() != fromJava.String() {
		t.Errorf("Protocol() =\n%v\nwant\n%s", p, fromJava)
	}
	if d := sameJSONText(f.ProtocolJSON(), want); d != "" {
		t.Errorf("%s\n%s", d, f.ProtocolJSON())
	}
}

type bytesBuffer struct{ bytes.Buffer }

// TestUpstreamTypes checks the types built for each compiler input against
// those package schema builds from Java's expected protocol: the same
// names in the same order, each printing the same.
func TestUpstreamTypes(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join(compilerIDL, "input", "*.avdl"))
	for _, in := range inputs {
		base := strings.TrimSuffix(filepath.Base(in), ".avdl")
		t.Run(base, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(compilerIDL, "output", base+".avpr"))
			if err != nil {
				t.Fatal(err)
			}
			proto, err := decodeJSON(want, 1000)
			if err != nil {
				t.Fatal(err)
			}
			sp := schema.ParseOptions{UnicodeNames: true}.NewParser()
			for _, ty := range proto.get("types").arr {
				// A type in the protocol takes its namespace.
				if ns := proto.get("namespace"); ns != nil && ty.get("namespace") == nil {
					ty.set("namespace", ns)
				}
				var buf bytes.Buffer
				ty.write(&buf)
				if _, err := sp.Parse(buf.String()); err != nil {
					t.Fatalf("Java's type %s: %v", buf.Bytes(), err)
				}
			}
			f, err := ParseFile(in, WithSearchPath(classpath))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range f.Types() {
				w := sp.Lookup(s.FullName())
				if w == nil {
					t.Errorf("%s is not in Java's protocol", s.FullName())
					continue
				}
				if s.String() != w.String() {
					t.Errorf("%s:\n got %s\nwant %s", s.FullName(), s, w)
				}
			}
		})
	}
}
