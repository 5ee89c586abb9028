package corpus

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/cmd/avrogen/internal/gen"
	"github.com/avrogo/avro/schema"
)

// avscDir is where scripts/setup installs avsc.
const avscDir = "../../../../ocf/testdata/js/node_modules/avsc"

// peerDatums returns, for each root, random datums that avsc wrote, or
// nil for a schema without a finite datum; and the schemas avsc refuses.
func peerDatums(t *testing.T, count int) ([][][]byte, map[int]string) {
	t.Helper()
	texts := make([]string, len(roots))
	for i, r := range roots {
		texts[i] = avscText(t, r.schema())
	}
	in, _ := json.Marshal(texts)
	cmd := exec.Command("node", "testdata/random.js", avscDir, "20261207", strconv.Itoa(count))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node random.js: %v\n%s(run scripts/setup: the test needs Node.js and avsc)", err, stderr.String())
	}
	var results []struct {
		Datums   []string `json:"datums"`
		Infinite bool     `json:"infinite"`
		Refused  string   `json:"refused"`
	}
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatal(err)
	}
	datums := make([][][]byte, len(results))
	refused := map[int]string{}
	for i, res := range results {
		if res.Refused != "" {
			refused[i] = res.Refused
		}
		if res.Datums == nil {
			continue
		}
		datums[i] = [][]byte{}
		for _, h := range res.Datums {
			b, err := hex.DecodeString(h)
			if err != nil {
				t.Fatal(err)
			}
			datums[i] = append(datums[i], b)
		}
	}
	return datums, refused
}

// avscText is a schema's text with the names avsc refuses, and other
// parsers take, renamed: names with a $ (which Java writes for nested
// classes) and named types called as a primitive is ("ns.int"). A datum's
// encoding does not depend on names, so avsc's datums of the renamed
// schema are datums of the schema.
func avscText(t *testing.T, s *schema.Schema) string {
	// No two names may become one.
	renamed := map[string]string{}
	for _, n := range s.NamedTypes() {
		to := avscName(n.FullName(), false)
		if other, ok := renamed[to]; ok {
			t.Fatalf("%s and %s are both renamed %s for avsc", other, n.FullName(), to)
		}
		renamed[to] = n.FullName()
	}
	dec := json.NewDecoder(strings.NewReader(s.String()))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(avscNode(v))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

var primitives = map[string]bool{"null": true, "boolean": true, "int": true, "long": true,
	"float": true, "double": true, "bytes": true, "string": true}

// avscName renames a named type's name, or a reference to one (where a
// primitive's name is the primitive).
func avscName(s string, ref bool) string {
	if ref && primitives[s] {
		return s
	}
	s = strings.ReplaceAll(s, "$", "_")
	if primitives[s[strings.LastIndexByte(s, '.')+1:]] {
		s += "_"
	}
	return s
}

func avscNode(v any) any {
	switch x := v.(type) {
	case string:
		return avscName(x, true)
	case []any:
		for i := range x {
			x[i] = avscNode(x[i])
		}
	case map[string]any:
		if s, ok := x["name"].(string); ok {
			x["name"] = avscName(s, false)
		}
		if s, ok := x["namespace"].(string); ok {
			x["namespace"] = strings.ReplaceAll(s, "$", "_")
		}
		if as, ok := x["aliases"].([]any); ok {
			for i, a := range as {
				if s, ok := a.(string); ok {
					as[i] = avscName(s, false)
				}
			}
		}
		for _, k := range []string{"type", "items", "values"} {
			if t, ok := x[k]; ok {
				x[k] = avscNode(t)
			}
		}
		if fs, ok := x["fields"].([]any); ok {
			for _, f := range fs {
				if fm, ok := f.(map[string]any); ok {
					fm["type"] = avscNode(fm["type"])
				}
			}
		}
	}
	return v
}

// Every root type of the corpus reads the datums avsc writes of its
// schema and writes them back byte for byte, in binary and through the
// Avro JSON encoding.
func TestRoundTripPeerDatums(t *testing.T) {
	datums, refused := peerDatums(t, 12)
	for i, why := range refused {
		t.Errorf("%s (%s): avsc refuses the schema: %s", roots[i].group, roots[i].input, why)
	}
	if len(datums) != len(roots) {
		t.Fatalf("%d datum lists for %d roots", len(datums), len(roots))
	}
	finite, exact, all := 0, 0, 0
	for i, r := range roots {
		if datums[i] == nil {
			continue
		}
		finite++
		s := r.schema()
		for _, data := range datums[i] {
			all += 2
			v := r.new()
			if err := avro.Unmarshal(s, data, v); err != nil {
				t.Errorf("%s (%s): Unmarshal(%x) into %T: %v", r.group, r.input, data, v, err)
				break
			}
			again, err := avro.Marshal(s, v)
			if err != nil || !sameDatum(s, again, data, &exact) {
				t.Errorf("%s (%s): Marshal(Unmarshal(%x)) into %T = %x, %v", r.group, r.input, data, v, again, err)
				break
			}
			text, err := avrojson.Marshal(s, v)
			if err != nil {
				t.Errorf("%s (%s): avrojson.Marshal(%T): %v", r.group, r.input, v, err)
				break
			}
			w := r.new()
			if err := avrojson.Unmarshal(s, text, w); err != nil {
				t.Errorf("%s (%s): avrojson.Unmarshal(%s): %v", r.group, r.input, text, err)
				break
			}
			if again, err := avro.Marshal(s, w); err != nil || !sameDatum(s, again, data, &exact) {
				t.Errorf("%s (%s): through Avro JSON %s: %x, %v; want %x", r.group, r.input, text, again, err, data)
				break
			}
		}
	}
	t.Logf("%d roots, %d with datums, %d refused by avsc; %d of %d round trips byte for byte", len(roots), finite, len(refused), exact, all)
	// Only datums with a map of several entries may come back in another
	// order.
	if exact < all*3/4 {
		t.Errorf("only %d of %d round trips gave the bytes back", exact, all)
	}
	if finite < len(roots)*3/4 {
		t.Errorf("only %d of %d roots have finite datums", finite, len(roots))
	}
}

// sameDatum reports whether got is want, byte for byte (counted in exact),
// or the same value written with its maps' entries in another order: Go
// maps have no order, and the encoder writes them in Go's.
func sameDatum(s *schema.Schema, got, want []byte, exact *int) bool {
	if bytes.Equal(got, want) {
		*exact++
		return true
	}
	var a, b any
	if avro.Unmarshal(s, got, &a) != nil || avro.Unmarshal(s, want, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// The schema of every generated root type has the canonical form of the
// input it was generated from.
func TestGeneratedSchemasAreTheInputs(t *testing.T) {
	groups, _, err := corpusGroups()
	if err != nil {
		t.Fatal(err)
	}
	canonical := map[[2]string]string{}
	for _, g := range groups {
		l := gen.NewLoader()
		if l.Add(g.srcs...) != nil {
			continue
		}
		for _, in := range l.Inputs() {
			canonical[[2]string{g.name, in.Name}] = in.Schema.Canonical()
		}
	}
	for _, r := range roots {
		want, ok := canonical[[2]string{r.group, r.input}]
		if !ok {
			t.Errorf("%s (%s): no such input", r.group, r.input)
			continue
		}
		if got := r.schema().Canonical(); got != want {
			t.Errorf("%s (%s): canonical form\n%s\nwant\n%s", r.group, r.input, got, want)
		}
		if reflect.TypeOf(r.new()).Kind() != reflect.Pointer {
			t.Errorf("%s: new gives %T", r.group, r.new())
		}
	}
}
