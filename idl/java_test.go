package idl

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// javaIDLFiles are the IDL files that use only what Java 1.8.2's IDL knows:
// the others use imports of idl files, forward references, enum defaults,
// the schema syntax, "type?" or the keywords uuid and local_timestamp_ms,
// all added after 1.8.2.
var javaIDLFiles = []string{
	filepath.Join(compilerIDL, "input", "baseball.avdl"),
	filepath.Join(compilerIDL, "input", "interop.avdl"),
	filepath.Join(compilerIDL, "input", "namespaces.avdl"),
	filepath.Join(compilerIDL, "input", "unicode.avdl"),
	filepath.Join(toolsIDL, "protocol.avdl"),
	"testdata/annotations.avdl",
}

// javaClassPath is where Debian's libavro-java and libavro-compiler-java
// (1.8.2) put their jars.
func javaIDLClassPath(dir string) string {
	var jars []string
	for _, j := range []string{"avro", "avro-compiler", "avro-guava-dependencies", "jackson-core-asl",
		"jackson-mapper-asl", "commons-lang", "paranamer", "slf4j-api"} {
		jars = append(jars, "/usr/share/java/"+j+".jar")
	}
	return strings.Join(append(jars, dir), ":")
}

// generatedIDLFiles is how many random protocols TestJavaDifferential
// prints as IDL for Java and us to read.
const generatedIDLFiles = 60

// TestJavaDifferential runs Java 1.8.2's org.apache.avro.compiler.idl.Idl
// (libavro-compiler-java, installed by scripts/setup) on each file of
// javaIDLFiles and compares its protocol with ours. Java 1.8.2 keeps the
// leading stars and indentation of doc comments, which 1.12 removes; its
// docs are compared after that removal.
func TestJavaDifferential(t *testing.T) {
	for _, tool := range []string{"java", "javac"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s missing: run scripts/setup", tool)
		}
	}
	for _, j := range []string{"avro-compiler", "avro"} {
		if _, err := os.Stat("/usr/share/java/" + j + ".jar"); err != nil {
			t.Fatalf("/usr/share/java/%s.jar missing (libavro-compiler-java): run scripts/setup", j)
		}
	}
	dir := t.TempDir()
	files := append([]string(nil), javaIDLFiles...)
	rng := rand.New(rand.NewPCG(54, 1))
	for i := range generatedIDLFiles {
		p := filepath.Join(dir, fmt.Sprintf("gen%02d.avdl", i))
		if err := os.WriteFile(p, []byte(genIDL(rng, i)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	if out, err := exec.Command("javac", "-nowarn", "-cp", javaIDLClassPath(dir), "-d", dir,
		"testdata/java/IdlJSON.java").CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	args := append([]string{"-cp", javaIDLClassPath(dir), "IdlJSON", classpath}, files...)
	cmd := exec.Command("java", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != len(files) {
		t.Fatalf("java printed %d protocols for %d files:\n%s\n%s", len(lines), len(files), out, stderr.Bytes())
	}
	for i, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if strings.HasPrefix(lines[i], "ERROR ") {
				src, _ := os.ReadFile(path)
				t.Fatalf("Java refuses %s: %s\n%s", path, lines[i], src)
			}
			f, err := parseFile(path, WithSearchPath(classpath))
			if err != nil {
				t.Fatal(err)
			}
			want, err := decodeJSON([]byte(lines[i]), 10000)
			if err != nil {
				t.Fatal(err)
			}
			normalizeJava18(want, true)
			var buf bytes.Buffer
			want.write(&buf)
			if d := sameJSONText(f.ProtocolJSON(), buf.Bytes()); d != "" {
				src, _ := os.ReadFile(path)
				t.Errorf("%s\nours: %s\njava: %s\n%s", d, f.ProtocolJSON(), buf.Bytes(), src)
			}
		})
	}
}

// normalizeJava18 turns Java 1.8.2's protocol into what 1.12 writes: docs
// without their stars and indentation, and no null namespace.
func normalizeJava18(v *jvalue, top bool) {
	switch v.kind {
	case jArray:
		for _, x := range v.arr {
			normalizeJava18(x, false)
		}
	case jObject:
		keys, vals := v.keys[:0:0], v.vals[:0:0]
		for i, k := range v.keys {
			x := v.vals[i]
			if top && k == "namespace" && x.kind == jNull {
				continue
			}
			if k == "doc" && x.kind == jString {
				x = jstr(stripIndents(x.s))
			}
			normalizeJava18(x, false)
			keys, vals = append(keys, k), append(vals, x)
		}
		v.keys, v.vals = keys, vals
	}
}
