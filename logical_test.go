package avro_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// TestDurationIsTheExportedType: a duration decoded into an any is an
// avro.Duration, which a type switch in user code can name, and an any
// holding one encodes, in a union too.
func TestDurationIsTheExportedType(t *testing.T) {
	fixed := `{"type":"fixed","name":"D","size":12,"logicalType":"duration"}`
	s := schema.MustParse(fixed)
	want := avro.Duration{Months: 1, Days: 2, Milliseconds: 3}
	bin := []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}
	var v any
	if err := avro.Unmarshal(s, bin, &v); err != nil {
		t.Fatal(err)
	}
	if d, ok := v.(avro.Duration); !ok || d != want || fmt.Sprintf("%T", v) != "avro.Duration" {
		t.Errorf("decoded into any: %T %v; want avro.Duration %v", v, v, want)
	}
	union := schema.MustParse(`["null","string",` + fixed + `]`)
	v = want
	got, err := avro.Marshal(union, &v)
	if err != nil || !bytes.Equal(got, append([]byte{4}, bin...)) {
		t.Errorf("any holding a Duration in a union: % x, %v", got, err)
	}
	// A struct type of the same fields maps to duration as well.
	type span struct{ Months, Days, Milliseconds uint32 }
	var sp span
	if err := avro.Unmarshal(s, bin, &sp); err != nil || sp != (span{1, 2, 3}) {
		t.Errorf("into a struct of the same fields: %v, %v", sp, err)
	}
	ds, err := avro.SchemaOf[avro.Duration]()
	if err != nil || ds.Logical() != schema.Duration || ds.Size() != 12 {
		t.Errorf("SchemaOf[avro.Duration] = %v, %v", ds, err)
	}
}
