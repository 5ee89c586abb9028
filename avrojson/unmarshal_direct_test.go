package avrojson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// Unmarshal reads structs, slices, maps of strings, nullable pointers and
// the primitive kinds straight from the text, and the rest (and any text
// the direct readers do not take) through the binary datum of the text.
// These tests hold the direct readers to that binary decode: the same Go
// value, into new and into used targets, and the same errors.

// jsonThroughBinary is Unmarshal as the binary decode of JSONToBinary's
// datum.
func jsonThroughBinary(o avrojson.Options, s *schema.Schema, text []byte, v any) (jsonErr, binErr error) {
	bin, err := o.JSONToBinary(nil, s, text)
	if err != nil {
		return err, nil
	}
	return nil, o.Decode.Unmarshal(s, bin, v)
}

var sentinels = []error{avro.ErrInvalid, avro.ErrTruncated, avro.ErrLimit, avro.ErrRange}

func sentinelOf(err error) error {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return s
		}
	}
	return nil
}

// checkSameRead reads text into a fresh copy of target both ways and
// fails the test where the two differ.
func checkSameRead[T any](t *testing.T, what string, o avrojson.Options, s *schema.Schema, text []byte, target func() *T) {
	t.Helper()
	want, got := target(), target()
	jerr, berr := jsonThroughBinary(o, s, text, want)
	gerr := o.Unmarshal(s, text, got)
	werr := jerr
	if werr == nil {
		werr = berr
	}
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: Unmarshal error %v, binary decode error %v\ntext %s", what, gerr, werr, text)
	}
	if werr != nil {
		var wa, ga *avro.Error
		if !errors.As(werr, &wa) || !errors.As(gerr, &ga) {
			t.Fatalf("%s: errors %v and %v are not *avro.Error", what, gerr, werr)
		}
		if sentinelOf(werr) != sentinelOf(gerr) || wa.Path != ga.Path {
			t.Fatalf("%s: Unmarshal error %v at %q, want %v at %q\ntext %s", what, gerr, ga.Path, werr, wa.Path, text)
		}
		// A syntax error is found at the same byte; an error of the Go
		// value is given the offset of the value's text.
		if jerr != nil && ga.Offset != wa.Offset || jerr == nil && (ga.Offset < 0 || ga.Offset >= int64(len(text))) {
			t.Fatalf("%s: Unmarshal error %v at offset %d, want %v at %d\ntext %s", what, gerr, ga.Offset, werr, wa.Offset, text)
		}
		return
	}
	if d := cmp.Diff(want, got, cmpopts.EquateNaNs()); d != "" {
		t.Fatalf("%s: Unmarshal differs from the binary decode (-binary +Unmarshal):\n%s\ntext %s", what, d, text)
	}
}

// textVariants returns text as written, spaced out, and cut or changed at
// a few random bytes.
func textVariants(r *rand.Rand, text []byte) map[string][]byte {
	out := map[string][]byte{"compact": text}
	var spaced bytes.Buffer
	if json.Indent(&spaced, text, " ", "\t") == nil {
		out["spaced"] = spaced.Bytes()
	}
	for i := range 6 {
		if len(text) == 0 {
			break
		}
		at := r.IntN(len(text))
		out["cut"+string(rune('0'+i))] = text[:at]
		changed := bytes.Clone(text)
		changed[at] = `"}],:1x -e.\n0{`[r.IntN(15)]
		out["changed"+string(rune('0'+i))] = changed
	}
	return out
}

func TestUnmarshalReadsAsTheBinaryDecode(t *testing.T) {
	s := schema.MustParse(directSchema)
	r := rand.New(rand.NewPCG(28, 7))
	n := 300
	if raceEnabled {
		n = 40
	}
	flavours := directFlavours()
	for range n {
		var v directTop
		fill(r, reflect.ValueOf(&v).Elem(), 0)
		v.Color = []string{"RED", "GREEN"}[r.IntN(2)]
		// Half the reads go into a used value: slices with arrays, maps
		// with entries, pointers set.
		seed := r.Uint64()
		target := func() *directTop { return new(directTop) }
		if seed&1 == 0 {
			target = func() *directTop {
				var used directTop
				fill(rand.New(rand.NewPCG(seed, 1)), reflect.ValueOf(&used).Elem(), 0)
				return &used
			}
		}
		for name, o := range flavours {
			text, err := o.Marshal(s, &v)
			if err != nil {
				continue
			}
			for vname, variant := range textVariants(r, text) {
				checkSameRead(t, name+"/"+vname, o, s, variant, target)
				checkSameRead(t, name+"/"+vname+"/any", o, s, variant, func() *any { return new(any) })
				checkSameRead(t, name+"/"+vname+"/map", o, s, variant, func() *map[string]any { return &map[string]any{"kept": int64(1)} })
			}
		}
	}
}

// TestUnmarshalTextOffTheDirectPath: text the encoders do not write reads
// as the binary decode of its datum reads it.
func TestUnmarshalTextOffTheDirectPath(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
	 {"name":"a","type":"int"},{"name":"b","type":"long","default":7},
	 {"name":"c","type":"double"},{"name":"d","type":["null","string"],"default":null},
	 {"name":"e","type":{"type":"array","items":"long"}},
	 {"name":"f","type":{"type":"map","values":"string"}}]}`)
	type rec struct {
		A int32             `avro:"a"`
		B int64             `avro:"b"`
		C float64           `avro:"c"`
		D *string           `avro:"d"`
		E []int64           `avro:"e"`
		F map[string]string `avro:"f"`
	}
	texts := []string{
		`{"a":1,"b":2,"c":3,"d":null,"e":[],"f":{}}`,
		`{"b":2,"a":1,"c":3,"d":{"string":"x"},"e":[1],"f":{"k":"v"}}`,
		`{"a":1,"c":3,"e":[1,2],"f":{}}`,
		`{"a":1e2,"b":2.0,"c":"NaN","d":null,"e":[1E1],"f":{}}`,
		`{"a":1,"b":2,"c":-Infinity,"d":null,"e":[],"f":{}}`,
		`{"a":1,"b":2,"c":3,"d":{ "string" : "x" },"e":[],"f":{}}`,
		`{"\u0061":1,"b":2,"c":3,"d":null,"e":[],"f":{}}`,
		`{"a":1,"b":2,"c":3,"d":null,"e":[],"f":{"k":"v","k":"w"}}`,
		`{"a":1,"b":2,"c":3,"d":null,"e":[],"f":{},"g":1}`,
		`{"a":1,"a":1,"b":2,"c":3,"d":null,"e":[],"f":{}}`,
		`{"a":2147483648,"b":2,"c":3,"d":null,"e":[],"f":{}}`,
		`{"a":1,"b":9223372036854775808,"c":3,"d":null,"e":[-9223372036854775808],"f":{}}`,
		`{"a":1,"b":2,"c":1e999,"d":null,"e":[],"f":{}}`,
		`{"a":01,"b":2,"c":3,"d":null,"e":[],"f":{}}`,
		`{"a":-0,"b":-,"c":3,"d":null,"e":[],"f":{}}`,
		`{"a":0,"b":12345678901234567890,"c":3,"d":null,"e":[-0.0],"f":{}}`,
		`{"a":-2147483649,"b":2,"c":-0,"d":null,"e":[00],"f":{}}`,
		`{"a":1,"b":2,"c":3,"d":null,"e":[1,],"f":{}}`,
		`{"a":1,"b":2,"c":3,"d":"x","e":[],"f":{}}`,
		` { "a" : 1 , "b" : 2 , "c" : 3 , "d" : null , "e" : [ 1 , 2 ] , "f" : { "k" : "v" } } `,
	}
	for _, o := range []avrojson.Options{{}, {AllowUnknownFields: true}, {Unions: avrojson.BareUnions}} {
		for _, text := range texts {
			want, got := new(rec), new(rec)
			jerr, berr := jsonThroughBinary(o, s, []byte(text), want)
			werr := errors.Join(jerr, berr)
			gerr := o.Unmarshal(s, []byte(text), got)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("%s: Unmarshal error %v, want %v", text, gerr, werr)
			}
			if d := cmp.Diff(want, got, cmpopts.EquateNaNs()); werr == nil && d != "" {
				t.Fatalf("%s: (-binary +Unmarshal):\n%s", text, d)
			}
		}
	}
}

// TestUnmarshalNeverAliases: with Decode.ZeroCopy set, bytes read from
// JSON are still copies. They were decoded from a pooled binary datum,
// which the next read wrote over.
func TestUnmarshalNeverAliases(t *testing.T) {
	writer := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"fixed","name":"F","size":4}}]}`)
	reader := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"fixed","name":"F","size":4}},{"name":"x","type":"int","default":1}]}`)
	resolved, err := schema.Resolve(writer, reader)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		F []byte `avro:"f"`
	}
	o := avrojson.Options{Decode: avro.DecodeOptions{ZeroCopy: true}}
	for name, s := range map[string]*schema.Schema{"schema": writer, "resolved": resolved} {
		var first, second rec
		if err := o.Unmarshal(s, []byte(`{"f":"abcd"}`), &first); err != nil {
			t.Fatal(err)
		}
		if err := o.Unmarshal(s, []byte(`{"f":"wxyz"}`), &second); err != nil {
			t.Fatal(err)
		}
		if string(first.F) != "abcd" || string(second.F) != "wxyz" {
			t.Errorf("%s: read %q then %q, want abcd then wxyz", name, first.F, second.F)
		}
	}
	dec := o.NewDecoder(bytes.NewReader([]byte(`{"f":"abcd"} {"f":"wxyz"}`)), writer)
	var first, second rec
	if err := dec.Decode(&first); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&second); err != nil {
		t.Fatal(err)
	}
	if string(first.F) != "abcd" {
		t.Errorf("stream: first value %q after the second, want abcd", first.F)
	}
}

// TestUnmarshalValueErrorOffset: an error of the Go value has the offset
// of the value's text.
func TestUnmarshalValueErrorOffset(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"string"},{"name":"small","type":"int"}]}`)
	type rec struct {
		A     string `avro:"a"`
		Small int8   `avro:"small"`
	}
	text := []byte(`{"a":"x", "small": 300}`)
	var ae *avro.Error
	err := avrojson.Unmarshal(s, text, new(rec))
	if !errors.Is(err, avro.ErrRange) || !errors.As(err, &ae) || ae.Path != "small" || ae.Offset != int64(bytes.Index(text, []byte("300"))) {
		t.Fatalf("got %v, want ErrRange at small, offset %d", err, bytes.Index(text, []byte("300")))
	}
	// A syntax error after it is the error, as encoding/json reports.
	err = avrojson.Unmarshal(s, []byte(`{"a":"x", "small": 300 x}`), new(rec))
	if !errors.Is(err, avro.ErrInvalid) {
		t.Fatalf("got %v, want the syntax error", err)
	}
}

// TestUnmarshalDefaultsShareOneBudget: the defaults filled in for the
// missing fields of one text share one budget, however the text is read.
func TestUnmarshalDefaultsShareOneBudget(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"T","fields":[
	 {"name":"x","type":{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"l","type":"long","default":1234567890}]}},
	 {"name":"y","type":"R"}]}`)
	type r struct {
		A int32 `avro:"a"`
		L int64 `avro:"l"`
	}
	type top struct {
		X r `avro:"x"`
		Y r `avro:"y"`
	}
	// The default takes five bytes: a budget of five holds one.
	o := avrojson.Options{Decode: avro.DecodeOptions{MaxAlloc: 5}}
	var v top
	if err := o.Unmarshal(s, []byte(`{"x":{"a":1},"y":{"a":2,"l":3}}`), &v); err != nil || v.X.L != 1234567890 || v.Y.L != 3 {
		t.Fatalf("one default: %v, %+v", err, v)
	}
	err := o.Unmarshal(s, []byte(`{"x":{"a":1},"y":{"a":2}}`), new(top))
	if !errors.Is(err, avro.ErrLimit) {
		t.Fatalf("two defaults in a budget of one: %v, want ErrLimit", err)
	}
}

// TestTargetErrorsEveryCall: a Go type that cannot hold the schema is its
// error on every call, not only on the one that compiled its codecs, in
// both directions.
func TestTargetErrorsEveryCall(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`)
	text := []byte(`{"a":1}`)
	type wrong struct {
		A string `avro:"a"`
	}
	for i := range 3 {
		var n int
		var te *avro.TypeError
		if err := avrojson.Unmarshal(s, text, &n); !errors.As(err, &te) {
			t.Errorf("call %d, into *int: %v, want *avro.TypeError", i, err)
		}
		var ie *avro.InvalidUnmarshalError
		if err := avrojson.Unmarshal(s, text, wrong{}); !errors.As(err, &ie) {
			t.Errorf("call %d, into a struct value: %v, want *avro.InvalidUnmarshalError", i, err)
		}
		if _, err := avrojson.Marshal(s, &wrong{A: "x"}); !errors.As(err, &te) {
			t.Errorf("call %d, Marshal of a struct with a string for an int: %v, want *avro.TypeError", i, err)
		}
		if _, err := avrojson.Marshal(s, []any{1}); !errors.As(err, &te) && !errors.Is(err, avro.ErrRange) {
			t.Errorf("call %d, Marshal of a []any for a record: %v, want an error", i, err)
		}
	}
}
