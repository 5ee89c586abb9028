package avrojson_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

type point struct {
	X int64  `avro:"x"`
	Y string `avro:"y"`
}

var pointSchema = schema.MustParse(`{"type":"record","name":"P","fields":[{"name":"x","type":"long"},{"name":"y","type":"string"}]}`)

// TestStreamRoundTrip writes JSON Lines and reads them back, one byte a
// read, and reads concatenated values with no space between them.
func TestStreamRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	enc := avrojson.NewEncoder(&buf, pointSchema)
	var want []point
	for i := range 100 {
		p := point{X: int64(i) * 1e15, Y: strings.Repeat("é", i%7)}
		want = append(want, p)
		if err := enc.Encode(&p); err != nil {
			t.Fatal(err)
		}
	}
	if n := bytes.Count(buf.Bytes(), []byte("\n")); n != 100 {
		t.Fatalf("%d lines, want 100", n)
	}
	for _, input := range []io.Reader{
		iotest.OneByteReader(bytes.NewReader(buf.Bytes())),
		strings.NewReader(strings.ReplaceAll(buf.String(), "\n", "")),
	} {
		dec := avrojson.NewDecoder(input, pointSchema)
		for i := range want {
			var p point
			if err := dec.Decode(&p); err != nil {
				t.Fatalf("value %d: %v", i, err)
			}
			if p != want[i] {
				t.Fatalf("value %d: %v, want %v", i, p, want[i])
			}
		}
		var p point
		if err := dec.Decode(&p); err != io.EOF {
			t.Fatalf("after the last value: %v, want io.EOF", err)
		}
	}
}

// TestStreamScalarsAcrossReads: a value read in pieces is the value read
// whole. A number or word at the top level that reaches the end of what
// was read may go on in the next read, and the words that stand for
// non-finite doubles are values in a stream as in Unmarshal.
func TestStreamScalarsAcrossReads(t *testing.T) {
	long := schema.MustParse(`"long"`)
	dec := avrojson.NewDecoder(iotest.OneByteReader(strings.NewReader("12345\n-67 8")), long)
	for _, want := range []int64{12345, -67, 8} {
		var v int64
		if err := dec.Decode(&v); err != nil || v != want {
			t.Fatalf("one byte a read: %d, %v; want %d", v, err, want)
		}
	}
	// Values that straddle the decoder's reads of the stream.
	dec = avrojson.NewDecoder(strings.NewReader(strings.Repeat("123456\n", 20000)), long)
	for i := 0; ; i++ {
		var v int64
		err := dec.Decode(&v)
		if err == io.EOF {
			if i != 20000 {
				t.Fatalf("%d values, want 20000", i)
			}
			break
		}
		if err != nil || v != 123456 {
			t.Fatalf("value %d: %d, %v", i, v, err)
		}
	}
	boolean := schema.MustParse(`["null","boolean"]`)
	dec = avrojson.Plain().NewDecoder(iotest.OneByteReader(strings.NewReader(`true false null {"boolean":true}`)), boolean)
	for i, want := range []any{true, false, nil, true} {
		var v any
		if err := dec.Decode(&v); err != nil || v != want {
			t.Fatalf("word %d one byte a read: %v, %v; want %v", i, v, err, want)
		}
	}
	double := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"d","type":"double"}]}`)
	type r struct {
		D float64 `avro:"d"`
	}
	text := `{"d":NaN} {"d":Infinity} {"d":-Infinity} {"d":-1.5}`
	for _, in := range []io.Reader{strings.NewReader(text), iotest.OneByteReader(strings.NewReader(text))} {
		dec = avrojson.NewDecoder(in, double)
		for i, want := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1.5} {
			var v r
			if err := dec.Decode(&v); err != nil || !(v.D == want || math.IsNaN(want) && math.IsNaN(v.D)) {
				t.Fatalf("double %d: %v, %v; want %v", i, v.D, err, want)
			}
		}
	}
	// A word cut short at the end of the stream is cut short.
	dec = avrojson.Plain().NewDecoder(strings.NewReader(`tru`), boolean)
	var v any
	if err := dec.Decode(&v); !errors.Is(err, avro.ErrTruncated) {
		t.Errorf("tru: %v, want ErrTruncated", err)
	}
}

// TestStreamErrors: a value cut short is ErrTruncated, and an error's
// offset is in the stream, not in the value.
func TestStreamErrors(t *testing.T) {
	dec := avrojson.NewDecoder(strings.NewReader(`{"x":1,"y":"a"} {"x":2,"y":`), pointSchema)
	var p point
	if err := dec.Decode(&p); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&p); !errors.Is(err, avro.ErrTruncated) {
		t.Errorf("cut short: %v, want ErrTruncated", err)
	}
	dec = avrojson.NewDecoder(strings.NewReader(`{"x":1,"y":"a"}`+"\n"+`{"x":"2","y":"b"}`), pointSchema)
	if err := dec.Decode(&p); err != nil {
		t.Fatal(err)
	}
	err := dec.Decode(&p)
	wantError(t, "second value", err, avro.ErrInvalid, "x", 21)
}

// TestStreamSyntaxErrorsAreUnmarshals: text that is not JSON is the error
// Unmarshal gives for it, with its path and what the schema wanted there,
// whether the stream is read whole or one byte a read, and for a resolved
// schema too.
func TestStreamSyntaxErrorsAreUnmarshals(t *testing.T) {
	resolved, err := schema.Resolve(pointSchema, schema.MustParse(`{"type":"record","name":"P","fields":[{"name":"y","type":"string"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	nested := schema.MustParse(`{"type":"record","name":"N","fields":[{"name":"m","type":{"type":"map","values":{"type":"array","items":"long"}}}]}`)
	for _, c := range []struct {
		s    *schema.Schema
		text string
	}{
		{pointSchema, "\x00"},
		{pointSchema, "]"},
		{pointSchema, `{"x":1,"y":` + "\x00}"},
		{pointSchema, `{"x":-}`},
		{pointSchema, `{"x":1,"y":"a"]`},
		{resolved, "\x00"},
		{resolved, `{"x":1,"y":x}`},
		{nested, `{"m":{"a":[1,2,}}`},
		{nested, `{"m":{"a":[1,2],"b":[3 4]}}`},
		{nested, `{"m":{"a":[1,null0]}}`},
		{nested, `{"m":{"a":[1,nul]}}`},
		{pointSchema, `{"x":Infinityx,"y":"a"}`},
		{pointSchema, `{"x":1,"y":"a\q"}`},
		{nested, `{"m":{"a":[1],"b\u12x":[]}}`},
		{schema.MustParse(`"string"`), "\x00"},
		{schema.MustParse(`["null","long"]`), `{"long":+1}`},
	} {
		var want any
		wantErr := avrojson.Unmarshal(c.s, []byte(c.text), &want)
		if !errors.Is(wantErr, avro.ErrInvalid) {
			t.Fatalf("%q: Unmarshal: %v, want ErrInvalid", c.text, wantErr)
		}
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(c.text)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			var got any
			if err := avrojson.NewDecoder(r, c.s).Decode(&got); err == nil || err.Error() != wantErr.Error() {
				t.Errorf("%q, one byte a read %v: Decode: %v\nwant the error of Unmarshal: %v", c.text, oneByte, err, wantErr)
			}
		}
	}
}

// TestStreamValueLimit: a value longer than MaxLength is ErrLimit before
// it is all buffered.
func TestStreamValueLimit(t *testing.T) {
	o := avrojson.Options{Decode: avro.DecodeOptions{MaxLength: 1000}}
	text := `{"x":1,"y":"` + strings.Repeat("a", 1<<20) + `"}`
	dec := o.NewDecoder(strings.NewReader(text), pointSchema)
	var p point
	if err := dec.Decode(&p); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("1 MiB value, 1000-byte limit: %v, want ErrLimit", err)
	}
}

// TestStreamTargetErrors: a Go target that cannot hold the schema, or is
// not a pointer, is the avro package's error type, as from avro.Decoder.
func TestStreamTargetErrors(t *testing.T) {
	dec := avrojson.NewDecoder(strings.NewReader(`{"x":1,"y":"a"}`), pointSchema)
	var n int
	var te *avro.TypeError
	if err := dec.Decode(&n); !errors.As(err, &te) {
		t.Errorf("into *int: %T %v, want *avro.TypeError", err, err)
	}
	dec = avrojson.NewDecoder(strings.NewReader(`{"x":1,"y":"a"}`), pointSchema)
	var ie *avro.InvalidUnmarshalError
	if err := dec.Decode(point{}); !errors.As(err, &ie) {
		t.Errorf("into a non-pointer: %T %v, want *avro.InvalidUnmarshalError", err, err)
	}
}

// TestStreamDefaultsShareOneBudget: the values of a stream share the
// budget of the defaults filled in for missing fields, as the datums of
// an avro.Decoder do: a long stream of empty records that each take a
// large default ends in ErrLimit.
func TestStreamDefaultsShareOneBudget(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"E","fields":[
		{"name":"pad","type":"string","default":"` + strings.Repeat("x", 1<<16) + `"}]}`)
	o := avrojson.Options{Decode: avro.DecodeOptions{MaxAlloc: 1 << 20}}
	dec := o.NewDecoder(strings.NewReader(strings.Repeat("{}\n", 100)), s)
	for i := range 100 {
		var v struct {
			Pad string `avro:"pad"`
		}
		err := dec.Decode(&v)
		if errors.Is(err, avro.ErrLimit) {
			if i < 10 {
				t.Fatalf("ErrLimit at value %d, within one MiB of defaults", i)
			}
			return
		}
		if err != nil || len(v.Pad) != 1<<16 {
			t.Fatalf("value %d: %v", i, err)
		}
	}
	t.Fatal("100 defaults of 64 KiB read under a budget of 1 MiB")
}
