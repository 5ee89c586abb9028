package avro_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

// Data written with SchemaOf schemas is read by the reference
// implementations: Apache Python (Debian's python3-avro) and avsc read
// container files that we write and write every record back; their bytes
// must be ours. scripts/setup installs both; the test fails without them.

type soInterop struct {
	Name    string            `avro:"name,doc='who'"`
	Age     int32             `avro:"age,default=18"`
	Small   int8              `avro:"small"`
	Count   uint32            `avro:"count"`
	Big     int64             `avro:"big"`
	Ratio   float32           `avro:"ratio"`
	Score   float64           `avro:"score"`
	OK      bool              `avro:"ok"`
	Raw     []byte            `avro:"raw"`
	Hash    soMD5             `avro:"hash"`
	Tags    []string          `avro:"tags"`
	Attrs   map[string]int64  `avro:"attrs"`
	Nick    *string           `avro:"nick"`
	Home    soAddr            `avro:"home"`
	Work    *soAddr           `avro:"work"`
	Seen    time.Time         `avro:"seen"`
	Millis  time.Time         `avro:"millis,timestamp-millis"`
	Day     time.Time         `avro:"day,date"`
	Elapsed time.Duration     `avro:"elapsed"`
	Price   big.Rat           `avro:"price,decimal(9,2)"`
	Exact   *big.Rat          `avro:"exact"`
	ID      soUUID            `avro:"id"`
	Pet     soPet             `avro:"pet"`
	Nested  [][]float64       `avro:"nested"`
	ByName  map[string]soAddr `avro:"by_name"`
}

func interopValue(r *rand.Rand, i int) soInterop {
	word := func() string { return []string{"", "a", "é€", "😀 x", "tab\tquote\""}[r.IntN(5)] }
	v := soInterop{
		Name: word(), Age: r.Int32() - 1<<30, Small: int8(r.IntN(256) - 128), Count: r.Uint32(),
		Big: r.Int64N(1<<53) - 1<<52, Ratio: float32(r.NormFloat64()), Score: r.NormFloat64() * 1e6,
		OK: i%2 == 0, Raw: []byte(word()), Tags: []string{word(), word()},
		// One entry: a map of several is written in Go's iteration order,
		// which differs from one encoding to the next.
		Attrs: map[string]int64{word() + "k": -r.Int64N(1 << 40)},
		Home:  soAddr{word(), "z" + word()},
		Seen:  time.UnixMicro(r.Int64N(4e15) - 1e15).UTC(), Millis: time.UnixMilli(r.Int64N(4e12)).UTC(),
		Day:     time.Date(1900+r.IntN(300), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC),
		Elapsed: time.Duration(r.Int64N(int64(24*time.Hour)/1000)) * time.Microsecond,
		Nested:  [][]float64{{1.5, -2}, {}},
		ByName:  map[string]soAddr{"x": {"s", "z"}},
	}
	for i := range 16 {
		v.Hash[i], v.ID[i] = byte(r.Uint32()), byte(r.Uint32())
	}
	v.Price.SetFrac64(r.Int64N(1e9)-5e8, 100)
	if i%3 != 0 {
		nick := word()
		v.Nick = &nick
		v.Work = &soAddr{"w", word()}
		v.Exact = big.NewRat(r.Int64N(1e12), 1<<uint(r.IntN(20)))
	}
	switch i % 3 {
	case 1:
		v.Pet = soCat{Lives: 9}
	case 2:
		v.Pet = &soDog{Good: true}
	}
	return v
}

func TestSchemaOfInterop(t *testing.T) {
	dir := t.TempDir()
	type file struct {
		name string
		path string
		recs [][]byte
		// noAvsc: avsc holds longs in float64s and refuses a schema with
		// a long default beyond 2^53, such as the zero time.Time in
		// microseconds that omitzero gives a time field.
		noAvsc bool
	}
	var files []file
	write := func(name string, s *schema.Schema, values []any) {
		f := file{name: name, path: filepath.Join(dir, name+".avro")}
		var buf bytes.Buffer
		w, err := ocf.NewWriter(&buf, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			rec, err := avro.Marshal(s, v)
			if err != nil {
				t.Fatalf("%s: Marshal: %v", name, err)
			}
			f.recs = append(f.recs, rec)
			if err := w.Encode(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	r := rand.New(rand.NewPCG(29, 3))
	var values []any
	for i := range 30 {
		v := interopValue(r, i)
		values = append(values, &v)
	}
	write("interop", avro.MustSchemaOf[soInterop](avro.WithNamespace("org.test")), values)
	tree := soTree{Value: 1, Children: []soTree{{Value: 2}, {Value: 3, Children: []soTree{{Value: 4}}}}}
	write("tree", avro.MustSchemaOf[soTree](), []any{&tree, &soTree{}})
	list := soList{Head: 1, Tail: &soList{Head: 2, Tail: &soList{Head: 3}}}
	write("list", avro.MustSchemaOf[soList](), []any{&list})
	write("tagged", avro.MustSchemaOf[soTagged](), []any{&soTagged{Name: "n", Age: 3, Tags: []string{"t"}}, &soTagged{}})
	files[len(files)-1].noAvsc = true
	write("logical", avro.MustSchemaOf[soLogical](), []any{&soLogical{
		Millis: time.UnixMilli(1e12).UTC(), Micros: time.UnixMicro(1e15).UTC(), Nanos: time.Unix(0, 1<<52).UTC(),
		LMillis: time.UnixMilli(-1e12).UTC(), LMicros: time.UnixMicro(7).UTC(), LNanos: time.Unix(0, 9).UTC(),
		Date: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), TOfDay1: time.Hour, TOfDay2: time.Minute,
		DecFix: [8]byte{0, 0, 0, 0, 0, 0, 0x30, 0x39}, UUIDStr: "123e4567-e89b-12d3-a456-426614174000",
		Dur: avro.Duration{Months: 1, Days: 2, Milliseconds: 3}, EpochMs: 5, Day: 6,
	}})

	needTool(t, "/usr/bin/python3", "Debian's python3 with python3-avro")
	needTool(t, "node", "Node.js")
	if _, err := os.Stat("ocf/testdata/js/node_modules/avsc/package.json"); err != nil {
		t.Fatal("interop: avsc is not installed in ocf/testdata/js: run scripts/setup")
	}
	for _, peer := range []struct {
		name string
		cmd  []string
	}{
		{"python", []string{"/usr/bin/python3", "testdata/interop/read_ocf.py"}},
		{"avsc", []string{"node", "testdata/interop/read_ocf.js"}},
	} {
		t.Run(peer.name, func(t *testing.T) {
			var paths []string
			var read []file
			for _, f := range files {
				if !f.noAvsc || peer.name != "avsc" {
					paths = append(paths, f.path)
					read = append(read, f)
				}
			}
			cmd := exec.Command(peer.cmd[0], append(peer.cmd[1:], paths...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %v\n%s", peer.cmd, err, stderr.String())
			}
			var results []struct {
				Hex   []string `json:"hex"`
				Error string   `json:"error"`
			}
			if err := json.Unmarshal(out, &results); err != nil || len(results) != len(read) {
				t.Fatalf("%d results, %v, for %d files:\n%s", len(results), err, len(read), out)
			}
			for i, res := range results {
				f := read[i]
				if res.Error != "" {
					t.Errorf("%s: %s", f.name, res.Error)
					continue
				}
				if len(res.Hex) != len(f.recs) {
					t.Errorf("%s: %d records read, want %d", f.name, len(res.Hex), len(f.recs))
					continue
				}
				for j, h := range res.Hex {
					if want := hex.EncodeToString(f.recs[j]); h != want {
						t.Errorf("%s record %d: written back as\n%s\nwant\n%s", f.name, j, h, want)
					}
				}
			}
		})
	}
}

func needTool(t *testing.T, path, what string) {
	t.Helper()
	if _, err := exec.LookPath(path); err != nil {
		t.Fatalf("interop: %s (%s) is not installed: run scripts/setup (%v)", path, what, err)
	}
}
