package codec

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/avrogo/avro/schema"
	"github.com/google/go-cmp/cmp"
)

// mapShapes builds maps of n entries two ways: filled directly, and grown
// to n+12 entries then shrunk to n (a map that has left its single group
// behind and must be ranged).
func mapShapes[K ~string, V any](n int, value func(i int) V) map[string]map[K]V {
	key := func(i int) K { return K("k" + strconv.Itoa(i)) }
	direct := map[K]V{}
	for i := range n {
		direct[key(i)] = value(i)
	}
	shrunk := map[K]V{}
	for i := range n + 12 {
		shrunk[key(i)] = value(i)
	}
	for i := n; i < n+12; i++ {
		delete(shrunk, key(i))
	}
	return map[string]map[K]V{"direct": direct, "shrunk": shrunk}
}

// checkMapRoundTrip encodes every shape of map of 0 to 20 entries for s
// and decodes it back: a walk that skipped, repeated or misplaced an entry
// would change the count or the entries.
func checkMapRoundTrip[K ~string, V any](t *testing.T, s *schema.Schema, value func(i int) V) {
	t.Helper()
	for n := range 21 {
		for shape, m := range mapShapes[K](n, value) {
			data, err := Marshal(s, m)
			if err != nil {
				t.Fatalf("%s map of %d: %v", shape, n, err)
			}
			var back map[K]V
			if err := Unmarshal(s, data, &back); err != nil {
				t.Fatalf("%s map of %d: decoding: %v", shape, n, err)
			}
			if diff := cmp.Diff(m, back); diff != "" {
				t.Fatalf("%s map of %d: round trip (-in +out):\n%s", shape, n, diff)
			}
			// Encoding into a buffer that already holds bytes appends.
			again, err := Append([]byte("xy"), s, m)
			if err != nil || string(again[:2]) != "xy" || len(again) != len(data)+2 {
				t.Fatalf("%s map of %d: Append gave %d bytes (%v), want %d", shape, n, len(again), err, len(data)+2)
			}
		}
	}
}

type mapWalkPoint struct {
	X int64  `avro:"x"`
	Y string `avro:"y"`
}

// mapWalkLabel is a named string key type: its maps take the reflect
// Path.
type mapWalkLabel string

// mapWalkOdd has padding inside and after its fields.
type mapWalkOdd struct {
	A int32  `avro:"a"`
	B int64  `avro:"b"`
	C bool   `avro:"c"`
	D string `avro:"d"`
	E bool   `avro:"e"`
}

// TestMapEncodingEverySize covers each way a map's values are encoded:
// string values inline, direct value encoders, the generic value encoder
// working in place on records (one with padding), optionals and int16s
// under a named key type, values as any, and values too large to be kept
// in the map's slots.
func TestMapEncodingEverySize(t *testing.T) {
	note := func(i int) *string {
		if i%3 == 0 {
			return nil
		}
		s := strings.Repeat("n", i)
		return &s
	}
	checkMapRoundTrip[string](t, schema.MustParse(`{"type":"map","values":"string"}`), func(i int) string { return strings.Repeat("v", i) })
	checkMapRoundTrip[string](t, schema.MustParse(`{"type":"map","values":"long"}`), func(i int) int64 { return int64(i) << (i * 3) })
	checkMapRoundTrip[string](t, schema.MustParse(`{"type":"map","values":"boolean"}`), func(i int) bool { return i%2 == 0 })
	checkMapRoundTrip[string](t, schema.MustParse(`{"type":"map","values":{"type":"record","name":"P","fields":[{"name":"x","type":"long"},{"name":"y","type":"string"}]}}`),
		func(i int) mapWalkPoint { return mapWalkPoint{X: int64(-i), Y: strconv.Itoa(i * i)} })
	checkMapRoundTrip[string](t, schema.MustParse(`{"type":"map","values":{"type":"record","name":"O","fields":[
		{"name":"a","type":"int"},{"name":"b","type":"long"},{"name":"c","type":"boolean"},{"name":"d","type":"string"},{"name":"e","type":"boolean"}]}}`),
		func(i int) mapWalkOdd {
			return mapWalkOdd{A: int32(i), B: -int64(i) << 33, C: i%2 == 0, D: strconv.Itoa(i), E: i%3 == 0}
		})
	checkMapRoundTrip[string](t, schema.MustParse(`{"type":"map","values":["null","string"]}`), note)
	checkMapRoundTrip[mapWalkLabel](t, schema.MustParse(`{"type":"map","values":"int"}`), func(i int) int16 { return int16(i*1000 - 7000) })
	checkMapRoundTrip[string](t, schema.MustParse(`{"type":"map","values":"long"}`), func(i int) any { return int64(i * 1000) })
	checkMapRoundTrip[string](t, schema.MustParse(`{"type":"map","values":{"type":"fixed","name":"F","size":150}}`),
		func(i int) [150]byte { var f [150]byte; f[0], f[149] = byte(i), byte(i*3); return f })
}

// TestMapValueErrorNamesKey checks that a value that cannot be encoded is
// reported under its key, for small and large maps alike.
func TestMapValueErrorNamesKey(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"m","type":{"type":"map","values":"long"}}]}`)
	for _, n := range []int{1, 3, 8, 9, 20} {
		m := map[string]any{}
		for i := range n {
			m["k"+strconv.Itoa(i)] = int64(i)
		}
		m["k0"] = "not a long"
		_, err := Marshal(s, map[string]any{"m": m})
		var ae *Error
		if !errors.As(err, &ae) || ae.Path != `m["k0"]` {
			t.Fatalf("map of %d: error %v, want one at m[\"k0\"]", n, err)
		}
	}
}

// TestAppendMapAllocs pins the allocations of appending a map into a
// buffer with room: none for the typed maps in every build (the map's
// address is kept in the pooled encoder state, not a new variable), and
// none for a map of records where small maps are walked (the reflect path
// of the purego build allocates its iterator and scratch values).
func TestAppendMapAllocs(t *testing.T) {
	if benchRaceEnabled() {
		t.Skip("allocation counts are not meaningful under -race")
	}
	longs := map[string]int64{"a": 1, "b": -300, "c": 1 << 40}
	points := map[string]mapWalkPoint{"p": {X: 1, Y: "one"}, "q": {X: -2, Y: "two"}}
	cases := []struct {
		name string
		s    *schema.Schema
		v    any
		want float64
	}{
		{"map[string]int64", schema.MustParse(`{"type":"map","values":"long"}`), longs, 0},
		{"map[string]record", schema.MustParse(`{"type":"map","values":{"type":"record","name":"P","fields":[{"name":"x","type":"long"},{"name":"y","type":"string"}]}}`), points, 0},
	}
	buf := make([]byte, 0, 256)
	for _, c := range cases {
		if c.name == "map[string]record" && !smallMapsWalkable {
			continue // ranged through reflect: allocates, by design
		}
		allocs := testing.AllocsPerRun(100, func() {
			var err error
			if buf, err = Append(buf[:0], c.s, c.v); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != c.want {
			t.Errorf("Append of a %s: %v allocations, want %v", c.name, allocs, c.want)
		}
	}
}
