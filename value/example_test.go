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
