package avrojson_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// TestAppendDoesNotAllocate: writing into a caller's buffer, and both
// transcoders, allocate nothing once the buffer has room.
func TestAppendDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race (sync.Pool drops items at random); the other runs of the test command check them")
	}
	p := point{X: 1 << 40, Y: "hello, world"}
	buf := make([]byte, 0, 1024)
	text, err := avrojson.Marshal(pointSchema, &p)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := avrojson.JSONToBinary(nil, pointSchema, text)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(){
		"Append":       func() { buf, _ = avrojson.Append(buf[:0], pointSchema, &p) },
		"Plain Append": func() { buf, _ = avrojson.Plain().Append(buf[:0], pointSchema, &p) },
		"BinaryToJSON": func() { buf, _ = avrojson.BinaryToJSON(buf[:0], pointSchema, bin) },
		"JSONToBinary": func() { buf, _ = avrojson.JSONToBinary(buf[:0], pointSchema, text) },
	} {
		f()
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
}

// TestMarshalAllocatesOnce: Marshal returns new memory of the text's size
// in one allocation (of the size class above it), however long the text,
// rather than growing a slice.
func TestMarshalAllocatesOnce(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race (sync.Pool drops items at random); the other runs of the test command check them")
	}
	p := point{X: 1 << 40, Y: strings.Repeat("a long string, ", 200)}
	want, err := avrojson.Append(nil, pointSchema, &p)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	f := func() { got, _ = avrojson.Marshal(pointSchema, &p) }
	f()
	if n := testing.AllocsPerRun(100, f); n != 1 {
		t.Errorf("Marshal: %v allocations, want 1", n)
	}
	if string(got) != string(want) || cap(got) > len(want)+len(want)/8 {
		t.Errorf("Marshal = %d bytes (cap %d), want the %d of Append", len(got), cap(got), len(want))
	}
}

// TestJSONNumberField: a json.Number field writes its number as a JSON
// number and reads back as the shortest literal of the value.
func TestJSONNumberField(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"N","fields":[{"name":"l","type":"long"},{"name":"d","type":"double"}]}`)
	type rec struct {
		L json.Number `avro:"l"`
		D json.Number `avro:"d"`
	}
	text, err := avrojson.Marshal(s, &rec{L: "-9223372036854775808", D: "2.50"})
	if want := `{"l":-9223372036854775808,"d":2.5}`; err != nil || string(text) != want {
		t.Fatalf("Marshal = %s, %v, want %s", text, err, want)
	}
	var back rec
	if err := avrojson.Unmarshal(s, text, &back); err != nil || back.L != "-9223372036854775808" || back.D != "2.5" {
		t.Errorf("Unmarshal = %+v, %v", back, err)
	}
}
