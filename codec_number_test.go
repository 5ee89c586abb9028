package avro_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

var numberSchema = schema.MustParse(`{"type":"record","name":"N","fields":[
 {"name":"i","type":"int"},{"name":"l","type":"long"},
 {"name":"f","type":"float"},{"name":"d","type":"double"},
 {"name":"o","type":["null","long"]}]}`)

type numbers struct {
	I json.Number  `avro:"i"`
	L json.Number  `avro:"l"`
	F json.Number  `avro:"f"`
	D json.Number  `avro:"d"`
	O *json.Number `avro:"o"`
}

// json.Number fields take the numbers value.FromAny takes, to the same
// bytes, and read back as the shortest literal of the value.
func TestJSONNumberFields(t *testing.T) {
	o := json.Number("-9223372036854775808")
	v := numbers{I: "-2147483648", L: "9223372036854775807", F: "0.1", D: "1e-320", O: &o}
	got, err := avro.Marshal(numberSchema, &v)
	if err != nil {
		t.Fatal(err)
	}
	generic, err := value.FromAny(numberSchema, map[string]any{
		"i": json.Number("-2147483648"), "l": json.Number("9223372036854775807"),
		"f": json.Number("0.1"), "d": json.Number("1e-320"), "o": json.Number("-9223372036854775808"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want, err := avro.Marshal(numberSchema, &generic)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("Marshal = %x, value.FromAny gives %x", got, want)
	}
	var back numbers
	if err := avro.Unmarshal(numberSchema, got, &back); err != nil {
		t.Fatal(err)
	}
	if back.I != v.I || back.L != v.L || back.F != "0.1" || back.D != "1e-320" || back.O == nil || *back.O != o {
		t.Errorf("read back %+v (o %v), want %+v", back, back.O, v)
	}
}

func TestJSONNumberOutOfRange(t *testing.T) {
	for _, v := range []numbers{
		{I: "2147483648", L: "0", F: "0", D: "0"},
		{I: "0", L: "9223372036854775808", F: "0", D: "0"},
		{I: "0", L: "1.5", F: "0", D: "0"},
		{I: "0", L: "0", F: "1e39", D: "0"},
		{I: "0", L: "0", F: "0", D: "x"},
	} {
		if _, err := avro.Marshal(numberSchema, &v); !errors.Is(err, avro.ErrRange) {
			t.Errorf("Marshal(%+v): %v, want ErrRange", v, err)
		}
	}
}
