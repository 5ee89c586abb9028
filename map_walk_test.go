package avro

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
func mapShapes[V any](n int, value func(i int) V) map[string]map[string]V {
	direct := map[string]V{}
	for i := range n {
		direct["k"+strconv.Itoa(i)] = value(i)
	}
	shrunk := map[string]V{}
	for i := range n + 12 {
		shrunk["k"+strconv.Itoa(i)] = value(i)
	}
	for i := n; i < n+12; i++ {
		delete(shrunk, "k"+strconv.Itoa(i))
	}
	return map[string]map[string]V{"direct": direct, "shrunk": shrunk}
}

// checkMapRoundTrip encodes every shape of map of 0 to 20 entries for s
// and decodes it back: a walk that skipped, repeated or misplaced an entry
// would change the count or the entries.
func checkMapRoundTrip[V any](t *testing.T, s *schema.Schema, value func(i int) V) {
	t.Helper()
	for n := range 21 {
		for shape, m := range mapShapes(n, value) {
			data, err := Marshal(s, m)
			if err != nil {
				t.Fatalf("%s map of %d: %v", shape, n, err)
			}
			var back map[string]V
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

// TestMapEncodingEverySize covers each way a map's values are encoded:
// string values inline, direct value encoders, the generic value encoder
// working in place on a record and on an optional, and values as any.
func TestMapEncodingEverySize(t *testing.T) {
	note := func(i int) *string {
		if i%3 == 0 {
			return nil
		}
		s := strings.Repeat("n", i)
		return &s
	}
	checkMapRoundTrip(t, schema.MustParse(`{"type":"map","values":"string"}`), func(i int) string { return strings.Repeat("v", i) })
	checkMapRoundTrip(t, schema.MustParse(`{"type":"map","values":"long"}`), func(i int) int64 { return int64(i) << (i * 3) })
	checkMapRoundTrip(t, schema.MustParse(`{"type":"map","values":"boolean"}`), func(i int) bool { return i%2 == 0 })
	checkMapRoundTrip(t, schema.MustParse(`{"type":"map","values":{"type":"record","name":"P","fields":[{"name":"x","type":"long"},{"name":"y","type":"string"}]}}`),
		func(i int) mapWalkPoint { return mapWalkPoint{X: int64(-i), Y: strconv.Itoa(i * i)} })
	checkMapRoundTrip(t, schema.MustParse(`{"type":"map","values":["null","string"]}`), note)
	checkMapRoundTrip(t, schema.MustParse(`{"type":"map","values":"long"}`), func(i int) any { return int64(i * 1000) })
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
