package avrojson_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

type jsonCase struct {
	Schema string `json:"schema"`
	JSON   string `json:"json"`
}

func readCases(t *testing.T) (valid, invalid, malformed []jsonCase, misc []map[string]any) {
	t.Helper()
	text, err := os.ReadFile(shared + "apache-avro/derived/json-encoding-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var all struct {
		Valid     []jsonCase       `json:"valid"`
		Invalid   []jsonCase       `json:"invalid"`
		Malformed []jsonCase       `json:"malformed"`
		Misc      []map[string]any `json:"misc"`
	}
	if err := json.Unmarshal(text, &all); err != nil {
		t.Fatal(err)
	}
	if len(all.Valid) != 16 || len(all.Invalid) != 14 || len(all.Malformed) != 3 {
		t.Fatalf("found %d valid, %d invalid, %d malformed cases, want 16, 14, 3", len(all.Valid), len(all.Invalid), len(all.Malformed))
	}
	return all.Valid, all.Invalid, all.Malformed, all.Misc
}

// jsonEqual compares two JSON texts as values.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// TestUpstreamJSONVectors runs the JSON cases of the C# and Java tests:
// valid text reads to binary and writes back to the same JSON value;
// invalid text is a type error and malformed text a syntax error.
func TestUpstreamJSONVectors(t *testing.T) {
	valid, invalid, malformed, _ := readCases(t)
	for _, c := range valid {
		s := schema.MustParse(c.Schema)
		bin, err := avrojson.JSONToBinary(nil, s, []byte(c.JSON))
		if err != nil {
			t.Errorf("%s %s: %v", c.Schema, c.JSON, err)
			continue
		}
		text, err := avrojson.BinaryToJSON(nil, s, bin)
		if err != nil {
			t.Errorf("%s %s: %v", c.Schema, c.JSON, err)
			continue
		}
		if !jsonEqual(t, text, []byte(c.JSON)) {
			t.Errorf("%s: %s read and written is %s", c.Schema, c.JSON, text)
		}
	}
	for _, c := range invalid {
		s := schema.MustParse(c.Schema)
		_, err := avrojson.JSONToBinary(nil, s, []byte(c.JSON))
		if !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s %s: got %v, want ErrInvalid", c.Schema, c.JSON, err)
		}
	}
	for _, c := range malformed {
		s := schema.MustParse(c.Schema)
		_, err := avrojson.JSONToBinary(nil, s, []byte(c.JSON))
		if !errors.Is(err, avro.ErrInvalid) && !errors.Is(err, avro.ErrTruncated) {
			t.Errorf("%s %s: got %v, want ErrInvalid or ErrTruncated", c.Schema, c.JSON, err)
		}
	}
}

// TestUpstreamJSONMisc runs the miscellaneous cases of the file, each in
// the shape it is given: texts that read and write back as the same
// value, input that reads and writes back as given, inputs that read as a
// number, input that is an error, and bytes and their text.
func TestUpstreamJSONMisc(t *testing.T) {
	_, _, _, misc := readCases(t)
	str := func(c map[string]any, key string) string {
		v, _ := c[key].(string)
		return v
	}
	ran := 0
	for _, c := range misc {
		text := str(c, "schema")
		if text == "" {
			continue // a note with no case
		}
		s := schema.MustParse(text)
		roundTrip := func(in, want string) {
			bin, err := avrojson.JSONToBinary(nil, s, []byte(in))
			if err != nil {
				t.Errorf("%s: JSONToBinary(%s): %v", c["what"], in, err)
				return
			}
			out, err := avrojson.BinaryToJSON(nil, s, bin)
			if err != nil || !jsonEqual(t, out, []byte(want)) {
				t.Errorf("%s: %s wrote back %s (%v), want %s", c["what"], in, out, err, want)
			}
		}
		ran++
		switch {
		case c["values"] != nil:
			for _, v := range c["values"].(map[string]any) {
				roundTrip(v.(string), v.(string))
			}
		case str(c, "reencoded") != "":
			roundTrip(str(c, "input"), str(c, "reencoded"))
		case str(c, "standard_output") != "":
			roundTrip(str(c, "input"), str(c, "standard_output"))
		case c["inputs"] != nil:
			for _, in := range c["inputs"].([]any) {
				var m map[string]any
				if err := avrojson.Unmarshal(s, []byte(in.(string)), &m); err != nil || m["n"] != int32(c["expected_n"].(float64)) {
					t.Errorf("%s: %s read as %v, %v; want n %v", c["what"], in, m, err, c["expected_n"])
				}
			}
		case str(c, "expect") == "error":
			if _, err := avrojson.JSONToBinary(nil, s, []byte(str(c, "input"))); !errors.Is(err, avro.ErrInvalid) {
				t.Errorf("%s: %v, want ErrInvalid", c["what"], err)
			}
		case str(c, "bytes_hex") != "":
			raw, err := hex.DecodeString(str(c, "bytes_hex"))
			if err != nil {
				t.Fatal(err)
			}
			bin := append([]byte{byte(2 * len(raw))}, raw...)
			out, err := avrojson.BinaryToJSON(nil, s, bin)
			if err != nil || !jsonEqual(t, out, []byte(str(c, "json"))) {
				t.Errorf("%s: % x wrote %s (%v), want %s", c["what"], raw, out, err, str(c, "json"))
			}
			if back, err := avrojson.JSONToBinary(nil, s, []byte(str(c, "json"))); err != nil || !bytes.Equal(back, bin) {
				t.Errorf("%s: %s read as % x (%v), want % x", c["what"], str(c, "json"), back, err, bin)
			}
		case str(c, "input") != "":
			roundTrip(str(c, "input"), str(c, "input"))
		default:
			t.Errorf("a case of a shape this test does not know: %v", c)
		}
	}
	if ran < 7 {
		t.Errorf("ran %d miscellaneous cases, want 7", ran)
	}
}

// TestSpecUnionExample is the example of the specification: the union
// ["null","string","Foo"].
func TestSpecUnionExample(t *testing.T) {
	s := schema.MustParse(`["null","string",{"type":"record","name":"Foo","namespace":"ns","fields":[]}]`)
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, `null`},
		{"a", `{"string":"a"}`},
		{map[string]any{}, `{"ns.Foo":{}}`},
	} {
		got, err := avrojson.Marshal(s, c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
}

// TestJavaNumericVectors: Java's JsonDecoder reads 1.0 for an int (an
// integral value) and rejects -1.2; NaN and the infinities are strings.
func TestJavaNumericVectors(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"X","fields":[{"type":"int","name":"n"}]}`)
	type X struct {
		N int32 `avro:"n"`
	}
	for _, in := range []string{`{"n":1}`, `{"n":1.0}`, `{"n":1e0}`, `{"n":0.1e1}`} {
		var x X
		if err := avrojson.Unmarshal(s, []byte(in), &x); err != nil || x.N != 1 {
			t.Errorf("Unmarshal(%s) = %d, %v; want 1", in, x.N, err)
		}
	}
	for _, in := range []string{`{"n":-1.2}`, `{"n":1e10}`, `{"n":2147483648}`} {
		var x X
		if err := avrojson.Unmarshal(s, []byte(in), &x); err == nil {
			t.Errorf("Unmarshal(%s) = %d; want an error", in, x.N)
		}
	}
	d := schema.MustParse(`{"type":"record","name":"D","fields":[{"type":"float","name":"f"},{"type":"double","name":"d"}]}`)
	type D struct {
		F float32 `avro:"f"`
		D float64 `avro:"d"`
	}
	for _, c := range []struct {
		v    D
		want string
	}{
		{D{float32(math.NaN()), math.NaN()}, `{"f":"NaN","d":"NaN"}`},
		{D{float32(math.Inf(1)), math.Inf(-1)}, `{"f":"Infinity","d":"-Infinity"}`},
		{D{0.1, 0.1}, `{"f":0.1,"d":0.1}`},
		{D{1e21, 1e-7}, `{"f":1e+21,"d":1e-7}`},
		// -0 reads as the integer 0 in Java and Python, losing the sign.
		{D{float32(math.Copysign(0, -1)), math.Copysign(0, -1)}, `{"f":-0.0,"d":-0.0}`},
	} {
		got, err := avrojson.Marshal(d, &c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	for _, in := range []string{`{"f":"NaN","d":NaN}`, `{"f":null,"d":"NaN"}`} {
		var x D
		if err := avrojson.Unmarshal(d, []byte(in), &x); err != nil || !math.IsNaN(float64(x.F)) || !math.IsNaN(x.D) {
			t.Errorf("Unmarshal(%s) = %v, %v; want NaN, NaN", in, x, err)
		}
	}
	for _, in := range []string{`{"f":"INF","d":"-INF"}`, `{"f":Infinity,"d":-Infinity}`, `{"f":1e999,"d":-1e999}`} {
		var x D
		if err := avrojson.Unmarshal(d, []byte(in), &x); err != nil || !math.IsInf(float64(x.F), 1) || !math.IsInf(x.D, -1) {
			t.Errorf("Unmarshal(%s) = %v, %v; want +Inf, -Inf", in, x, err)
		}
	}
}
