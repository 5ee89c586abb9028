package avrojson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

const shared = "../../shared/testdata/"

// upstreamSchemas parses every schema of the upstream test data that is
// valid, with its file name.
func upstreamSchemas(t *testing.T) map[string]*schema.Schema {
	t.Helper()
	var files []string
	for _, pattern := range []string{
		"apache-avro/**/*.avsc",
		"apache-avro/lang/c/tests/schema_tests/pass/*",
		"apache-avro/lang/c++/jsonschemas/*",
		"fastavro/**/*.avsc",
	} {
		files = append(files, glob(t, shared+pattern)...)
	}
	texts := map[string]string{}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[strings.TrimPrefix(f, shared)] = string(text)
	}
	// The schemas the derived case files hold, under any key.
	for _, f := range glob(t, shared+"apache-avro/derived/*.json") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var tree any
		if err := json.Unmarshal(data, &tree); err != nil {
			t.Fatal(err)
		}
		n := 0
		schemaTexts(tree, func(text string) {
			texts[strings.TrimPrefix(f, shared)+"#"+strconv.Itoa(n)] = text
			n++
		})
	}
	out := map[string]*schema.Schema{}
	derived := 0
	for name, text := range texts {
		s, err := schema.Parse(text)
		if err != nil || !fixture.Finite(s) {
			continue // an invalid schema, one that refers to others, or one with no finite datum
		}
		out[name] = s
		if strings.Contains(name, "/derived/") {
			derived++
		}
	}
	if len(out) < 40 || derived < 100 {
		t.Fatalf("parsed %d upstream schemas, %d of them from the derived cases; want at least 40 and 100", len(out), derived)
	}
	return out
}

// schemaTexts calls f with the text of every JSON object or string in
// tree that may be a schema: those that are objects with a "type" or
// strings that hold one.
func schemaTexts(tree any, f func(string)) {
	switch x := tree.(type) {
	case map[string]any:
		if _, ok := x["type"]; ok {
			if text, err := json.Marshal(x); err == nil {
				f(string(text))
			}
		}
		for _, v := range x {
			schemaTexts(v, f)
		}
	case []any:
		for _, v := range x {
			schemaTexts(v, f)
		}
	case string:
		if t := strings.TrimSpace(x); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") || strings.HasPrefix(t, `"`) {
			f(t)
		}
	}
}

// glob is filepath.Glob with ** matching any depth of directories.
func glob(t *testing.T, pattern string) []string {
	t.Helper()
	if !strings.Contains(pattern, "**") {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	root, rest, _ := strings.Cut(pattern, "**/")
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ok, _ := filepath.Match(rest, d.Name()); ok && !d.IsDir() {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var flavours = map[string]avrojson.Options{
	"spec":           {},
	"tagged-logical": {Unions: avrojson.TaggedLogicalUnions},
	"readable":       {Logical: avrojson.ReadableLogical},
	"readable-decimal-strings-base64": {Logical: avrojson.ReadableLogical, DecimalStrings: true,
		Bytes: avrojson.Base64Bytes},
}

// TestBinaryJSONBinaryIsIdentity rewrites random datums of every upstream
// schema as JSON and back: the bytes must be the same, in every flavour
// whose unions are tagged, and the text must be JSON.
func TestBinaryJSONBinaryIsIdentity(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, s := range upstreamSchemas(t) {
		for fname, o := range flavours {
			for i := range 40 {
				datum := fixture.RandomDatum(nil, s, r, 4)
				text, err := o.BinaryToJSON(nil, s, datum)
				if err != nil {
					t.Fatalf("%s %s: BinaryToJSON(% x): %v", name, fname, datum, err)
				}
				if !json.Valid(text) && i == 0 {
					t.Errorf("%s %s: not JSON: %s", name, fname, text)
				}
				back, err := o.JSONToBinary(nil, s, text)
				if err != nil {
					t.Fatalf("%s %s: JSONToBinary(%s): %v", name, fname, text, err)
				}
				if !bytes.Equal(back, datum) {
					t.Fatalf("%s %s: binary -> JSON -> binary changed the datum\n in: % x\nout: % x\njson: %s", name, fname, datum, back, text)
				}
			}
		}
	}
}

// TestGoValuesThroughJSON reads the JSON of random datums into any and
// value.Value and writes them back: the text must not change.
func TestGoValuesThroughJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for name, s := range upstreamSchemas(t) {
		for range 20 {
			datum := fixture.RandomDatum(nil, s, r, 3)
			text, err := avrojson.BinaryToJSON(nil, s, datum)
			if err != nil {
				t.Fatal(err)
			}
			var v value.Value
			if err := avrojson.Unmarshal(s, text, &v); err != nil {
				t.Fatalf("%s: Unmarshal(%s) into value.Value: %v", name, text, err)
			}
			again, err := avrojson.Marshal(s, v)
			if err != nil {
				t.Fatalf("%s: Marshal(value.Value): %v", name, err)
			}
			if !bytes.Equal(again, text) {
				t.Fatalf("%s: value.Value changed the text\n in: %s\nout: %s", name, text, again)
			}
			// An any carries no union branch: a map that fits two record
			// branches is written as the first that takes it, so only
			// value.Value keeps such schemas' text exactly.
			if recordsShareUnion(s) {
				continue
			}
			var a any
			if err := avrojson.Unmarshal(s, text, &a); err != nil {
				// A time-micros past the range of a time.Duration, which
				// an any holds it in, is ErrRange, as from the binary.
				var b any
				if binErr := avro.Unmarshal(s, datum, &b); errors.Is(err, avro.ErrRange) && errors.Is(binErr, avro.ErrRange) &&
					strings.Contains(err.Error(), "overflows time.Duration") {
					continue
				}
				t.Fatalf("%s: Unmarshal(%s) into any: %v", name, text, err)
			}
			again, err = avrojson.Marshal(s, a)
			if err != nil {
				t.Fatalf("%s: Marshal(any): %v", name, err)
			}
			// A Go map keeps no order: the entries of a map come back in
			// another, so the texts are compared as JSON values.
			if !sameJSONValue(t, again, text) {
				t.Fatalf("%s: any changed the text\n in: %s\nout: %s", name, text, again)
			}
		}
	}
}

// recordsShareUnion reports whether a union of s has two record or map
// branches.
func recordsShareUnion(s *schema.Schema) bool {
	seen := map[*schema.Schema]bool{}
	var walk func(n *schema.Schema) bool
	walk = func(n *schema.Schema) bool {
		if seen[n] {
			return false
		}
		seen[n] = true
		switch n.Kind() {
		case schema.Union:
			objects := 0
			for _, b := range n.Branches() {
				if b.Kind() == schema.Record || b.Kind() == schema.Map {
					objects++
				}
			}
			if objects > 1 {
				return true
			}
			for _, b := range n.Branches() {
				if walk(b) {
					return true
				}
			}
		case schema.Record:
			for _, f := range n.Fields() {
				if walk(f.Type()) {
					return true
				}
			}
		case schema.Array:
			return walk(n.Items())
		case schema.Map:
			return walk(n.Values())
		}
		return false
	}
	return walk(s)
}

// sameJSONValue compares two texts as JSON values, numbers by their
// digits.
func sameJSONValue(t *testing.T, a, b []byte) bool {
	t.Helper()
	parse := func(text []byte) any {
		d := json.NewDecoder(bytes.NewReader(distinctInvalidUTF8(text)))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return v
	}
	return reflect.DeepEqual(parse(a), parse(b))
}

// distinctInvalidUTF8 returns text with each byte that is not UTF-8 made a
// private-use rune of its own. encoding/json reads every such byte as
// U+FFFD, so two map keys that differ only there would read as one key,
// whose value is whichever came last: the comparison would hang on the
// order of a Go map.
func distinctInvalidUTF8(text []byte) []byte {
	out := make([]byte, 0, len(text))
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, 0xF0000+rune(text[0]))
		} else {
			out = append(out, text[:n]...)
		}
		text = text[n:]
	}
	return out
}

// TestSameJSONValue: the comparison of texts as JSON values tells keys
// apart that differ only in bytes that are not UTF-8, in any order.
func TestSameJSONValue(t *testing.T) {
	if !sameJSONValue(t, []byte("{\"\x85\":\"a\",\"\x9e\":\"\"}"), []byte("{\"\x9e\":\"\",\"\x85\":\"a\"}")) {
		t.Error("the same map in another order")
	}
	if sameJSONValue(t, []byte("{\"\x85\":\"a\"}"), []byte("{\"\x9e\":\"a\"}")) {
		t.Error("keys that differ in a byte that is not UTF-8")
	}
}
