package value

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/avrogo/avro/schema"
)

// TestGCKeepsPayloads builds values whose only reference to their payload
// is the Value's p word, drops every other reference, collects garbage
// (several times, with fresh allocations in between to reuse any wrongly
// freed memory), then reads the values back. Run it with -race (checkptr)
// and with GODEBUG=invalidptr=1,gccheckmark=1.
func TestGCKeepsPayloads(t *testing.T) {
	s := schema.MustParse(`{"type": "record", "name": "R", "fields": [
		{"name": "s", "type": "string"}, {"name": "b", "type": "bytes"},
		{"name": "a", "type": {"type": "array", "items": "double"}},
		{"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B", "C"]}},
		{"name": "m", "type": {"type": "map", "values": ["null", "long"]}}]}`)
	const n = 2000
	build := func(i int) Value {
		str := "string-" + strconv.Itoa(i)              // heap string
		b := []byte("bytes-" + strconv.Itoa(i))         // heap bytes
		a := []float64{float64(i), float64(i) + 0.5, 3} // heap array
		m := NewMap([]string{"k" + strconv.Itoa(i)}, []Value{Union(1, Long(int64(i)))})
		return RecordOf(NewRecord(s, []Value{String(str), Bytes(b), Float64s(a), EnumOf(s.Field("e").Type(), i%3), MapOf(m)}))
	}
	vals := make([]Value, n)
	for i := range vals {
		vals[i] = build(i)
		if i%2 == 0 {
			vals[i] = vals[i].WithBranch(300 + i) // boxed: only the box points at the record
		}
	}
	// Also an array of Values and a typed array whose only header is the Value.
	arr := Array([]Value{String(strconv.Itoa(12345)), Int64s([]int64{7, 8, 9})})
	for range 3 {
		runtime.GC()
		garbage := make([][]byte, 0, 1000)
		for j := range 1000 {
			garbage = append(garbage, []byte("overwrite-"+strconv.Itoa(j)))
		}
		runtime.KeepAlive(garbage)
	}
	for i, v := range vals {
		if i%2 == 0 && v.Branch() != 300+i {
			t.Fatalf("%d: branch %d", i, v.Branch())
		}
		r := v.Record()
		if got := r.Field("s").Str(); got != "string-"+strconv.Itoa(i) {
			t.Fatalf("%d: s = %q", i, got)
		}
		if got := string(r.Field("b").Bytes()); got != "bytes-"+strconv.Itoa(i) {
			t.Fatalf("%d: b = %q", i, got)
		}
		if got := r.Field("a").Float64s(); got[0] != float64(i) || got[1] != float64(i)+0.5 {
			t.Fatalf("%d: a = %v", i, got)
		}
		if got := r.Field("e").Symbol(); got != "ABC"[i%3:i%3+1] {
			t.Fatalf("%d: e = %q", i, got)
		}
		if got, ok := r.Field("m").Map().Get("k" + strconv.Itoa(i)); !ok || got.Long() != int64(i) {
			t.Fatalf("%d: m = %v", i, got)
		}
		if !Equal(v.WithBranch(-1), build(i)) {
			t.Fatalf("%d: not equal to a fresh build", i)
		}
	}
	if arr.Index(0).Str() != "12345" || arr.Index(1).Int64s()[2] != 9 {
		t.Fatal("array payload lost")
	}
}

// TestGCConcurrent builds and reads values on several goroutines while
// the collector runs, to give the race detector and checkptr a workload.
func TestGCConcurrent(t *testing.T) {
	done := make(chan bool)
	for g := range 4 {
		go func() {
			ok := true
			for i := range 3000 {
				v := Array([]Value{String(strconv.Itoa(i * g)), Int64s([]int64{int64(i)}), Union(2, Double(float64(i)))})
				if i%500 == 0 {
					runtime.GC()
				}
				ok = ok && v.Index(0).Str() == strconv.Itoa(i*g) && v.Index(1).Int64s()[0] == int64(i) && v.Index(2).Double() == float64(i)
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Fatal("value corrupted")
		}
	}
}
