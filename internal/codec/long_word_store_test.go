package codec

import (
	"reflect"
	"testing"

	"github.com/avrogo/avro/schema"
)

// A struct's int and long fields are written with a word store where at
// least 7 bytes of the record follow them, whatever the values.
func TestLongFieldsTakeWordStores(t *testing.T) {
	type rec struct {
		A int64   `avro:"a"`
		B int32   `avro:"b"`
		D float64 `avro:"d"`
		C int64   `avro:"c"`
		E int32   `avro:"e"`
		F int32   `avro:"f"`
		R struct {
			X int64 `avro:"x"`
		} `avro:"r"`
		G int64 `avro:"g"`
	}
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
	 {"name":"a","type":"long"},{"name":"b","type":"int"},{"name":"d","type":"double"},
	 {"name":"c","type":"long"},{"name":"e","type":"int"},{"name":"f","type":"int"},
	 {"name":"r","type":{"type":"record","name":"In","fields":[{"name":"x","type":"long"}]}},
	 {"name":"g","type":"long"},
	 {"name":"tail","type":{"type":"fixed","name":"F6","size":6},"default":"\u0000\u0000\u0000\u0000\u0000\u0000"}]}`)
	enc, err := newCompiler().encoderFor(s, reflect.TypeOf(rec{}), "")
	if err != nil {
		t.Fatal(err)
	}
	// After a: 1+8+1+1+1+1+1+6; after b: 8+...; after c: 1+1+1+1+6 = 10;
	// after e: 1+1+1+6 = 9; after f: 1+1+6 = 8; after g: the fixed's 6.
	want := []fieldOp{fieldInt64Over, fieldInt32Over, fieldDouble, fieldInt64Over, fieldInt32Over, fieldInt32Over, fieldCall, fieldInt64, fieldDefaultBytes}
	se := enc.(*structEncoder)
	for i, f := range se.fields {
		if f.op != want[i] {
			t.Errorf("field %s: op %d, want %d", f.name, f.op, want[i])
		}
	}
	// The inner record's long ends its record: it is not written over.
	if op := se.fields[6].enc.(*structEncoder).fields[0].op; op != fieldInt64 {
		t.Errorf("inner x: op %d, want fieldInt64", op)
	}
}
