package avro_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// The limits must not break real data: large arrays and deep values just
// inside the defaults decode through every entry point.

// legitArrayItems is 8M items (64 MiB of doubles); under the race
// detector, which is about ten times slower, 1M.
func legitArrayItems() int {
	if raceEnabled {
		return 1 << 20
	}
	return 8 << 20
}

func TestLegitLargeArrays(t *testing.T) {
	n := legitArrayItems()
	r := rand.New(rand.NewPCG(1, 2))

	doubles := make([]float64, n)
	for i := range doubles {
		doubles[i] = r.NormFloat64()
	}
	ds := schema.MustParse(`{"type":"array","items":"double"}`)
	data, err := avro.Marshal(ds, doubles)
	if err != nil {
		t.Fatal(err)
	}
	if want := 8*n + 10; len(data) > want {
		t.Fatalf("encoded %d bytes", len(data))
	}
	t.Logf("[]float64: %d items, %d bytes", n, len(data))
	var got []float64
	if err := avro.Unmarshal(ds, data, &got); err != nil || !slices.Equal(got, doubles) {
		t.Fatalf("[]float64: %d items, %v", len(got), err)
	}
	var v value.Value
	if err := avro.Unmarshal(ds, data, &v); err != nil || v.Len() != n {
		t.Fatalf("value.Value: %v", err)
	}
	var got2 []float64
	if err := avro.NewDecoder(bytes.NewReader(data), ds).Decode(&got2); err != nil || !slices.Equal(got2, doubles) {
		t.Fatalf("Decoder: %v", err)
	}

	// Longs of mixed sizes: 1 to 10 bytes each.
	longs := make([]int64, n)
	for i := range longs {
		longs[i] = int64(r.Uint64()) >> r.IntN(64)
	}
	ls := schema.MustParse(`{"type":"array","items":"long"}`)
	data, err = avro.Marshal(ls, longs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("[]int64: %d items, %d bytes", n, len(data))
	var gotL []int64
	if err := avro.Unmarshal(ls, data, &gotL); err != nil || !slices.Equal(gotL, longs) {
		t.Fatalf("[]int64: %d items, %v", len(gotL), err)
	}
	// Through a resolution (long read as double): the transcoder's output
	// is larger than its input and stays within the allocation limit.
	rs, err := schema.Resolve(ls, ds)
	if err != nil {
		t.Fatal(err)
	}
	var gotD []float64
	if err := avro.Unmarshal(rs, data, &gotD); err != nil || len(gotD) != n || gotD[n-1] != float64(longs[n-1]) {
		t.Fatalf("resolved: %d items, %v", len(gotD), err)
	}

	// Small longs, one byte each: 8 bytes of Go slice per input byte.
	small := make([]int64, n)
	for i := range small {
		small[i] = int64(r.IntN(128) - 64)
	}
	data, _ = avro.Marshal(ls, small)
	if err := avro.Unmarshal(ls, data, &gotL); err != nil || !slices.Equal(gotL, small) {
		t.Fatalf("small []int64: %v", err)
	}
	var a any
	if err := avro.Unmarshal(ls, data, &a); err != nil || len(a.([]any)) != n {
		t.Fatalf("small longs into any: %T, %v", a, err)
	}
}

// A list through a nullable union: each level is one record (one level of
// depth), two bytes.
type legitList struct {
	V    int64      `avro:"v"`
	Next *legitList `avro:"next"`
}

// A tree through an array: each level is a record and an array (two
// levels of depth).
type legitTree struct {
	V    int64       `avro:"v"`
	Kids []legitTree `avro:"kids"`
}

func legitListValue(levels int) *legitList {
	var l *legitList
	for i := range levels {
		l = &legitList{V: int64(i), Next: l}
	}
	return l
}

func legitTreeValue(levels int) legitTree {
	t := legitTree{V: 0, Kids: []legitTree{}}
	for i := 1; i < levels; i++ {
		t = legitTree{V: int64(i), Kids: []legitTree{t}}
	}
	return t
}

func TestLegitDeepValues(t *testing.T) {
	list := schema.MustParse(hListSchema)
	tree := schema.MustParse(hTreeSchema)
	cases := []struct {
		name   string
		s      *schema.Schema
		ok, no any // depth at the limit, and one level more
	}{
		// 128 records: the whole default depth.
		{"list 127", list, legitListValue(127), legitListValue(129)},
		{"list 128", list, legitListValue(128), legitListValue(129)},
		// 60 levels take 120, 64 take all 128 (the innermost empty array
		// counts too).
		{"tree 60", tree, legitTreeValue(60), legitTreeValue(65)},
		{"tree 64", tree, legitTreeValue(64), legitTreeValue(65)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := avro.Marshal(tc.s, tc.ok)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			decoders := map[string]func() error{
				"struct": func() error {
					switch tc.ok.(type) {
					case *legitList:
						var v legitList
						return avro.Unmarshal(tc.s, data, &v)
					default:
						var v legitTree
						return avro.Unmarshal(tc.s, data, &v)
					}
				},
				"value": func() error { var v value.Value; return avro.Unmarshal(tc.s, data, &v) },
				"any":   func() error { var v any; return avro.Unmarshal(tc.s, data, &v) },
				"decoder": func() error {
					var v value.Value
					return avro.NewDecoder(iotest.OneByteReader(bytes.NewReader(data)), tc.s).Decode(&v)
				},
				"next": func() error { var v any; _, err := avro.UnmarshalNext(tc.s, data, &v); return err },
				"resolve": func() error {
					// v read as double: a transcoder runs over every level.
					r := schema.MustParse(stringsReplace(tc.s.String(), `"long"`, `"double"`))
					rs, err := schema.Resolve(tc.s, r)
					if err != nil {
						return err
					}
					var v value.Value
					return avro.Unmarshal(rs, data, &v)
				},
			}
			for name, dec := range decoders {
				if err := dec(); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			// Through value.Value and back: equal bytes.
			var v value.Value
			if err := avro.Unmarshal(tc.s, data, &v); err != nil {
				t.Fatal(err)
			}
			again, err := avro.Marshal(tc.s, v)
			if err != nil || !bytes.Equal(again, data) {
				t.Errorf("value.Value re-encodes differently: %v", err)
			}
			// One level more is ErrLimit both ways.
			if _, err := avro.Marshal(tc.s, tc.no); !errors.Is(err, avro.ErrLimit) {
				t.Errorf("encode one level deeper: %v, want ErrLimit", err)
			}
			deeper, err := avro.EncodeOptions{MaxDepth: 200}.Marshal(tc.s, tc.no)
			if err != nil {
				t.Fatal(err)
			}
			if err := avro.Unmarshal(tc.s, deeper, &v); !errors.Is(err, avro.ErrLimit) {
				t.Errorf("decode one level deeper: %v, want ErrLimit", err)
			}
			if err := (avro.DecodeOptions{MaxDepth: 200}).Unmarshal(tc.s, deeper, &v); err != nil {
				t.Errorf("decode one level deeper with MaxDepth 200: %v", err)
			}
		})
	}
}

func stringsReplace(s, old, new string) string { return strings.ReplaceAll(s, old, new) }

// Cyclic values are ErrLimit when encoding, never a stack overflow: a
// pointer cycle, a map holding itself, a slice holding itself, a
// value.Record holding itself.
func TestHostileCyclicEncode(t *testing.T) {
	list := schema.MustParse(hListSchema)
	l := &legitList{}
	l.Next = l
	m := map[string]any{"v": int64(1)}
	m["next"] = m
	anyArr := schema.MustParse(`{"type":"record","name":"A","fields":[{"name":"a","type":{"type":"array","items":["null","A"]}}]}`)
	self := []any{nil}
	rec := map[string]any{"a": self}
	self[0] = rec
	rv := value.NewRecord(list, []value.Value{value.Long(1), value.Null()})
	rv.SetAt(1, value.Union(1, value.RecordOf(rv)))
	for name, c := range map[string]struct {
		s *schema.Schema
		v any
	}{
		"pointer cycle":         {list, l},
		"map holding itself":    {list, m},
		"slice holding itself":  {anyArr, rec},
		"record holding itself": {list, value.RecordOf(rv)},
	} {
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: panic %v", name, p)
				}
			}()
			_, err = avro.Marshal(c.s, c.v)
		}()
		if !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: %v, want ErrLimit", name, err)
		}
		var buf bytes.Buffer
		if err := avro.NewEncoder(&buf, c.s).Encode(c.v); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: Encoder: %v, want ErrLimit", name, err)
		}
		if _, err := avro.MarshalSingleObject(c.s, c.v); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: MarshalSingleObject: %v, want ErrLimit", name, err)
		}
		if sr, err := kafka.NewSerializer(1, c.s); err != nil {
			t.Fatal(err)
		} else if _, err := sr.Marshal(c.v); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: kafka: %v, want ErrLimit", name, err)
		}
		w, err := ocf.NewWriter(&buf, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Encode(c.v); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: ocf.Writer: %v, want ErrLimit", name, err)
		}
	}
}
