package avrojson_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
)

// The interop tests of the JSON encoding run the reference
// implementations that scripts/setup installs: Apache Java 1.8.2
// (libavro-java, its JsonDecoder and JsonEncoder, compiled with javac at
// test time) and avsc 5.7.9 on Node.js (type.fromString and
// type.toString, from ../ocf/testdata/js/node_modules). Each peer runs
// once for all schemas. A missing tool fails the test: run scripts/setup.
//
// For every schema, random datums go both ways: we write a datum as JSON
// and the peer reads the text and writes it in binary, which must be the
// datum byte for byte; the peer reads another datum and writes it as JSON,
// which we read back to the same bytes. Where a peer departs from the
// specification, the datums it gets are kept from the values concerned
// (see jsonLimits), and the departure itself is checked as one of the
// peer's deviations, next to what the specification and we do.

const interopDatums = 200

// interopSchemas together hold every Avro type, every logical type and
// every shape of union, at the top level and nested.
var interopSchemas = []struct{ name, text string }{
	{"primitives", `{"type":"record","name":"Primitives","namespace":"interop","fields":[
		{"name":"n","type":"null"},{"name":"b","type":"boolean"},{"name":"i","type":"int"},
		{"name":"l","type":"long"},{"name":"f","type":"float"},{"name":"d","type":"double"},
		{"name":"by","type":"bytes"},{"name":"s","type":"string"}]}`},
	{"top-null", `"null"`},
	{"top-boolean", `"boolean"`},
	{"top-int", `"int"`},
	{"top-long", `"long"`},
	{"top-float", `"float"`},
	{"top-double", `"double"`},
	{"top-bytes", `"bytes"`},
	{"top-string", `"string"`},
	{"top-enum", `{"type":"enum","name":"top.Dir","symbols":["N","E","S","W"]}`},
	{"top-fixed", `{"type":"fixed","name":"top.Six","size":6}`},
	{"top-map-bytes", `{"type":"map","values":"bytes"}`},
	{"complex", `{"type":"record","name":"Complex","namespace":"interop","fields":[
		{"name":"suit","type":{"type":"enum","name":"Suit","symbols":["SPADES","HEARTS","DIAMONDS","CLUBS"]}},
		{"name":"one","type":{"type":"enum","name":"One","symbols":["ONLY"]}},
		{"name":"md5","type":{"type":"fixed","name":"MD5","size":16}},
		{"name":"ints","type":{"type":"array","items":"int"}},
		{"name":"names","type":{"type":"map","values":"string"}},
		{"name":"inner","type":{"type":"record","name":"Inner","fields":[
			{"name":"x","type":"long"},{"name":"tags","type":{"type":"array","items":"string"}}]}},
		{"name":"inners","type":{"type":"array","items":"Inner"}},
		{"name":"hashes","type":{"type":"map","values":{"type":"array","items":"MD5"}}},
		{"name":"nested","type":{"type":"map","values":{"type":"map","values":"long"}}},
		{"name":"grid","type":{"type":"array","items":{"type":"array","items":"float"}}},
		{"name":"nothing","type":{"type":"record","name":"Nothing","fields":[]}}]}`},
	// Java 1.8.2 knows decimal, uuid, date, time-* and timestamp-*; the
	// local timestamps and duration it reads as their Avro types, as
	// avsc does every logical type without a registry. In the
	// specification's JSON a logical type is written as its Avro type, so
	// either way the text is the same.
	{"logical", `{"type":"record","name":"Logical","namespace":"interop","fields":[
		{"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":20,"scale":4}},
		{"name":"dec_fixed","type":{"type":"fixed","name":"Dec10","size":10,"logicalType":"decimal","precision":23,"scale":3}},
		{"name":"id","type":{"type":"string","logicalType":"uuid"}},
		{"name":"day","type":{"type":"int","logicalType":"date"}},
		{"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
		{"name":"tu","type":{"type":"long","logicalType":"time-micros"}},
		{"name":"tsm","type":{"type":"long","logicalType":"timestamp-millis"}},
		{"name":"tsu","type":{"type":"long","logicalType":"timestamp-micros"}},
		{"name":"ltm","type":{"type":"long","logicalType":"local-timestamp-millis"}},
		{"name":"ltu","type":{"type":"long","logicalType":"local-timestamp-micros"}},
		{"name":"dur","type":{"type":"fixed","name":"Duration","size":12,"logicalType":"duration"}}]}`},
	// Logical types newer than both peers, which read them as the plain
	// long, bytes and fixed underneath.
	{"logical-newer", `{"type":"record","name":"Newer","namespace":"interop","fields":[
		{"name":"tsn","type":{"type":"long","logicalType":"timestamp-nanos"}},
		{"name":"ltn","type":{"type":"long","logicalType":"local-timestamp-nanos"}},
		{"name":"big","type":{"type":"bytes","logicalType":"big-decimal"}},
		{"name":"uid","type":{"type":"fixed","name":"UUID","size":16,"logicalType":"uuid"}}]}`},
	{"optional", `{"type":"record","name":"Optional","namespace":"interop","fields":[
		{"name":"b","type":["null","boolean"]},
		{"name":"i","type":["int","null"]},
		{"name":"l","type":["null","long"]},
		{"name":"f","type":["float","null"]},
		{"name":"d","type":["null","double"]},
		{"name":"by","type":["bytes","null"]},
		{"name":"s1","type":["null","string"]},
		{"name":"s2","type":["string","null"]},
		{"name":"r","type":["null",{"type":"record","name":"Leaf","fields":[{"name":"v","type":"int"}]}]},
		{"name":"r2","type":["Leaf","null"]},
		{"name":"e","type":[{"type":"enum","name":"Flag","symbols":["ON","OFF"]},"null"]},
		{"name":"fx","type":["null",{"type":"fixed","name":"Four","size":4}]},
		{"name":"a","type":[{"type":"array","items":"long"},"null"]},
		{"name":"m","type":["null",{"type":"map","values":"float"}]}]}`},
	{"primitive-unions", `{"type":"record","name":"Multi","namespace":"interop","fields":[
		{"name":"num","type":["int","long","float","double"]},
		{"name":"any","type":["null","boolean","int","long","float","double","bytes","string"]},
		{"name":"text","type":["string","bytes"]},
		{"name":"items","type":{"type":"array","items":["null","long","string"]}},
		{"name":"vals","type":{"type":"map","values":["double","null","boolean"]}}]}`},
	// Three records named Point, in three namespaces (the last one the
	// enclosing record's): the tag must be the full name.
	{"named-unions", `{"type":"record","name":"Shapes","namespace":"app","fields":[
		{"name":"point","type":[
			{"type":"record","name":"Point","namespace":"geo","fields":[{"name":"lat","type":"double"},{"name":"lon","type":"double"}]},
			{"type":"record","name":"img.Point","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"}]},
			{"type":"record","name":"Point","fields":[{"name":"label","type":"string"}]},
			"null"]},
		{"name":"again","type":["null","geo.Point","img.Point","Point"]},
		{"name":"named","type":["null",
			{"type":"enum","name":"Color","namespace":"x.y","symbols":["RED","GREEN"]},
			{"type":"fixed","name":"x.y.Hash","size":4},
			{"type":"array","items":"geo.Point"},
			{"type":"map","values":"img.Point"}]},
		{"name":"refs","type":["x.y.Color","x.y.Hash","null"]}]}`},
	{"logical-unions", `{"type":"record","name":"LogicalUnions","namespace":"interop","fields":[
		{"name":"when","type":["null",{"type":"long","logicalType":"timestamp-millis"}]},
		{"name":"mixed","type":[{"type":"int","logicalType":"date"},{"type":"long","logicalType":"timestamp-micros"},
			{"type":"string","logicalType":"uuid"},{"type":"bytes","logicalType":"decimal","precision":9,"scale":2},"null"]},
		{"name":"fixeds","type":["null",{"type":"fixed","name":"Dur","size":12,"logicalType":"duration"},
			{"type":"fixed","name":"Dec4","size":4,"logicalType":"decimal","precision":9,"scale":0}]}]}`},
	{"top-union", `["null","int","string",
		{"type":"record","name":"t.R","fields":[{"name":"a","type":"long"},{"name":"b","type":["null","t.R"]}]},
		{"type":"array","items":"t.R"},{"type":"map","values":"int"},
		{"type":"enum","name":"t.E","symbols":["A","B"]},{"type":"fixed","name":"t.F","size":2}]`},
	{"recursive", `{"type":"record","name":"Tree","namespace":"rec","fields":[
		{"name":"v","type":"int"},
		{"name":"kids","type":{"type":"array","items":"Tree"}},
		{"name":"next","type":["null","Tree"]},
		{"name":"byname","type":{"type":"map","values":"rec.Tree"}}]}`},
	{"deep-collections", `{"type":"array","items":{"type":"array","items":{"type":"map",
		"values":["null","double",{"type":"array","items":"string"}]}}}`},
}

// jsonLimits are the values a peer's JSON reader or writer gets wrong, which
// its random datums are kept from.
type jsonLimits uint

const (
	// Avro strings are Unicode text; peers hold them in UTF-16 and write
	// U+FFFD for bytes that are not UTF-8, which we keep byte for byte.
	unicodeStrings jsonLimits = 1 << iota
	noNaN
	noInfinity
	noNegativeZero
	// avsc holds longs in float64s and rejects those beyond ±(2^53-2).
	safeLongs
	// JavaScript objects put keys that are array indexes ("0", "42")
	// first, which would reorder map entries. The fixture's keys hold no
	// digits; this keeps the test independent of that.
	noIndexKeys
)

// A jsonDeviation is a value that a peer reads or writes otherwise than the
// specification says: the test checks both what we do (the
// specification) and what the peer does, so that a peer that changes, or
// a change on our side, shows.
type jsonDeviation struct {
	what   string
	schema string
	// Either a JSON text that the peer reads...
	text string
	// (from a byte stream if stream is set: Java's jsonDecoder(Schema,
	// InputStream) rather than jsonDecoder(Schema, String))
	stream bool
	// ...or a binary datum that it writes as JSON.
	datum []byte
	// spec is what the specification gives: the binary datum of text, or
	// the JSON of datum; nil for text that must be ErrInvalid.
	spec []byte
	// peer is what the peer gives; nil when it fails.
	peer []byte
}

type jsonPeer struct {
	name  string
	setup func(t *testing.T, dir string)
	run   func(t *testing.T, dir, in, out string)
	// reads are the limits of the datums whose JSON the peer reads;
	// writes of those it writes as JSON.
	reads, writes jsonLimits
	deviations    []jsonDeviation
}

func le64(f float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(f)) }
func le32(f float32) []byte { return binary.LittleEndian.AppendUint32(nil, math.Float32bits(f)) }
func zigzag(v int64) []byte { return binary.AppendVarint(nil, v) }

var negZero = math.Copysign(0, -1)

var jsonPeers = []jsonPeer{
	{
		name: "java",
		setup: func(t *testing.T, dir string) {
			needTool(t, "java", "Java 17")
			needTool(t, "javac", "Java 17 compiler")
			for _, j := range []string{"avro", "jackson-core-asl", "jackson-mapper-asl"} {
				if _, err := os.Stat("/usr/share/java/" + j + ".jar"); err != nil {
					t.Fatalf("interop: /usr/share/java/%s.jar missing (libavro-java): run scripts/setup", j)
				}
			}
			runTool(t, "javac", "-nowarn", "-cp", javaClassPath(dir), "-d", dir, "testdata/interop/JSONInterop.java")
		},
		run: func(t *testing.T, dir, in, out string) {
			runTool(t, "java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", javaClassPath(dir), "JSONInterop", in, out)
		},
		// JsonDecoder cannot read the strings that JsonEncoder writes
		// for NaN and the infinities. (It reads the number -0 as +0, so
		// we write negative zero as -0.0, which it reads as -0.0.)
		reads:  unicodeStrings | noNaN | noInfinity,
		writes: unicodeStrings,
		deviations: []jsonDeviation{
			{what: `JsonDecoder cannot read "NaN", which JsonEncoder writes`,
				schema: `"double"`, text: `"NaN"`, spec: le64(math.NaN())},
			{what: `JsonDecoder cannot read "Infinity", which JsonEncoder writes`,
				schema: `"double"`, text: `"Infinity"`, spec: le64(math.Inf(1))},
			{what: `JsonDecoder cannot read "-Infinity", which JsonEncoder writes`,
				schema: `"float"`, text: `"-Infinity"`, spec: le32(float32(math.Inf(-1)))},
			{what: `JsonEncoder writes NaN as the string "NaN", as we do`,
				schema: `"double"`, datum: le64(math.NaN()), spec: []byte(`"NaN"`), peer: []byte(`"NaN"`)},
			{what: `JsonEncoder writes infinities as strings, as we do`,
				schema: `"float"`, datum: le32(float32(math.Inf(-1))), spec: []byte(`"-Infinity"`), peer: []byte(`"-Infinity"`)},
			{what: "Jackson reads the JSON number -0 as the integer 0, and so the double +0",
				schema: `"double"`, text: `-0`, spec: le64(negZero), peer: le64(0)},
			// Jackson 1.9 pads the names it reads from bytes with NULs
			// into 32-bit words and keys its table of names, which
			// Avro's one JsonFactory shares, by these words: names that
			// differ only in leading NULs are taken for each other.
			{what: `from a byte stream, JsonDecoder reads map key "b" as "\u0000b", read before it, and drops an entry`,
				schema: `{"type":"map","values":"int"}`, text: `{"\u0000b":1,"b":2}`, stream: true,
				spec: []byte{4, 4, 0, 'b', 2, 2, 'b', 4, 0}, peer: []byte{2, 4, 0, 'b', 4, 0}},
			{what: "JsonDecoder maps a code point above U+00FF in bytes to '?' (ISO-8859-1 getBytes)",
				schema: `"bytes"`, text: `"a\u0100"`, spec: nil, peer: []byte{4, 'a', '?'}},
			{what: "JsonEncoder writes U+FFFD for string bytes that are not UTF-8, which we keep",
				schema: `"string"`, datum: []byte{2, 0xff}, spec: []byte("\"\xff\""), peer: []byte(`"` + "\uFFFD" + `"`)},
		},
	},
	{
		name: "avsc",
		setup: func(t *testing.T, dir string) {
			needTool(t, "node", "Node.js")
			if _, err := os.Stat("../ocf/testdata/js/node_modules/avsc/package.json"); err != nil {
				t.Fatal("interop: avsc is not installed in ocf/testdata/js: run scripts/setup")
			}
		},
		run: func(t *testing.T, dir, in, out string) {
			runTool(t, "node", "testdata/interop/json_interop.js", in, out)
		},
		// fromString cannot read the strings we write for NaN and the
		// infinities; toString writes them as null, which reads back as
		// NaN only, and -0 as 0.
		reads:  unicodeStrings | noNaN | noInfinity | safeLongs | noIndexKeys,
		writes: unicodeStrings | noInfinity | noNegativeZero | safeLongs | noIndexKeys,
		deviations: []jsonDeviation{
			// JSON.stringify writes null for every number that JSON
			// cannot hold; we read null as NaN, so NaN survives.
			{what: "type.toString writes NaN as null",
				schema: `"double"`, datum: le64(math.NaN()), spec: []byte(`"NaN"`), peer: []byte(`null`)},
			{what: "type.toString writes Infinity as null (which reads as NaN)",
				schema: `"double"`, datum: le64(math.Inf(1)), spec: []byte(`"Infinity"`), peer: []byte(`null`)},
			{what: "type.toString writes -Infinity as null (which reads as NaN)",
				schema: `"float"`, datum: le32(float32(math.Inf(-1))), spec: []byte(`"-Infinity"`), peer: []byte(`null`)},
			{what: "type.toString writes -0 as 0",
				schema: `"double"`, datum: le64(negZero), spec: []byte(`-0.0`), peer: []byte(`0`)},
			{what: `type.fromString cannot read "NaN"`,
				schema: `"double"`, text: `"NaN"`, spec: le64(math.NaN())},
			{what: `type.fromString cannot read "Infinity"`,
				schema: `"float"`, text: `"Infinity"`, spec: le32(float32(math.Inf(1)))},
			{what: "type.fromBuffer rejects a long beyond 2^53-2 (potential precision loss)",
				schema: `"long"`, datum: zigzag(1<<53 + 1), spec: []byte(`9007199254740993`)},
			{what: "type.fromString rejects a long beyond 2^53-2, which JSON.parse rounds",
				schema: `"long"`, text: `9007199254740993`, spec: zigzag(1<<53 + 1)},
			{what: "type.fromString keeps the low byte of a code point above U+00FF in bytes",
				schema: `"bytes"`, text: `"a\u0141"`, spec: nil, peer: []byte{4, 'a', 0x41}},
			{what: "type.toString writes U+FFFD for string bytes that are not UTF-8, which we keep",
				schema: `"string"`, datum: []byte{2, 0xff}, spec: []byte("\"\xff\""), peer: []byte(`"` + "\uFFFD" + `"`)},
		},
	},
}

func needTool(t *testing.T, path, what string) {
	t.Helper()
	if _, err := exec.LookPath(path); err != nil {
		t.Fatalf("interop: %s (%s) is not installed: run scripts/setup (%v)", path, what, err)
	}
}

func runTool(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
}

func javaClassPath(dir string) string {
	var jars []string
	for _, j := range []string{"avro", "avro-guava-dependencies", "jackson-core-asl", "jackson-mapper-asl",
		"paranamer", "slf4j-api", "slf4j-nop"} {
		jars = append(jars, "/usr/share/java/"+j+".jar")
	}
	return strings.Join(append(jars, dir), ":")
}

// An interopCase is what one schema sends to a peer: JSON texts for it to
// read and binary datums for it to write as JSON.
type interopCase struct {
	schema        string
	flags         uint32 // 1: Java reads the texts from a byte stream
	texts, datums [][]byte
	sent          [][]byte // the datums texts were written from (not sent)
}

// A peerResult is the peer's output for one text or datum: a datum or a
// text, or its error message.
type peerResult struct {
	ok  bool
	out []byte
}

// writeCases writes cases in the format of testdata/interop: big-endian
// u32 counts and lengths.
func writeCases(t *testing.T, path string, cases []interopCase) {
	t.Helper()
	var b []byte
	item := func(p []byte) { b = append(binary.BigEndian.AppendUint32(b, uint32(len(p))), p...) }
	b = binary.BigEndian.AppendUint32(b, uint32(len(cases)))
	for _, c := range cases {
		item([]byte(c.schema))
		b = binary.BigEndian.AppendUint32(b, c.flags)
		for _, items := range [][][]byte{c.texts, c.datums} {
			b = binary.BigEndian.AppendUint32(b, uint32(len(items)))
			for _, p := range items {
				item(p)
			}
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readResults reads the peer's results for cases: one for each text, then
// one for each datum, case after case.
func readResults(t *testing.T, path string, cases []interopCase) (texts, datums [][]peerResult) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(data)
	next := func() peerResult {
		var head [5]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			t.Fatalf("%s: results end early: %v", path, err)
		}
		p := make([]byte, binary.BigEndian.Uint32(head[1:]))
		if _, err := io.ReadFull(r, p); err != nil {
			t.Fatalf("%s: results end early: %v", path, err)
		}
		return peerResult{ok: head[0] == 0, out: p}
	}
	for _, c := range cases {
		var tr, dr []peerResult
		for range c.texts {
			tr = append(tr, next())
		}
		for range c.datums {
			dr = append(dr, next())
		}
		texts, datums = append(texts, tr), append(datums, dr)
	}
	if r.Len() != 0 {
		t.Fatalf("%s: %d bytes after the results", path, r.Len())
	}
	return texts, datums
}

// TestInteropJSON has Java and avsc read our JSON of random datums of
// every schema, and we read theirs; the binary must not change either way.
// It also checks each peer's known deviations from the specification.
func TestInteropJSON(t *testing.T) {
	for pi, p := range jsonPeers {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			p.setup(t, dir)
			r := rand.New(rand.NewPCG(7, uint64(pi)))
			var cases []interopCase
			var schemas []*schema.Schema
			for _, sc := range interopSchemas {
				s, err := schema.Parse(sc.text)
				if err != nil {
					t.Fatalf("%s: %v", sc.name, err)
				}
				c := interopCase{schema: sc.text}
				for range interopDatums {
					datum := limitDatum(t, fixture.RandomDatum(nil, s, r, 4), s, p.reads)
					text, err := avrojson.BinaryToJSON(nil, s, datum)
					if err != nil {
						t.Fatalf("%s: BinaryToJSON(% x): %v", sc.name, datum, err)
					}
					c.sent = append(c.sent, datum)
					c.texts = append(c.texts, text)
					c.datums = append(c.datums, limitDatum(t, fixture.RandomDatum(nil, s, r, 4), s, p.writes))
				}
				cases = append(cases, c)
				schemas = append(schemas, s)
			}
			for _, d := range p.deviations {
				c := interopCase{schema: d.schema}
				if d.stream {
					c.flags = 1
				}
				if d.datum != nil {
					c.datums = [][]byte{d.datum}
				} else {
					c.texts = [][]byte{[]byte(d.text)}
				}
				cases = append(cases, c)
			}
			in, out := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
			writeCases(t, in, cases)
			p.run(t, dir, in, out)
			texts, datums := readResults(t, out, cases)

			for i, sc := range interopSchemas {
				t.Run(sc.name, func(t *testing.T) {
					checkPeerReads(t, p.name, cases[i].texts, cases[i].sent, texts[i])
					checkPeerWrites(t, p.name, schemas[i], cases[i].datums, datums[i])
				})
			}
			t.Run("deviations", func(t *testing.T) {
				for j, d := range p.deviations {
					k := len(interopSchemas) + j
					if d.datum != nil {
						checkDeviation(t, p.name, d, datums[k][0])
					} else {
						checkDeviation(t, p.name, d, texts[k][0])
					}
				}
			})
		})
	}
}

// checkPeerReads checks that the peer read each of our texts to the datum
// we wrote it from.
func checkPeerReads(t *testing.T, peer string, texts, want [][]byte, got []peerResult) {
	t.Helper()
	bad := 0
	for i, res := range got {
		switch {
		case !res.ok:
			t.Errorf("%s cannot read our JSON %s (of % x): %s", peer, texts[i], want[i], res.out)
		case !bytes.Equal(res.out, want[i]):
			t.Errorf("%s reads our JSON %s\nas   % x\nwant % x", peer, texts[i], res.out, want[i])
		default:
			continue
		}
		if bad++; bad == 5 {
			t.Fatalf("stopping after %d failures of %s reading our JSON", bad, peer)
		}
	}
}

// checkPeerWrites checks that we read the peer's JSON of each datum to the
// datum.
func checkPeerWrites(t *testing.T, peer string, s *schema.Schema, datums [][]byte, got []peerResult) {
	t.Helper()
	bad := 0
	for i, res := range got {
		if !res.ok {
			t.Errorf("%s cannot write % x as JSON: %s", peer, datums[i], res.out)
		} else if back, err := avrojson.JSONToBinary(nil, s, res.out); err != nil {
			t.Errorf("we cannot read %s's JSON %s (of % x): %v", peer, res.out, datums[i], err)
		} else if !bytes.Equal(back, datums[i]) {
			t.Errorf("we read %s's JSON %s\nas   % x\nwant % x", peer, res.out, back, datums[i])
		} else {
			continue
		}
		if bad++; bad == 5 {
			t.Fatalf("stopping after %d failures of reading %s's JSON", bad, peer)
		}
	}
}

// checkDeviation checks what we and the peer do with the deviation's
// value.
func checkDeviation(t *testing.T, peer string, d jsonDeviation, res peerResult) {
	t.Helper()
	s := schema.MustParse(d.schema)
	input := d.text
	var ours []byte
	var err error
	if d.datum != nil {
		input = fmt.Sprintf("% x", d.datum)
		ours, err = avrojson.BinaryToJSON(nil, s, d.datum)
	} else {
		ours, err = avrojson.JSONToBinary(nil, s, []byte(d.text))
	}
	switch {
	case d.spec == nil && !errors.Is(err, avro.ErrInvalid):
		t.Errorf("%s: we give %q, %v for %s; the specification wants ErrInvalid", d.what, ours, err, input)
	case d.spec != nil && (err != nil || !bytes.Equal(ours, d.spec)):
		t.Errorf("%s: we give %q, %v for %s; the specification wants %q", d.what, ours, err, input, d.spec)
	}
	switch {
	case d.peer == nil && res.ok:
		t.Errorf("%s deviation %q is gone: it gives %q for %s; check its datums' limits", peer, d.what, res.out, input)
	case d.peer != nil && !res.ok:
		t.Errorf("%s deviation %q: it fails for %s (%s), want %q", peer, d.what, input, res.out, d.peer)
	case d.peer != nil && !bytes.Equal(res.out, d.peer):
		t.Errorf("%s deviation %q has changed: it gives %q for %s, want %q", peer, d.what, res.out, input, d.peer)
	default:
		t.Logf("%s deviation: %s (for %s it gives %q, ok %v)", peer, d.what, input, res.out, res.ok)
	}
}

// limitDatum rewrites the binary datum of s, changing the values that lim
// names to ones the peer handles.
func limitDatum(t *testing.T, datum []byte, s *schema.Schema, lim jsonLimits) []byte {
	t.Helper()
	l := limiter{src: datum, lim: lim}
	out := l.value(nil, s)
	if l.err != nil || len(l.src) != 0 {
		t.Fatalf("limitDatum(% x): %v, %d bytes left", datum, l.err, len(l.src))
	}
	return out
}

type limiter struct {
	src []byte
	lim jsonLimits
	err error
}

func (l *limiter) take(n int) []byte {
	if n < 0 || n > len(l.src) {
		if l.err == nil {
			l.err = fmt.Errorf("datum ends early: %d bytes wanted, %d left", n, len(l.src))
		}
		n = len(l.src)
	}
	b := l.src[:n]
	l.src = l.src[n:]
	return b
}

// fixedInt reads the little-endian n bytes of a float or double.
func (l *limiter) fixedInt(n int) uint64 {
	var b [8]byte
	copy(b[:], l.take(n))
	return binary.LittleEndian.Uint64(b[:])
}

func (l *limiter) long() int64 {
	v, n := binary.Varint(l.src)
	if n <= 0 {
		if l.err == nil {
			l.err = errors.New("bad varint")
		}
		l.src = nil
		return 0
	}
	l.src = l.src[n:]
	return v
}

// float returns the value that replaces f, and whether it does.
func (l *limiter) float(f float64, max float64) (float64, bool) {
	switch {
	case l.lim&noNaN != 0 && math.IsNaN(f):
		return 1.5, true
	case l.lim&noInfinity != 0 && math.IsInf(f, 0):
		return math.Copysign(max, f), true
	case l.lim&noNegativeZero != 0 && f == 0 && math.Signbit(f):
		return 0, true
	}
	return f, false
}

func (l *limiter) text(b []byte) []byte {
	if l.lim&unicodeStrings == 0 || utf8.Valid(b) {
		return b
	}
	// Each byte that is not UTF-8 becomes a distinct private-use
	// character, so that map keys stay distinct.
	var out []byte
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			r = 0xE000 + rune(b[0])
		}
		out = utf8.AppendRune(out, r)
		b = b[n:]
	}
	return out
}

func isIndexKey(k []byte) bool {
	n, err := strconv.ParseUint(string(k), 10, 32)
	return err == nil && n < math.MaxUint32 && strconv.FormatUint(n, 10) == string(k)
}

func (l *limiter) value(dst []byte, s *schema.Schema) []byte {
	if l.err != nil {
		return dst
	}
	switch s.Kind() {
	case schema.Null:
		return dst
	case schema.Boolean:
		return append(dst, l.take(1)...)
	case schema.Int, schema.Enum:
		return binary.AppendVarint(dst, l.long())
	case schema.Long:
		v := l.long()
		if l.lim&safeLongs != 0 && (v > 1<<53-2 || v < -(1<<53-2)) {
			v >>= 11
		}
		return binary.AppendVarint(dst, v)
	case schema.Float:
		u := uint32(l.fixedInt(4))
		if g, ok := l.float(float64(math.Float32frombits(u)), math.MaxFloat32); ok {
			u = math.Float32bits(float32(g))
		}
		return binary.LittleEndian.AppendUint32(dst, u)
	case schema.Double:
		u := l.fixedInt(8)
		if g, ok := l.float(math.Float64frombits(u), math.MaxFloat64); ok {
			u = math.Float64bits(g)
		}
		return binary.LittleEndian.AppendUint64(dst, u)
	case schema.Bytes:
		b := l.take(int(l.long()))
		return append(binary.AppendVarint(dst, int64(len(b))), b...)
	case schema.String:
		b := l.text(l.take(int(l.long())))
		return append(binary.AppendVarint(dst, int64(len(b))), b...)
	case schema.Fixed:
		return append(dst, l.take(s.Size())...)
	case schema.Union:
		i := l.long()
		if i < 0 || int(i) >= len(s.Branches()) {
			l.err = fmt.Errorf("union index %d", i)
			return dst
		}
		return l.value(binary.AppendVarint(dst, i), s.Branches()[i])
	case schema.Record:
		for _, f := range s.Fields() {
			dst = l.value(dst, f.Type())
		}
		return dst
	case schema.Array, schema.Map:
		seen := map[string]bool{}
		for l.err == nil {
			n := l.long()
			if n == 0 {
				return append(dst, 0)
			}
			if n < 0 {
				n = -n
				l.long() // the block's size in bytes, which changes
			}
			dst = binary.AppendVarint(dst, n)
			for range n {
				if s.Kind() == schema.Map {
					k := l.text(l.take(int(l.long())))
					for l.lim&noIndexKeys != 0 && isIndexKey(k) || seen[string(k)] {
						k = append(k, 'k')
					}
					seen[string(k)] = true
					dst = append(binary.AppendVarint(dst, int64(len(k))), k...)
					dst = l.value(dst, s.Values())
				} else {
					dst = l.value(dst, s.Items())
				}
			}
		}
		return dst
	}
	l.err = fmt.Errorf("unknown kind %v", s.Kind())
	return dst
}
