package avro_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// Random Go types, built with reflect, and random values of them:
// SchemaOf succeeds, and Unmarshal(Marshal(v)) == v.

var leafTypes = []reflect.Type{
	reflect.TypeFor[bool](), reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](),
	reflect.TypeFor[int32](), reflect.TypeFor[int64](), reflect.TypeFor[uint8](),
	reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[float32](),
	reflect.TypeFor[float64](), reflect.TypeFor[string](), reflect.TypeFor[[]byte](), reflect.TypeFor[[4]byte](),
	reflect.TypeFor[[16]byte](), reflect.TypeFor[time.Time](), reflect.TypeFor[time.Duration](), reflect.TypeFor[soCelsius](),
}

func randType(r *rand.Rand, depth int) reflect.Type {
	if depth <= 0 || r.IntN(3) == 0 {
		return leafTypes[r.IntN(len(leafTypes))]
	}
	switch r.IntN(6) {
	case 0:
		return reflect.SliceOf(randType(r, depth-1))
	case 1:
		return reflect.ArrayOf(r.IntN(3), randType(r, depth-1))
	case 2:
		return reflect.MapOf(reflect.TypeFor[string](), randType(r, depth-1))
	case 3:
		if elem := randType(r, depth-1); elem.Kind() != reflect.Pointer {
			return reflect.PointerTo(elem)
		}
		return randType(r, depth-1)
	}
	return randStruct(r, depth-1)
}

func randStruct(r *rand.Rand, depth int) reflect.Type {
	n := r.IntN(5)
	fields := make([]reflect.StructField, n)
	for i := range fields {
		fields[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: randType(r, depth)}
		if r.IntN(3) == 0 {
			fields[i].Tag = reflect.StructTag(fmt.Sprintf(`avro:"f_%d"`, i))
		}
	}
	return reflect.StructOf(fields)
}

func randValue(r *rand.Rand, t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t {
	case reflect.TypeFor[time.Time]():
		// Microseconds: the unit of the schema's timestamp.
		v.Set(reflect.ValueOf(time.UnixMicro(r.Int64N(1<<52) - 1<<51).UTC()))
		return v
	case reflect.TypeFor[time.Duration]():
		v.SetInt(int64(time.Duration(r.Int64N(1<<40)-1<<39) * time.Microsecond))
		return v
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		v.SetInt(int64(r.Uint64()) >> (64 - bits))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := t.Bits()
		if bits == 64 {
			bits = 63 // a long holds these
		}
		v.SetUint(r.Uint64() >> (64 - bits))
	case reflect.Float32:
		v.SetFloat(float64(math.Float32frombits(r.Uint32())))
	case reflect.Float64:
		v.SetFloat(math.Float64frombits(r.Uint64()))
	case reflect.String:
		v.SetString(randString(r))
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte(randString(r)))
			return v
		}
		n := r.IntN(4)
		v.Set(reflect.MakeSlice(t, n, n))
		for i := range n {
			v.Index(i).Set(randValue(r, t.Elem(), depth+1))
		}
	case reflect.Array:
		for i := range t.Len() {
			v.Index(i).Set(randValue(r, t.Elem(), depth+1))
		}
	case reflect.Map:
		n := r.IntN(4)
		v.Set(reflect.MakeMapWithSize(t, n))
		for range n {
			v.SetMapIndex(reflect.ValueOf(randString(r)), randValue(r, t.Elem(), depth+1))
		}
	case reflect.Pointer:
		if r.IntN(3) > 0 {
			v.Set(reflect.New(t.Elem()))
			v.Elem().Set(randValue(r, t.Elem(), depth+1))
		}
	case reflect.Struct:
		for i := range t.NumField() {
			v.Field(i).Set(randValue(r, t.Field(i).Type, depth+1))
		}
	}
	return v
}

func randString(r *rand.Rand) string {
	const alphabet = "abcé€😀\x00\"\\"
	runes := []rune(alphabet)
	b := make([]rune, r.IntN(6))
	for i := range b {
		b[i] = runes[r.IntN(len(runes))]
	}
	return string(b)
}

func TestSchemaOfProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 2026))
	opts := cmp.Options{cmpopts.EquateNaNs(), cmpopts.EquateEmpty()}
	for i := range 300 {
		typ := randStruct(r, 3)
		s, err := avro.SchemaOfType(typ)
		if err != nil {
			t.Fatalf("type %d %v: SchemaOf: %v", i, typ, err)
		}
		if _, err := schema.Parse(s.String()); err != nil {
			t.Fatalf("type %d: the schema does not parse back: %v\n%s", i, err, s)
		}
		for j := range 5 {
			in := randValue(r, typ, 0)
			data, err := avro.Marshal(s, in.Addr().Interface())
			if err != nil {
				t.Fatalf("type %d value %d: Marshal: %v\ntype %v\nschema %s", i, j, err, typ, s)
			}
			out := reflect.New(typ)
			if err := avro.Unmarshal(s, data, out.Interface()); err != nil {
				t.Fatalf("type %d value %d: Unmarshal: %v\nschema %s", i, j, err, s)
			}
			if diff := cmp.Diff(in.Interface(), out.Elem().Interface(), opts); diff != "" {
				t.Fatalf("type %d value %d: round trip (-in +out):\n%s\nschema %s", i, j, diff, s)
			}
		}
	}
}
