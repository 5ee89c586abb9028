package codec

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Concurrency: the codec cache is filled and read by many goroutines at
// once. These tests are meant for go test -race.

const concWorkers = 64

// concShared is the Go type every worker uses with the shared schema and
// with a schema of its own.
type concShared struct {
	ID    int64             `avro:"id"`
	Name  string            `avro:"name"`
	Tags  []string          `avro:"tags"`
	Attrs map[string]int64  `avro:"attrs"`
	Opt   *concSharedInner  `avro:"opt"`
	Blobs map[string][]byte `avro:"blobs"`
}

type concSharedInner struct {
	X float64 `avro:"x"`
}

// concSharedFields is the field list of concShared; each worker's own
// schema has it under another name, plus extra fields with defaults.
const concSharedFields = `
	{"name":"id","type":"long"},
	{"name":"name","type":"string"},
	{"name":"tags","type":{"type":"array","items":"string"}},
	{"name":"attrs","type":{"type":"map","values":"long"}},
	{"name":"opt","type":["null",{"type":"record","name":"Inner","fields":[{"name":"x","type":"double"}]}]},
	{"name":"blobs","type":{"type":"map","values":"bytes"}}`

func concSharedValue(w, i int) concShared {
	v := concShared{
		ID:   int64(w)<<32 | int64(i),
		Name: fmt.Sprintf("worker %d iteration %d %s", w, i, strings.Repeat("x", i%17)),
		// One entry per map: Go randomizes map order, and these tests
		// compare encodings byte for byte.
		Attrs: map[string]int64{fmt.Sprint("w", w): int64(-i)},
		Blobs: map[string][]byte{"b": {byte(w), byte(i)}},
	}
	for k := range i % 5 {
		v.Tags = append(v.Tags, fmt.Sprint(k))
	}
	if v.Tags == nil {
		v.Tags = []string{}
	}
	if i%2 == 1 {
		v.Opt = &concSharedInner{X: float64(i) / 3}
	}
	return v
}

// concDistinctType builds a struct type at run time, different for each
// worker, with the schema text that matches it.
func concDistinctType(w int) (reflect.Type, string) {
	kinds := []struct {
		typ    reflect.Type
		schema string
	}{
		{reflect.TypeFor[int64](), `"long"`},
		{reflect.TypeFor[string](), `"string"`},
		{reflect.TypeFor[[]int32](), `{"type":"array","items":"int"}`},
		{reflect.TypeFor[map[string]float64](), `{"type":"map","values":"double"}`},
		{reflect.TypeFor[*string](), `["null","string"]`},
		{reflect.TypeFor[uint16](), `"int"`},
		{reflect.TypeFor[[]byte](), `"bytes"`},
	}
	n := 1 + w%9
	var fields []reflect.StructField
	var sf []string
	for j := range n {
		k := kinds[(w+j)%len(kinds)]
		name := fmt.Sprintf("f%d_%d", w, j)
		fields = append(fields, reflect.StructField{
			Name: fmt.Sprintf("F%d", j),
			Type: k.typ,
			Tag:  reflect.StructTag(`avro:"` + name + `"`),
		})
		sf = append(sf, fmt.Sprintf(`{"name":%q,"type":%s}`, name, k.schema))
	}
	text := fmt.Sprintf(`{"type":"record","name":"Distinct%d","fields":[%s]}`, w, strings.Join(sf, ","))
	return reflect.StructOf(fields), text
}

// concFill sets every field of the struct at v from (w, i).
func concFill(v reflect.Value, w, i int) {
	for j := range v.NumField() {
		f := v.Field(j)
		switch x := f.Addr().Interface().(type) {
		case *int64:
			*x = int64(w*1000 + i + j)
		case *string:
			*x = fmt.Sprintf("%d/%d/%d", w, i, j)
		case *[]int32:
			*x = []int32{int32(w), int32(i), int32(-j)}
		case *map[string]float64:
			*x = map[string]float64{"a": float64(w), "b": float64(i)}
		case **string:
			if i%2 == 0 {
				s := fmt.Sprint(i)
				*x = &s
			} else {
				*x = nil
			}
		case *uint16:
			*x = uint16(w + i)
		case *[]byte:
			*x = []byte{byte(w), byte(i), byte(j)}
		}
	}
}

// TestConcurrentCodecs runs 64 goroutines at once. Each parses schemas of
// its own, builds a Go type of its own, and encodes and decodes with
// them, with the shared Go type, and with one schema and type shared by
// all (which they all compile into the same cache at the same moment).
func TestConcurrentCodecs(t *testing.T) {
	iters := 150
	if testing.Short() {
		iters = 20
	}
	shared := propParse(t, `{"type":"record","name":"Shared","namespace":"conc","fields":[`+concSharedFields+`]}`)

	var wg sync.WaitGroup
	errs := make(chan error, concWorkers)
	start := make(chan struct{})
	for w := range concWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if err := concWorker(shared, w, iters); err != nil {
				errs <- fmt.Errorf("worker %d: %w", w, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func concWorker(shared *schema.Schema, w, iters int) error {
	own, err := schema.Parse(fmt.Sprintf(`{"type":"record","name":"Own%d","namespace":"conc.w%d","fields":[%s,
		{"name":"extra%d","type":"long","default":%d}]}`, w, w, concSharedFields, w, w))
	if err != nil {
		return err
	}
	dt, dtText := concDistinctType(w)
	distinct, err := schema.Parse(dtText)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, 256)
	for i := range iters {
		in := concSharedValue(w, i)

		// The shared schema and type, through Append into a reused
		// buffer, Marshal and the streaming API.
		buf, err = Append(buf[:0], shared, &in)
		if err != nil {
			return err
		}
		var out concShared
		if err := Unmarshal(shared, buf, &out); err != nil {
			return err
		}
		if d := cmp.Diff(in, out); d != "" {
			return fmt.Errorf("shared round trip (-want +got):\n%s", d)
		}
		var sb bytes.Buffer
		if err := NewEncoder(&sb, shared).Encode(&in); err != nil {
			return err
		}
		var streamed concShared
		if err := NewDecoder(&sb, shared).Decode(&streamed); err != nil {
			return err
		}
		if d := cmp.Diff(in, streamed); d != "" {
			return fmt.Errorf("shared stream round trip (-want +got):\n%s", d)
		}

		// Generic targets on the shared schema.
		var v value.Value
		if err := Unmarshal(shared, buf, &v); err != nil {
			return err
		}
		if again, err := Marshal(shared, v); err != nil || !bytes.Equal(again, buf) {
			return fmt.Errorf("value.Value re-encodes to % x, %v; want % x", again, err, buf)
		}
		var a any
		if err := Unmarshal(shared, buf, &a); err != nil {
			return err
		}
		if a.(map[string]any)["id"] != in.ID {
			return fmt.Errorf("any: id %v, want %d", a.(map[string]any)["id"], in.ID)
		}

		// The worker's own schema with the shared type: a distinct
		// cache, and a default written for the field the type lacks.
		data, err := Marshal(own, &in)
		if err != nil {
			return err
		}
		if !bytes.Equal(data[:len(buf)], buf) || !bytes.Equal(data[len(buf):], propLong(int64(w))) {
			return fmt.Errorf("own schema encodes to % x; want % x then the default %d", data, buf, w)
		}
		var ownOut concShared
		if err := Unmarshal(own, data, &ownOut); err != nil {
			return err
		}
		if d := cmp.Diff(in, ownOut); d != "" {
			return fmt.Errorf("own round trip (-want +got):\n%s", d)
		}

		// The worker's own type, built at run time.
		dv := reflect.New(dt)
		concFill(dv.Elem(), w, i)
		data, err = Marshal(distinct, dv.Interface())
		if err != nil {
			return err
		}
		back := reflect.New(dt)
		if err := Unmarshal(distinct, data, back.Interface()); err != nil {
			return err
		}
		if !reflect.DeepEqual(dv.Elem().Interface(), back.Elem().Interface()) {
			return fmt.Errorf("distinct type round trip: %+v != %+v", dv.Elem().Interface(), back.Elem().Interface())
		}
	}
	return nil
}

// TestConcurrentFirstUse has every goroutine compile the same codecs of a
// freshly parsed schema at the same moment, several Go types at once.
func TestConcurrentFirstUse(t *testing.T) {
	for round := range 5 {
		s := propParse(t, fmt.Sprintf(`{"type":"record","name":"First%d","namespace":"conc","fields":[`+concSharedFields+`]}`, round))
		in := concSharedValue(round, 3)
		want, err := Marshal(propParse(t, `{"type":"record","name":"Ref","fields":[`+concSharedFields+`]}`), &in)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, concWorkers)
		start := make(chan struct{})
		for w := range concWorkers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				var err error
				switch w % 4 {
				case 0:
					var out concShared
					if err = Unmarshal(s, want, &out); err == nil {
						if d := cmp.Diff(in, out); d != "" {
							err = fmt.Errorf("(-want +got):\n%s", d)
						}
					}
				case 1:
					var got []byte
					if got, err = Marshal(s, &in); err == nil && !bytes.Equal(got, want) {
						err = fmt.Errorf("Marshal = % x, want % x", got, want)
					}
				case 2:
					var v value.Value
					if err = Unmarshal(s, want, &v); err == nil {
						var got []byte
						if got, err = Marshal(s, v); err == nil && !bytes.Equal(got, want) {
							err = fmt.Errorf("value.Value re-encodes to % x", got)
						}
					}
				case 3:
					var m map[string]any
					err = Unmarshal(s, want, &m)
				}
				if err != nil {
					errs <- fmt.Errorf("round %d worker %d: %w", round, w, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}
