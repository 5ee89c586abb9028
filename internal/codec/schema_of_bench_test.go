package codec

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// wide50 is a struct of 50 fields of mixed types.
func wide50() reflect.Type {
	kinds := []reflect.Type{
		reflect.TypeFor[int64](), reflect.TypeFor[string](), reflect.TypeFor[float64](), reflect.TypeFor[bool](),
		reflect.TypeFor[*string](), reflect.TypeFor[[]int32](), reflect.TypeFor[map[string]string](), reflect.TypeFor[time.Time](),
		reflect.TypeFor[[]byte](), reflect.TypeFor[struct {
			A int32
			B string
		}](),
	}
	fields := make([]reflect.StructField, 50)
	for i := range fields {
		fields[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: kinds[i%len(kinds)], Tag: reflect.StructTag(fmt.Sprintf(`avro:"f%d,doc=field %d"`, i, i))}
	}
	return reflect.StructOf(fields)
}

// BenchmarkSchemaOf measures a first call (the derivation, uncached) and a
// later one (the cache) for a struct of 50 fields.
func BenchmarkSchemaOf(b *testing.B) {
	t := wide50()
	b.Run("fields=50/call=first", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			d := newDeriver("bench")
			n, err := d.typeNode(t, &fieldTag{typeName: "Wide"}, "")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := d.build(n, t); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fields=50/call=cached", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := SchemaOf(t, SchemaOptions{Namespace: "bench"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
