package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
)

// Interop tests of the command with the reference implementations that
// scripts/setup installs: Apache Java 1.8.2 (a small program compiled with
// javac at test time that reads a file with DataFileReader and writes each
// record with JsonEncoder, which is what avro-tools tojson runs, and
// computes SchemaNormalization's canonical form and fingerprint) and
// Apache C's avrocat. A missing tool fails the test: run scripts/setup.

const upstream = "../../../shared/testdata/apache-avro"

// javaSource is absolute: a test may have moved to its work folder.
var javaSource, _ = filepath.Abs("testdata/interop/CmdInterop.java")

var (
	javaOnce sync.Once
	javaDir  string
	javaOK   bool
)

// java runs the interop program with args and returns its output.
func java(t *testing.T, args ...string) []byte {
	t.Helper()
	for _, j := range []string{"avro", "jackson-core-asl", "jackson-mapper-asl"} {
		if _, err := os.Stat("/usr/share/java/" + j + ".jar"); err != nil {
			t.Fatalf("interop: /usr/share/java/%s.jar missing (libavro-java): run scripts/setup", j)
		}
	}
	javaOnce.Do(func() {
		dir, err := os.MkdirTemp("", "avro-cmd-java-")
		if err != nil {
			t.Fatal(err)
		}
		javaDir = dir
		fixture.CompileJava(t, dir, javaSource)
		javaOK = true
	})
	if !javaOK {
		t.Fatal("interop: the Java program did not compile")
	}
	return fixture.RunTool(t, "java", append([]string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-cp", fixture.JavaClassPath(javaDir), "CmdInterop"}, args...)...)
}

// jsonLines parses each line of text as a JSON value, numbers kept as
// their text.
func jsonLines(t *testing.T, who string, text []byte) []any {
	t.Helper()
	var out []any
	for i, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		if line == "" && len(text) == 0 {
			break
		}
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s, line %d: %v: %q", who, i+1, err, line)
		}
		out = append(out, v)
	}
	return out
}

// sameJSON compares parsed JSON values. Objects compare as maps (the
// order of a record's fields is the schema's for every writer, and a map's
// order is not data). Numbers compare by value, not by their text: Java
// writes a double as 1.0E10 where we write 10000000000, and a float may be
// printed as the shortest text of the float32 or of its float64 widening
// (0.1 or 0.10000000149011612), so two numbers are the same when their
// float64 values are, or their float32 roundings are when one of them is a
// float32's shortest text. Strings compare as parsed, so that escaping
// (\u00e9 or é, \/ or /) of bytes and strings does not matter.
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		if a == b {
			return true
		}
		x, err1 := strconv.ParseFloat(string(a), 64)
		y, err2 := strconv.ParseFloat(string(b), 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return x == y || float32(x) == float32(y) && (isFloat32Text(string(a)) || isFloat32Text(string(b))) && !math.IsInf(float64(float32(x)), 0)
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// isFloat32Text reports whether s is the shortest text of a float32.
func isFloat32Text(s string) bool {
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return false
	}
	x, _ := strconv.ParseFloat(s, 64)
	return float64(float32(f)) == x || strconv.FormatFloat(f, 'g', -1, 32) == strconv.FormatFloat(x, 'g', -1, 32)
}

// sameRecords fails t unless two readers read the same records.
func sameRecords(t *testing.T, file, who string, want, got []byte) {
	t.Helper()
	w, g := jsonLines(t, "avro tojson", want), jsonLines(t, who, got)
	if len(w) != len(g) {
		t.Fatalf("%s: avro tojson prints %d records, %s %d", file, len(w), who, len(g))
	}
	for i := range w {
		if !sameJSON(w[i], g[i]) {
			t.Errorf("%s, record %d:\navro tojson: %s\n%s: %s", file, i, line(want, i), who, line(got, i))
			return
		}
	}
}

func line(text []byte, i int) string { return strings.Split(string(text), "\n")[i] }

// upstreamFiles lists the container files of the upstream test data.
func upstreamFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.Walk(upstream, func(path string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && strings.HasSuffix(path, ".avro") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) < 20 {
		t.Fatalf("upstream container files: %d found, %v", len(files), err)
	}
	return files
}

// javaCannotRead are the upstream files that Java 1.8.2 does not read,
// and why; avro tojson reads the first ones and refuses the bad ones.
var javaCannotRead = map[string]string{
	"weather-zstd.avro":                     "zstandard came with Java 1.9",
	"py_zstandard.avro":                     "zstandard came with Java 1.9",
	"avro-1237-bad-union-discriminant.avro": "bad",
	"avro-1238-truncated.avro":              "bad",
	// A stray byte after the last block: Java fails with an EOFException.
	"person-10.no-codec.avro": "bad",
}

// avro tojson prints the records of the upstream files that Java's
// DataFileReader and JsonEncoder print, and avrocat reads as many.
func TestInteropToJSONUpstream(t *testing.T) {
	for _, f := range upstreamFiles(t) {
		t.Run(strings.TrimPrefix(f, upstream+"/"), func(t *testing.T) {
			ours, errb, code := runAvro([]string{"tojson", f}, nil)
			switch javaCannotRead[filepath.Base(f)] {
			case "bad":
				if code != exitFail {
					t.Errorf("avro tojson of a bad file: exit %d, stderr %q", code, errb)
				}
				return
			case "":
				if code != exitOK {
					t.Fatalf("avro tojson: exit %d: %s", code, errb)
				}
				sameRecords(t, f, "Java", ours, java(t, "tojson", f))
			default:
				if code != exitOK || len(ours) == 0 {
					t.Fatalf("avro tojson: exit %d: %s", code, errb)
				}
			}
		})
	}
}

// Files that the commands write are read back by Java and by avrocat with
// the records avro tojson prints.
func TestInteropCommandsWrite(t *testing.T) {
	fixture.NeedTool(t, "avrocat", "Apache C tools, Debian avro-bin")
	dir := workDir(t)
	t.Chdir(dir)
	in, _, code := runAvro([]string{"tojson", "readings.avro"}, nil)
	if code != exitOK {
		t.Fatal("tojson readings.avro failed")
	}
	if err := os.WriteFile("readings.json", in, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"fromjson", []string{"fromjson", "--schema", "readings.avsc", "readings.json", "fromjson.avro"}},
		{"fromjson-deflate", []string{"fromjson", "--schema", "readings.avsc", "--codec", "deflate", "readings.json", "fromjson-deflate.avro"}},
		{"cat", []string{"cat", "readings.avro", "readings-deflate.avro", "cat.avro"}},
		{"cat-sampled", []string{"cat", "--offset", "3", "--limit", "20", "--codec", "snappy", "readings.avro", "cat-sampled.avro"}},
		{"concat", []string{"concat", "readings.avro", "readings-deflate.avro", "concat.avro"}},
		{"recodec-snappy", []string{"recodec", "--codec", "snappy", "readings-deflate.avro", "recodec-snappy.avro"}},
		{"recodec-null", []string{"recodec", "--codec", "null", "readings-deflate.avro", "recodec-null.avro"}},
		{"random", []string{"random", "--schema", "readings.avsc", "--count", "200", "--seed", "7", "random.avro"}},
		{"random-weather", []string{"random", "--schema", "weather.avsc", "--count", "100", "--seed", "3", "--codec", "deflate", "random-weather.avro"}},
		{"repair", []string{"repair", "damaged.avro", "repair.avro"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// repair exits 1 when it found damage, as it does here.
			if _, errb, code := runAvro(tc.args, nil); code != exitOK && (tc.name != "repair" || code != exitFail) {
				t.Fatalf("avro %s: exit %d: %s", strings.Join(tc.args, " "), code, errb)
			}
			file := tc.args[len(tc.args)-1]
			ours, errb, code := runAvro([]string{"tojson", file}, nil)
			if code != exitOK || len(ours) == 0 {
				t.Fatalf("avro tojson %s: exit %d: %s", file, code, errb)
			}
			sameRecords(t, file, "Java", ours, java(t, "tojson", file))
			sameRecords(t, file, "avrocat", ours, fixture.RunTool(t, "avrocat", file))
		})
	}
}

// canonical and fingerprint print what Java's SchemaNormalization
// computes, toParsingForm and parsingFingerprint64, for every upstream
// schema Java parses; the schemas Java refuses are refused too.
func TestInteropCanonicalJava(t *testing.T) {
	var files []string
	err := filepath.Walk(upstream, func(path string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && (strings.HasSuffix(path, ".avsc") ||
			strings.Contains(path, "schema_tests/pass/") || strings.Contains(path, "c++/jsonschemas/")) {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) < 50 {
		t.Fatalf("upstream schemas: %d found, %v", len(files), err)
	}
	sort.Strings(files)
	lines := strings.Split(strings.TrimSuffix(string(java(t, append([]string{"schemas"}, files...)...)), "\n"), "\n")
	if len(lines) != len(files) {
		t.Fatalf("Java printed %d lines for %d schemas", len(lines), len(files))
	}
	agreed := 0
	for i, f := range files {
		form, fp, _ := strings.Cut(lines[i], "\t")
		canon, errb, code := runAvro([]string{"canonical", f}, nil)
		if form == "error" {
			// Java 1.8.2 refuses a few schemas that Avro 1.12 allows
			// (logical types it does not know are fine, but it checks
			// names and defaults as the version it is): those are not
			// compared.
			continue
		}
		if code != exitOK {
			t.Errorf("%s: Java parses it, avro canonical exits %d: %s", f, code, errb)
			continue
		}
		if got := strings.TrimSuffix(string(canon), "\n"); got != form {
			t.Errorf("%s: canonical form\n ours %s\nJava %s", f, got, form)
		}
		out, _, _ := runAvro([]string{"fingerprint", f}, nil)
		if got := strings.TrimSuffix(string(out), "\n"); got != fp {
			t.Errorf("%s: fingerprint ours %s, Java %s", f, got, fp)
		}
		agreed++
	}
	if agreed < len(files)*3/4 {
		t.Errorf("only %d of %d schemas compared: Java refused the others", agreed, len(files))
	}
}

// compat's answer is schema.CheckMode's on every reader and writer pair of
// the upstream compatibility tests, and the upstream checker's.
func TestInteropCompatUpstream(t *testing.T) {
	b, err := os.ReadFile(upstream + "/derived/py-compatibility.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Reader, Writer json.RawMessage
			Compatible     bool
		}
	}
	if err := json.Unmarshal(b, &file); err != nil || len(file.Cases) < 100 {
		t.Fatalf("%d cases, %v", len(file.Cases), err)
	}
	dir := t.TempDir()
	for i, c := range file.Cases {
		rp, wp := filepath.Join(dir, fmt.Sprintf("r%d.avsc", i)), filepath.Join(dir, fmt.Sprintf("w%d.avsc", i))
		if err := os.WriteFile(rp, c.Reader, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(wp, c.Writer, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err1 := schema.Parse(string(c.Reader))
		w, err2 := schema.Parse(string(c.Writer))
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d: %v %v", i, err1, err2)
		}
		lib := schema.CheckMode(schema.Backward, r, w) == nil
		out, errb, code := runAvro([]string{"compat", "--mode", "backward", rp, wp}, nil)
		if want := map[bool]int{true: exitOK, false: exitFail}[lib]; code != want {
			t.Errorf("case %d: avro compat exits %d, CheckMode says compatible=%v\n%s%s", i, code, lib, out, errb)
		}
		if lib != c.Compatible {
			t.Errorf("case %d: CheckMode says compatible=%v, the upstream checker %v", i, lib, c.Compatible)
		}
		// forward: the writer, as the new schema, read by the reader.
		fwd := schema.CheckMode(schema.Forward, w, r) == nil
		if _, _, code := runAvro([]string{"compat", "--mode", "forward", wp, rp}, nil); (code == exitOK) != fwd || code == exitUsage {
			t.Errorf("case %d forward: avro compat exits %d, CheckMode says %v", i, code, fwd)
		}
	}
}
