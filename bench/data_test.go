package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	gogengeneric "github.com/actgardner/gogen-avro/v10/generic"
	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	hamba "github.com/hamba/avro/v2"
	goavro "github.com/linkedin/goavro/v2"
	twmb "github.com/twmb/avro"
)

// The libraries, as they appear in benchmark names (lib=...).
const (
	libOurs   = "avrogo"
	libHamba  = "hamba"
	libTwmb   = "twmb"
	libGoavro = "goavro"
	libGogen  = "gogen"  // gogen-avro's generated code
	libStd    = "stdlib" // the standard library alone: a reference row, not a peer
	libCopy   = "copy"   // a plain copy of the same bytes: a reference row
	libPlain  = "plain"  // the same work with plain Go types: a reference row
)

// poolSize is the number of pre-generated records cycled through by the
// record benchmarks: enough that lengths and branches are not memorised.
const poolSize = 4096

// ---------------------------------------------------------------------------
// rec10: 10 fields (int, long, string, double, boolean, an array of longs,
// a map of strings, an optional string, bytes and a nested record), about
// 130 bytes encoded.

const rec10Schema = `{"type":"record","name":"Rec10","namespace":"bench","fields":[
 {"name":"id","type":"int"},
 {"name":"ts","type":"long"},
 {"name":"name","type":"string"},
 {"name":"score","type":"double"},
 {"name":"active","type":"boolean"},
 {"name":"counts","type":{"type":"array","items":"long"}},
 {"name":"attrs","type":{"type":"map","values":"string"}},
 {"name":"note","type":["null","string"],"default":null},
 {"name":"digest","type":"bytes"},
 {"name":"inner","type":{"type":"record","name":"Inner","fields":[
   {"name":"seq","type":"long"},{"name":"label","type":"string"}]}}
]}`

type Rec10 struct {
	ID     int32             `avro:"id"`
	TS     int64             `avro:"ts"`
	Name   string            `avro:"name"`
	Score  float64           `avro:"score"`
	Active bool              `avro:"active"`
	Counts []int64           `avro:"counts"`
	Attrs  map[string]string `avro:"attrs"`
	Note   *string           `avro:"note"`
	Digest []byte            `avro:"digest"`
	Inner  Inner             `avro:"inner"`
}

type Inner struct {
	Seq   int64  `avro:"seq"`
	Label string `avro:"label"`
}

func genRec10(r *rand.Rand) Rec10 {
	v := Rec10{
		ID:     int32(r.IntN(100000)),
		TS:     genTimestampMicros(r),
		Name:   asciiString(r, 5+r.IntN(16)),
		Score:  r.NormFloat64() * 100,
		Active: r.IntN(2) == 0,
		Counts: make([]int64, 6),
		Attrs:  make(map[string]string, 3),
		Digest: randBytes(r, 16),
		Inner:  Inner{Seq: genLongMixed(r), Label: asciiString(r, 4+r.IntN(9))},
	}
	for i := range v.Counts {
		v.Counts[i] = genLongMixed(r)
	}
	for len(v.Attrs) < 3 {
		v.Attrs[asciiString(r, 3+r.IntN(6))] = asciiString(r, 5+r.IntN(11))
	}
	if r.IntN(10) >= 3 {
		s := asciiString(r, 8+r.IntN(24))
		v.Note = &s
	}
	return v
}

// ---------------------------------------------------------------------------
// The deep record: nested records, arrays of records, a union of a record.

const deepSchema = `{"type":"record","name":"Order","namespace":"bench","fields":[
 {"name":"id","type":"long"},
 {"name":"created","type":"long"},
 {"name":"customer","type":{"type":"record","name":"Customer","fields":[
   {"name":"id","type":"long"},
   {"name":"name","type":"string"},
   {"name":"email","type":"string"},
   {"name":"address","type":{"type":"record","name":"Address","fields":[
     {"name":"street","type":"string"},
     {"name":"city","type":"string"},
     {"name":"zip","type":"string"},
     {"name":"country","type":"string"}]}}]}},
 {"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[
   {"name":"sku","type":"string"},
   {"name":"qty","type":"int"},
   {"name":"price","type":"double"},
   {"name":"discounts","type":{"type":"array","items":{"type":"record","name":"Discount","fields":[
     {"name":"code","type":"string"},
     {"name":"amount","type":"double"}]}}}]}}},
 {"name":"shipping","type":["null","Address"],"default":null},
 {"name":"notes","type":{"type":"array","items":"string"}}
]}`

type Order struct {
	ID       int64    `avro:"id"`
	Created  int64    `avro:"created"`
	Customer Customer `avro:"customer"`
	Lines    []Line   `avro:"lines"`
	Shipping *Address `avro:"shipping"`
	Notes    []string `avro:"notes"`
}

type Customer struct {
	ID      int64   `avro:"id"`
	Name    string  `avro:"name"`
	Email   string  `avro:"email"`
	Address Address `avro:"address"`
}

type Address struct {
	Street  string `avro:"street"`
	City    string `avro:"city"`
	Zip     string `avro:"zip"`
	Country string `avro:"country"`
}

type Line struct {
	SKU       string     `avro:"sku"`
	Qty       int32      `avro:"qty"`
	Price     float64    `avro:"price"`
	Discounts []Discount `avro:"discounts"`
}

type Discount struct {
	Code   string  `avro:"code"`
	Amount float64 `avro:"amount"`
}

func genAddress(r *rand.Rand) Address {
	return Address{
		Street:  fmt.Sprintf("%d %s St", 1+r.IntN(9999), asciiString(r, 4+r.IntN(10))),
		City:    asciiString(r, 4+r.IntN(12)),
		Zip:     fmt.Sprintf("%05d", r.IntN(100000)),
		Country: []string{"US", "DE", "FR", "JP", "BR", "IN"}[r.IntN(6)],
	}
}

func genOrder(r *rand.Rand) Order {
	o := Order{
		ID:      r.Int64N(1 << 40),
		Created: genTimestampMicros(r),
		Customer: Customer{
			ID:      r.Int64N(1 << 30),
			Name:    asciiString(r, 6+r.IntN(20)),
			Email:   asciiString(r, 5+r.IntN(10)) + "@example.com",
			Address: genAddress(r),
		},
		Lines: make([]Line, 1+r.IntN(8)),
		Notes: make([]string, r.IntN(3)),
	}
	for i := range o.Lines {
		l := &o.Lines[i]
		l.SKU = "SKU-" + asciiString(r, 8)
		l.Qty = int32(1 + r.IntN(20))
		l.Price = math.Round(r.Float64()*50000) / 100
		l.Discounts = make([]Discount, r.IntN(4))
		for j := range l.Discounts {
			l.Discounts[j] = Discount{Code: asciiString(r, 6), Amount: math.Round(r.Float64()*1000) / 100}
		}
	}
	for i := range o.Notes {
		o.Notes[i] = asciiString(r, 10+r.IntN(40))
	}
	if r.IntN(2) == 0 {
		a := genAddress(r)
		o.Shipping = &a
	}
	return o
}

// ---------------------------------------------------------------------------
// Strings: a record of four strings of about n bytes (±25%), ASCII or not.

const strSchema = `{"type":"record","name":"Strs","namespace":"bench","fields":[
 {"name":"a","type":"string"},{"name":"b","type":"string"},
 {"name":"c","type":"string"},{"name":"d","type":"string"}]}`

type Strs struct {
	A string `avro:"a"`
	B string `avro:"b"`
	C string `avro:"c"`
	D string `avro:"d"`
}

func genStrs(n int, ascii bool) func(r *rand.Rand) Strs {
	return func(r *rand.Rand) Strs {
		g := func() string {
			l := n - n/4 + r.IntN(n/2+1)
			if ascii {
				return asciiString(r, l)
			}
			return utf8String(r, l)
		}
		return Strs{A: g(), B: g(), C: g(), D: g()}
	}
}

// ---------------------------------------------------------------------------
// The wide record (52 fields; the schema and struct are in wide_gen_test.go).

func genWide(r *rand.Rand) Wide {
	var w Wide
	rv := reflect.ValueOf(&w).Elem()
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Field(i)
		switch f.Kind() {
		case reflect.Int64:
			f.SetInt(genLongMixed(r))
		case reflect.Int32:
			f.SetInt(int64(int32(r.Uint32()) >> r.IntN(32)))
		case reflect.String:
			f.SetString(asciiString(r, 3+r.IntN(20)))
		case reflect.Float64:
			f.SetFloat(r.NormFloat64() * 1e3)
		case reflect.Bool:
			f.SetBool(r.IntN(2) == 0)
		case reflect.Pointer:
			if r.IntN(2) == 0 {
				s := asciiString(r, 3+r.IntN(20))
				f.Set(reflect.ValueOf(&s))
			}
		}
	}
	return w
}

// ---------------------------------------------------------------------------
// Value generators.

// nonASCII are runes of 2, 3 and 4 bytes in UTF-8.
var nonASCII = []rune("éüßñçøåÆΩλπжщыאבעربي日本語中文字한국어漢字かなカナ😀🚀🎉🌍")

// utf8String returns valid UTF-8 text of about n bytes, about three
// quarters of its runes outside ASCII.
func utf8String(r *rand.Rand, n int) string {
	var sb strings.Builder
	for sb.Len() < n {
		if r.IntN(4) == 0 {
			sb.WriteByte(alnum[r.IntN(len(alnum))])
		} else {
			sb.WriteRune(nonASCII[r.IntN(len(nonASCII))])
		}
	}
	return sb.String()
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// genLongMixed returns a long whose varint is 1 to 10 bytes, lengths
// uniformly chosen.
func genLongMixed(r *rand.Rand) int64 { return longOfLen(r, 1+r.IntN(10)) }

// longOfLen returns a random long whose varint encoding takes n bytes.
func longOfLen(r *rand.Rand, n int) int64 {
	var u uint64
	switch {
	case n == 1:
		u = r.Uint64N(1 << 7)
	case n >= 10:
		u = 1<<63 | r.Uint64N(1<<63)
	default:
		lo := uint64(1) << (7 * (n - 1))
		u = lo + r.Uint64N(lo<<7-lo)
	}
	return int64(u>>1) ^ -int64(u&1)
}

// ---------------------------------------------------------------------------
// A workload: one schema, parsed by every library, with a pool of records.

type workload[T any] struct {
	name   string
	text   string
	ours   *schema.Schema
	hamba  hamba.Schema
	twmb   *twmb.Schema
	goavro *goavro.Codec
	recs   []T      // poolSize records
	enc    [][]byte // our encoding of each
	native []any    // goavro's native form of each
	reset  func(*T) // prepares a reused struct for the next decode, or nil
	// floor, when set, builds record i the way the lib=copy row of
	// decode-new does: every allocation a decoder must make, without
	// decoding (see floorRec10).
	floor func(i int) *T
	// gogen, when set, is gogen-avro's generated code for the workload.
	gogen *gogenBinding
	// gogenGeneric is gogen-avro's decoder to its generic model.
	gogenGeneric *gogengeneric.Codec
	// noReuse lists the libraries that decode this workload into a
	// reused struct wrongly, with the reason: they have no decode-reuse
	// row (the parity test checks that they still get it wrong).
	noReuse map[string]string
}

func newWorkload[T any](tb testing.TB, name, text string, seed uint64, gen func(*rand.Rand) T) *workload[T] {
	w := &workload[T]{name: name, text: text}
	var err error
	if w.ours, err = schema.Parse(text); err != nil {
		tb.Fatalf("%s: avrogo parse: %v", name, err)
	}
	if w.hamba, err = hamba.ParseWithCache(text, "", &hamba.SchemaCache{}); err != nil {
		tb.Fatalf("%s: hamba parse: %v", name, err)
	}
	if w.twmb, err = twmb.Parse(text); err != nil {
		tb.Fatalf("%s: twmb parse: %v", name, err)
	}
	if w.goavro, err = goavro.NewCodec(text); err != nil {
		tb.Fatalf("%s: goavro parse: %v", name, err)
	}
	if w.gogenGeneric, err = gogengeneric.NewCodecFromSchema([]byte(text), []byte(text)); err != nil {
		tb.Fatalf("%s: gogen generic codec: %v", name, err)
	}
	r := newRand(seed)
	w.recs = make([]T, poolSize)
	w.enc = make([][]byte, poolSize)
	w.native = make([]any, poolSize)
	for i := range w.recs {
		w.recs[i] = gen(r)
		if w.enc[i], err = avro.Marshal(w.ours, &w.recs[i]); err != nil {
			tb.Fatalf("%s: avrogo marshal: %v", name, err)
		}
		w.native[i] = toNative(w.ours, reflect.ValueOf(w.recs[i]))
	}
	return w
}

// releasers drop the workloads built so far (see releaseWorkloads).
var releasers []func()

// releaseWorkloads drops every cached workload and collects garbage. Each
// set of rows calls it before building its own workload, so that the live
// heap a row runs with is that workload's data and nothing else: the cost
// of the collector, which every allocating row pays in proportion to the
// live heap's pointers, then does not depend on which rows ran before
// (or were filtered out) in the same process.
func releaseWorkloads() {
	for _, r := range releasers {
		r()
	}
	clear(arrayWorkloads)
	clear(varintDataCache)
	clear(ocfFiles)
	runtime.GC()
}

// The workloads are built once and shared by the benchmarks of one set of
// rows (and the parity tests); releaseWorkloads drops them.
var (
	wlRec10 = lazy(func(tb testing.TB) *workload[Rec10] {
		w := newWorkload(tb, "rec10", rec10Schema, 10, genRec10)
		w.reset = func(v *Rec10) { clear(v.Attrs) }
		w.floor = floorRec10(w)
		w.gogen = newGogenBinding(tb, w, gogenRec10)
		return w
	})
	wlWide = lazy(func(tb testing.TB) *workload[Wide] {
		w := newWorkload(tb, "wide", wideSchema, 52, genWide)
		w.floor = floorWide(w)
		w.gogen = newGogenBinding(tb, w, gogenWide)
		return w
	})
	wlDeep = lazy(func(tb testing.TB) *workload[Order] {
		w := newWorkload(tb, "deep", deepSchema, 7, genOrder)
		w.floor = floorDeep(w)
		w.noReuse = map[string]string{
			libHamba: "an empty array decoded into a reused slice keeps the old items",
		}
		w.gogen = newGogenBinding(tb, w, gogenDeep)
		return w
	})
	wlTelemetry = lazy(func(tb testing.TB) *workload[Sample] {
		w := newWorkload(tb, "telemetry", telemetrySchema, 99, genSample)
		w.gogen = newGogenBinding(tb, w, gogenTelemetry)
		return w
	})
	wlStrs = func() map[string]func(testing.TB) *workload[Strs] {
		m := map[string]func(testing.TB) *workload[Strs]{}
		for i, n := range []int{8, 64, 1024} {
			for j, ascii := range []bool{true, false} {
				kind := "ascii"
				if !ascii {
					kind = "utf8"
				}
				name := fmt.Sprintf("%d-%s", n, kind)
				seed := uint64(1000 + 10*i + j)
				m[name] = lazy(func(tb testing.TB) *workload[Strs] {
					w := newWorkload(tb, "str="+name, strSchema, seed, genStrs(n, ascii))
					w.gogen = newGogenBinding(tb, w, gogenStrs)
					return w
				})
			}
		}
		return m
	}()
	strCases = []string{"8-ascii", "8-utf8", "64-ascii", "64-utf8", "1024-ascii", "1024-utf8"}
)

func lazy[T any](f func(testing.TB) T) func(testing.TB) T {
	var v T
	done := false
	releasers = append(releasers, func() {
		var zero T
		v, done = zero, false
	})
	return func(tb testing.TB) T {
		if !done {
			v = f(tb)
			done = true
		}
		return v
	}
}

// ---------------------------------------------------------------------------
// goavro's native form of a Go value, guided by the schema: records are
// map[string]any, unions {"branch": v}, int int32, long int64, float
// float32, arrays []any, maps map[string]any.

func toNative(s *schema.Schema, v reflect.Value) any {
	for v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	switch s.Kind() {
	case schema.Null:
		return nil
	case schema.Boolean:
		return v.Bool()
	case schema.Int:
		return int32(v.Int())
	case schema.Long:
		if t, ok := v.Interface().(time.Time); ok {
			return t
		}
		return v.Int()
	case schema.Float:
		return float32(v.Float())
	case schema.Double:
		return v.Float()
	case schema.String:
		return v.String()
	case schema.Bytes, schema.Fixed:
		return append([]byte{}, v.Bytes()...)
	case schema.Enum:
		return v.String()
	case schema.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = toNative(s.Items(), v.Index(i))
		}
		return out
	case schema.Map:
		out := make(map[string]any, v.Len())
		it := v.MapRange()
		for it.Next() {
			out[it.Key().String()] = toNative(s.Values(), it.Value())
		}
		return out
	case schema.Record:
		out := make(map[string]any, len(s.Fields()))
		for _, f := range s.Fields() {
			out[f.Name()] = toNative(f.Type(), fieldByTag(v, f.Name()))
		}
		return out
	case schema.Union:
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil
			}
			v = v.Elem()
		}
		for _, b := range s.Branches() {
			if b.Kind() != schema.Null {
				return map[string]any{branchName(b): toNative(b, v)}
			}
		}
	}
	panic("toNative: unsupported schema " + s.Kind().String())
}

func fieldByTag(v reflect.Value, name string) reflect.Value {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("avro") == name {
			return v.Field(i)
		}
	}
	panic("no field tagged " + name + " in " + t.String())
}

func branchName(b *schema.Schema) string {
	if b.Kind().IsNamed() {
		return b.FullName()
	}
	return b.Kind().String()
}
