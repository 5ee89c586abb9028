package codec

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Runs of short strings (a record's consecutive string fields, a block of
// a map of strings) are read with one copy by readShortSpan. ValidateUTF8
// turns that path off, so on valid UTF-8 a decode with it is the
// value-by-value reference: both must give the same value, or the same
// error with the same path and offset, for every input, truncation,
// corruption and limit.

const spanWriterSchema = `{"type":"record","name":"S","fields":[
	{"name":"a","type":"string"},
	{"name":"b","type":"string"},
	{"name":"c","type":"string"},
	{"name":"n","type":"long"},
	{"name":"m","type":{"type":"map","values":"string"}},
	{"name":"d","type":"string"},
	{"name":"e","type":"string"}]}`

// The reader reorders the fields and drops n. The direct resolved decoder
// reads in the writer's order, so its runs are the writer's (a b c, d e),
// re-marked on the resolved field list, whose entries are copied from the
// reader's decoder and carry the reader's marks (c a, d e b).
const spanReaderSchema = `{"type":"record","name":"S","fields":[
	{"name":"c","type":"string"},
	{"name":"a","type":"string"},
	{"name":"m","type":{"type":"map","values":"string"}},
	{"name":"d","type":"string"},
	{"name":"e","type":"string"},
	{"name":"b","type":"string"}]}`

type spanRecord struct {
	A string            `avro:"a"`
	B string            `avro:"b"`
	C string            `avro:"c"`
	N int64             `avro:"n"`
	M map[string]string `avro:"m"`
	D string            `avro:"d"`
	E string            `avro:"e"`
}

// spanString is an ASCII string: short (under 10 bytes, which the span
// Path takes), or of a length around the one-byte-length boundary (63)
// and the span's size bound (wire.StringShareMax).
func spanString(r *rand.Rand, short bool) string {
	lengths := []int{0, 1, 5, 30, 62, 63, 64, 65, 127, 200}
	n := lengths[r.IntN(len(lengths))]
	if short {
		n = r.IntN(10)
	}
	var b strings.Builder
	for range n {
		b.WriteByte(byte('a' + r.IntN(26)))
	}
	return b.String()
}

func spanInputs(t *testing.T, w *schema.Schema) [][]byte {
	r := rand.New(rand.NewPCG(7, 11))
	var inputs [][]byte
	for i := range 12 {
		short := i%2 == 0
		str := func() string { return spanString(r, short) }
		v := spanRecord{A: str(), B: str(), C: str(), N: r.Int64N(1 << 40), M: map[string]string{}, D: str(), E: str()}
		for range r.IntN(6) {
			v.M[str()] = str()
		}
		data, err := Marshal(w, &v)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	return inputs
}

// spanVariant is an input to decode with some options.
type spanVariant struct {
	in []byte
	o  DecodeOptions
}

// spanVariants returns data and every truncation of it, each with no
// limits and with limits at and around the one-byte-length boundary and
// within the input's size; and copies of data with each byte replaced by
// a value that breaks a length (negative, continued) or changes it.
func spanVariants(data []byte) []spanVariant {
	// The value.Value and any decoders reserve a few hundred bytes for
	// the record and the map before the first string: the larger budgets
	// run out among their strings.
	limits := []DecodeOptions{{}, {MaxLength: 5}, {MaxLength: 63}, {MaxLength: 64},
		{MaxAlloc: 1}, {MaxAlloc: 9}, {MaxAlloc: 40}, {MaxAlloc: int64(len(data)) / 2}}
	for _, extra := range []int64{0, 3, 10, 30, 100} {
		limits = append(limits, DecodeOptions{MaxAlloc: 400 + extra}, DecodeOptions{MaxAlloc: 720 + extra})
	}
	var out []spanVariant
	for i := range len(data) + 1 {
		for _, o := range limits {
			out = append(out, spanVariant{data[:i], o})
		}
	}
	for i := range data {
		for _, b := range []byte{0x00, 0x01, 0x7e, 0x80, 0xff} {
			if data[i] != b {
				c := append([]byte(nil), data...)
				c[i] = b
				out = append(out, spanVariant{in: c})
			}
		}
	}
	return out
}

func TestShortSpanMatchesValueByValue(t *testing.T) {
	w := schema.MustParse(spanWriterSchema)
	rs, err := schema.Resolve(w, schema.MustParse(spanReaderSchema))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]struct {
		s   *schema.Schema
		new func() any
	}{
		"struct":   {w, func() any { return new(spanRecord) }},
		"value":    {w, func() any { return new(value.Value) }},
		"any":      {w, func() any { return new(any) }},
		"resolved": {rs, func() any { return new(spanRecord) }},
	}
	decodes, skipped := 0, 0
	for name, tg := range targets {
		for _, data := range spanInputs(t, w) {
			for _, v := range spanVariants(data) {
				ref := v.o
				ref.ValidateUTF8 = true
				got, want := tg.new(), tg.new()
				gotErr, wantErr := v.o.Unmarshal(tg.s, v.in, got), ref.Unmarshal(tg.s, v.in, want)
				if wantErr != nil && strings.Contains(wantErr.Error(), "not valid UTF-8") {
					// A corruption put a byte of 0x80 or more in a
					// string: the reference rejects what the span path
					// is not asked to check.
					skipped++
					continue
				}
				decodes++
				if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Fatalf("%s, %+v, input %x:\nspan:           %v\nvalue by value: %v", name, v.o, v.in, gotErr, wantErr)
				}
				if gotErr != nil {
					continue
				}
				if diff := cmp.Diff(want, got, cmp.Comparer(value.Equal)); diff != "" {
					t.Fatalf("%s, %+v, input %x (-value by value +span):\n%s", name, v.o, v.in, diff)
				}
			}
		}
	}
	if decodes < 4*skipped || decodes < 100000 {
		t.Errorf("%d decodes compared, %d skipped: the comparison covers too little", decodes, skipped)
	}
	t.Logf("%d decodes compared, %d skipped", decodes, skipped)
}

// A string of a run that is not short sends the rest of the run value by
// value; the fields must still land in their own places, with the long
// one in the middle of the run.
func TestStringRunWithALongField(t *testing.T) {
	w := schema.MustParse(spanWriterSchema)
	long := strings.Repeat("x", 100)
	want := spanRecord{A: "a", B: long, C: "c", N: 5, M: map[string]string{"k": long, "": "v", "j": ""}, D: "", E: "e"}
	data, err := Marshal(w, &want)
	if err != nil {
		t.Fatal(err)
	}
	var got spanRecord
	if err := Unmarshal(w, data, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Strings read from a span share one copy of the input; a later decode
// must not write over them, and the input may change after the decode.
func TestShortSpanStringsAreCopies(t *testing.T) {
	w := schema.MustParse(spanWriterSchema)
	want := spanRecord{A: "aa", B: "bb", C: "cc", N: 1, M: map[string]string{"k1": "v1", "k2": "v2"}, D: "dd", E: "ee"}
	data, err := Marshal(w, &want)
	if err != nil {
		t.Fatal(err)
	}
	var first spanRecord
	if err := Unmarshal(w, data, &first); err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = 'z'
	}
	other, err := Marshal(w, &spanRecord{A: "11", B: "22", C: "33", M: map[string]string{"k3": "v3"}, D: "44", E: "55"})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if err := Unmarshal(w, other, new(spanRecord)); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("first decode changed (-want +got):\n%s", diff)
	}
}

// markStringRuns marks each run of two or more string fields at its first
// field, at most maxStringRun long, and recomputes runs from scratch.
func TestMarkStringRuns(t *testing.T) {
	ops := func(fs []fieldDecoder) (s string) {
		for _, f := range fs {
			switch f.op {
			case fieldString:
				s += "s"
			case fieldStringRun:
				s += fmt.Sprintf("[%d]", f.run)
			default:
				s += "."
			}
		}
		return s
	}
	fields := func(pattern string) []fieldDecoder {
		var fs []fieldDecoder
		for _, c := range pattern {
			op := fieldCall
			if c == 's' {
				op = fieldString
			}
			fs = append(fs, fieldDecoder{op: op})
		}
		return fs
	}
	for pattern, want := range map[string]string{
		"":         "",
		"s":        "s",
		"ss":       "[2]s",
		"sss.ss.s": "[3]ss.[2]s.s",
		".s.s.":    ".s.s.",
	} {
		fs := fields(pattern)
		markStringRuns(fs)
		if got := ops(fs); got != want {
			t.Errorf("%q: %q, want %q", pattern, got, want)
		}
		// Marking again (as a resolved record does after reordering
		// fields) gives the same runs.
		markStringRuns(fs)
		if got := ops(fs); got != want {
			t.Errorf("%q marked twice: %q, want %q", pattern, got, want)
		}
	}
	fs := fields("sss.")
	markStringRuns(fs)
	fs[0], fs[3] = fs[3], fs[0] // a run's first field moved to the end
	markStringRuns(fs)
	if got, want := ops(fs), ".[3]ss"; got != want {
		t.Errorf("after a reorder: %q, want %q", got, want)
	}
	fs = fields(strings.Repeat("s", 2*maxStringRun+1))
	markStringRuns(fs)
	want := "[255]" + strings.Repeat("s", maxStringRun-1) + "[255]" + strings.Repeat("s", maxStringRun-1) + "s"
	if got := ops(fs); got != want {
		t.Errorf("511 string fields: %q", got)
	}
}

// A reader-only field with a default is set from a constant decoded once;
// a string field that starts a run in the reader's decoder is a string
// all the same.
func TestStringRunDefaultsAreConstants(t *testing.T) {
	type rec struct {
		X string `avro:"x"`
		A string `avro:"a"`
		Y string `avro:"y"`
	}
	w := schema.MustParse(`{"type":"record","name":"D","fields":[{"name":"a","type":"string"}]}`)
	// x, reader-only, starts the reader's run x a y.
	r := schema.MustParse(`{"type":"record","name":"D","fields":[{"name":"x","type":"string","default":"dx"},
		{"name":"a","type":"string"},{"name":"y","type":"string","default":"dy"}]}`)
	rs, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := newCompiler().decoderFor(r, reflect.TypeFor[rec](), "")
	if err != nil {
		t.Fatal(err)
	}
	if sd := inner.(*structDecoder); sd.fields[0].op != fieldStringRun || sd.fields[0].run != 3 {
		t.Fatalf("the reader's decoder: op %d, run %d; want a run of 3", sd.fields[0].op, sd.fields[0].run)
	}
	direct, ok := resolvedDecoderFor(rs, inner).(*structDecoder)
	if !ok {
		t.Fatalf("no direct resolved decoder")
	}
	if len(direct.defaults) != 2 {
		t.Fatalf("%d defaults, want 2", len(direct.defaults))
	}
	for _, f := range direct.defaults {
		if f.op != fieldString {
			t.Errorf("default of %s: op %d, want a string constant (%d)", f.name, f.op, fieldString)
		}
	}
	data, err := Marshal(w, map[string]any{"a": "va"})
	if err != nil {
		t.Fatal(err)
	}
	var got rec
	if err := Unmarshal(rs, data, &got); err != nil || got != (rec{"dx", "va", "dy"}) {
		t.Errorf("got %+v, %v", got, err)
	}
}
