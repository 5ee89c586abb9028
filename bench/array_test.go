package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	gogengeneric "github.com/actgardner/gogen-avro/v10/generic"
	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	hamba "github.com/hamba/avro/v2"
	goavro "github.com/linkedin/goavro/v2"
	twmb "github.com/twmb/avro"
)

// Bulk arrays: arrays of 1,000 items through each library's normal
// Marshal/Unmarshal (op=decode into a new slice, op=encode into a new
// buffer), and into reused memory (op=decode-reuse into the previous
// slice, op=append into a reused buffer), where lib=copy, a plain copy of
// the same bytes, is the floor for doubles. The encoders get the slice as
// an interface made once, not per op: converting a slice to an interface
// allocates its header, a cost of the caller that would fall on every
// library's row alike and hide what they do (the record rows pass
// pointers, which convert for free).
// Each op takes the next of arrayPool different random arrays, so one op
// set covers 128,000 values: more than a branch predictor can learn.
const (
	arrayLen  = 1000
	arrayPool = 128
)

type arrayCase struct {
	name  string
	items string
	gen   func(r *rand.Rand) any // one random array ([]int64, []float64, ...)
}

var arrayCases = []arrayCase{
	{"long-small", "long", func(r *rand.Rand) any { // 1-byte varints (-64..63)
		a := make([]int64, arrayLen)
		for i := range a {
			a[i] = longOfLen(r, 1)
		}
		return a
	}},
	{"long-mixed", "long", func(r *rand.Rand) any { // 90% small, 10% timestamps
		a := make([]int64, arrayLen)
		for i := range a {
			if r.IntN(10) == 0 {
				a[i] = genTimestampMicros(r)
			} else {
				a[i] = longOfLen(r, 1)
			}
		}
		return a
	}},
	{"long-timestamp", "long", func(r *rand.Rand) any { // 8-byte varints
		a := make([]int64, arrayLen)
		for i := range a {
			a[i] = genTimestampMicros(r)
		}
		return a
	}},
	{"double", "double", func(r *rand.Rand) any {
		a := make([]float64, arrayLen)
		for i := range a {
			a[i] = r.NormFloat64() * 1e3
		}
		return a
	}},
	{"string", "string", func(r *rand.Rand) any { // 0 to 32 ASCII bytes
		a := make([]string, arrayLen)
		for i := range a {
			a[i] = asciiString(r, r.IntN(33))
		}
		return a
	}},
	{"boolean", "boolean", func(r *rand.Rand) any {
		a := make([]bool, arrayLen)
		for i := range a {
			a[i] = r.IntN(2) == 0
		}
		return a
	}},
}

type arrayWorkload struct {
	c      arrayCase
	ours   *schema.Schema
	hamba  hamba.Schema
	twmb   *twmb.Schema
	goavro *goavro.Codec
	gogen  *gogengeneric.Codec // gogen-avro's generic decoder (no code is generated for an array)
	vals   []any               // arrayPool slices
	native []any               // goavro's []any form of each
	enc    [][]byte
	typ    reflect.Type // the slice type
}

var arrayWorkloads = map[string]*arrayWorkload{}

func getArrayWorkload(tb testing.TB, c arrayCase) *arrayWorkload {
	if w := arrayWorkloads[c.name]; w != nil {
		return w
	}
	text := fmt.Sprintf(`{"type":"array","items":%q}`, c.items)
	w := &arrayWorkload{c: c}
	w.ours = schema.MustParse(text)
	w.hamba = hamba.MustParse(text)
	w.twmb = twmb.MustParse(text)
	var err error
	if w.goavro, err = goavro.NewCodec(text); err != nil {
		tb.Fatal(err)
	}
	if w.gogen, err = gogengeneric.NewCodecFromSchema([]byte(text), []byte(text)); err != nil {
		tb.Fatal(err)
	}
	r := newRand(uint64(len(arrayWorkloads)) + 500)
	for range arrayPool {
		v := c.gen(r)
		data, err := avro.Marshal(w.ours, v)
		if err != nil {
			tb.Fatal(err)
		}
		w.vals = append(w.vals, v)
		w.native = append(w.native, toNative(w.ours, reflect.ValueOf(v)))
		w.enc = append(w.enc, data)
	}
	w.typ = reflect.TypeOf(w.vals[0])
	arrayWorkloads[c.name] = w
	return w
}

func BenchmarkArray(b *testing.B) {
	for _, c := range arrayCases {
		releaseWorkloads()
		w := getArrayWorkload(b, c)
		switch c.items {
		case "long":
			benchArray[int64](b, w)
		case "double":
			benchArray[float64](b, w)
		case "string":
			benchArray[string](b, w)
		case "boolean":
			benchArray[bool](b, w)
		}
	}
}

func benchArray[E any](b *testing.B, w *arrayWorkload) {
	const mask = arrayPool - 1
	run := func(op, lib string, f func(b *testing.B)) {
		b.Run("arr="+w.c.name+"/op="+op+"/lib="+lib, func(b *testing.B) {
			b.ReportAllocs()
			f(b)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/arrayLen, "ns/value")
		})
	}
	run("decode", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var out []E
			if err := avro.Unmarshal(w.ours, w.enc[i&mask], &out); err != nil {
				b.Fatal(err)
			}
			sinkAny = out
		}
	})
	run("decode", libHamba, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var out []E
			if err := hamba.Unmarshal(w.hamba, w.enc[i&mask], &out); err != nil {
				b.Fatal(err)
			}
			sinkAny = out
		}
	})
	run("decode", libTwmb, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var out []E
			if _, err := w.twmb.Decode(w.enc[i&mask], &out); err != nil {
				b.Fatal(err)
			}
			sinkAny = out
		}
	})
	run("decode", libGoavro, func(b *testing.B) { // to []any: goavro has no typed slices
		for i := 0; i < b.N; i++ {
			out, _, err := w.goavro.NativeFromBinary(w.enc[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkAny = out
		}
	})
	run("decode", libGogen, func(b *testing.B) { // to []any, through its generic decoder
		r := bytes.NewReader(nil)
		for i := 0; i < b.N; i++ {
			r.Reset(w.enc[i&mask])
			out, err := w.gogen.Deserialize(r)
			if err != nil {
				b.Fatal(err)
			}
			sinkAny = out
		}
	})
	run("encode", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			out, err := avro.Marshal(w.ours, w.vals[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})
	run("encode", libHamba, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			out, err := hamba.Marshal(w.hamba, w.vals[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})
	run("encode", libTwmb, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			out, err := w.twmb.Encode(w.vals[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})
	run("encode", libGoavro, func(b *testing.B) { // from []any
		for i := 0; i < b.N; i++ {
			out, err := w.goavro.BinaryFromNative(nil, w.native[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = out
		}
	})

	// Into reused memory: what is left is each library's loop over the
	// items, and for doubles a plain copy of the same bytes is the floor.
	run("decode-reuse", libOurs, func(b *testing.B) {
		var out []E
		for i := 0; i < b.N; i++ {
			if err := avro.Unmarshal(w.ours, w.enc[i&mask], &out); err != nil {
				b.Fatal(err)
			}
		}
		sinkAny = out
	})
	run("decode-reuse", libHamba, func(b *testing.B) {
		var out []E
		for i := 0; i < b.N; i++ {
			if err := hamba.Unmarshal(w.hamba, w.enc[i&mask], &out); err != nil {
				b.Fatal(err)
			}
		}
		sinkAny = out
	})
	run("decode-reuse", libTwmb, func(b *testing.B) {
		var out []E
		for i := 0; i < b.N; i++ {
			if _, err := w.twmb.Decode(w.enc[i&mask], &out); err != nil {
				b.Fatal(err)
			}
		}
		sinkAny = out
	})
	if w.c.items == "double" {
		run("decode-reuse", libCopy, func(b *testing.B) {
			out := make([]byte, 0, 16<<10)
			for i := 0; i < b.N; i++ {
				data := w.enc[i&mask]
				// The items of a one-block array: after the count, before the 0.
				out = append(out[:0], data[len(data)-1-8*arrayLen:len(data)-1]...)
			}
			sinkBytes = out
		})
	}
	run("append", libOurs, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], w.ours, w.vals[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("append", libHamba, func(b *testing.B) {
		hw := hamba.NewWriter(nil, 64<<10)
		for i := 0; i < b.N; i++ {
			hw.Reset(nil)
			hw.WriteVal(w.hamba, w.vals[i&mask])
			if hw.Error != nil {
				b.Fatal(hw.Error)
			}
		}
		sinkBytes = hw.Buffer()
	})
	run("append", libTwmb, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = w.twmb.AppendEncode(buf[:0], w.vals[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("append", libGoavro, func(b *testing.B) { // from []any
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = w.goavro.BinaryFromNative(buf[:0], w.native[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	if w.c.items == "double" {
		// The floor of an encoder on a little-endian machine: the block
		// count, the items copied from the []float64 to where the encoding
		// puts them (after the count, so not at the same offset from a
		// 64-byte line as in the slice: such a copy takes 1.5x-1.8x as
		// long as one between equally aligned ranges), and the closing 0.
		items := make([][]byte, len(w.vals))
		for i, v := range w.vals {
			f := v.([]float64)
			items[i] = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(f))), 8*len(f))
		}
		copyEncode := func(buf []byte, i int) []byte {
			data := w.enc[i]
			buf = append(buf[:0], data[:len(data)-1-8*arrayLen]...)
			buf = append(buf, items[i]...)
			return append(buf, 0)
		}
		run("append", libCopy, func(b *testing.B) {
			buf := make([]byte, 0, 64<<10)
			for i := range items {
				if buf = copyEncode(buf, i); !bytes.Equal(buf, w.enc[i]) {
					b.Fatalf("array %d: the copy differs from the encoding", i)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf = copyEncode(buf, i&mask)
			}
			sinkBytes = buf
		})
	}
}
