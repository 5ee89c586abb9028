package avrojson_test

import (
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
