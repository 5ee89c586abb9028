package avro

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/avrogo/avro/schema"
)

// BenchmarkProjectionSkip decodes records of 51 fields through a reader schema
// that keeps only the first: the other 50 are skipped. The shapes are the
// uniform and the mixed cases a skip loop must both win on: longs of one
// byte, longs of 1 to 10 bytes, and a cycle of long, int, string, double,
// boolean and ["null","string"] with random lengths and branches.
func BenchmarkProjectionSkip(b *testing.B) {
	for _, shape := range []string{"long-small", "long-mixed", "mixed-types"} {
		b.Run("shape="+shape, func(b *testing.B) {
			rs, data := projectionData(b, shape)
			type kept struct {
				F00 int64 `avro:"f00"`
			}
			var v kept
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := Unmarshal(rs, data[i%len(data)], &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// projectionData returns the resolved schema and 4,096 encoded records of
// the shape.
func projectionData(tb testing.TB, shape string) (*schema.Schema, [][]byte) {
	types := []string{"long"}
	if shape == "mixed-types" {
		types = []string{"long", "int", "string", "double", "boolean", `["null","string"]`}
	}
	var fields []string
	for i := range 51 {
		fields = append(fields, fmt.Sprintf(`{"name":"f%02d","type":%s}`, i, quoteType(types[i%len(types)])))
	}
	w := schema.MustParse(`{"type":"record","name":"P","fields":[` + strings.Join(fields, ",") + `]}`)
	rs, err := schema.Resolve(w, schema.MustParse(`{"type":"record","name":"P","fields":[{"name":"f00","type":"long"}]}`))
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, uint64(len(shape))))
	long := func() int64 {
		if shape == "long-small" {
			return int64(r.IntN(128) - 64)
		}
		return r.Int64() >> (7 * r.IntN(10)) // 1 to 10 bytes
	}
	data := make([][]byte, 4096)
	for i := range data {
		rec := map[string]any{}
		for j, f := range w.Fields() {
			switch types[j%len(types)] {
			case "long":
				rec[f.Name()] = long()
			case "int":
				rec[f.Name()] = int32(r.Uint32()) >> r.IntN(32)
			case "string":
				rec[f.Name()] = strings.Repeat("x", r.IntN(24))
			case "double":
				rec[f.Name()] = r.NormFloat64()
			case "boolean":
				rec[f.Name()] = r.IntN(2) == 0
			default:
				if r.IntN(2) == 0 {
					rec[f.Name()] = nil
				} else {
					rec[f.Name()] = strings.Repeat("y", r.IntN(24))
				}
			}
		}
		if data[i], err = Marshal(w, rec); err != nil {
			tb.Fatal(err)
		}
	}
	return rs, data
}

func quoteType(t string) string {
	if strings.HasPrefix(t, "[") {
		return t
	}
	return `"` + t + `"`
}
