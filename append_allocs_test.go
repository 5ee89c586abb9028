package avro_test

import (
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// Append's documentation: no allocation when dst has room and v is a
// pointer to a struct, or a value that is not pointer-shaped, but for
// decimals from a big.Rat, which it names.
func TestAppendAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race (sync.Pool drops items at random)")
	}
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
	  {"name":"a","type":"long"},{"name":"s","type":"string"},{"name":"o","type":["null","double"]},
	  {"name":"l","type":{"type":"array","items":"int"}},{"name":"m","type":{"type":"map","values":"string"}}]}`)
	type rec struct {
		A int64             `avro:"a"`
		S string            `avro:"s"`
		O *float64          `avro:"o"`
		L []int32           `avro:"l"`
		M map[string]string `avro:"m"`
	}
	f := 1.5
	v := rec{A: 1 << 40, S: "text", O: &f, L: []int32{1, 2, 3}, M: map[string]string{"k": "v"}}
	buf := make([]byte, 0, 256)
	if allocs := testing.AllocsPerRun(100, func() { buf, _ = avro.Append(buf[:0], s, &v) }); allocs != 0 {
		t.Errorf("Append(&struct): %v allocations, want 0", allocs)
	}
	long := schema.MustParse(`"long"`)
	if allocs := testing.AllocsPerRun(100, func() { buf, _ = avro.Append(buf[:0], long, int64(7)) }); allocs != 0 {
		t.Errorf("Append(int64): %v allocations, want 0", allocs)
	}
}
