package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
)

// Interop of the command with Apache Python (Debian's python3-avro) and
// avsc on Node.js, which scripts/setup installs: files the peers write are
// printed by avro tojson with the records the peers read, and the files
// the commands write are read back by the peers with the records avro
// tojson prints. A missing peer fails the test: run scripts/setup.

// richSchema covers every type and the logical types Python converts. Its
// unions have at most one branch of each JSON kind, as avsc needs of an
// unwrapped union and as the peers' model (which does not name the
// branch) needs to be read back without doubt.
const richSchema = `{"type":"record","name":"Rich","namespace":"org.example.interop","fields":[
 {"name":"id","type":"long"},
 {"name":"count","type":"int"},
 {"name":"flag","type":"boolean"},
 {"name":"ratio","type":"float"},
 {"name":"score","type":"double"},
 {"name":"name","type":"string"},
 {"name":"payload","type":"bytes"},
 {"name":"hash","type":{"type":"fixed","name":"MD5","size":16}},
 {"name":"suit","type":{"type":"enum","name":"Suit","symbols":["SPADES","HEARTS","DIAMONDS","CLUBS"]}},
 {"name":"tags","type":{"type":"array","items":"string"}},
 {"name":"attrs","type":{"type":"map","values":"long"}},
 {"name":"note","type":["null","string"]},
 {"name":"choice","type":["null","long","string","bytes",{"type":"array","items":"int"}]},
 {"name":"inner","type":{"type":"record","name":"Inner","namespace":"org.example.part","fields":[
   {"name":"x","type":"int"},{"name":"label","type":["null","string"]}]}},
 {"name":"maybe","type":["null","org.example.part.Inner"]},
 {"name":"children","type":{"type":"array","items":"org.example.part.Inner"}},
 {"name":"lookup","type":{"type":"map","values":["null","double"]}},
 {"name":"day","type":{"type":"int","logicalType":"date"}},
 {"name":"ms","type":{"type":"int","logicalType":"time-millis"}},
 {"name":"us","type":{"type":"long","logicalType":"time-micros"}},
 {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}},
 {"name":"atus","type":{"type":"long","logicalType":"timestamp-micros"}},
 {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}},
 {"name":"amount","type":{"type":"fixed","name":"Amount","size":8,"logicalType":"decimal","precision":18,"scale":4}},
 {"name":"uid","type":{"type":"string","logicalType":"uuid"}},
 {"name":"when","type":["null",{"type":"long","logicalType":"timestamp-millis"}]}]}`

// A peer is a reference implementation driven by a script of
// testdata/interop.
type peer struct {
	name   string
	style  style
	writes []string // the codecs it writes
	reads  []string // the codecs it reads
	need   func(t *testing.T)
	prog   string
	script string
}

var (
	peerPy, _  = filepath.Abs("testdata/interop/peer.py")
	peerJS, _  = filepath.Abs("testdata/interop/peer.js")
	avscPkg, _ = filepath.Abs("../../ocf/testdata/js/node_modules/avsc/package.json")
)

var peers = []peer{
	{
		name: "python", style: peerLogical, prog: "/usr/bin/python3", script: peerPy,
		writes: []string{"null", "deflate", "snappy", "zstandard", "bzip2"},
		reads:  []string{"null", "deflate", "snappy", "zstandard"},
		need: func(t *testing.T) {
			fixture.NeedTool(t, "/usr/bin/python3", "Debian python3")
			if out, err := exec.Command("/usr/bin/python3", "-c", "import avro.datafile, avro.io, zstandard, snappy").CombinedOutput(); err != nil {
				t.Fatalf("interop: python3-avro, python3-zstandard or python3-snappy missing: run scripts/setup\n%s", out)
			}
		},
	},
	{
		// avsc has no snappy or zstandard of its own.
		name: "avsc", style: peerRaw, prog: "node", script: peerJS,
		writes: []string{"null", "deflate"},
		reads:  []string{"null", "deflate"},
		need: func(t *testing.T) {
			fixture.NeedTool(t, "node", "Node.js")
			if _, err := os.Stat(avscPkg); err != nil {
				t.Fatal("interop: avsc is not installed in ocf/testdata/js: run scripts/setup")
			}
		},
	},
}

func (p peer) canRead(codec string) bool {
	for _, c := range p.reads {
		if c == codec {
			return true
		}
	}
	return false
}

// read returns the records the peer reads in file.
func (p peer) read(t *testing.T, file string) []any {
	t.Helper()
	return jsonLines(t, p.name, fixture.RunTool(t, p.prog, p.script, "read", file))
}

// write has the peer write recs (in its model) to file.
func (p peer) write(t *testing.T, file, codec, schemaFile string, recs []any) {
	t.Helper()
	var in bytes.Buffer
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(append(b, '\n'))
	}
	cmd := exec.Command(p.prog, p.script, "write", file, codec, schemaFile)
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s write %s: %v\n%s", p.name, codec, err, out)
	}
}

// richRecord is record i of richSchema in the model of the peer of style
// st. Its longs stay within 2^53, which JavaScript's JSON.parse keeps.
func richRecord(i int, st style) map[string]any {
	n := int64(i)
	bytesOf := func(size, mul int) map[string]any {
		b := make([]byte, size)
		for j := range b {
			b[j] = byte(i*mul + j*37)
		}
		return map[string]any{"$bytes_hex": hex.EncodeToString(b)}
	}
	names := []string{"plain", "", "é ✓ 𝄞 日本", "tab\t\"quote\" \\ back", "nul\x00ctl\x1f", "\u2028line"}
	ids := []int64{0, 1<<53 - 1, -(1<<53 - 1), -1, 1 << 40}
	counts := []int64{0, math.MaxInt32, math.MinInt32, -1}
	ratios := []float64{0.1, 0.375, -3.5e-7, 1e30, 16777217}
	scores := []float64{-7.25, 1e300, math.Copysign(0, -1), 5e-324, math.Pi, 0.1, math.NaN(), math.Inf(-1), math.Inf(1)}
	// A negative zero and the non-finite doubles go tagged: JSON has no
	// text for the latter and JSON.parse and Python's json make an integer
	// 0 of -0.
	score := any(scores[i%len(scores)])
	if f := scores[i%len(scores)]; f == 0 && math.Signbit(f) || math.IsNaN(f) || math.IsInf(f, 0) {
		score = map[string]any{"$float": floatText(f)}
	}
	rec := map[string]any{
		"id":      ids[i%len(ids)],
		"count":   counts[i%len(counts)] - n*sign(counts[i%len(counts)]),
		"flag":    i%2 == 0,
		"ratio":   ratios[i%len(ratios)],
		"score":   score,
		"name":    names[i%len(names)] + fmt.Sprint(i),
		"payload": bytesOf(i%9, 3),
		"hash":    bytesOf(16, 11),
		"suit":    []string{"SPADES", "HEARTS", "DIAMONDS", "CLUBS"}[i%4],
		"tags":    []any{},
		"attrs":   map[string]any{},
		"note":    nil,
		"inner":   map[string]any{"x": -i, "label": nil},
		"maybe":   nil,
		"lookup":  map[string]any{"k": nil, "v": float64(i) / 8},
	}
	if id := ids[i%len(ids)]; id > -1<<50 && id < 1<<50 {
		rec["id"] = id + n*1_000_003
	}
	for j := 0; j < i%3; j++ {
		rec["tags"] = append(rec["tags"].([]any), fmt.Sprintf("t%d-%d", i, j))
	}
	if i%4 != 0 {
		rec["attrs"] = map[string]any{"a": n, "b": -n * 1000, "c\u00e9": int64(1) << 50}
	}
	if i%3 != 0 {
		rec["note"] = fmt.Sprintf("note-%d", i)
		rec["inner"].(map[string]any)["label"] = "L" + fmt.Sprint(i)
	}
	rec["choice"] = []any{nil, n * 1_000_000_007, "c" + fmt.Sprint(i), bytesOf(i%4, 5), []any{i, -i, math.MaxInt32}}[i%5]
	if i%2 == 1 {
		rec["maybe"] = map[string]any{"x": i * 1000, "label": "m"}
	}
	var children []any
	for j := 0; j < i%4; j++ {
		children = append(children, map[string]any{"x": j, "label": nil})
	}
	rec["children"] = append([]any{}, children...)

	// Logical types: days around 1970, times within the day, timestamps
	// from 1900 on, decimals of either sign.
	day := n*97 - 25567
	ms := (n * 1_234_567) % 86_400_000
	us := (n*987_654_321 + 999_999) % 86_400_000_000
	at := -2_208_988_800_000 + n*1_234_567_891_011
	atus := 1_700_000_000_123_456 - n*98_765_432_101
	price := n*12345 - 300_000
	amount := n*987_654_321_987 - 9_000_000_000_000
	rec["uid"] = fmt.Sprintf("%08x-0000-4000-8000-%012x", i*7919, i)
	when := any(nil)
	if i%2 == 0 {
		when = at + 1
	}
	if st == peerLogical {
		rec["day"] = map[string]any{"$date": day}
		rec["ms"] = map[string]any{"$time_us": ms * 1000}
		rec["us"] = map[string]any{"$time_us": us}
		rec["at"] = map[string]any{"$timestamp_us": at * 1000}
		rec["atus"] = map[string]any{"$timestamp_us": atus}
		// With as many places as the scale: Python 1.11 writes the digits
		// of a Decimal as the unscaled number whatever its exponent.
		rec["price"] = map[string]any{"$decimal": decimalText(price, 2)}
		rec["amount"] = map[string]any{"$decimal": decimalText(amount, 4)}
		if when != nil {
			when = map[string]any{"$timestamp_us": (at + 1) * 1000}
		}
	} else {
		rec["day"], rec["ms"], rec["us"], rec["at"], rec["atus"] = day, ms, us, at, atus
		rec["price"] = map[string]any{"$bytes_hex": hex.EncodeToString(twosMinimal(price))}
		rec["amount"] = map[string]any{"$bytes_hex": hex.EncodeToString(binary.BigEndian.AppendUint64(nil, uint64(amount)))}
	}
	rec["when"] = when
	return rec
}

// floatText is f as both Python's float and JavaScript's Number read it.
func floatText(f float64) string {
	switch {
	case f == 0:
		return "-0"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func sign(n int64) int64 {
	if n < 0 {
		return -1
	}
	return 1
}

// decimalText is unscaled/10^scale with scale places.
func decimalText(unscaled int64, scale int) string {
	s := fmt.Sprint(unscaled)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for len(s) <= scale {
		s = "0" + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

// twosMinimal is n in the fewest bytes of big-endian two's complement.
func twosMinimal(n int64) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(n))
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	return b
}

// richRecords are the first n records of richSchema through JSON, as the
// peer gets them.
func richRecords(t *testing.T, n int, st style) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = richRecord(i, st)
	}
	return jsonValues(t, out)
}

// sameValues fails t unless the records of two readers, each in its
// style, are the same values of s.
func sameValues(t *testing.T, s *schema.Schema, file, whoA string, a []any, stA style, whoB string, b []any, stB style) {
	t.Helper()
	na, err := normRecords(s, a, stA)
	if err != nil {
		t.Fatalf("%s: %s: %v", file, whoA, err)
	}
	nb, err := normRecords(s, b, stB)
	if err != nil {
		t.Fatalf("%s: %s: %v", file, whoB, err)
	}
	if len(na) != len(nb) {
		t.Fatalf("%s: %s reads %d records, %s %d", file, whoA, len(na), whoB, len(nb))
	}
	for i := range na {
		if d := firstDiff(na[i], nb[i], fmt.Sprintf("record %d", i)); d != "" {
			t.Errorf("%s: %s and %s differ at %s\n%s: %v\n%s: %v", file, whoA, whoB, d, whoA, a[i], whoB, b[i])
			return
		}
	}
}

// tojson returns the records avro tojson prints for file.
func tojson(t *testing.T, file string) []any {
	t.Helper()
	out, errb, code := runAvro([]string{"tojson", file}, nil)
	if code != exitOK {
		t.Fatalf("avro tojson %s: exit %d: %s", file, code, errb)
	}
	return jsonLines(t, "avro tojson", out)
}

// The records that Python and avsc write, with every codec they write,
// are the records avro tojson prints and the records the peer reads back.
func TestInteropToJSONPeers(t *testing.T) {
	s := schema.MustParse(richSchema)
	schemaFile := filepath.Join(t.TempDir(), "rich.avsc")
	if err := os.WriteFile(schemaFile, []byte(richSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range peers {
		for _, codec := range p.writes {
			t.Run(p.name+"-"+codec, func(t *testing.T) {
				p.need(t)
				recs := richRecords(t, 70, p.style)
				file := filepath.Join(t.TempDir(), p.name+"-"+codec+".avro")
				p.write(t, file, codec, schemaFile, recs)
				ours := tojson(t, file)
				sameValues(t, s, file, "avro tojson", ours, specJSON, p.name+" (written)", recs, p.style)
				if p.canRead(codec) {
					sameValues(t, s, file, "avro tojson", ours, specJSON, p.name+" (read)", p.read(t, file), p.style)
				}
			})
		}
	}
}

// avro tojson prints the records Python and avsc read in the upstream
// container files, each peer the files of the codecs it has; the damaged
// files, which avro tojson refuses, are left to the Java test.
func TestInteropToJSONPeersUpstream(t *testing.T) {
	for _, f := range upstreamFiles(t) {
		if javaCannotRead[filepath.Base(f)] == "bad" {
			continue
		}
		t.Run(strings.TrimPrefix(f, upstream+"/"), func(t *testing.T) {
			text, errb, code := runAvro([]string{"getschema", f}, nil)
			if code != exitOK {
				t.Fatalf("avro getschema: exit %d: %s", code, errb)
			}
			s, err := schema.Parse(string(text))
			if err != nil {
				t.Fatal(err)
			}
			codec := "null" // a file without avro.codec
			if meta, _, code := runAvro([]string{"getmeta", "--key", "avro.codec", f}, nil); code == exitOK {
				codec = strings.TrimSpace(string(meta))
			}
			ours := tojson(t, f)
			read := 0
			for _, p := range peers {
				if p.canRead(codec) {
					p.need(t)
					want := ours
					if p.name == "avsc" && s.Kind() == schema.Union {
						// avsc's file decoder is a stream, and a null
						// record ends a stream: avsc reads the records
						// before the first null one.
						for i, r := range ours {
							if r == nil {
								want = ours[:i]
								break
							}
						}
					}
					sameValues(t, s, f, "avro tojson", want, specJSON, p.name, p.read(t, f), p.style)
					read++
				}
			}
			if read == 0 && codec != "xz" && codec != "bzip2" {
				t.Fatalf("no peer reads %s", codec)
			}
		})
	}
}

// Python 1.11 writes the digits of a Decimal as the unscaled number
// whatever the Decimal's exponent: 12.3 in a decimal of scale 2 is written
// as 1.23, which Python reads back as well. avro tojson reads what Python
// wrote; richRecord gives Python decimals with as many places as the
// scale for that reason.
func TestInteropPythonDecimalPlaces(t *testing.T) {
	p := peers[0] // python
	p.need(t)
	const ds = `{"type":"record","name":"D","fields":[{"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}}]}`
	dir := t.TempDir()
	schemaFile, file := filepath.Join(dir, "d.avsc"), filepath.Join(dir, "d.avro")
	if err := os.WriteFile(schemaFile, []byte(ds), 0o644); err != nil {
		t.Fatal(err)
	}
	given := []string{"12.3", "-0.5", "7", "4.25"}
	var recs []any
	for _, d := range given {
		recs = append(recs, map[string]any{"price": map[string]any{"$decimal": d}})
	}
	p.write(t, file, "null", schemaFile, recs)
	s := schema.MustParse(ds)
	ours := tojson(t, file)
	sameValues(t, s, file, "avro tojson", ours, specJSON, "python", p.read(t, file), p.style)
	// What Python wrote: the digits of each Decimal, at scale 2.
	var written []any
	for _, d := range given {
		digits := strings.ReplaceAll(d, ".", "")
		written = append(written, map[string]any{"price": map[string]any{"$decimal": decimalText(mustInt(t, digits), 2)}})
	}
	sameValues(t, s, file, "avro tojson", ours, specJSON, "python (the digits)", jsonValues(t, written), p.style)
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// jsonValues is v through JSON, numbers kept as their text.
func jsonValues(t *testing.T, v []any) []any {
	t.Helper()
	var lines []byte
	for _, x := range v {
		b, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, b...), '\n')
	}
	return jsonLines(t, "test", lines)
}
