package value

import (
	"math/rand/v2"
	"testing"

	"github.com/avrogo/avro/schema"
)

const benchSchema = `{"type": "record", "name": "B", "fields": [
	{"name": "i", "type": "int"}, {"name": "l", "type": "long"}, {"name": "s", "type": "string"},
	{"name": "d", "type": "double"}, {"name": "b", "type": "boolean"},
	{"name": "al", "type": {"type": "array", "items": "long"}},
	{"name": "m", "type": {"type": "map", "values": "string"}},
	{"name": "u", "type": ["null", "string"]}, {"name": "by", "type": "bytes"},
	{"name": "f", "type": "float"}]}`

var sink Value
var sinkI int64

// BenchmarkRecordBuild builds a 10-field record from prepared payloads:
// one allocation (the record block), the scalars and wrappers free.
func BenchmarkRecordBuild(b *testing.B) {
	s := schema.MustParse(benchSchema)
	al := []int64{1, 2, 3, 4, 5, 6}
	m := MapOf(NewMap([]string{"a", "b", "c"}, []Value{String("x"), String("y"), String("z")}))
	by := make([]byte, 16)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r := NewRecord(s, nil)
		f := r.Fields()
		f[0] = Int(int32(i))
		f[1] = Long(int64(i) << 20)
		f[2] = String("hello")
		f[3] = Double(float64(i))
		f[4] = Bool(i&1 == 0)
		f[5] = Int64s(al)
		f[6] = m
		f[7] = Union(1, String("opt"))
		f[8] = Bytes(by)
		f[9] = Float(1.5)
		sink = RecordOf(r)
	}
}

// BenchmarkRecordRead reads every field of a 10-field record: no
// allocations.
func BenchmarkRecordRead(b *testing.B) {
	s := schema.MustParse(benchSchema)
	r := NewRecord(s, []Value{Int(1), Long(2), String("hello"), Double(3), Bool(true), Int64s([]int64{1, 2, 3, 4, 5, 6}),
		MapOf(NewMap([]string{"a"}, []Value{String("x")})), Union(1, String("opt")), Bytes(make([]byte, 16)), Float(1.5)})
	v := RecordOf(r)
	b.ReportAllocs()
	for b.Loop() {
		rec := v.Record()
		n := int64(rec.FieldAt(0).Int()) + rec.FieldAt(1).Long() + int64(len(rec.FieldAt(2).Str())) + int64(rec.FieldAt(3).Double())
		if rec.FieldAt(4).Bool() {
			n++
		}
		for _, x := range rec.FieldAt(5).Int64s() {
			n += x
		}
		if x, ok := rec.FieldAt(6).Map().Get("a"); ok {
			n += int64(len(x.Str()))
		}
		if u := rec.FieldAt(7); u.Branch() == 1 {
			n += int64(len(u.Str()))
		}
		n += int64(len(rec.FieldAt(8).Bytes())) + int64(rec.FieldAt(9).Float())
		n += int64(rec.Field("l").Long())
		sinkI = n
	}
}

func randInt64s(n int) []int64 {
	a := make([]int64, n)
	for i := range a {
		a[i] = rand.Int64()
	}
	return a
}

// BenchmarkTypedArrayIndex reads a 1,000-element typed array element by
// element through Index: no allocations.
func BenchmarkTypedArrayIndex(b *testing.B) {
	v := Int64s(randInt64s(1000))
	b.ReportAllocs()
	for b.Loop() {
		var n int64
		for i := range v.Len() {
			n += v.Index(i).Long()
		}
		sinkI = n
	}
}

// BenchmarkTypedArraySlice reads it as the typed slice.
func BenchmarkTypedArraySlice(b *testing.B) {
	v := Int64s(randInt64s(1000))
	b.ReportAllocs()
	for b.Loop() {
		var n int64
		for _, x := range v.Int64s() {
			n += x
		}
		sinkI = n
	}
}

// BenchmarkTypedArrayBuild wraps a fresh 1,000-element []float64: the one
// allocation is the slice itself.
func BenchmarkTypedArrayBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		a := make([]float64, 1000)
		for i := range a {
			a[i] = float64(i)
		}
		sink = Float64s(a)
	}
}

// BenchmarkScalarConstruct builds 1,000 scalar Values with union branches:
// no allocations.
func BenchmarkScalarConstruct(b *testing.B) {
	src := randInt64s(1000)
	dst := make([]Value, 1000)
	b.ReportAllocs()
	for b.Loop() {
		for i, x := range src {
			switch x & 3 {
			case 0:
				dst[i] = Long(x)
			case 1:
				dst[i] = Union(1, Double(float64(x)))
			case 2:
				dst[i] = Union(0, Null())
			default:
				dst[i] = Int(int32(x))
			}
		}
	}
	sink = dst[0]
}

func BenchmarkEqualRecord(b *testing.B) {
	s := schema.MustParse(benchSchema)
	mk := func() Value {
		return RecordOf(NewRecord(s, []Value{Int(1), Long(2), String("hello"), Double(3), Bool(true), Int64s([]int64{1, 2, 3, 4, 5, 6}),
			MapOf(NewMap([]string{"a"}, []Value{String("x")})), Union(1, String("opt")), Bytes(make([]byte, 16)), Float(1.5)}))
	}
	x, y := mk(), mk()
	b.ReportAllocs()
	for b.Loop() {
		if !Equal(x, y) {
			b.Fatal("not equal")
		}
	}
}
