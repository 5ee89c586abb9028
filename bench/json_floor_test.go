package bench

import (
	"math"
	"testing"
	"time"

	"github.com/avrogo/avro/schema"
)

// The encode-any rows' reference (lib=stdlib): the Go map lookups that
// any encoder of a record held in a map[string]any must make, one per
// field, with each value's dynamic type read and nothing written. Our
// encode row writes the same text from a struct, so encode plus this
// reference is what an encode-any costs with the maps Go has, less only
// what it gains by overlapping the cache misses of the two.

// lookupWalk walks one schema node over the generic model of our decoder.
type lookupWalk struct {
	kind   schema.Kind
	names  []string      // a record's field names
	fields []*lookupWalk // a record's field types
	items  *lookupWalk   // an array's items, a map's values
	rec    *lookupWalk   // a union's record or map branch
	arr    *lookupWalk   // a union's array branch
}

func newLookupWalk(s *schema.Schema, seen map[*schema.Schema]*lookupWalk) *lookupWalk {
	if w := seen[s]; w != nil {
		return w
	}
	w := &lookupWalk{kind: s.Kind()}
	seen[s] = w
	switch s.Kind() {
	case schema.Record:
		for _, f := range s.Fields() {
			w.names = append(w.names, f.Name())
			w.fields = append(w.fields, newLookupWalk(f.Type(), seen))
		}
	case schema.Array:
		w.items = newLookupWalk(s.Items(), seen)
	case schema.Map:
		w.items = newLookupWalk(s.Values(), seen)
	case schema.Union:
		// Our model holds a union's value bare: its Go type tells a
		// record or map branch from an array and from the primitives.
		for _, b := range s.Branches() {
			switch k := b.Kind(); {
			case (k == schema.Record || k == schema.Map) && w.rec == nil:
				w.rec = newLookupWalk(b, seen)
			case k == schema.Array && w.arr == nil:
				w.arr = newLookupWalk(b, seen)
			}
		}
	}
	return w
}

// walk reads x and returns a checksum of what it read and how many
// values it could not read: record fields missing from their maps and
// leaves of a type it does not know (which would make it too cheap).
func (w *lookupWalk) walk(x any) (sum uint64, unread int) {
	switch w.kind {
	case schema.Record:
		m := x.(map[string]any)
		for i, name := range w.names {
			v, ok := m[name]
			if !ok {
				unread++
			}
			s, n := w.fields[i].walk(v)
			sum, unread = sum+s, unread+n
		}
	case schema.Array:
		for _, v := range x.([]any) {
			s, n := w.items.walk(v)
			sum, unread = sum+s, unread+n
		}
	case schema.Map:
		for _, v := range x.(map[string]any) {
			s, n := w.items.walk(v)
			sum, unread = sum+s, unread+n
		}
	case schema.Union:
		switch x.(type) {
		case map[string]any:
			return w.rec.walk(x)
		case []any:
			return w.arr.walk(x)
		}
		return leafSum(x)
	default:
		return leafSum(x)
	}
	return sum, unread
}

// leafSum reads a primitive of the generic model as an encoder must: its
// dynamic type, then its value. It reports 1 unread for a type it does
// not know.
func leafSum(x any) (uint64, int) {
	switch v := x.(type) {
	case nil:
		return 0, 0
	case string:
		if len(v) > 0 {
			return uint64(v[0]), 0
		}
		return 1, 0
	case []byte:
		if len(v) > 0 {
			return uint64(v[0]), 0
		}
		return 1, 0
	case int64:
		return uint64(v), 0
	case int32:
		return uint64(v), 0
	case float64:
		return math.Float64bits(v), 0
	case float32:
		return uint64(math.Float32bits(v)), 0
	case bool:
		if v {
			return 1, 0
		}
		return 2, 0
	case time.Time:
		return uint64(v.UnixNano()), 0
	}
	return 0, 1
}

// TestJSONLookupWalk checks that the reference reads every value of every
// record of each pool.
func TestJSONLookupWalk(t *testing.T) {
	pools := map[string]func(testing.TB) (*schema.Schema, []any){
		"rec10":     func(tb testing.TB) (*schema.Schema, []any) { return oursPool(tb, wlRec10) },
		"wide":      func(tb testing.TB) (*schema.Schema, []any) { return oursPool(tb, wlWide) },
		"deep":      func(tb testing.TB) (*schema.Schema, []any) { return oursPool(tb, wlDeep) },
		"telemetry": func(tb testing.TB) (*schema.Schema, []any) { return oursPool(tb, wlTelemetry) },
	}
	for name, pool := range pools {
		t.Run(name, func(t *testing.T) {
			releaseWorkloads()
			s, recs := pool(t)
			lw := newLookupWalk(s, map[*schema.Schema]*lookupWalk{})
			for i, x := range recs {
				if _, unread := lw.walk(x); unread != 0 {
					t.Fatalf("record %d: %d values unread", i, unread)
				}
			}
		})
	}
}

func oursPool[T any](tb testing.TB, wl func(testing.TB) *workload[T]) (*schema.Schema, []any) {
	w := wl(tb)
	return w.ours, newGenericPools(tb, w).ours
}
