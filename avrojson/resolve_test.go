package avrojson_test

import (
	"testing"

	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// TestResolvedSchema: JSON written with the writer's schema reads into the
// reader's shape through a resolved schema, into structs and values, and
// a writer's binary datum renders in the reader's shape.
func TestResolvedSchema(t *testing.T) {
	writer := schema.MustParse(`{"type":"record","name":"U","fields":[
		{"name":"id","type":"int"},{"name":"old","type":"string"},{"name":"score","type":"float"}]}`)
	reader := schema.MustParse(`{"type":"record","name":"U","fields":[
		{"name":"score","type":"double"},{"name":"id","type":"long"},
		{"name":"tag","type":"string","default":"none"}]}`)
	resolved, err := schema.Resolve(writer, reader)
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(`{"id":7,"old":"x","score":1.5}`)
	type U struct {
		Score float64 `avro:"score"`
		ID    int64   `avro:"id"`
		Tag   string  `avro:"tag"`
	}
	var u U
	if err := avrojson.Unmarshal(resolved, text, &u); err != nil {
		t.Fatal(err)
	}
	if u != (U{1.5, 7, "none"}) {
		t.Errorf("struct: %+v", u)
	}
	var v value.Value
	if err := avrojson.Unmarshal(resolved, text, &v); err != nil {
		t.Fatal(err)
	}
	got, err := avrojson.Marshal(reader, v)
	if err != nil || string(got) != `{"score":1.5,"id":7,"tag":"none"}` {
		t.Errorf("value.Value written with the reader: %s, %v", got, err)
	}
	bin, err := avrojson.JSONToBinary(nil, writer, text)
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := avrojson.BinaryToJSON(nil, resolved, bin)
	if err != nil || string(rendered) != string(got) {
		t.Errorf("BinaryToJSON(resolved) = %s, %v; want %s", rendered, err, got)
	}
	readerBin, err := avrojson.JSONToBinary(nil, resolved, text)
	if err != nil {
		t.Fatal(err)
	}
	back, err := avrojson.BinaryToJSON(nil, reader, readerBin)
	if err != nil || string(back) != string(got) {
		t.Errorf("JSONToBinary(resolved) then BinaryToJSON(reader) = %s, %v; want %s", back, err, got)
	}
}
