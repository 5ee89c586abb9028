package avro_test

import (
	"errors"
	"math/big"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

type schemaOfCase struct {
	name string
	of   func() (*schema.Schema, error)
	want string // the schema, as JSON
}

func of[T any](opts ...avro.SchemaOption) func() (*schema.Schema, error) {
	return func() (*schema.Schema, error) { return avro.SchemaOf[T](opts...) }
}

// wrap puts a type in a record field, which is where most Go types meet
// tags and names.
type wrap[T any] struct {
	F T `avro:"f"`
}

// wrapLong is wrap with the option long.
type wrapLong[T any] struct {
	F T `avro:"f,long"`
}

var schemaOfCases = []schemaOfCase{
	{"bool", of[bool](), `"boolean"`},
	{"int", of[int](), `"long"`},
	{"int8", of[int8](), `"int"`},
	{"int16", of[int16](), `"int"`},
	{"int32", of[int32](), `"int"`},
	{"int64", of[int64](), `"long"`},
	{"uint tagged long", of[wrapLong[uint]](), `{"type":"record","name":"wrapLong_uint","fields":[{"name":"f","type":"long"}]}`},
	{"uint8", of[uint8](), `"int"`},
	{"uint16", of[uint16](), `"int"`},
	{"uint32", of[uint32](), `"long"`},
	{"uint64 tagged long", of[wrapLong[[]uint64]](), `{"type":"record","name":"wrapLong_uint64","fields":[{"name":"f","type":{"type":"array","items":"long"}}]}`},
	{"float32", of[float32](), `"float"`},
	{"float64", of[float64](), `"double"`},
	{"string", of[string](), `"string"`},
	{"bytes", of[[]byte](), `"bytes"`},
	{"named float", of[soCelsius](), `"double"`},
	{"fixed named", of[soMD5](), `{"type":"fixed","name":"soMD5","size":16}`},
	{"fixed unnamed", of[[4]byte](), `{"type":"fixed","name":"fixed_4","size":4}`},
	{"fixed namespaced", of[soMD5](avro.WithNamespace("com.x")), `{"type":"fixed","name":"soMD5","namespace":"com.x","size":16}`},
	{"fixed renamed", of[soMD5](avro.WithName("org.y.Hash")), `{"type":"fixed","name":"Hash","namespace":"org.y","size":16}`},
	{"slice", of[[]int32](), `{"type":"array","items":"int"}`},
	{"array", of[[3]string](), `{"type":"array","items":"string"}`},
	{"nested slices", of[[][]float64](), `{"type":"array","items":{"type":"array","items":"double"}}`},
	{"map", of[map[string]int64](), `{"type":"map","values":"long"}`},
	{"map of slices", of[map[string][]bool](), `{"type":"map","values":{"type":"array","items":"boolean"}}`},
	{"pointer", of[*int32](), `["null","int"]`},
	{"slice of pointers", of[[]*string](), `{"type":"array","items":["null","string"]}`},
	{"time", of[time.Time](), `{"type":"long","logicalType":"timestamp-micros"}`},
	{"duration", of[time.Duration](), `{"type":"long","logicalType":"time-micros"}`},
	{"rat", of[big.Rat](), `{"type":"bytes","logicalType":"big-decimal"}`},
	{"rat pointer", of[*big.Rat](), `["null",{"type":"bytes","logicalType":"big-decimal"}]`},
	{"avro duration", of[avro.Duration](), `{"type":"fixed","name":"Duration","size":12,"logicalType":"duration"}`},
	{"uuid type", of[soUUID](), `{"type":"string","logicalType":"uuid"}`},
	{"text methods", of[netip.Addr](), `"string"`},
	{"binary methods", of[soBinary](), `"bytes"`},
	{"primitives", of[soPrims](), `{"type":"record","name":"soPrims","fields":[
		{"name":"B","type":"boolean"},{"name":"I","type":"long"},{"name":"I8","type":"int"},
		{"name":"I16","type":"int"},{"name":"I32","type":"int"},{"name":"I64","type":"long"},
		{"name":"U","type":"long"},{"name":"U8","type":"int"},{"name":"U16","type":"int"},
		{"name":"U32","type":"long"},{"name":"U64","type":"long"},{"name":"F32","type":"float"},
		{"name":"F64","type":"double"},{"name":"S","type":"string"},{"name":"Bs","type":"bytes"}]}`},
	{"recursive by slice", of[soTree](), `{"type":"record","name":"soTree","fields":[
		{"name":"value","type":"int"},{"name":"children","type":{"type":"array","items":"soTree"}}]}`},
	{"recursive by pointer", of[soList](), `{"type":"record","name":"soList","fields":[
		{"name":"head","type":"long"},{"name":"tail","type":["null","soList"],"default":null}]}`},
	{"nested and reused record", of[soPerson](), `{"type":"record","name":"soPerson","fields":[
		{"name":"name","type":"string"},
		{"name":"home","type":{"type":"record","name":"soAddr","fields":[{"name":"street","type":"string"},{"name":"zip","type":"string"}]}},
		{"name":"work","type":["null","soAddr"],"default":null}]}`},
	{"namespace for the tree", of[soPerson](avro.WithNamespace("com.acme")), `{"type":"record","name":"soPerson","namespace":"com.acme","fields":[
		{"name":"name","type":"string"},
		{"name":"home","type":{"type":"record","name":"soAddr","fields":[{"name":"street","type":"string"},{"name":"zip","type":"string"}]}},
		{"name":"work","type":["null","soAddr"],"default":null}]}`},
	{"root name", of[soAddr](avro.WithName("Address"), avro.WithNamespace("geo")), `{"type":"record","name":"Address","namespace":"geo","fields":[
		{"name":"street","type":"string"},{"name":"zip","type":"string"}]}`},
	{"embedded", of[soEmbedded](), `{"type":"record","name":"soEmbedded","fields":[
		{"name":"id","type":"long"},{"name":"created","type":"string"},{"name":"title","type":"string"}]}`},
	{"embedded pointer", of[soEmbeddedPtr](), `{"type":"record","name":"soEmbeddedPtr","fields":[
		{"name":"id","type":"long"},{"name":"created","type":"string"},{"name":"title","type":"string"}]}`},
	{"inline", of[soInlined](), `{"type":"record","name":"soInlined","fields":[
		{"name":"id","type":"long"},{"name":"created","type":"string"},{"name":"title","type":"string"}]}`},
	{"tags", of[soTagged](), `{"type":"record","name":"soTagged","fields":[
		{"name":"full_name","type":"string","aliases":["name","fullName"],"doc":"The name, in full"},
		{"name":"age","type":"int","default":18},
		{"name":"tags","type":{"type":"array","items":"string"},"default":["a","b"]},
		{"name":"nick","type":["string","null"],"default":"none"},
		{"name":"score","type":"double","default":0},
		{"name":"count","type":"long","default":7},
		{"name":"when","type":{"type":"long","logicalType":"timestamp-micros"},"default":-62135596800000000}]}`},
	{"logical tags", of[soLogical](), `{"type":"record","name":"soLogical","fields":[
		{"name":"millis","type":{"type":"long","logicalType":"timestamp-millis"}},
		{"name":"micros","type":{"type":"long","logicalType":"timestamp-micros"}},
		{"name":"nanos","type":{"type":"long","logicalType":"timestamp-nanos"}},
		{"name":"lmillis","type":{"type":"long","logicalType":"local-timestamp-millis"}},
		{"name":"lmicros","type":{"type":"long","logicalType":"local-timestamp-micros"}},
		{"name":"lnanos","type":{"type":"long","logicalType":"local-timestamp-nanos"}},
		{"name":"date","type":{"type":"int","logicalType":"date"}},
		{"name":"tmillis","type":{"type":"int","logicalType":"time-millis"}},
		{"name":"tmicros","type":{"type":"long","logicalType":"time-micros"}},
		{"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}},
		{"name":"decptr","type":["null",{"type":"bytes","logicalType":"decimal","precision":20,"scale":4}],"default":null},
		{"name":"decfix","type":{"type":"fixed","name":"Money8","size":8,"logicalType":"decimal","precision":18,"scale":3}},
		{"name":"bigdec","type":["null",{"type":"bytes","logicalType":"big-decimal"}],"default":null},
		{"name":"uuidstr","type":{"type":"string","logicalType":"uuid"}},
		{"name":"uuidarr","type":{"type":"string","logicalType":"uuid"}},
		{"name":"uuidtyp","type":{"type":"string","logicalType":"uuid"}},
		{"name":"dur","type":{"type":"fixed","name":"Duration","size":12,"logicalType":"duration"}},
		{"name":"epochms","type":{"type":"long","logicalType":"timestamp-millis"}},
		{"name":"day","type":{"type":"int","logicalType":"date"}}]}`},
	{"registered interface", of[soOwner](), `{"type":"record","name":"soOwner","fields":[
		{"name":"pet","type":["null",{"type":"record","name":"Cat","namespace":"zoo","fields":[{"name":"lives","type":"int"}]},
			{"type":"record","name":"Dog","namespace":"zoo","fields":[{"name":"good","type":"boolean"}]}],"default":null},
		{"name":"pets","type":{"type":"array","items":["null","zoo.Cat","zoo.Dog"]}}]}`},
	{"registered type by its name", of[soCat](), `{"type":"record","name":"Cat","namespace":"zoo","fields":[{"name":"lives","type":"int"}]}`},
	{"generic type", of[soGeneric[int32]](), `{"type":"record","name":"soGeneric_int32","fields":[{"name":"val","type":"int"}]}`},
	{"methods and named kinds", of[soMethods](), `{"type":"record","name":"soMethods","fields":[
		{"name":"addr","type":"string"},{"name":"pre","type":"string"},{"name":"url","type":"bytes"},
		{"name":"temp","type":"double"},{"name":"opt","type":["null","double"],"default":null},
		{"name":"fix","type":{"type":"fixed","name":"soMD5","size":16}},{"name":"fix2","type":"soMD5"},
		{"name":"anon","type":{"type":"record","name":"Anon","fields":[{"name":"X","type":"int"}]}}]}`},
	{"field of a map", of[wrap[map[string]string]](), `{"type":"record","name":"wrap_map_string_string","fields":[{"name":"f","type":{"type":"map","values":"string"}}]}`},
	{"field of pointer to record", of[wrap[*soAddr]](), `{"type":"record","name":"wrap_soAddr","fields":[{"name":"f","type":["null",{"type":"record","name":"soAddr","fields":[{"name":"street","type":"string"},{"name":"zip","type":"string"}]}],"default":null}]}`},
	{"field of fixed array", of[wrap[[2][3]byte]](), `{"type":"record","name":"wrap_2_3_uint8","fields":[{"name":"f","type":{"type":"array","items":{"type":"fixed","name":"fixed_3","size":3}}}]}`},
	{"field of slice of records", of[wrap[[]soCat]](), `{"type":"record","name":"wrap_soCat","fields":[{"name":"f","type":{"type":"array","items":{"type":"record","name":"Cat","namespace":"zoo","fields":[{"name":"lives","type":"int"}]}}}]}`},
	{"field of map of pointers", of[wrap[map[string]*int64]](), `{"type":"record","name":"wrap_map_string_int64","fields":[{"name":"f","type":{"type":"map","values":["null","long"]}}]}`},
	{"field of time pointer", of[wrap[*time.Time]](), `{"type":"record","name":"wrap_Time","fields":[{"name":"f","type":["null",{"type":"long","logicalType":"timestamp-micros"}],"default":null}]}`},
	{"field of bytes slice", of[wrap[[][]byte]](), `{"type":"record","name":"wrap_uint8","fields":[{"name":"f","type":{"type":"array","items":"bytes"}}]}`},
	{"field of empty struct", of[wrap[struct{}]](), `{"type":"record","name":"wrap_struct","fields":[{"name":"f","type":{"type":"record","name":"F","fields":[]}}]}`},
	{"field of uuid pointer", of[wrap[*soUUID]](), `{"type":"record","name":"wrap_soUUID","fields":[{"name":"f","type":["null",{"type":"string","logicalType":"uuid"}],"default":null}]}`},
	{"field of duration array", of[wrap[[]time.Duration]](), `{"type":"record","name":"wrap_Duration","fields":[{"name":"f","type":{"type":"array","items":{"type":"long","logicalType":"time-micros"}}}]}`},
}

func TestSchemaOfTable(t *testing.T) {
	if len(schemaOfCases) < 60 {
		t.Errorf("the table has %d types, want at least 60", len(schemaOfCases))
	}
	for _, c := range schemaOfCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.of()
			if err != nil {
				t.Fatalf("SchemaOf: %v", err)
			}
			want, err := schema.Parse(c.want)
			if err != nil {
				t.Fatalf("the expected schema does not parse: %v", err)
			}
			if got.Canonical() != want.Canonical() {
				t.Errorf("canonical form\n got %s\nwant %s", got.Canonical(), want.Canonical())
			}
			if got.String() != want.String() {
				t.Errorf("schema\n got %s\nwant %s", got, want)
			}
			again, err := c.of()
			if err != nil || again != got {
				t.Errorf("a second call gave %p, %v; want the cached %p", again, err, got)
			}
		})
	}
}

type soAnyField struct {
	Name  string `avro:"name"`
	Extra any    `avro:"extra"`
}

type soBadTag struct {
	N int32 `avro:"n,omitzero,frobnicate"`
}

type soBadLogical struct {
	N string `avro:"n,timestamp-millis"`
}

type soIntMap struct {
	M map[int]string `avro:"m"`
}

type soUnregistered interface{ unregistered() }

type soBadDecimal struct {
	D [8]byte `avro:"d,decimal(20,2)"`
}

type soBadInline struct {
	N int32 `avro:",inline"`
}

func TestSchemaOfErrors(t *testing.T) {
	cases := []struct {
		name string
		of   func() (*schema.Schema, error)
		path string
		want string
	}{
		{"any field", of[soAnyField](), "extra", "empty interface"},
		{"value", of[value.Value](), "", "generic value"},
		{"bad option", of[soBadTag](), "n", "frobnicate"},
		{"bad logical", of[soBadLogical](), "n", "timestamp-millis"},
		{"int map key", of[soIntMap](), "m", "string keys"},
		{"unregistered interface", of[wrap[soUnregistered]](), "f", "registered"},
		{"chan", of[wrap[chan int]](), "f", "chan"},
		{"complex", of[[]complex128](), "[]", "complex128"},
		{"pointer to pointer", of[**int](), "", "pointer to a pointer"},
		{"inline of a non-struct", of[soBadInline](), "N", "inline"},
		{"decimal too wide for its fixed", of[soBadDecimal](), "d", "at most 18"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.of()
			var te *avro.TypeError
			if !errors.As(err, &te) {
				t.Fatalf("SchemaOf = %v, want a *TypeError", err)
			}
			if te.Path != c.path || !strings.Contains(err.Error(), c.want) {
				t.Errorf("SchemaOf = %v (path %q), want path %q and %q in the message", err, te.Path, c.path, c.want)
			}
		})
	}
}
