package fuzz

import (
	"bytes"
	"errors"
	"io"
	"math/big"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Fuzz targets for the JSON encoding: Unmarshal into structs and values,
// the stream Decoder, and both transcoders, with the differential check
// that JSON read and written again is stable.
//
//	go test -run '^$' -fuzz '^FuzzJSONUnmarshal$' -fuzztime 60s ./fuzz/
//	go test -run '^$' -fuzz '^FuzzJSONDecoder$' -fuzztime 60s ./fuzz/
//	go test -run '^$' -fuzz '^FuzzJSONToBinary$' -fuzztime 60s ./fuzz/
//	go test -run '^$' -fuzz '^FuzzBinaryToJSON$' -fuzztime 60s ./fuzz/

var jsonFuzzSchema = schema.MustParse(`{"type":"record","name":"J","namespace":"fuzz","fields":[
	{"name":"i","type":"int"},
	{"name":"l","type":"long","default":7},
	{"name":"d","type":["null","double","string"]},
	{"name":"b","type":"bytes"},
	{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},
	{"name":"f","type":{"type":"fixed","name":"F","size":2}},
	{"name":"a","type":{"type":"array","items":["null","J"]},"default":[]},
	{"name":"m","type":{"type":"map","values":"float"},"default":{}},
	{"name":"t","type":{"type":"long","logicalType":"timestamp-micros"},"default":0},
	{"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":3},"default":"\u0000"}
]}`)

type jsonFuzzRecord struct {
	I   int32              `avro:"i"`
	L   int64              `avro:"l"`
	D   any                `avro:"d"`
	B   []byte             `avro:"b"`
	E   string             `avro:"e"`
	F   [2]byte            `avro:"f"`
	A   []*jsonFuzzRecord  `avro:"a"`
	M   map[string]float32 `avro:"m"`
	T   int64              `avro:"t"`
	Dec []byte             `avro:"dec"`
}

var jsonFlavours = []avrojson.Options{{}, avrojson.Plain(), {Unions: avrojson.TaggedLogicalUnions, Logical: avrojson.ReadableLogical}}

func addJSONSeeds(f *testing.F) {
	for _, s := range []string{
		`{"i":1,"d":null,"b":"\u00ff","e":"A","f":"ab"}`,
		`{"i":-1,"l":9223372036854775807,"d":{"double":"NaN"},"b":"","e":"B","f":"\u0000\u0001","a":[null,{"J":{"i":2,"d":{"string":"x"},"b":"","e":"A","f":"zz"}}],"m":{"k":1.5},"t":"2026-12-01T00:00:00Z","dec":1.234}`,
		`{"f":"ab","e":"A","b":"AA==","d":2.5,"i":0}`,
		`{"i":1e0,"d":"s","b":"","e":"A","f":"ab","x":1}`,
		`[1,2,{"a":[[[[[]]]]]}]`,
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(1))
	}
}

// FuzzJSONUnmarshal reads any text into a struct and a value.Value in
// each flavour: it must not panic, and what reads must write back to
// text that reads to the same binary.
func FuzzJSONUnmarshal(f *testing.F) {
	addJSONSeeds(f)
	f.Fuzz(func(t *testing.T, text []byte, flavour uint8) {
		o := jsonFlavours[int(flavour)%len(jsonFlavours)]
		var rec jsonFuzzRecord
		errStruct := o.Unmarshal(jsonFuzzSchema, text, &rec)
		var v value.Value
		errValue := o.Unmarshal(jsonFuzzSchema, text, &v)
		checkTypedError(t, errStruct)
		checkTypedError(t, errValue)
		sameAsBinaryDecode(t, o, text, &rec, errStruct)
		var generic any
		sameAsBinaryDecode(t, o, text, &generic, o.Unmarshal(jsonFuzzSchema, text, &generic))
		if errValue != nil || o.Unions == avrojson.BareUnions {
			return
		}
		out, err := o.Marshal(jsonFuzzSchema, v)
		if err != nil {
			t.Fatalf("read %q, but writing it back: %v", text, err)
		}
		stableJSON(t, o, text, out)
	})
}

// sameAsBinaryDecode checks what Unmarshal read into rec (a struct or a
// generic value), or its error,
// against the binary decode of the datum JSONToBinary reads from text.
func sameAsBinaryDecode[T any](t *testing.T, o avrojson.Options, text []byte, rec *T, err error) {
	t.Helper()
	var want T
	bin, werr := o.JSONToBinary(nil, jsonFuzzSchema, text)
	if werr == nil {
		werr = o.Decode.Unmarshal(jsonFuzzSchema, bin, &want)
	}
	if (err == nil) != (werr == nil) {
		t.Fatalf("Unmarshal: %v, the binary decode: %v", err, werr)
	}
	if err != nil {
		var ga, wa *avro.Error
		if errors.As(err, &ga) && errors.As(werr, &wa) && ga.Path != wa.Path {
			t.Fatalf("Unmarshal: %v at %q, the binary decode: %v at %q", err, ga.Path, werr, wa.Path)
		}
		return
	}
	ratEqual := cmp.Comparer(func(a, b *big.Rat) bool { return a == nil && b == nil || a != nil && b != nil && a.Cmp(b) == 0 })
	if d := cmp.Diff(&want, rec, cmpopts.EquateNaNs(), ratEqual); d != "" {
		t.Fatalf("Unmarshal differs from the binary decode (-binary +Unmarshal):\n%s", d)
	}
}

// FuzzJSONToBinary checks the transcoders both ways: text that reads
// gives a datum that writes text that reads to the same datum.
func FuzzJSONToBinary(f *testing.F) {
	addJSONSeeds(f)
	f.Fuzz(func(t *testing.T, text []byte, flavour uint8) {
		o := jsonFlavours[int(flavour)%len(jsonFlavours)]
		bin, err := o.JSONToBinary(nil, jsonFuzzSchema, text)
		checkTypedError(t, err)
		if err != nil || o.Unions == avrojson.BareUnions {
			return
		}
		out, err := o.BinaryToJSON(nil, jsonFuzzSchema, bin)
		if err != nil {
			t.Fatalf("%q read, but its datum % x does not write: %v", text, bin, err)
		}
		stableJSON(t, o, text, out)
	})
}

// stableJSON checks that out, the text written for what text read, reads
// to the datum that text did, and writes to itself.
func stableJSON(t *testing.T, o avrojson.Options, text, out []byte) {
	t.Helper()
	want, err := o.JSONToBinary(nil, jsonFuzzSchema, text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	got, err := o.JSONToBinary(nil, jsonFuzzSchema, out)
	if err != nil {
		t.Fatalf("%q was written as %q, which does not read: %v", text, out, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%q was written as %q, which reads to another datum\n% x\n% x", text, out, want, got)
	}
	again, err := o.BinaryToJSON(nil, jsonFuzzSchema, got)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("%q: not stable: %q then %q (%v)", text, out, again, err)
	}
}

// FuzzBinaryToJSON writes any bytes as text: bad data is a typed error,
// and a datum that writes reads back to itself, unless it holds a value
// that encoding refuses (a decimal past its precision, a uuid that is not
// one): binary reading keeps what others wrote, and JSON reading refuses
// what Marshal refuses.
func FuzzBinaryToJSON(f *testing.F) {
	f.Add([]byte{0x02, 0x0e, 0x00, 0x00, 0x00, 'a', 'b', 0x00, 0x00, 0x00, 0x00, 0x00}, uint8(0))
	f.Add([]byte{0x02, 0x0e, 0x02, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0x02, 0xff, 0x02, 'a', 'b', 0x00, 0x00, 0x00, 0x02, 0x00}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, flavour uint8) {
		o := jsonFlavours[int(flavour)%len(jsonFlavours)]
		if o.Unions == avrojson.BareUnions {
			// A bare union value does not always read back as its branch
			// ("NaN" for a double, in a union with a string).
			o.Unions = avrojson.TaggedUnions
		}
		text, err := o.BinaryToJSON(nil, jsonFuzzSchema, data)
		checkTypedError(t, err)
		if err != nil {
			return
		}
		back, err := o.JSONToBinary(nil, jsonFuzzSchema, text)
		if err != nil {
			var v any
			if errors.Is(err, avro.ErrRange) && avro.Unmarshal(jsonFuzzSchema, data, &v) == nil {
				if _, merr := avro.Marshal(jsonFuzzSchema, v); errors.Is(merr, avro.ErrRange) {
					return
				}
			}
			t.Fatalf("% x wrote %q, which does not read: %v", data, text, err)
		}
		again, err := o.BinaryToJSON(nil, jsonFuzzSchema, back)
		if err != nil || !bytes.Equal(again, text) {
			t.Fatalf("% x wrote %q, read back as % x, which writes %q (%v)", data, text, back, again, err)
		}
	})
}

// jsonScalarSchema is a stream's values at the top level: bare numbers
// and words, which a reader of the stream cannot tell are whole until the
// text after them arrives.
var jsonScalarSchema = schema.MustParse(`["null","boolean","double","string",{"type":"array","items":"long"}]`)

// FuzzJSONDecoder reads any text as a stream of values, one byte a read
// and whole: it must not panic, and however the reads cut the text, the
// values and errors are the same, to the error's text.
func FuzzJSONDecoder(f *testing.F) {
	addJSONSeeds(f)
	for _, s := range []string{"12345\n-6.5e7 true null NaN -Infinity \"s\" [1,22,333]", "1.5e3\nNaN\n", "tru", "[1,\"x\"]"} {
		f.Add([]byte(s), uint8(len(jsonFlavours)+1))
	}
	f.Fuzz(func(t *testing.T, text []byte, flavour uint8) {
		o := jsonFlavours[int(flavour)%len(jsonFlavours)]
		s := jsonFuzzSchema
		if int(flavour)/len(jsonFlavours)%2 == 1 {
			o, s = avrojson.Plain(), jsonScalarSchema
		}
		whole := o.NewDecoder(bytes.NewReader(text), s)
		pieces := o.NewDecoder(iotest.OneByteReader(bytes.NewReader(text)), s)
		for i := range 100 {
			var a, b any
			errA, errB := whole.Decode(&a), pieces.Decode(&b)
			if (errA == nil) != (errB == nil) || errA == io.EOF != (errB == io.EOF) {
				t.Fatalf("value %d: whole %v, one byte a read %v", i, errA, errB)
			}
			if errA == io.EOF {
				return
			}
			if errA != nil {
				checkTypedError(t, errA)
				if errA.Error() != errB.Error() {
					t.Fatalf("value %d: whole %v, one byte a read %v", i, errA, errB)
				}
				return
			}
			binA, err := avro.Marshal(s, a)
			if err != nil {
				t.Fatalf("value %d %#v: %v", i, a, err)
			}
			if binB, err := avro.Marshal(s, b); err != nil || !bytes.Equal(binA, binB) {
				t.Fatalf("value %d: whole %#v, one byte a read %#v (%v)", i, a, b, err)
			}
		}
	})
}

// checkTypedError fails unless err is nil or an *avro.Error or
// *avro.TypeError wrapping one of the sentinels.
func checkTypedError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ae *avro.Error
	if !errors.As(err, &ae) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
	for _, s := range []error{avro.ErrInvalid, avro.ErrTruncated, avro.ErrLimit, avro.ErrRange} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error wraps no sentinel: %v", err)
}
