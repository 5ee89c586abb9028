package bench

import (
	"bytes"
	"fmt"
	"math/big"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	hamba "github.com/hamba/avro/v2"
)

// genericPools holds, for one workload, each library's own generic form of
// every record of the pool, as its decoder produced it: the inputs of the
// encode-any rows (a realistic caller encodes what it decoded or built in
// that library's model).
type genericPools struct {
	ours   []any
	values []value.Value
	hamba  []any
	twmb   []any
	goavro []any
}

// newGenericPools decodes each library's pool in a pass of its own, so
// that the trees of one library lie together in memory as they would in a
// program using only that library. Decoding record by record for all
// libraries at once would interleave four libraries' trees, and an
// encode-any row would then walk four times the memory it owns.
//
// The pools are built twice and the first set is dropped once the second
// is built. Earlier benchmarks leave free slots scattered through the
// heap, and the allocator fills those first: the first library to decode
// would get its trees spread over them and the last one fresh, contiguous
// memory. The first set fills the slots, and the set that is kept lies in
// fresh memory for every library.
func newGenericPools[T any](tb testing.TB, w *workload[T]) *genericPools {
	filler := decodeGenericPools(tb, w)
	p := decodeGenericPools(tb, w)
	runtime.KeepAlive(filler)
	return p
}

func decodeGenericPools[T any](tb testing.TB, w *workload[T]) *genericPools {
	p := &genericPools{
		ours:   make([]any, poolSize),
		values: make([]value.Value, poolSize),
		hamba:  make([]any, poolSize),
		twmb:   make([]any, poolSize),
		goavro: make([]any, poolSize),
	}
	for i, data := range w.enc {
		if err := avro.Unmarshal(w.ours, data, &p.ours[i]); err != nil {
			tb.Fatalf("%s: avrogo decode any: %v", w.name, err)
		}
	}
	for i, data := range w.enc {
		if err := avro.Unmarshal(w.ours, data, &p.values[i]); err != nil {
			tb.Fatalf("%s: avrogo decode value: %v", w.name, err)
		}
	}
	for i, data := range w.enc {
		if err := hamba.Unmarshal(w.hamba, data, &p.hamba[i]); err != nil {
			tb.Fatalf("%s: hamba decode any: %v", w.name, err)
		}
	}
	for i, data := range w.enc {
		if _, err := w.twmb.Decode(data, &p.twmb[i]); err != nil {
			tb.Fatalf("%s: twmb decode any: %v", w.name, err)
		}
	}
	for i, data := range w.enc {
		x, rest, err := w.goavro.NativeFromBinary(data)
		if err != nil || len(rest) != 0 {
			tb.Fatalf("%s: goavro decode: %v (%d bytes left)", w.name, err, len(rest))
		}
		p.goavro[i] = x
	}
	return p
}

// benchGeneric runs the generic rows of one workload:
//
//	op=decode-any   decode to the library's generic model: our *any,
//	                hamba's *any, twmb's *any, goavro's native map
//	op=decode-value decode to our value.Value (no peer has it)
//	op=encode-any   encode, into a reused buffer, the generic form the
//	                library itself decoded
//	op=encode-value encode our value.Value into a reused buffer
func benchGeneric[T any](b *testing.B, prefix string, wl func(testing.TB) *workload[T]) {
	releaseWorkloads()
	w := wl(b)
	p := newGenericPools(b, w)
	const mask = poolSize - 1
	run := newRowRunner(b, prefix)

	run("decode-any", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var x any
			if err := avro.Unmarshal(w.ours, w.enc[i&mask], &x); err != nil {
				b.Fatal(err)
			}
			sinkAny = x
		}
	})
	run("decode-any", libHamba, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var x any
			if err := hamba.Unmarshal(w.hamba, w.enc[i&mask], &x); err != nil {
				b.Fatal(err)
			}
			sinkAny = x
		}
	})
	run("decode-any", libTwmb, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var x any
			if _, err := w.twmb.Decode(w.enc[i&mask], &x); err != nil {
				b.Fatal(err)
			}
			sinkAny = x
		}
	})
	run("decode-any", libGoavro, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			x, _, err := w.goavro.NativeFromBinary(w.enc[i&mask])
			if err != nil {
				b.Fatal(err)
			}
			sinkAny = x
		}
	})
	run("decode-any", libGogen, func(b *testing.B) {
		r := bytes.NewReader(nil)
		for i := 0; i < b.N; i++ {
			r.Reset(w.enc[i&mask])
			x, err := w.gogenGeneric.Deserialize(r)
			if err != nil {
				b.Fatal(err)
			}
			sinkAny = x
		}
	})
	run("decode-value", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var v value.Value
			if err := avro.Unmarshal(w.ours, w.enc[i&mask], &v); err != nil {
				b.Fatal(err)
			}
			sinkValue = v
		}
	})

	run("encode-any", libOurs, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], w.ours, p.ours[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("encode-any", libHamba, func(b *testing.B) {
		hw := hamba.NewWriter(nil, 64<<10)
		for i := 0; i < b.N; i++ {
			hw.Reset(nil)
			hw.WriteVal(w.hamba, p.hamba[i&mask])
			if hw.Error != nil {
				b.Fatal(hw.Error)
			}
		}
		sinkBytes = hw.Buffer()
	})
	run("encode-any", libTwmb, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = w.twmb.AppendEncode(buf[:0], p.twmb[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("encode-any", libGoavro, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = w.goavro.BinaryFromNative(buf[:0], p.goavro[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("encode-value", libOurs, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], w.ours, &p.values[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
}

// BenchmarkGeneric: the records of BenchmarkRecord through the generic
// models (any, value.Value, goavro's native maps).
func BenchmarkGeneric(b *testing.B) {
	benchGeneric(b, "rec=rec10", wlRec10)
	benchGeneric(b, "rec=wide", wlWide)
	benchGeneric(b, "rec=deep", wlDeep)
	benchGeneric(b, "rec=telemetry", wlTelemetry)
}

// ---------------------------------------------------------------------------
// normalize maps any library's generic form of a datum of schema s to one
// canonical form, so that parity tests can compare them: ints and longs
// int64, floats float64, records and maps map[string]any, arrays []any,
// unions nil or {"branch name": v} whether the library wraps them or not,
// timestamps their long, bytes non-nil []byte.
func normalize(s *schema.Schema, x any) (any, error) {
	if v, ok := x.(value.Value); ok {
		x = value.ToAny(v)
	}
	switch s.Kind() {
	case schema.Null:
		if x != nil {
			return nil, fmt.Errorf("null: got %T", x)
		}
		return nil, nil
	case schema.Boolean:
		v, ok := x.(bool)
		if !ok {
			return nil, fmt.Errorf("boolean: got %T", x)
		}
		return v, nil
	case schema.Int, schema.Long:
		switch v := x.(type) {
		case time.Time: // timestamps compare as their long
			switch s.Logical() {
			case schema.TimestampMillis:
				return v.UnixMilli(), nil
			case schema.TimestampMicros:
				return v.UnixMicro(), nil
			}
			return nil, fmt.Errorf("time.Time for %s", s.Kind())
		case int:
			return int64(v), nil
		case int32:
			return int64(v), nil
		case int64:
			return v, nil
		}
		return nil, fmt.Errorf("%s: got %T", s.Kind(), x)
	case schema.Float, schema.Double:
		switch v := x.(type) {
		case float32:
			return float64(v), nil
		case float64:
			return v, nil
		}
		return nil, fmt.Errorf("%s: got %T", s.Kind(), x)
	case schema.String, schema.Enum:
		v, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("%s: got %T", s.Kind(), x)
		}
		return v, nil
	case schema.Bytes, schema.Fixed:
		switch v := x.(type) {
		case []byte:
			return append([]byte{}, v...), nil
		case *big.Rat:
			return v, nil
		}
		return nil, fmt.Errorf("%s: got %T", s.Kind(), x)
	case schema.Array:
		rv := reflect.ValueOf(x)
		if rv.Kind() != reflect.Slice {
			return nil, fmt.Errorf("array: got %T", x)
		}
		out := make([]any, rv.Len())
		for i := range out {
			var err error
			if out[i], err = normalize(s.Items(), rv.Index(i).Interface()); err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return out, nil
	case schema.Map, schema.Record:
		m, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: got %T", s.Kind(), x)
		}
		out := make(map[string]any, len(m))
		if s.Kind() == schema.Map {
			for k, v := range m {
				var err error
				if out[k], err = normalize(s.Values(), v); err != nil {
					return nil, fmt.Errorf("[%q]: %w", k, err)
				}
			}
			return out, nil
		}
		for _, f := range s.Fields() {
			v, ok := m[f.Name()]
			if !ok {
				return nil, fmt.Errorf("record %s: field %s missing", s.FullName(), f.Name())
			}
			var err error
			if out[f.Name()], err = normalize(f.Type(), v); err != nil {
				return nil, fmt.Errorf(".%s: %w", f.Name(), err)
			}
		}
		if len(m) != len(s.Fields()) {
			return nil, fmt.Errorf("record %s: %d keys for %d fields", s.FullName(), len(m), len(s.Fields()))
		}
		return out, nil
	case schema.Union:
		if x == nil {
			return nil, nil
		}
		// The wrapped form {"branch": v}.
		if m, ok := x.(map[string]any); ok && len(m) == 1 {
			for k, v := range m {
				for _, b := range s.Branches() {
					if branchName(b) == k || (b.Kind().IsNamed() && b.Name() == k) {
						n, err := normalize(b, v)
						if err == nil {
							return map[string]any{branchName(b): n}, nil
						}
					}
				}
			}
		}
		// The bare value: the first non-null branch that takes it.
		var firstErr error
		for _, b := range s.Branches() {
			if b.Kind() == schema.Null {
				continue
			}
			n, err := normalize(b, x)
			if err == nil {
				return map[string]any{branchName(b): n}, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		return nil, fmt.Errorf("union: %T fits no branch: %v", x, firstErr)
	}
	return nil, fmt.Errorf("unsupported schema %s", s.Kind())
}
