package value_test

import (
	"fmt"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

func Example() {
	s := schema.MustParse(`{"type": "record", "name": "Reading", "fields": [
		{"name": "sensor", "type": "string"},
		{"name": "samples", "type": {"type": "array", "items": "double"}},
		{"name": "note", "type": ["null", "string"], "default": null}]}`)

	// Build a value by hand: the typed array holds the []float64 itself.
	r := value.NewRecord(s, []value.Value{
		value.String("t-1"),
		value.Float64s([]float64{20.5, 21}),
		value.Union(0, value.Null()),
	})
	v := value.RecordOf(r)
	fmt.Println(v)
	fmt.Println(r.Field("samples").Float64s()[1], r.Field("note").Branch())

	// Or convert plain Go data; union branches are chosen and kept.
	w, err := value.FromAny(s, map[string]any{
		"sensor": "t-2", "samples": []float64{19}, "note": "recalibrated",
	})
	if err != nil {
		panic(err)
	}
	note := w.Record().Field("note")
	fmt.Println(note.Str(), note.Branch(), w.Record().Field("samples").ElemKind())
	fmt.Println(value.ToAny(w))

	_, err = value.FromAny(s, map[string]any{"sensor": "t-3", "samples": []any{1.5, "x"}})
	fmt.Println(err)
	// Output:
	// {"sensor": "t-1", "samples": [20.5, 21], "note": null}
	// 21 0
	// recalibrated 1 double
	// map[note:recalibrated samples:[19] sensor:t-2]
	// value: samples[1]: cannot use string as double
}

func ExampleArena() {
	point := schema.MustParse(`{"type": "record", "name": "Point", "fields": [
		{"name": "x", "type": "long"}, {"name": "y", "type": "long"}]}`)

	// Many small records and a map from one arena: a few shared blocks
	// instead of an allocation per node.
	var a value.Arena
	points := a.Values(3)
	for i := range points {
		p := a.NewRecord(point)
		p.SetAt(0, value.Long(int64(i)))
		p.SetAt(1, value.Long(int64(i*i)))
		points[i] = value.RecordOf(p)
	}
	tags := a.NewMap(2) // two entries, filled in place
	keys, vals := tags.Keys(), tags.Values()
	keys[0], vals[0] = "unit", value.String("m")
	keys[1], vals[1] = "source", value.String("gps")

	fmt.Println(value.Array(points))
	fmt.Println(value.MapOf(tags))
	// Output:
	// [{"x": 0, "y": 0}, {"x": 1, "y": 1}, {"x": 2, "y": 4}]
	// {"unit": "m", "source": "gps"}
}

// FromAny converts plain Go data, such as decoded JSON, to a Value: it
// checks the data against the schema, fills missing fields from their
// defaults and picks union branches, by the value's shape or by a one-key
// map that names the branch.
func ExampleFromAny() {
	s := schema.MustParse(`{"type": "record", "name": "Event", "fields": [
		{"name": "id", "type": "long"},
		{"name": "payload", "type": ["null", "string", "bytes"]},
		{"name": "attempt", "type": "int", "default": 1}]}`)

	v, err := value.FromAny(s, map[string]any{"id": 42, "payload": "hello"})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := v.Record()
	fmt.Println(v, r.Field("payload").Branch())

	// {"bytes": ...} names the branch, as goavro's wrapper form does.
	v, err = value.FromAny(s, map[string]any{"id": int64(43), "payload": map[string]any{"bytes": []byte{0, 1}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d %v\n", v.Record().Field("payload").Branch(), v.Record().Field("payload").Bytes())

	_, err = value.FromAny(s, map[string]any{"id": 1.5, "payload": nil})
	fmt.Println(err)
	// Output:
	// {"id": 42, "payload": "hello", "attempt": 1} 1
	// 2 [0 1]
	// value: id: cannot use float64 as long
}
