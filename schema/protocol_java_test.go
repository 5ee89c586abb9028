package schema_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
)

// protocolCases are protocols for the differential: each is accepted by
// both Java's Protocol.parse (Apache Avro 1.8.2, Debian's libavro-java)
// and ParseProtocol, or refused by both.
var protocolCases = []string{
	`{"protocol":"P"}`,
	`{"protocol":"a.b.P","types":[{"type":"record","name":"R","fields":[]}]}`,
	`{"protocol":"P","namespace":"n","types":[{"type":"enum","name":"E","symbols":["A"]},{"type":"record","name":"R","fields":[{"name":"e","type":"E"}]}],
	  "messages":{"m":{"request":[{"name":"r","type":"R"}],"response":"E"}}}`,
	`{"protocol":"P","types":[{"type":"error","name":"X","fields":[]}],"messages":{"m":{"request":[],"response":"null","errors":["X"]}}}`,
	`{"protocol":"P","messages":{"m":{"request":[],"response":"null","one-way":true}}}`,
	`{"protocol":"P","messages":{"m":{"request":[{"name":"x","type":{"type":"record","name":"Inline","fields":[]}}],"response":"Inline"}}}`,
	// refused by both
	`[]`,
	`{"namespace":"a"}`,
	`{"protocol":"P","types":[{"type":"record","name":"A","fields":[{"name":"b","type":"B"}]}]}`,
	`{"protocol":"P","types":[{"type":"enum","name":"E","symbols":["X"]},{"type":"fixed","name":"E","size":1}]}`,
	`{"protocol":"P","messages":{"m":{"request":[{"name":"x","type":"Nope"}],"response":"null"}}}`,
	`{"protocol":"P","messages":{"m":{"request":[],"response":"Nope"}}}`,
	`{"protocol":"P","messages":{"m":{"request":[],"response":"int","one-way":true}}}`,
	`{"protocol":"P","types":[{"type":"record","name":"R","fields":[]}],"messages":{"m":{"request":[],"response":"null","errors":["R"]}}}`,
	`{"protocol":"P","messages":{"m":{"response":"null"}}}`,
}

// Java's Protocol.parse and ParseProtocol accept and refuse the same
// protocols, and read the ones they accept to the same protocol: every
// upstream .avpr file and the cases above.
func TestProtocolsAgreeWithJava(t *testing.T) {
	dir := t.TempDir()
	fixture.CompileJava(t, dir, "testdata/java/ProtocolCheck.java")
	var files []string
	for _, pat := range []string{
		"share/test/schemas/*.avpr",
		"lang/java/compiler/src/test/idl/output/*.avpr",
		"lang/java/compiler/src/test/idl/input/*.avpr",
		"lang/java/tools/src/test/idl/*.avpr",
	} {
		m, _ := filepath.Glob("../../shared/testdata/apache-avro/" + pat)
		files = append(files, m...)
	}
	for i, c := range protocolCases {
		p := filepath.Join(dir, "case"+strconv.Itoa(i)+".avpr")
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	out := fixture.RunTool(t, "java", append([]string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-cp", fixture.JavaClassPath(dir), "ProtocolCheck"}, files...)...)
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d lines from Java for %d files:\n%s", len(lines), len(files), out)
	}
	// Java takes names of any script; so does ParseProtocol with
	// UnicodeNames, which the specification's ASCII rule leaves off by
	// default.
	opts := schema.ParseOptions{UnicodeNames: true}
	for i, f := range files {
		verdict, javaText, _ := strings.Cut(lines[i], "\t")
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := opts.ParseProtocol(string(data))
		name := filepath.Base(f)
		if strings.HasPrefix(name, "case") {
			name = protocolCases[i-(len(files)-len(protocolCases))]
		}
		switch {
		case verdict == "ok" && err != nil:
			t.Errorf("%s: Java parses it, ParseProtocol: %v", name, err)
		case verdict != "ok" && err == nil:
			t.Errorf("%s: Java refuses it (%s), ParseProtocol accepts it", name, javaText)
		case verdict == "ok":
			fromJava, err := opts.ParseProtocol(javaText)
			if err != nil {
				t.Errorf("%s: Java's output does not parse: %v\n%s", name, err, javaText)
				continue
			}
			if fromJava.String() != ours.String() {
				t.Errorf("%s: Java reads\n%s\nParseProtocol reads\n%s", name, fromJava, ours)
			}
		}
	}
}
