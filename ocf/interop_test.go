package ocf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/fixture"
	"github.com/google/go-cmp/cmp"
)

// Interop tests run the reference implementations that scripts/setup
// installs: Apache Python (/usr/bin/python3 with python3-avro), Apache C
// (avrocat, avromod, avroappend from avro-bin), Apache Java 1.8.2
// (libavro-java, compiled with javac at test time) and avsc 5.7.9 on
// Node.js (in testdata/js/node_modules). A missing tool fails the test:
// run scripts/setup.

const interopRecords = 200

// toolRecord is the record the helper scripts generate (gen in
// testdata/interop/*); keep them in step.
func toolRecord(i int) Bench {
	raw := make([]byte, 16)
	for j := range raw {
		raw[j] = byte(i * j)
	}
	r := Bench{
		ID: int32(i), TS: 1700000000000 + int64(i)*7919, Name: "name-" + strconv.Itoa(i),
		Score: float64(i)*1.5 - 7.25, Active: i%2 == 0,
		Values: []int64{int64(i), int64(-i), int64(i) * 1000, 1<<40 + int64(i), -(1 << 50), 0},
		Tags:   map[string]string{"a": strconv.Itoa(i), "b": strings.Repeat("x", i%5)},
		Raw:    raw, Inner: Inner{X: int32(-i), Label: "L" + strconv.Itoa(i)},
	}
	if i%3 != 0 {
		s := "note-" + strconv.Itoa(i)
		r.Note = &s
	}
	return r
}

func toolRecords(n int) []Bench {
	out := make([]Bench, n)
	for i := range out {
		out[i] = toolRecord(i)
	}
	return out
}

// expectedJSON is recs in the JSON model the tools print.
func expectedJSON(t testing.TB, recs []Bench) []any {
	out := make([]any, len(recs))
	for i := range recs {
		b, err := avro.Marshal(benchSchema, &recs[i])
		if err != nil {
			t.Fatal(err)
		}
		var a any
		if err := avro.Unmarshal(benchSchema, b, &a); err != nil {
			t.Fatal(err)
		}
		out[i] = toJSONModel(a)
	}
	return out
}

var (
	need = fixture.NeedTool
	run  = fixture.RunTool
)

// A tool reads and writes container files of benchSchema.
type tool struct {
	name   string
	reads  []string // codecs it reads
	writes []string // codecs it writes
	setup  func(t *testing.T)
	read   func(t *testing.T, path string) []byte // prints {"codec","meta","records"}
	write  func(t *testing.T, path, codec string, n int)
}

func schemaFile(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "bench.avsc")
	if err := os.WriteFile(p, []byte(benchSchemaText), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	javaOnce sync.Once
	javaDir  string
	javaErr  error
)

func javaClassPath() string { return fixture.JavaClassPath(javaDir) }

var tools = []tool{
	{
		name:   "python",
		reads:  []string{CodecNull, CodecDeflate, CodecSnappy, CodecZstandard},
		writes: []string{CodecNull, CodecDeflate, CodecSnappy, CodecZstandard, CodecBzip2}, // 1.11 writes no xz
		setup: func(t *testing.T) {
			need(t, "/usr/bin/python3", "Debian python3")
			if out, err := exec.Command("/usr/bin/python3", "-c", "import avro, zstandard, snappy").CombinedOutput(); err != nil {
				t.Fatalf("interop: python3-avro, python3-zstandard or python3-snappy missing: run scripts/setup\n%s", out)
			}
		},
		read: func(t *testing.T, path string) []byte {
			return run(t, "/usr/bin/python3", "testdata/interop/interop.py", "read", path)
		},
		write: func(t *testing.T, path, codec string, n int) {
			run(t, "/usr/bin/python3", "testdata/interop/interop.py", "write", path, codec, strconv.Itoa(n), schemaFile(t))
		},
	},
	{
		name:   "java",
		reads:  []string{CodecNull, CodecDeflate, CodecSnappy},
		writes: []string{CodecNull, CodecDeflate, CodecSnappy, CodecBzip2, CodecXZ},
		setup: func(t *testing.T) {
			need(t, "java", "Java 17")
			need(t, "javac", "Java 17 compiler")
			for _, j := range []string{"avro", "xz", "snappy-java", "commons-compress"} {
				if _, err := os.Stat("/usr/share/java/" + j + ".jar"); err != nil {
					t.Fatalf("interop: /usr/share/java/%s.jar missing (libavro-java): run scripts/setup", j)
				}
			}
			javaOnce.Do(func() {
				javaDir, javaErr = os.MkdirTemp("", "ocf-java-")
				if javaErr != nil {
					return
				}
				out, err := exec.Command("javac", "-nowarn", "-cp", javaClassPath(), "-d", javaDir,
					"testdata/interop/Interop.java").CombinedOutput()
				if err != nil {
					javaErr = fmt.Errorf("javac: %v\n%s", err, out)
				}
			})
			if javaErr != nil {
				t.Fatal(javaErr)
			}
		},
		read: func(t *testing.T, path string) []byte {
			return run(t, "java", "-cp", javaClassPath(), "Interop", "read", path)
		},
		write: func(t *testing.T, path, codec string, n int) {
			run(t, "java", "-cp", javaClassPath(), "Interop", "write", path, codec, strconv.Itoa(n), schemaFile(t))
		},
	},
	{
		name:   "avsc",
		reads:  []string{CodecNull, CodecDeflate},
		writes: []string{CodecNull, CodecDeflate},
		setup: func(t *testing.T) {
			need(t, "node", "Node.js")
			if _, err := os.Stat("testdata/js/node_modules/avsc/package.json"); err != nil {
				t.Fatal("interop: avsc is not installed in ocf/testdata/js: run scripts/setup")
			}
		},
		read: func(t *testing.T, path string) []byte {
			return run(t, "node", "testdata/interop/interop.js", "read", path)
		},
		write: func(t *testing.T, path, codec string, n int) {
			run(t, "node", "testdata/interop/interop.js", "write", path, codec, strconv.Itoa(n), schemaFile(t))
		},
	},
}

func TestMain(m *testing.M) {
	code := m.Run()
	if javaDir != "" {
		if err := os.RemoveAll(javaDir); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

type toolOutput struct {
	Codec   string            `json:"codec"`
	Meta    map[string]string `json:"meta"`
	Records json.RawMessage   `json:"records"`
}

// TestInteropToolsReadOurs writes files with each codec and has every
// reference implementation read them back.
func TestInteropToolsReadOurs(t *testing.T) {
	recs := toolRecords(interopRecords)
	want := expectedJSON(t, recs)
	for _, tl := range tools {
		t.Run(tl.name, func(t *testing.T) {
			tl.setup(t)
			for _, codec := range tl.reads {
				t.Run(codec, func(t *testing.T) {
					path := filepath.Join(t.TempDir(), "ours-"+codec+".avro")
					data := writeFile(t, recs, WithCodec(codec), WithBlockSize(4096), WithMetadata("user.key", []byte("from-go")))
					if err := os.WriteFile(path, data, 0o644); err != nil {
						t.Fatal(err)
					}
					var out toolOutput
					if err := json.Unmarshal(tl.read(t, path), &out); err != nil {
						t.Fatal(err)
					}
					if out.Codec != codec || out.Meta["user.key"] != "from-go" {
						t.Errorf("%s sees codec %q and metadata %q", tl.name, out.Codec, out.Meta)
					}
					got := parseJSON(t, out.Records)
					if diff := cmp.Diff(any(want), got, numberEqual); diff != "" {
						t.Errorf("%s read (-ours +%s):\n%s", tl.name, tl.name, diff)
					}
				})
			}
		})
	}
}

// TestInteropOursReadTools has every reference implementation write files
// with each codec it supports and reads them.
func TestInteropOursReadTools(t *testing.T) {
	want := toolRecords(interopRecords)
	for _, tl := range tools {
		t.Run(tl.name, func(t *testing.T) {
			tl.setup(t)
			for _, codec := range tl.writes {
				t.Run(codec, func(t *testing.T) {
					path := filepath.Join(t.TempDir(), tl.name+"-"+codec+".avro")
					tl.write(t, path, codec, interopRecords)
					data, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					got, r := readBench(t, data)
					if r.Codec() != codec || string(r.Metadata()["user.key"]) != "from-"+tl.name {
						t.Errorf("codec %q, metadata %q", r.Codec(), r.Metadata())
					}
					if diff := diffRecords(want, got); diff != "" {
						t.Errorf("(-want +got):\n%s", diff)
					}
					if blocks, _ := countBlocks(t, data); blocks < 2 {
						t.Errorf("%s wrote %d blocks; the test wants several", tl.name, blocks)
					}
				})
			}
		})
	}
}

// TestInteropC has Apache C read our files (avrocat, and avromod, which
// decodes every record and writes a new file that we read back) and
// append to them (avroappend).
func TestInteropC(t *testing.T) {
	for _, c := range []string{"avrocat", "avromod", "avroappend"} {
		need(t, c, "Apache C tools, Debian avro-bin")
	}
	recs := toolRecords(interopRecords)
	for _, codec := range []string{CodecNull, CodecDeflate, CodecSnappy} {
		t.Run(codec, func(t *testing.T) {
			dir := t.TempDir()
			ours := filepath.Join(dir, "ours.avro")
			if err := os.WriteFile(ours, writeFile(t, recs, WithCodec(codec), WithBlockSize(4096)), 0o644); err != nil {
				t.Fatal(err)
			}
			lines := bytes.Count(run(t, "avrocat", ours), []byte("\n"))
			if lines != interopRecords {
				t.Errorf("avrocat printed %d records, want %d", lines, interopRecords)
			}
			// C decodes our file and re-encodes it with the same codec.
			theirs := filepath.Join(dir, "c.avro")
			run(t, "avromod", "--codec="+codec, ours, theirs)
			data, _ := os.ReadFile(theirs)
			got, r := readBench(t, data)
			if r.Codec() != codec {
				t.Errorf("avromod wrote codec %q", r.Codec())
			}
			if diff := diffRecords(recs, got); diff != "" {
				t.Errorf("C round trip (-want +got):\n%s", diff)
			}
			// C appends its file's records to ours.
			run(t, "avroappend", theirs, ours)
			data, _ = os.ReadFile(ours)
			got, _ = readBench(t, data)
			if diff := diffRecords(append(slicesClone(recs), recs...), got); diff != "" {
				t.Errorf("after avroappend (-want +got):\n%s", diff)
			}
		})
	}
}

func slicesClone[T any](s []T) []T { return append([]T(nil), s...) }

// TestInteropAppend appends with NewAppender to files that Python and Java
// wrote, and has them read the result.
func TestInteropAppend(t *testing.T) {
	recs := toolRecords(interopRecords)
	for _, tl := range tools[:2] { // python, java
		t.Run(tl.name, func(t *testing.T) {
			tl.setup(t)
			for _, codec := range []string{CodecNull, CodecDeflate, CodecSnappy} {
				t.Run(codec, func(t *testing.T) {
					path := filepath.Join(t.TempDir(), "f.avro")
					tl.write(t, path, codec, 100)
					f, err := os.OpenFile(path, os.O_RDWR, 0)
					if err != nil {
						t.Fatal(err)
					}
					w, err := NewAppender(f, WithBlockCount(30))
					if err != nil {
						t.Fatal(err)
					}
					for i := 100; i < interopRecords; i++ {
						if err := w.Encode(&recs[i]); err != nil {
							t.Fatal(err)
						}
					}
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
					if err := f.Close(); err != nil {
						t.Fatal(err)
					}
					var out toolOutput
					if err := json.Unmarshal(tl.read(t, path), &out); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(any(expectedJSON(t, recs)), parseJSON(t, out.Records), numberEqual); diff != "" {
						t.Errorf("%s read the appended file (-want +got):\n%s", tl.name, diff)
					}
				})
			}
		})
	}
}
