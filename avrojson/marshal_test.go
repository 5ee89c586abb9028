package avrojson_test

import (
	"testing"

	"github.com/avrogo/avro/avrojson"
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
