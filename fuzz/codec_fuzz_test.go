package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Fuzz targets for the decoder entry points: Unmarshal into structs,
// Unmarshal into value.Value and any, and the streaming Decoder.
//
//	go test -run '^$' -fuzz '^FuzzUnmarshalStruct$' -fuzztime 60s ./fuzz/
//	go test -run '^$' -fuzz '^FuzzUnmarshalValue$' -fuzztime 60s ./fuzz/
//	go test -run '^$' -fuzz '^FuzzDecoder$' -fuzztime 60s ./fuzz/

// --- Go types for the struct target ---

// Event is the 10-field record of the root benchmarks (benchRecordSchema):
// scalars, an array, a map, an optional string, bytes and a nested record.
type Event struct {
	ID        int32             `avro:"id"`
	Timestamp int64             `avro:"timestamp"`
	Name      string            `avro:"name"`
	Score     float64           `avro:"score"`
	Active    bool              `avro:"active"`
	Counts    []int64           `avro:"counts"`
	Labels    map[string]string `avro:"labels"`
	Comment   *string           `avro:"comment"`
	Hash      []byte            `avro:"hash"`
	Origin    struct {
		Host string `avro:"host"`
		Port int32  `avro:"port"`
	} `avro:"origin"`
}

const eventSchema = `{"type":"record","name":"Event","namespace":"fuzz","fields":[
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

// Node is a recursive Go type for a recursive schema.
type Node struct {
	Value    int64
	Children []Node
	Next     *Node
}

const nodeSchema = `{"type":"record","name":"Node","namespace":"fuzz","fields":[
	{"name":"value","type":"long"},
	{"name":"children","type":{"type":"array","items":"Node"}},
	{"name":"next","type":["null","Node"]}]}`

// Shape is an interface union of registered records.
type Shape interface{ Area() float64 }

type Circle struct {
	R float64 `avro:"r"`
}

func (c Circle) Area() float64 { return c.R * c.R * math.Pi }

type Square struct {
	S float32 `avro:"s"`
}

func (s *Square) Area() float64 { return float64(s.S * s.S) }

func init() {
	avro.Register("fuzz.Circle", Circle{})
	avro.Register("fuzz.Square", (*Square)(nil))
}

// Unions has every union mapping: *T both orders, a non-pointer T with
// null, a nil-able slice and map, any, value.Value and an interface.
type Unions struct {
	A *string          `avro:"a"`
	B *int32           `avro:"b"`
	C int64            `avro:"c"`
	D []string         `avro:"d"`
	E map[string]int32 `avro:"e"`
	F any              `avro:"f"`
	G value.Value      `avro:"g"`
	H Shape            `avro:"h"`
	I []Shape          `avro:"i"`
}

const unionsSchema = `{"type":"record","name":"Unions","namespace":"fuzz","fields":[
	{"name":"a","type":["null","string"]},
	{"name":"b","type":["int","null"]},
	{"name":"c","type":["null","long"]},
	{"name":"d","type":["null",{"type":"array","items":"string"}]},
	{"name":"e","type":[{"type":"map","values":"int"},"null"]},
	{"name":"f","type":["null","int","long","string","bytes","double",{"type":"enum","name":"E","symbols":["X","Y"]}]},
	{"name":"g","type":["null","int","long",{"type":"record","name":"P","fields":[{"name":"x","type":"int"}]},{"type":"record","name":"Q","fields":[{"name":"x","type":"int"}]}]},
	{"name":"h","type":["null",
		{"type":"record","name":"Circle","fields":[{"name":"r","type":"double"}]},
		{"type":"record","name":"Square","fields":[{"name":"s","type":"float"}]}]},
	{"name":"i","type":{"type":"array","items":["Circle","Square"]}}]}`

type Key string

type MapItem struct {
	N int64  `avro:"n"`
	S string `avro:"s"`
}

// Maps has maps of several value types and a named key type.
type Maps struct {
	Nested map[string]map[string]int64 `avro:"nested"`
	Recs   map[Key]MapItem             `avro:"recs"`
	Blobs  map[string][]byte           `avro:"blobs"`
	Opt    map[string]*float64         `avro:"opt"`
	Any    map[string]any              `avro:"any"`
}

const mapsSchema = `{"type":"record","name":"Maps","namespace":"fuzz","fields":[
	{"name":"nested","type":{"type":"map","values":{"type":"map","values":"long"}}},
	{"name":"recs","type":{"type":"map","values":{"type":"record","name":"MapItem","fields":[{"name":"n","type":"long"},{"name":"s","type":"string"}]}}},
	{"name":"blobs","type":{"type":"map","values":"bytes"}},
	{"name":"opt","type":{"type":"map","values":["null","double"]}},
	{"name":"any","type":{"type":"map","values":["long","string",{"type":"array","items":"int"}]}}]}`

type Item struct {
	Sym   string    `avro:"sym"`
	Idx   uint8     `avro:"idx"`
	Fx    [4]byte   `avro:"fx"`
	FxS   []byte    `avro:"fxs"`
	F     float32   `avro:"f"`
	Small int8      `avro:"small"`
	Flags []bool    `avro:"flags"`
	Ints  [3]int32  `avro:"ints"`
	Dbls  []float64 `avro:"dbls"`
	Skip  bool      `avro:"-"`
}

const itemsSchema = `{"type":"array","items":{"type":"record","name":"Item","namespace":"fuzz","fields":[
	{"name":"sym","type":{"type":"enum","name":"Sym","symbols":["A","B","C"]}},
	{"name":"idx","type":{"type":"enum","name":"Idx","symbols":["I0","I1","I2","I3"]}},
	{"name":"fx","type":{"type":"fixed","name":"F4","size":4}},
	{"name":"fxs","type":"F4"},
	{"name":"f","type":"float"},
	{"name":"small","type":"int"},
	{"name":"flags","type":{"type":"array","items":"boolean"}},
	{"name":"ints","type":{"type":"array","items":"int"}},
	{"name":"dbls","type":{"type":"array","items":"double"}},
	{"name":"gone","type":{"type":"array","items":["null","string",{"type":"map","values":"long"}]},"default":[]}]}}`

// structTarget is one (schema, Go type) pair of FuzzUnmarshalStruct.
type structTarget struct {
	name string
	s    *schema.Schema
	typ  reflect.Type
	// deep types are compared with reflect.DeepEqual: cmp's slice diff
	// is exponential in the nesting depth. They hold no floats.
	deep bool
}

var (
	structTargetsOnce sync.Once
	structTargets     []structTarget
)

func codecFuzzStructTargets() []structTarget {
	structTargetsOnce.Do(func() {
		structTargets = []structTarget{
			{"event", schema.MustParse(eventSchema), reflect.TypeFor[Event](), false},
			{"node", schema.MustParse(nodeSchema), reflect.TypeFor[Node](), true},
			{"*node", schema.MustParse(nodeSchema), reflect.TypeFor[*Node](), true},
			{"unions", schema.MustParse(unionsSchema), reflect.TypeFor[Unions](), false},
			{"maps", schema.MustParse(mapsSchema), reflect.TypeFor[Maps](), false},
			{"items", schema.MustParse(itemsSchema), reflect.TypeFor[[]Item](), false},
			{"items into any", schema.MustParse(itemsSchema), reflect.TypeFor[any](), false},
			{"node into map", schema.MustParse(nodeSchema), reflect.TypeFor[map[string]any](), true},
		}
	})
	return structTargets
}

var cmpOpts = cmp.Options{
	cmpopts.EquateNaNs(),
	cmp.Comparer(func(a, b value.Value) bool { return value.Equal(a, b) }),
}

// hostileSeeds are the attacks known to kill or hang Avro decoders, as the
// start of a datum: counts and lengths of 2^31, 2^40, MinInt64 and other
// extremes, negative and lying block sizes, overlong varints, deep nesting
// and out-of-range union indexes.
func hostileSeeds() [][]byte {
	zz := func(v int64) []byte {
		u := uint64(v<<1) ^ uint64(v>>63)
		var out []byte
		for u >= 0x80 {
			out = append(out, byte(u)|0x80)
			u >>= 7
		}
		return append(out, byte(u))
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	var out [][]byte
	for _, n := range []int64{1 << 31, 1 << 40, math.MaxInt64, math.MinInt64, -1 << 31, -1 << 40, 1 << 20} {
		out = append(out,
			zz(n),
			cat(zz(n), zz(1<<40)),           // a count then a huge block size
			cat(zz(1), zz(n)),               // a huge count or length in the second field
			cat(zz(0), zz(n)),               // ... after a zero
			cat(zz(2), zz(4), zz(n), zz(n)), // deeper in
			cat(zz(1), zz(2), zz(3), zz(n), zz(1<<31)), // deeper still
		)
	}
	out = append(out,
		cat(zz(-1), zz(-1)),                                                // negative block size
		cat(zz(-2), zz(1<<62), zz(1), zz(2), zz(0)),                        // block size that lies
		bytes.Repeat([]byte{0xff}, 16),                                     // overlong varints
		append(bytes.Repeat([]byte{0x80}, 10), 0x01),                       // overlong varint
		append(bytes.Repeat([]byte{0, 0, 2}, 300), 0, 0, 0),                // 300-deep list for the Node schema
		append(bytes.Repeat([]byte{0, 2}, 300), 0, 0, 0),                   // 300-deep tree (truncated on purpose)
		append(bytes.Repeat([]byte{2, 2, 'k'}, 200), 0),                    // deep maps
		bytes.Repeat([]byte{2}, 64),                                        // union index 1 everywhere
		bytes.Repeat([]byte{0x7f}, 64),                                     // index -64 everywhere
		[]byte{0x80, 0x80, 0x80, 0x80, 0x10},                               // 2^31 items, alone
		[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x20},                         // 2^40 items, alone
		[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, // MinInt64
	)
	return out
}

func FuzzUnmarshalStruct(f *testing.F) {
	targets := codecFuzzStructTargets()
	hostileDatums, _ := hostileCorpus(f, 512)
	// Valid datums of every target, from random values.
	r := rand.New(rand.NewPCG(1, 2))
	for i, tg := range targets {
		for range 4 {
			v, ok := randomValue(tg.s, r, 0)
			if !ok {
				continue
			}
			data, err := avro.Marshal(tg.s, v)
			if err != nil {
				f.Fatalf("%s: seed: %v", tg.name, err)
			}
			f.Add(uint8(i), data)
		}
		for _, h := range hostileSeeds() {
			f.Add(uint8(i), h)
		}
		for _, h := range hostileDatums {
			f.Add(uint8(i), h)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		tg := targets[int(which)%len(targets)]
		v := reflect.New(tg.typ)
		if err := avro.Unmarshal(tg.s, data, v.Interface()); err != nil {
			checkDecodeError(t, err)
			return
		}
		// Whatever decodes re-encodes, and the re-encoding decodes to an
		// equal value.
		enc, err := avro.Marshal(tg.s, v.Interface())
		if err != nil {
			var vv value.Value
			if avro.Unmarshal(tg.s, data, &vv) == nil && keptOnlyByDecoders(t, tg.s, err, vv) {
				return
			}
			t.Fatalf("%s: decoded %+v from % x but cannot re-encode it: %v", tg.name, v.Elem().Interface(), data, err)
		}
		v2 := reflect.New(tg.typ)
		if err := avro.Unmarshal(tg.s, enc, v2.Interface()); err != nil {
			t.Fatalf("%s: re-encoding % x does not decode: %v", tg.name, enc, err)
		}
		if tg.deep {
			if !reflect.DeepEqual(v.Elem().Interface(), v2.Elem().Interface()) {
				t.Fatalf("%s: round trip changed the value (input % x)", tg.name, data)
			}
		} else if d := cmp.Diff(v.Elem().Interface(), v2.Elem().Interface(), cmpOpts); d != "" {
			t.Fatalf("%s: round trip changed the value (-first +second):\n%s", tg.name, d)
		}
		// Decoding again over the first value (reusing its slices and
		// pointers) gives the same value too, unless it holds maps, which
		// decoding adds to.
		if tg.name == "items" || tg.name == "node" || tg.name == "*node" {
			if err := avro.Unmarshal(tg.s, enc, v.Interface()); err != nil {
				t.Fatalf("%s: decoding over a value: %v", tg.name, err)
			}
			if !reflect.DeepEqual(v.Elem().Interface(), v2.Elem().Interface()) && cmp.Diff(v.Elem().Interface(), v2.Elem().Interface(), cmpOpts) != "" {
				t.Fatalf("%s: decoding over a previous value gives another value", tg.name)
			}
		}
	})
}

// checkDecodeError checks that a decode error is an *avro.Error matching
// one of the sentinels, or a compile-time *TypeError.
func checkDecodeError(t *testing.T, err error) {
	t.Helper()
	var ae *avro.Error
	if errors.As(err, &ae) {
		if !errors.Is(err, avro.ErrTruncated) && !errors.Is(err, avro.ErrInvalid) &&
			!errors.Is(err, avro.ErrLimit) && !errors.Is(err, avro.ErrRange) {
			t.Fatalf("error matches no sentinel: %v", err)
		}
		if ae.Offset < 0 {
			t.Fatalf("decode error without an offset: %v", err)
		}
		return
	}
	t.Fatalf("decode error %T is not an *avro.Error: %v", err, err)
}

// --- random values for seeds ---

// randomValue returns a random value.Value of s, or false when depth runs
// out on a recursive schema without a way to stop.
func randomValue(s *schema.Schema, r *rand.Rand, depth int) (value.Value, bool) {
	if depth > 12 {
		return value.Value{}, false
	}
	switch s.Kind() {
	case schema.Null:
		return value.Null(), true
	case schema.Boolean:
		return value.Bool(r.IntN(2) == 1), true
	case schema.Int:
		return value.Int(int32(r.Uint32()) >> r.IntN(32)), true
	case schema.Long:
		return value.Long(int64(r.Uint64()) >> r.IntN(64)), true
	case schema.Float:
		return value.Float(float32(r.NormFloat64())), true
	case schema.Double:
		return value.Double(r.NormFloat64() * 1e6), true
	case schema.String:
		if s.Logical() == schema.UUID {
			return value.String("123e4567-e89b-12d3-a456-426614174000"), true
		}
		return value.String(fmt.Sprint("s", r.IntN(1000))), true
	case schema.Bytes:
		b := make([]byte, r.IntN(8))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if s.Logical() == schema.Decimal && len(b) == 0 {
			b = []byte{1}
		}
		return value.Bytes(b), true
	case schema.Fixed:
		if s.Size() > 4096 {
			return value.Value{}, false // the hostile schemas of parseSeeds: 2 GiB fixed types
		}
		b := make([]byte, s.Size())
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return value.Fixed(b), true
	case schema.Enum:
		return value.EnumOf(s, r.IntN(len(s.Symbols()))), true
	case schema.Array:
		var items []value.Value
		for range r.IntN(4) {
			if v, ok := randomValue(s.Items(), r, depth+1); ok {
				items = append(items, v)
			}
		}
		if items == nil {
			items = []value.Value{}
		}
		return value.Array(items), true
	case schema.Map:
		var keys []string
		var vals []value.Value
		for i := range r.IntN(3) {
			if v, ok := randomValue(s.Values(), r, depth+1); ok {
				keys = append(keys, fmt.Sprint("k", i))
				vals = append(vals, v)
			}
		}
		return value.MapOf(value.NewMap(keys, vals)), true
	case schema.Record:
		fields := make([]value.Value, len(s.Fields()))
		for i, f := range s.Fields() {
			v, ok := randomValue(f.Type(), r, depth+1)
			if !ok {
				return value.Value{}, false
			}
			fields[i] = v
		}
		return value.RecordOf(value.NewRecord(s, fields)), true
	case schema.Union:
		br := s.Branches()
		start := r.IntN(len(br))
		if depth > 6 {
			start = 0
		}
		for k := range br {
			i := (start + k) % len(br)
			if v, ok := randomValue(br[i], r, depth+1); ok {
				return value.Union(i, v), true
			}
		}
	}
	return value.Value{}, false
}

// --- FuzzUnmarshalValue ---

var (
	valueSchemasOnce sync.Once
	valueSchemas     []*schema.Schema
)

// codecFuzzValueSchemas returns the schemas of the shared test data that
// parse, and fixed ones with every feature.
func codecFuzzValueSchemas(tb testing.TB) []*schema.Schema {
	valueSchemasOnce.Do(func() {
		texts := append(parseSeeds(tb), eventSchema, nodeSchema, unionsSchema, mapsSchema, itemsSchema,
			`{"type":"record","name":"L","fields":[
				{"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"}},
				{"name":"d","type":{"type":"int","logicalType":"date"}},
				{"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
				{"name":"decf","type":{"type":"fixed","name":"D8","size":8,"logicalType":"decimal","precision":10,"scale":3}},
				{"name":"u","type":{"type":"string","logicalType":"uuid"}},
				{"name":"uf","type":{"type":"fixed","name":"U16","size":16,"logicalType":"uuid"}},
				{"name":"dur","type":{"type":"fixed","name":"Dur","size":12,"logicalType":"duration"}},
				{"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
				{"name":"ns","type":{"type":"long","logicalType":"local-timestamp-nanos"}}]}`,
			`{"type":"array","items":"null"}`,
			`{"type":"map","values":{"type":"record","name":"Empty","fields":[]}}`,
			`{"type":"array","items":{"type":"array","items":{"type":"array","items":"float"}}}`,
			`["null","boolean","int","long","float","double","bytes","string"]`,
			`{"type":"record","name":"M","fields":[{"name":"m","type":{"type":"map","values":"M"}}]}`,
		)
		for _, text := range texts {
			if s, err := schema.Parse(text); err == nil {
				valueSchemas = append(valueSchemas, s)
			}
		}
	})
	if len(valueSchemas) < 40 {
		tb.Fatalf("only %d schemas parse", len(valueSchemas))
	}
	return valueSchemas
}

func FuzzUnmarshalValue(f *testing.F) {
	schemas := codecFuzzValueSchemas(f)
	r := rand.New(rand.NewPCG(3, 4))
	for i, s := range schemas {
		for range 2 {
			if v, ok := randomValue(s, r, 0); ok {
				if data, err := avro.Marshal(s, v); err == nil {
					f.Add(uint16(i), data)
				}
			}
		}
	}
	hostileDatums, _ := hostileCorpus(f, 512)
	for _, h := range append(hostileSeeds(), hostileDatums...) {
		for i := range schemas {
			if i%7 == 0 || schemas[i].Kind() == schema.Array || schemas[i].Kind() == schema.Map {
				f.Add(uint16(i), h)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint16, data []byte) {
		s := schemas[int(which)%len(schemas)]
		var v value.Value
		if err := avro.Unmarshal(s, data, &v); err != nil {
			checkDecodeError(t, err)
			// The other generic target agrees that the data is bad (with
			// logical types any checks more: value.Value holds the
			// underlying Avro value as it is).
			var a any
			if avro.Unmarshal(s, data, &a) == nil && !hasLogical(s) {
				// The allocation limit counts each target's own memory
				// (see below): a value.Value may be the one over it,
				// if a larger limit then decodes the data.
				if !errors.Is(err, avro.ErrLimit) {
					t.Fatalf("value.Value rejects % x (%v) but any accepts it", data, err)
				}
				roomy := avro.DecodeOptions{MaxAlloc: 1 << 30}
				if err := roomy.Unmarshal(s, data, &v); err != nil {
					t.Fatalf("value.Value rejects % x even with a 1 GiB allocation limit (%v) but any accepts it", data, err)
				}
			}
			return
		}
		enc, err := avro.Marshal(s, v)
		if keptOnlyByDecoders(t, s, err, v) {
			return
		}
		if err != nil {
			t.Fatalf("decoded %v from % x but cannot re-encode it: %v", v, data, err)
		}
		var v2 value.Value
		if err := avro.Unmarshal(s, enc, &v2); err != nil {
			t.Fatalf("re-encoding % x does not decode: %v", enc, err)
		}
		if !value.Equal(v, v2) {
			t.Fatalf("round trip changed the value:\n%v\n%v", v, v2)
		}
		// The re-encoding is canonical (minimal varints, one block per
		// collection), so it must survive byte for byte; the input
		// itself need not, as non-minimal varints and negative block
		// counts re-encode differently.
		enc2, err := avro.Marshal(s, v2)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("canonical re-encoding not stable: % x, then % x, %v", enc, enc2, err)
		}
		if len(enc) > len(data) {
			t.Fatalf("canonical re-encoding is longer (% x) than the input (% x)", enc, data)
		}

		// The same data decodes into any too, and what any holds
		// re-encodes. Logical types are left out: any interprets them
		// (a big-decimal must parse; a decimal with more digits than its
		// precision decodes but does not encode).
		if hasLogical(s) {
			var a any
			_ = avro.Unmarshal(s, data, &a) // must not panic
			return
		}
		// The allocation limit counts the memory of the target, and an
		// any takes more than a value.Value for some data (a million
		// empty records are a million maps): ErrLimit is allowed there,
		// if a larger limit then decodes the data.
		var a any
		if err := avro.Unmarshal(s, data, &a); err != nil {
			if !errors.Is(err, avro.ErrLimit) {
				t.Fatalf("value.Value accepts % x but any rejects it: %v", data, err)
			}
			roomy := avro.DecodeOptions{MaxAlloc: 1 << 30}
			if err := roomy.Unmarshal(s, data, &a); err != nil {
				t.Fatalf("value.Value accepts % x but any rejects it even with a 1 GiB allocation limit: %v", data, err)
			}
		}
		if _, err := avro.Marshal(s, &a); err != nil {
			t.Fatalf("decoded %#v into any from % x but cannot re-encode it: %v", a, data, err)
		}
	})
}

// keptOnlyByDecoders reports whether err, from encoding v (a value.Value
// decoded with s), is an encoder's refusal of what decoders keep, as a
// writer sent it: a decimal of more digits than its precision, a uuid
// that is not one. The datum must then be one of the underlying types,
// which encode it without the logical types.
func keptOnlyByDecoders(t *testing.T, s *schema.Schema, err error, v value.Value) bool {
	t.Helper()
	if err == nil || !errors.Is(err, avro.ErrRange) {
		return false
	}
	if msg := err.Error(); !strings.Contains(msg, "the decimal's precision") && !strings.Contains(msg, "is not a UUID") {
		return false
	}
	plain, perr := schema.Parse(s.Canonical())
	if perr != nil {
		t.Fatal(perr)
	}
	if _, perr := avro.Marshal(plain, v); perr != nil {
		t.Fatalf("%v cannot be encoded, with its logical types (%v) or without (%v)", v, err, perr)
	}
	return true
}

// hasLogical reports whether s uses a logical type anywhere.
func hasLogical(s *schema.Schema) bool {
	seen := map[*schema.Schema]bool{}
	var walk func(*schema.Schema) bool
	walk = func(s *schema.Schema) bool {
		if seen[s] {
			return false
		}
		seen[s] = true
		if s.Logical() != schema.NoLogical {
			return true
		}
		switch s.Kind() {
		case schema.Array:
			return walk(s.Items())
		case schema.Map:
			return walk(s.Values())
		case schema.Record:
			for _, f := range s.Fields() {
				if walk(f.Type()) {
					return true
				}
			}
		case schema.Union:
			for _, b := range s.Branches() {
				if walk(b) {
					return true
				}
			}
		}
		return false
	}
	return walk(s)
}

// --- FuzzDecoder ---

// decoderResult is what a Decoder yields on a stream: the datums and the
// error it stops with.
type decoderResult struct {
	values []value.Value
	err    string
}

func decodeStream(s *schema.Schema, r io.Reader, limit int) decoderResult {
	dec := avro.NewDecoder(r, s)
	var res decoderResult
	for range limit {
		var v value.Value
		err := dec.Decode(&v)
		if err == io.EOF {
			return res
		}
		if err != nil {
			res.err = err.Error()
			return res
		}
		res.values = append(res.values, v)
	}
	res.err = "limit"
	return res
}

func FuzzDecoder(f *testing.F) {
	schemas := []*schema.Schema{
		schema.MustParse(eventSchema),
		schema.MustParse(nodeSchema),
		schema.MustParse(unionsSchema),
		schema.MustParse(mapsSchema),
		schema.MustParse(itemsSchema),
		schema.MustParse(`"long"`),
		schema.MustParse(`{"type":"array","items":"string"}`),
		schema.MustParse(`["null","string",{"type":"map","values":"bytes"}]`),
	}
	r := rand.New(rand.NewPCG(5, 6))
	hostileDatums, _ := hostileCorpus(f, 512)
	for i, s := range schemas {
		var stream []byte
		for range 3 {
			if v, ok := randomValue(s, r, 0); ok {
				data, err := avro.Marshal(s, v)
				if err != nil {
					f.Fatal(err)
				}
				stream = append(stream, data...)
				f.Add(uint8(i), stream)
			}
		}
		for _, h := range append(hostileSeeds(), hostileDatums...) {
			f.Add(uint8(i), h)
			f.Add(uint8(i), append(bytes.Clone(stream), h...))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		s := schemas[int(which)%len(schemas)]
		limit := len(data) + 2
		whole := decodeStream(s, bytes.NewReader(data), limit)
		// How the stream arrives must not change what is decoded.
		for _, rd := range []io.Reader{
			iotest.OneByteReader(bytes.NewReader(data)),
			iotest.HalfReader(bytes.NewReader(data)),
			iotest.DataErrReader(bytes.NewReader(data)),
		} {
			got := decodeStream(s, rd, limit)
			if got.err != whole.err || len(got.values) != len(whole.values) {
				t.Fatalf("%T: %d datums, error %q; whole input: %d datums, error %q",
					rd, len(got.values), got.err, len(whole.values), whole.err)
			}
			for i := range got.values {
				if !value.Equal(got.values[i], whole.values[i]) {
					t.Fatalf("%T: datum %d is %v; whole input: %v", rd, i, got.values[i], whole.values[i])
				}
			}
		}
		// UnmarshalNext walks the same datums.
		rest := data
		for i := range whole.values {
			var v value.Value
			var err error
			rest, err = avro.UnmarshalNext(s, rest, &v)
			if err != nil || !value.Equal(v, whole.values[i]) {
				t.Fatalf("UnmarshalNext datum %d: %v, %v; Decoder: %v", i, v, err, whole.values[i])
			}
		}
		// The datums re-encoded back to back decode to the same datums.
		var again []byte
		for _, v := range whole.values {
			var err error
			again, err = avro.Append(again, s, v)
			if keptOnlyByDecoders(t, s, err, v) {
				return
			}
			if err != nil {
				t.Fatalf("datum %v does not re-encode: %v", v, err)
			}
		}
		res := decodeStream(s, bytes.NewReader(again), len(whole.values)+2)
		if res.err != "" || len(res.values) != len(whole.values) {
			t.Fatalf("re-encoded stream: %d datums, error %q; want %d", len(res.values), res.err, len(whole.values))
		}
		for i := range res.values {
			if !value.Equal(res.values[i], whole.values[i]) {
				t.Fatalf("re-encoded datum %d is %v, want %v", i, res.values[i], whole.values[i])
			}
		}
	})
}
