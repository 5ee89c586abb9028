package codec

import (
	"reflect"
	"testing"

	"github.com/avrogo/avro/schema"
)

type touchInner struct {
	Label string `avro:"label"`
	N     int64  `avro:"n"`
}

type touchOuter struct {
	ID    int32             `avro:"id"`
	Name  string            `avro:"name"`
	Data  []byte            `avro:"data"`
	Longs []int64           `avro:"longs"`
	Attrs map[string]string `avro:"attrs"`
	Note  *string           `avro:"note"`
	Inner touchInner        `avro:"inner"`
	Next  *touchNext        `avro:"next"`
}

// touchNext is I with its long first, the byte a pointer's touch would
// load.
type touchNext struct {
	N     int64  `avro:"n"`
	Label string `avro:"label"`
}

const touchSchema = `{"type":"record","name":"O","fields":[
	{"name":"id","type":"int"},
	{"name":"name","type":"string"},
	{"name":"data","type":"bytes"},
	{"name":"longs","type":{"type":"array","items":"long"}},
	{"name":"attrs","type":{"type":"map","values":"string"}},
	{"name":"note","type":["null","string"]},
	{"name":"inner","type":{"type":"record","name":"I","fields":[{"name":"label","type":"string"},{"name":"n","type":"long"}]}},
	{"name":"next","type":["null","I"]}]}`

// TestTouchLoadsTheFieldsMemory: a struct's encoders, binary and JSON,
// load ahead the first byte of each field's memory, nested structs' too,
// and nothing of fields that hold none (empty strings and slices, nil
// pointers) or whose memory their encoder may not read (a pointer to a
// struct).
func TestTouchLoadsTheFieldsMemory(t *testing.T) {
	s := schema.MustParse(touchSchema)
	var v touchOuter
	enc, err := cachedEncoder(s, eTypeOf(v), reflect.TypeOf(v))
	if err != nil {
		t.Fatal(err)
	}
	bin, ok := enc.(*structEncoder)
	if !ok {
		t.Fatalf("binary encoder %T, want a struct's", enc)
	}
	js, ok := newJSONCompiler(&programless{}).convert(s, enc).(*jsonStruct)
	if !ok {
		t.Fatal("not a struct's JSON encoder")
	}
	for name, fields := range map[string][]touchField{"binary": bin.touch, "JSON": js.touch} {
		v = touchOuter{}
		if got := touch(pointerTo(&v), fields); got != 0 {
			t.Errorf("%s, zero struct: touched bytes sum to %d, want 0", name, got)
		}
		note := "\x05note"
		// Each long's byte is 3 whatever the byte order.
		v = touchOuter{Name: "\x01n", Data: []byte{2}, Longs: []int64{0x0303030303030303}, Attrs: map[string]string{"k": "v"},
			Note: &note, Inner: touchInner{Label: "\x06"}, Next: &touchNext{N: 7}}
		// The map's byte is its header's or group's, which this test
		// cannot know: the sum is checked with the map nil.
		v.Attrs = nil
		want := byte(1 + 2 + 3 + 5 + 6)
		if got := touch(pointerTo(&v), fields); got != want {
			t.Errorf("%s: touched bytes sum to %d, want %d", name, got, want)
		}
		if len(fields) != 6 {
			t.Errorf("%s: %d fields touched, want 6 (%v)", name, len(fields), fields)
		}
	}
}
