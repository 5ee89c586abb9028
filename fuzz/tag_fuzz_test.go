package fuzz

import (
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/avrogo/avro"
)

// FuzzStructTag puts arbitrary avro tags on the fields of a struct type:
// SchemaOf, Marshal and Unmarshal return a schema or a *TypeError, never
// panic, and what SchemaOf derives encodes and decodes the zero value.
func FuzzStructTag(f *testing.F) {
	for _, seed := range []string{
		"n", "-", ",inline", "n,omitzero", "n,default=7", `n,default={"a":[1,2]},doc='x, y'`,
		"n,alias=a,alias=[b,c]", "n,decimal(10,2)", "n,logical=timestamp-micros", "n,typename=T",
		"n,default=", "n,doc='", "n,decimal(3", ",,", "n,uuid,date", `n,default="x"`, "n,omitzero,default=null",
	} {
		f.Add(seed)
	}
	types := []reflect.Type{
		reflect.TypeFor[int32](), reflect.TypeFor[string](), reflect.TypeFor[*int64](), reflect.TypeFor[[]string](),
		reflect.TypeFor[time.Time](), reflect.TypeFor[[8]byte](), reflect.TypeFor[struct{ A int32 }](), reflect.TypeFor[[]byte](),
	}
	f.Fuzz(func(t *testing.T, tag string) {
		for i, ft := range types {
			typ := reflect.StructOf([]reflect.StructField{
				{Name: "F", Type: ft, Tag: reflect.StructTag("avro:" + strconv.Quote(tag))},
				{Name: "G", Type: types[(i+1)%len(types)]},
			})
			s, err := avro.SchemaOfType(typ)
			var te *avro.TypeError
			if err != nil {
				if !errors.As(err, &te) {
					t.Fatalf("SchemaOf(%v) = %v, want a *TypeError", typ, err)
				}
				continue
			}
			zero := reflect.New(typ)
			data, err := avro.Marshal(s, zero.Interface())
			if err != nil {
				t.Fatalf("Marshal(zero %v) with its SchemaOf %s: %v", typ, s, err)
			}
			if err := avro.Unmarshal(s, data, reflect.New(typ).Interface()); err != nil {
				t.Fatalf("Unmarshal(%x) into %v with %s: %v", data, typ, s, err)
			}
		}
	})
}
