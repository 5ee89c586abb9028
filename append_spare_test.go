package avro_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// Append writes ints and longs with word stores where the rest of the
// record covers what a store writes past its value; nothing past the
// result may change in dst, whatever the record's shape and values.

type spareWide struct {
	A int64   `avro:"a"`
	B int32   `avro:"b"`
	S string  `avro:"s"`
	D float64 `avro:"d"`
	T bool    `avro:"t"`
	N *string `avro:"n"`
	C int64   `avro:"c"`
	E int32   `avro:"e"`
}

const spareWideSchema = `{"type":"record","name":"W","fields":[
 {"name":"a","type":"long"},{"name":"b","type":"int"},{"name":"s","type":"string"},
 {"name":"d","type":"double"},{"name":"t","type":"boolean"},{"name":"n","type":["null","string"]},
 {"name":"c","type":"long"},{"name":"e","type":"int"}]}`

// longThenInts is a long followed by k ints: the least the record writes
// after the long is k bytes.
func longThenInts(k int) (*schema.Schema, []string) {
	fields := []string{`{"name":"f0","type":"long"}`}
	names := []string{"f0"}
	for i := 1; i <= k; i++ {
		fields = append(fields, fmt.Sprintf(`{"name":"f%d","type":"int"}`, i))
		names = append(names, fmt.Sprintf("f%d", i))
	}
	return schema.MustParse(`{"type":"record","name":"L","fields":[` + strings.Join(fields, ",") + `]}`), names
}

// checkAppendKeepsSpare appends v to a prefix of a buffer of marked bytes
// and checks the result against Marshal and the bytes past it.
func checkAppendKeepsSpare(t *testing.T, s *schema.Schema, v any) {
	t.Helper()
	want, err := avro.Marshal(s, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, spare := range []int{len(want), len(want) + 7, len(want) + 64} {
		buf := bytes.Repeat([]byte{0xee}, 3+spare)
		out, err := avro.Append(buf[:3], s, v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out[3:], want) {
			t.Fatalf("Append = % x, want % x", out[3:], want)
		}
		if &out[0] != &buf[0] {
			continue // grew: dst's bytes are not the result's
		}
		for i := len(out); i < len(buf); i++ {
			if buf[i] != 0xee {
				t.Fatalf("Append changed byte %d of dst past its result (%d bytes): % x", i, len(out), buf[len(out):])
			}
		}
	}
}

func TestAppendKeepsSpareCapacity(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	long := func() int64 { return int64(r.Uint64()) >> r.IntN(64) }
	ws := schema.MustParse(spareWideSchema)
	for range 2000 {
		v := spareWide{A: long(), B: int32(long()), S: strings.Repeat("x", r.IntN(4)), D: r.Float64(),
			T: r.IntN(2) == 0, C: long(), E: int32(long())}
		if r.IntN(2) == 0 {
			s := "y"
			v.N = &s
		}
		checkAppendKeepsSpare(t, ws, &v)
	}
	// A long followed by 6 and by 7 bytes at least, with values of one
	// byte, where a word store's extra bytes reach furthest.
	for k := 0; k <= 9; k++ {
		s, names := longThenInts(k)
		fields := []reflect.StructField{{Name: "F0", Type: reflect.TypeFor[int64](), Tag: `avro:"f0"`}}
		for i, n := range names[1:] {
			fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i+1), Type: reflect.TypeFor[int32](), Tag: reflect.StructTag(`avro:"` + n + `"`)})
		}
		st := reflect.StructOf(fields)
		for _, first := range []int64{0, 1 << 20, -1 << 62} {
			v := reflect.New(st)
			v.Elem().Field(0).SetInt(first)
			checkAppendKeepsSpare(t, s, v.Interface())
		}
	}
}
