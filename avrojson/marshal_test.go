package avrojson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/avrogo/avro"
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
	// A decimal's json.Number is its exact value, in either flavour, and
	// in a union the branch its text picks.
	ds := schema.MustParse(`{"type":"record","name":"D","fields":[
	 {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
	 {"name":"u","type":["null","long","double"]}]}`)
	type drec struct {
		Amount json.Number  `avro:"amount"`
		U      *json.Number `avro:"u"`
	}
	u := json.Number("1.5")
	for _, c := range []struct {
		o    avrojson.Options
		u    *json.Number
		want string
	}{
		{avrojson.Options{}, &u, `{"amount":"\u0002i","u":{"double":1.5}}`},
		// Bare, a number in [null,long,double] would read back ambiguous.
		{avrojson.Plain(), nil, `{"amount":6.17,"u":null}`},
	} {
		text, err := c.o.Marshal(ds, &drec{Amount: "6.17", U: c.u})
		if err != nil || string(text) != c.want {
			t.Errorf("Marshal = %s, %v, want %s", text, err, c.want)
			continue
		}
		var back drec
		if err := c.o.Unmarshal(ds, text, &back); err != nil || back.Amount != "6.17" || (back.U == nil) != (c.u == nil) || c.u != nil && *back.U != *c.u {
			t.Errorf("Unmarshal(%s) = %+v, %v", text, back, err)
		}
	}
}

// TestMarshalErrorsThroughBinary: the errors of values written through
// their binary encoding are those of an encode: no offset, which would be
// one in a buffer the caller never sees, and no index of a map entry,
// whose place in the encoding is the Go map's iteration order.
func TestMarshalErrorsThroughBinary(t *testing.T) {
	o := avrojson.Options{Decode: avro.DecodeOptions{ValidateUTF8: true}}
	ints := schema.MustParse(`{"type":"map","values":"int"}`)
	rec := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"m","type":{"type":"map","values":"int"}}]}`)
	list := schema.MustParse(`{"type":"array","items":{"type":"map","values":"int"}}`)
	bad := map[string]int{"a": 1, "b": 2, "\xff": 3, "c": 4}
	for _, c := range []struct {
		name string
		s    *schema.Schema
		v    any
		path string
		want error
	}{
		{"map at the top", ints, bad, "", avro.ErrInvalid},
		{"map in a record", rec, map[string]any{"m": bad}, "m", avro.ErrInvalid},
		{"map in a list", list, []map[string]int{{"a": 1}, bad}, "[1]", avro.ErrInvalid},
		{"key over MaxLength", ints, map[string]int{"a": 1, "b": 2, strings.Repeat("c", 20): 3}, "", avro.ErrLimit},
	} {
		o := o
		if c.want == avro.ErrLimit {
			o.Decode.MaxLength = 8
		}
		_, err := o.Marshal(c.s, c.v)
		var ae *avro.Error
		if !errors.Is(err, c.want) || !errors.As(err, &ae) || ae.Path != c.path || ae.Offset != -1 {
			t.Errorf("%s: %#v (%v), want %v at %q without an offset", c.name, err, err, c.want, c.path)
		}
	}
}

// lockedName is a value whose text method takes its lock: encoding it
// must read it only through the method, while others change it under the
// lock.
type lockedName struct {
	mu   sync.Mutex
	name string
}

func (n *lockedName) MarshalText() ([]byte, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return []byte(n.name), nil
}

func (n *lockedName) set(s string) {
	n.mu.Lock()
	n.name = s
	n.mu.Unlock()
}

// TestMarshalReadsOnlyWhatItEncodes: the encoders read no memory of a
// value that its encoding does not (under go test -race, a read of the
// mutex of a value with a text method is a data race), in binary and in
// JSON, from a pointer field and from a slice of such values.
func TestMarshalReadsOnlyWhatItEncodes(t *testing.T) {
	type rec struct {
		Name  *lockedName  `avro:"name"`
		Names []lockedName `avro:"names"`
	}
	s := schema.MustParse(`{"type":"record","name":"L","fields":[{"name":"name","type":"string"},
		{"name":"names","type":{"type":"array","items":"string"}}]}`)
	v := &rec{Name: &lockedName{name: "a"}, Names: make([]lockedName, 2)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 2000 {
			v.Name.set(strconv.Itoa(i))
			v.Names[0].set(strconv.Itoa(i))
		}
	}()
	for range 200 {
		if _, err := avro.Marshal(s, v); err != nil {
			t.Fatal(err)
		}
		text, err := avrojson.Marshal(s, v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(text, []byte(`{"name":"`)) {
			t.Fatalf("text %s", text)
		}
	}
	<-done
}
