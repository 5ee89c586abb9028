package codec

import (
	"bytes"
	"github.com/avrogo/avro/internal/wire"
	"io"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Benchmarks of a 10-field record (benchRecordSchema: scalars, an array, a
// map, an optional string, bytes and a nested record; about 131 bytes
// encoded) against its struct and the generic models, and arrays of 1,000
// longs and doubles. The data is random (fixed seed) and each benchmark
// cycles through many distinct datums, so that neither lengths nor values
// can be learnt by the branch predictor.
//
//	go test -run '^$' -bench . -benchtime 20000x .

const benchRecordSchema = `{"type":"record","name":"Event","namespace":"bench","fields":[
	{"name":"id","type":"int"},
	{"name":"timestamp","type":"long"},
	{"name":"name","type":"string"},
	{"name":"score","type":"double"},
	{"name":"active","type":"boolean"},
	{"name":"counts","type":{"type":"array","items":"long"}},
	{"name":"labels","type":{"type":"map","values":"string"}},
	{"name":"comment","type":["null","string"]},
	{"name":"hash","type":"bytes"},
	{"name":"origin","type":{"type":"record","name":"Origin","fields":[
		{"name":"host","type":"string"},{"name":"port","type":"int"}]}}]}`

type benchOrigin struct {
	Host string `avro:"host"`
	Port int32  `avro:"port"`
}

// benchEvent is the struct of the 10-field record.
type benchEvent struct {
	ID        int32             `avro:"id"`
	Timestamp int64             `avro:"timestamp"`
	Name      string            `avro:"name"`
	Score     float64           `avro:"score"`
	Active    bool              `avro:"active"`
	Counts    []int64           `avro:"counts"`
	Labels    map[string]string `avro:"labels"`
	Comment   *string           `avro:"comment"`
	Hash      []byte            `avro:"hash"`
	Origin    benchOrigin       `avro:"origin"`
}

const benchRecords = 4096 // distinct records each record benchmark cycles through

func benchString(r *rand.Rand, lo, hi int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."
	b := make([]byte, lo+r.IntN(hi-lo+1))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

func benchEventOf(r *rand.Rand) benchEvent {
	e := benchEvent{
		ID:        int32(r.IntN(1 << 20)),
		Timestamp: 1_700_000_000_000 + r.Int64N(100_000_000_000),
		Name:      benchString(r, 8, 24),
		Score:     r.NormFloat64() * 100,
		Active:    r.IntN(2) == 0,
		Counts:    make([]int64, 6),
		Labels:    make(map[string]string, 3),
		Hash:      make([]byte, 16),
		Origin:    benchOrigin{Host: benchString(r, 6, 14), Port: int32(1024 + r.IntN(60000))},
	}
	for i := range e.Counts {
		// Mixed lengths, mostly short, as real counters are.
		e.Counts[i] = r.Int64N(int64(1) << (7 * (1 + r.IntN(4))))
	}
	for len(e.Labels) < 3 {
		e.Labels[benchString(r, 3, 6)] = benchString(r, 4, 10)
	}
	if r.IntN(2) == 0 {
		c := benchString(r, 5, 15)
		e.Comment = &c
	}
	for i := range e.Hash {
		e.Hash[i] = byte(r.Uint32())
	}
	return e
}

type benchData struct {
	s       *schema.Schema
	events  []benchEvent
	encoded [][]byte
	values  []value.Value
	avgSize int64
}

// benchSetup returns the record schema, benchRecords random records, their
// encodings and their value.Value forms.
func benchSetup(b testing.TB) *benchData {
	b.Helper()
	s, err := schema.Parse(benchRecordSchema)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2026, 4))
	d := &benchData{s: s}
	total := 0
	for range benchRecords {
		e := benchEventOf(r)
		data, err := Marshal(s, &e)
		if err != nil {
			b.Fatal(err)
		}
		var v value.Value
		if err := Unmarshal(s, data, &v); err != nil {
			b.Fatal(err)
		}
		d.events = append(d.events, e)
		d.encoded = append(d.encoded, data)
		d.values = append(d.values, v)
		total += len(data)
	}
	d.avgSize = int64(total / benchRecords)
	return d
}

var benchSink any

// benchValueSink keeps decoded Values: storing one in benchSink would
// allocate a box per op that the decode did not cause.
var benchValueSink value.Value

func BenchmarkRecordAppendReused(b *testing.B) {
	d := benchSetup(b)
	buf := make([]byte, 0, 1024)
	b.SetBytes(d.avgSize)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		buf, err = Append(buf[:0], d.s, &d.events[i%benchRecords])
		if err != nil {
			b.Fatal(err)
		}
	}
	benchSink = buf
}

func BenchmarkRecordMarshal(b *testing.B) {
	d := benchSetup(b)
	b.SetBytes(d.avgSize)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		data, err := Marshal(d.s, &d.events[i%benchRecords])
		if err != nil {
			b.Fatal(err)
		}
		benchSink = data
	}
}

func BenchmarkRecordMarshalValue(b *testing.B) {
	d := benchSetup(b)
	buf := make([]byte, 0, 1024)
	b.SetBytes(d.avgSize)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		// &v: a value.Value passed by value would be boxed (16 bytes).
		buf, err = Append(buf[:0], d.s, &d.values[i%benchRecords])
		if err != nil {
			b.Fatal(err)
		}
	}
	benchSink = buf
}

func BenchmarkRecordUnmarshalNew(b *testing.B) {
	d := benchSetup(b)
	b.SetBytes(d.avgSize)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := new(benchEvent)
		if err := Unmarshal(d.s, d.encoded[i%benchRecords], e); err != nil {
			b.Fatal(err)
		}
		benchSink = e
	}
}

func BenchmarkRecordUnmarshalReused(b *testing.B) {
	d := benchSetup(b)
	benchDecodeReused(b, d, func(e *benchEvent, i int) error {
		return Unmarshal(d.s, d.encoded[i%benchRecords], e)
	})
}

// BenchmarkDecoderReused reads the same records back to back from a raw
// stream with one Decoder, into one reused struct: the per-datum cost of
// a Decoder (its buffer and budget, and the decode state it keeps), next
// to BenchmarkRecordUnmarshalReused's Unmarshal per record.
func BenchmarkDecoderReused(b *testing.B) {
	d := benchSetup(b)
	var stream []byte
	for _, enc := range d.encoded {
		stream = append(stream, enc...)
	}
	r := bytes.NewReader(stream)
	dec := NewDecoder(r, d.s)
	benchDecodeReused(b, d, func(e *benchEvent, i int) error {
		err := dec.Decode(e)
		if err == io.EOF {
			r.Reset(stream)
			dec = NewDecoder(r, d.s)
			err = dec.Decode(e)
		}
		return err
	})
}

// benchDecodeReused times decode (of op i) into one struct reused for
// every op.
func benchDecodeReused(b *testing.B, d *benchData, decode func(e *benchEvent, i int) error) {
	var e benchEvent
	b.SetBytes(d.avgSize)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Decoding into a non-nil map adds to it (as encoding/json
		// does); a caller reusing the struct clears it first.
		clear(e.Labels)
		if err := decode(&e, i); err != nil {
			b.Fatal(err)
		}
	}
	benchSink = &e
}

func BenchmarkRecordUnmarshalValue(b *testing.B) {
	d := benchSetup(b)
	b.SetBytes(d.avgSize)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var v value.Value
		if err := Unmarshal(d.s, d.encoded[i%benchRecords], &v); err != nil {
			b.Fatal(err)
		}
		benchValueSink = v
	}
}

func BenchmarkRecordUnmarshalAny(b *testing.B) {
	d := benchSetup(b)
	b.SetBytes(d.avgSize)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var v any
		if err := Unmarshal(d.s, d.encoded[i%benchRecords], &v); err != nil {
			b.Fatal(err)
		}
		benchSink = v
	}
}

// Arrays of 1,000 values: benchArrays distinct arrays (128K values) are
// cycled through.
const (
	benchArrayLen = 1000
	benchArrays   = 128
)

// benchLongArrays returns random arrays whose values encode in 1 byte
// (small), 1 or 2 bytes (the common real mix), or 1 to 10 bytes (mixed).
func benchLongArrays(kind string) [][]int64 {
	r := rand.New(rand.NewPCG(7, uint64(len(kind))))
	out := make([][]int64, benchArrays)
	for i := range out {
		a := make([]int64, benchArrayLen)
		for j := range a {
			switch kind {
			case "small":
				a[j] = r.Int64N(128) - 64
			case "mixed1-2":
				a[j] = r.Int64N(1<<(6+7*r.IntN(2))) * (1 - 2*int64(r.IntN(2)))
			case "mixed1-10":
				w := 1 + r.IntN(64)
				a[j] = int64(r.Uint64() >> (64 - w))
			}
		}
		out[i] = a
	}
	return out
}

// benchArrayCase runs encode (Append into a reused buffer), decode (with
// the given function: into a fresh typed slice) and decode-value (into a
// value.Value: a typed array filled by the same kernels).
func benchArrayCase(b *testing.B, s *schema.Schema, arrays []any, decode func(data []byte) error) {
	encoded := make([][]byte, len(arrays))
	total := 0
	for i, a := range arrays {
		data, err := Marshal(s, a)
		if err != nil {
			b.Fatal(err)
		}
		encoded[i] = data
		total += len(data)
	}
	b.Run("encode", func(b *testing.B) {
		buf := make([]byte, 0, 16<<10)
		b.SetBytes(int64(total / len(arrays)))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			var err error
			buf, err = Append(buf[:0], s, arrays[i%len(arrays)])
			if err != nil {
				b.Fatal(err)
			}
		}
		benchSink = buf
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(total / len(arrays)))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := decode(encoded[i%len(encoded)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode-value", func(b *testing.B) {
		b.SetBytes(int64(total / len(arrays)))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			var v value.Value
			if err := Unmarshal(s, encoded[i%len(encoded)], &v); err != nil {
				b.Fatal(err)
			}
			benchValueSink = v
		}
	})
}

func BenchmarkInt64s(b *testing.B) {
	s := schema.MustParse(`{"type":"array","items":"long"}`)
	for _, kind := range []string{"small", "mixed1-2", "mixed1-10"} {
		b.Run(kind, func(b *testing.B) {
			arrays := benchLongArrays(kind)
			ptrs := make([]any, len(arrays))
			for i := range arrays {
				ptrs[i] = &arrays[i]
			}
			benchArrayCase(b, s, ptrs, func(data []byte) error {
				var out []int64 // fresh: the decode allocates the slice
				err := Unmarshal(s, data, &out)
				benchSink = out
				return err
			})
		})
	}
}

func BenchmarkFloat64s(b *testing.B) {
	s := schema.MustParse(`{"type":"array","items":"double"}`)
	r := rand.New(rand.NewPCG(11, 13))
	arrays := make([][]float64, benchArrays)
	ptrs := make([]any, benchArrays)
	for i := range arrays {
		a := make([]float64, benchArrayLen)
		for j := range a {
			a[j] = r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10))
		}
		arrays[i] = a
		ptrs[i] = &arrays[i]
	}
	benchArrayCase(b, s, ptrs, func(data []byte) error {
		var out []float64
		err := Unmarshal(s, data, &out)
		benchSink = out
		return err
	})
}

// benchRaceEnabled reports whether the test binary was built with -race,
// which changes allocation counts (sync.Pool drops items at random).
func benchRaceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// TestAppendRecordZeroAllocs checks the promise of Append's documentation
// on the benchmark record: encoding a struct through a pointer into a
// buffer with room allocates nothing.
func TestAppendRecordZeroAllocs(t *testing.T) {
	if benchRaceEnabled() {
		t.Skip("allocation counts are not meaningful under -race")
	}
	d := benchSetup(t)
	buf := make([]byte, 0, 1024)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		var err error
		buf, err = Append(buf[:0], d.s, &d.events[i%benchRecords])
		if err != nil {
			t.Fatal(err)
		}
		i++
	})
	if allocs != 0 {
		t.Errorf("Append of the 10-field record into a reused buffer: %v allocations per call, want 0", allocs)
	}
	// The same without the map field, to locate the allocation.
	noMap := schema.MustParse(`{"type":"record","name":"E","fields":[{"name":"counts","type":{"type":"array","items":"long"}},{"name":"comment","type":["null","string"]},{"name":"hash","type":"bytes"}]}`)
	allocs = testing.AllocsPerRun(1000, func() {
		buf, _ = Append(buf[:0], noMap, &d.events[i%benchRecords])
		i++
	})
	if allocs != 0 {
		t.Errorf("Append of a record without a map: %v allocations per call, want 0", allocs)
	}
	labels := schema.MustParse(`{"type":"map","values":"string"}`)
	allocs = testing.AllocsPerRun(1000, func() {
		buf, _ = Append(buf[:0], labels, &d.events[i%benchRecords].Labels)
		i++
	})
	if allocs != 0 {
		t.Errorf("Append of a map[string]string: %v allocations per call, want 0", allocs)
	}
}

// TestMarshalOneAlloc checks that Marshal of a record makes one
// allocation, its exact-size result, from a struct and from a
// map[string]any, also after a large datum (whose scratch buffer the
// pooled state does not keep) and an untyped nil.
func TestMarshalOneAlloc(t *testing.T) {
	if benchRaceEnabled() {
		t.Skip("allocation counts are not meaningful under -race")
	}
	d := benchSetup(t)
	generic := make([]any, benchRecords)
	for j, data := range d.encoded {
		if err := Unmarshal(d.s, data, &generic[j]); err != nil {
			t.Fatal(err)
		}
	}
	big := schema.MustParse(`{"type":"array","items":"long"}`)
	bigValue := make([]int64, 100_000) // 100 KB encoded, past maxPooledBuffer
	bigValue[1] = -1
	out, err := Marshal(big, &bigValue)
	var back []int64
	if err != nil || len(out) != 3+100_000+1 || cap(out) != len(out) || Unmarshal(big, out, &back) != nil || !slices.Equal(back, bigValue) {
		t.Fatalf("Marshal of 100,000 longs: %d bytes (cap %d), %v", len(out), cap(out), err)
	}
	if out, err := Marshal(schema.MustParse(`["null","long"]`), nil); err != nil || !bytes.Equal(out, []byte{0}) {
		t.Fatalf("Marshal of nil: % x, %v", out, err)
	}
	i := 0
	for _, c := range []struct {
		name string
		v    func() any
	}{
		{"struct", func() any { return &d.events[i%benchRecords] }},
		{"map[string]any", func() any { return generic[i%benchRecords] }},
	} {
		allocs := testing.AllocsPerRun(100, func() {
			out, err := Marshal(d.s, c.v())
			if err != nil {
				t.Fatal(err)
			}
			// The records hold a map, whose entries come in any order:
			// their encodings agree in length only.
			if want := d.encoded[i%benchRecords]; len(out) != len(want) || cap(out) != len(out) {
				t.Fatalf("Marshal of a %s: %d bytes (cap %d), want %d", c.name, len(out), cap(out), len(want))
			}
			i++
		})
		if allocs != 1 {
			t.Errorf("Marshal of a %s: %v allocations per call, want 1", c.name, allocs)
		}
	}
}

// TestValueDecodeAllocs pins the allocations of decoding the 10-field
// record to value.Value: the arena block that holds both records and the
// map (the Value itself is the caller's); the 1 KiB chunk that holds the
// strings, the bytes and the short []int64 of counts serves several
// records. The purego build allocates every node.
func TestValueDecodeAllocs(t *testing.T) {
	if benchRaceEnabled() {
		t.Skip("allocation counts are not meaningful under -race")
	}
	d := benchSetup(t)
	var v value.Value
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		if err := Unmarshal(d.s, d.encoded[i%benchRecords], &v); err != nil {
			t.Fatal(err)
		}
		i++
	})
	want := 1.0
	switch {
	case !wire.SlabBoxing: // the purego build
		want = 16 // records 2, map 3, strings 8-9 (note is optional), bytes 1, counts 1
	case unsafe.Sizeof(uintptr(0)) != 8:
		// value.Arena places records and maps in its blocks on 64-bit
		// platforms only.
		want = 5 // records 2, map 3
	}
	if allocs > want {
		t.Errorf("decoding the 10-field record to value.Value: %v allocations, want at most %v", allocs, want)
	}
}

// TestBenchRecordShape checks that the benchmark record keeps the shape the
// figures are quoted for: 10 fields, about 131 bytes on the wire.
func TestBenchRecordShape(t *testing.T) {
	d := benchSetup(t)
	if d.avgSize < 90 || d.avgSize > 170 {
		t.Errorf("average record size %d bytes, want about 131", d.avgSize)
	}
	if n := len(d.s.Fields()); n != 10 {
		t.Errorf("%d fields, want 10", n)
	}
}

type benchPoint struct {
	X int64  `avro:"x"`
	Y string `avro:"y"`
}

// benchPointMaps returns a map-of-records schema and 1,024 random maps of
// 1 to 8 records for it: the map codec for value types without a typed
// Path.
func benchPointMaps() (*schema.Schema, []map[string]benchPoint) {
	s := schema.MustParse(`{"type":"map","values":{"type":"record","name":"P","fields":[
		{"name":"x","type":"long"},{"name":"y","type":"string"}]}}`)
	r := rand.New(rand.NewPCG(5, 6))
	maps := make([]map[string]benchPoint, 1024)
	for i := range maps {
		m := map[string]benchPoint{}
		for j := range 1 + r.IntN(8) {
			m["key"+strconv.Itoa(j)] = benchPoint{X: r.Int64N(1 << 40), Y: strconv.Itoa(r.IntN(1e6))}
		}
		maps[i] = m
	}
	return s, maps
}

func BenchmarkAppendMapOfRecords(b *testing.B) {
	s, maps := benchPointMaps()
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if buf, err = Append(buf[:0], s, maps[i%len(maps)]); err != nil {
			b.Fatal(err)
		}
	}
	benchSink = buf
}

// BenchmarkUnmarshalMapOfRecords decodes the same maps into a new map
// each op.
func BenchmarkUnmarshalMapOfRecords(b *testing.B) {
	s, maps := benchPointMaps()
	encoded := make([][]byte, len(maps))
	for i, m := range maps {
		var err error
		if encoded[i], err = Marshal(s, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var m map[string]benchPoint
		if err := Unmarshal(s, encoded[i%len(encoded)], &m); err != nil {
			b.Fatal(err)
		}
		benchSink = m
	}
}
