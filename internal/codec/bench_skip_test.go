package codec

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
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

// BenchmarkProjectionSkipArray skips an array of 100 longs, 100 doubles
// or 20 short strings, in blocks of 10 items with byte sizes (sized, as
// Java's BlockingBinaryEncoder writes them) or without, to read the field
// after it. A sized block is walked like the others, to check its size.
func BenchmarkProjectionSkipArray(b *testing.B) {
	for _, sized := range []bool{true, false} {
		for _, items := range []string{"long", "double", "string"} {
			b.Run(fmt.Sprintf("sized=%v/items=%s", sized, items), func(b *testing.B) {
				rs, data := skipArrayData(b, items, sized)
				var v struct {
					K int64 `avro:"k"`
				}
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
}

// skipArrayData returns the resolved schema and 1,024 records of
// BenchmarkProjectionSkipArray.
func skipArrayData(tb testing.TB, items string, sized bool) (*schema.Schema, [][]byte) {
	rs, err := schema.Resolve(
		schema.MustParse(`{"type":"record","name":"S","fields":[{"name":"a","type":{"type":"array","items":"`+items+`"}},{"name":"k","type":"long"}]}`),
		schema.MustParse(`{"type":"record","name":"S","fields":[{"name":"k","type":"long"}]}`))
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	blocks := 10
	if items == "string" {
		blocks = 2
	}
	data := make([][]byte, 1024)
	for i := range data {
		var rec []byte
		for range blocks {
			var block []byte
			for range 10 {
				switch items {
				case "long":
					block = varint.AppendLong(block, r.Int64()>>(7*r.IntN(10)))
				case "double":
					block = binary.LittleEndian.AppendUint64(block, r.Uint64())
				default:
					n := r.IntN(20)
					block = varint.AppendLong(block, int64(n))
					block = append(block, strings.Repeat("x", n)...)
				}
			}
			if sized {
				rec = varint.AppendLong(rec, -10)
				rec = varint.AppendLong(rec, int64(len(block)))
			} else {
				rec = varint.AppendLong(rec, 10)
			}
			rec = append(rec, block...)
		}
		rec = append(rec, 0)
		data[i] = varint.AppendLong(rec, int64(i))
	}
	return rs, data
}
