package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// parseSeeds are the schema texts of the shared test data that seed
// FuzzParse, plus hostile shapes.
func parseSeeds(tb testing.TB) []string {
	const data = "../../shared/testdata/apache-avro/"
	var seeds []string
	for _, pattern := range []string{
		"lang/c/tests/schema_tests/pass/*",
		"lang/c/tests/schema_tests/fail/*",
		"lang/c++/jsonschemas/*",
		"lang/java/avro/src/test/resources/*.avsc",
		"lang/java/avro/src/test/resources/multipleFile/*.avsc",
		"share/test/schemas/*.avsc",
		"share/schemas/org/apache/avro/*/*.avsc",
		"lang/js/test/dat/*.avsc",
	} {
		files, err := filepath.Glob(data + pattern)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "large_schema.avsc") {
				continue // 385 KB: too slow for a fuzzing seed
			}
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			seeds = append(seeds, string(b))
		}
	}
	if len(seeds) < 60 {
		tb.Fatalf("only %d seed files found; is the shared test data at %s?", len(seeds), data)
	}
	return append(seeds,
		`{"type":"record","name":"R","fields":[{"name":"d","type":["null",{"type":"map","values":"R"}],"default":null},{"name":"f","type":{"type":"fixed","name":"F","size":16,"logicalType":"decimal","precision":38,"scale":2},"default":"\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff"}]}`,
		`{"type":"record","name":"Top","fields":[{"name":"a","type":{"type":"enum","name":"E","symbols":["A"]}},{"name":"r","type":{"type":"record","name":"x.R","fields":[{"name":"b","type":{"type":"enum","name":"E","symbols":["B"]}},{"name":"d","type":{"type":"E","namespace":""}}]}}]}`,
		`{"type":"fixed","name":"F","size":1099511627776}`,
		strings.Repeat("[", 2000)+strings.Repeat("]", 2000),
		strings.Repeat(`{"type":"array","items":`, 1200)+`"int"`+strings.Repeat("}", 1200),
		`{"type":"int","x":{"a":[1,2.5e3,"\ud800"],"b":null}}`,
		// Decimals whose scale or precision would cost a huge power of
		// ten when a codec is compiled (a hang before the fix).
		`{"type":"bytes","logicalType":"decimal","precision":2147483647,"scale":2147483647}`,
		`{"type":"fixed","name":"D","size":2147483647,"logicalType":"decimal","precision":2000000000,"scale":1000000000}`,
		`{"type":"bytes","logicalType":"big-decimal"}`,
		`{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"fixed","name":"F","size":2147483647}},{"name":"g","type":"F"}]}`,
		`{"type":"array","items":{"type":"record","name":"E","fields":[]}}`,
	)
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// survives String: parsing String() gives the same String() and the same
// canonical form and fingerprint; that the generic codecs of what parses
// compile and decode a few bytes to a value that re-encodes, or to a typed
// error; and that it resolves against itself.
func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := schema.Parse(text)
		if err != nil {
			return
		}
		out := s.String()
		s2, err := schema.Parse(out)
		if err != nil {
			t.Fatalf("String() does not parse: %v\ninput:  %s\noutput: %s", err, text, out)
		}
		if out2 := s2.String(); out2 != out {
			t.Fatalf("String() not stable:\n%s\n%s", out, out2)
		}
		if s2.Canonical() != s.Canonical() || s2.Fingerprint() != s.Fingerprint() {
			t.Fatalf("canonical form changed:\n%s\n%s", s.Canonical(), s2.Canonical())
		}
		// Compiling the generic codecs of whatever parses, and decoding a
		// few bytes with them, ends in a value or a typed error: a schema
		// is input too (a registry hands out writer schemas).
		for _, in := range [][]byte{nil, {0}, {2, 0, 0, 0}, {0x80, 0x80, 0x80, 0x80, 0x10}} {
			var a any
			if err := avro.Unmarshal(s, in, &a); err != nil {
				checkDecodeError(t, err)
			}
			var v value.Value
			if err := avro.Unmarshal(s, in, &v); err != nil {
				checkDecodeError(t, err)
			} else if _, err := avro.Marshal(s, v); err != nil {
				t.Fatalf("decoded %v from % x but cannot re-encode it: %v", v, in, err)
			}
		}
		// Resolving the schema against itself reads the same.
		if rs, err := schema.Resolve(s, s2); err != nil {
			t.Fatalf("a schema does not resolve against itself: %v", err)
		} else {
			var a any
			if err := avro.Unmarshal(rs, []byte{0}, &a); err != nil {
				checkDecodeError(t, err)
			}
		}
		// The canonical form itself is not checked to re-parse: it drops
		// namespaces, so a null-namespace type defined inside a namespaced
		// one changes full name when its canonical form is parsed (a
		// limitation of the specification's form, shared by Java).
	})
}
