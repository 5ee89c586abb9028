package value_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// TestMarshalJSON: json.Marshal of a Value writes its Avro JSON, tagged
// where it carries a union branch, never {}.
func TestMarshalJSON(t *testing.T) {
	rs := schema.MustParse(`{"type":"record","name":"R","namespace":"ns","fields":[
		{"name":"a","type":["null","long"]},{"name":"b","type":"bytes"},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"]}},
		{"name":"m","type":{"type":"map","values":"double"}},
		{"name":"f","type":{"type":"array","items":"float"}}]}`)
	es := rs.Fields()[2].Type()
	rec := value.NewRecord(rs, []value.Value{
		value.Union(1, value.Long(math.MaxInt64)),
		value.Bytes([]byte{0, 0xff, '"'}),
		value.EnumOf(es, 1),
		value.MapOf(value.NewMap([]string{"n", "i"}, []value.Value{value.Double(math.NaN()), value.Double(math.Inf(-1))})),
		value.Float32s([]float32{0.1, 1e21}),
	})
	for _, c := range []struct {
		v    value.Value
		want string
	}{
		{value.RecordOf(rec), `{"a":{"long":9223372036854775807},"b":"\u0000ÿ\"","e":"Y","m":{"n":"NaN","i":"-Infinity"},"f":[0.1,1e+21]}`},
		{value.Union(2, value.RecordOf(rec)), `{"ns.R":{"a":{"long":9223372036854775807}`},
		{value.Union(0, value.Null()), `null`},
		{value.Union(1, value.EnumOf(es, 0)), `{"ns.E":"X"}`},
		{value.Union(1, value.Fixed([]byte("ab"))), `"ab"`},
		{value.Union(3, value.String("x\n")), `{"string":"x\n"}`},
		{value.Enum(1), `1`},
	} {
		got, err := json.Marshal(c.v)
		if err != nil {
			t.Fatalf("%v: %v", c.v, err)
		}
		if !strings.HasPrefix(string(got), c.want) {
			t.Errorf("json.Marshal(%v) = %s, want %s", c.v, got, c.want)
		}
	}
}

// TestMarshalJSONCycle: a Value that contains itself is an error, not a
// stack overflow.
func TestMarshalJSONCycle(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"C","fields":[{"name":"self","type":["null","C"]}]}`)
	r := value.NewRecord(s, []value.Value{value.Null()})
	r.SetAt(0, value.Union(1, value.RecordOf(r)))
	if _, err := json.Marshal(value.RecordOf(r)); err == nil {
		t.Error("json.Marshal of a record that contains itself: no error")
	}
}
