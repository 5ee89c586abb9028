package idl

import (
	"errors"

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

// asciiOnly lists the inputs Java reads whose types package schema refuses:
// unicode.avdl has Unicode names (schema allows [A-Za-z_][A-Za-z0-9_]*), and
// simple.avdl has NaN and -Infinity double defaults, which Java prints as
// the strings "NaN" and "-Infinity" and schema takes for invalid doubles.
var asciiOnly = map[string]bool{"unicode.avdl": true, "simple.avdl": true}

func checkProtocol(t *testing.T, in string, want []byte) {
	t.Helper()
	f, err := parseFile(in, WithSearchPath(classpath))
	if asciiOnly[filepath.Base(in)] {
		// Java accepts these files, but package schema refuses part of
		// them (see asciiOnly), so the types cannot be built yet; the
		// protocol's JSON must still be Java's.
		var se *schema.Error
		if !errors.As(err, &se) {
			t.Fatalf("want the schema package to refuse the Unicode names, got %v", err)
		}
	} else if err != nil {
		t.Fatal(err)
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
		if asciiOnly[base+".avdl"] {
			continue // package schema refuses these types (see asciiOnly)
		}
		t.Run(base, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(compilerIDL, "output", base+".avpr"))
			if err != nil {
				t.Fatal(err)
			}
			proto, err := decodeJSON(want, 1000)
			if err != nil {
				t.Fatal(err)
			}
			sp := schema.NewParser()
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
