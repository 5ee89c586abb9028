package avro_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// The alias= option matches a schema field by an old name, in Marshal
// and Unmarshal with any schema, and through SchemaOf in resolution.
func TestTagAlias(t *testing.T) {
	type v2 struct {
		FullName string `avro:"full_name,alias=name"`
		Age      int32  `avro:"age"`
	}
	old := schema.MustParse(`{"type":"record","name":"P","fields":[{"name":"name","type":"string"},{"name":"age","type":"int"}]}`)
	data, err := avro.Marshal(old, &v2{FullName: "Ada", Age: 36})
	if err != nil {
		t.Fatal(err)
	}
	var got v2
	if err := avro.Unmarshal(old, data, &got); err != nil || got != (v2{"Ada", 36}) {
		t.Fatalf("Unmarshal with the old schema = %+v, %v", got, err)
	}
	// Resolution: the SchemaOf schema carries the alias, so the writer's
	// old field name resolves to the new one.
	reader, err := avro.SchemaOf[v2](avro.WithName("P"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := schema.Resolve(old, reader)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	got = v2{}
	if err := avro.Unmarshal(r, data, &got); err != nil || got != (v2{"Ada", 36}) {
		t.Fatalf("Unmarshal resolved = %+v, %v", got, err)
	}
}

// inline flattens a named struct field, in all four directions.
func TestTagInline(t *testing.T) {
	type meta struct {
		ID   int64  `avro:"id"`
		Kind string `avro:"kind"`
	}
	type event struct {
		Meta meta   `avro:",inline"`
		Body string `avro:"body"`
	}
	s := schema.MustParse(`{"type":"record","name":"E","fields":[{"name":"id","type":"long"},{"name":"kind","type":"string"},{"name":"body","type":"string"}]}`)
	in := event{Meta: meta{7, "k"}, Body: "b"}
	data, err := avro.Marshal(s, &in)
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{14, 2, 'k', 2, 'b'}; !bytes.Equal(data, want) {
		t.Fatalf("Marshal = %x, want %x", data, want)
	}
	var out event
	if err := avro.Unmarshal(s, data, &out); err != nil || !cmp.Equal(out, in) {
		t.Fatalf("Unmarshal = %+v, %v", out, err)
	}
}

// An inlined pointer to a struct is followed like an embedded one: a nil
// one writes the defaults, and decoding allocates it.
func TestTagInlinePointer(t *testing.T) {
	type extra struct {
		Note string `avro:"note"`
	}
	type rec struct {
		N int32  `avro:"n"`
		X *extra `avro:",inline"`
	}
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"n","type":"int"},{"name":"note","type":"string","default":"-"}]}`)
	data, err := avro.Marshal(s, &rec{N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{2, 2, '-'}; !bytes.Equal(data, want) {
		t.Errorf("Marshal with a nil inlined pointer = %x, want %x (the default)", data, want)
	}
	var out rec
	if err := avro.Unmarshal(s, []byte{2, 4, 'h', 'i'}, &out); err != nil || out.X == nil || out.X.Note != "hi" {
		t.Fatalf("Unmarshal = %+v, %v", out, err)
	}
}

// omitzero writes the schema's default for a zero value, else the tag's,
// else null; with none of these the codec does not compile.
func TestTagOmitZero(t *testing.T) {
	type rec struct {
		A int32     `avro:"a,omitzero"`
		B string    `avro:"b,omitzero,default=\"tag\""`
		C *int32    `avro:"c,omitzero"`
		D time.Time `avro:"d,omitzero"`
	}
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":"int","default":42},
		{"name":"b","type":"string"},
		{"name":"c","type":["int","null"]},
		{"name":"d","type":{"type":"long","logicalType":"timestamp-millis"},"default":0}]}`)
	data, err := avro.Marshal(s, &rec{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{84, 6, 't', 'a', 'g', 2, 0}; !bytes.Equal(data, want) {
		t.Errorf("Marshal(zero) = %x, want %x", data, want)
	}
	seven := int32(7)
	data, err = avro.Marshal(s, &rec{A: 1, B: "x", C: &seven, D: time.UnixMilli(5)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{2, 2, 'x', 0, 14, 10}; !bytes.Equal(data, want) {
		t.Errorf("Marshal(non-zero) = %x, want %x", data, want)
	}
	type noDefault struct {
		A int32 `avro:"a,omitzero"`
	}
	var te *avro.TypeError
	_, err = avro.Marshal(schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`), &noDefault{})
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "omitzero") {
		t.Errorf("omitzero without a default = %v, want a *TypeError", err)
	}
}

// default= is checked against the field's type, fills a Go field the
// schema lacks, and is the SchemaOf default.
func TestTagDefault(t *testing.T) {
	type rec struct {
		N    int32    `avro:"n"`
		Tags []string `avro:"tags,default=[\"x\",\"y\"]"`
		Lvl  string   `avro:"lvl,default=\"info\""`
		Rate float64  `avro:"rate,default=0.5"`
	}
	only := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"n","type":"int"}]}`)
	var got rec
	if err := avro.Unmarshal(only, []byte{2}, &got); err != nil {
		t.Fatal(err)
	}
	if want := (rec{N: 1, Tags: []string{"x", "y"}, Lvl: "info", Rate: 0.5}); !cmp.Equal(got, want) {
		t.Errorf("Unmarshal with a schema lacking the fields = %+v, want %+v", got, want)
	}
	// Resolution through SchemaOf: the writer lacks the fields, the
	// reader's defaults come from the tags.
	reader := avro.MustSchemaOf[rec](avro.WithName("R"))
	r, err := schema.Resolve(only, reader)
	if err != nil {
		t.Fatal(err)
	}
	got = rec{}
	if err := avro.Unmarshal(r, []byte{2}, &got); err != nil || !cmp.Equal(got, rec{N: 1, Tags: []string{"x", "y"}, Lvl: "info", Rate: 0.5}) {
		t.Errorf("Unmarshal resolved = %+v, %v", got, err)
	}
	// Resolution to a reader schema that lacks the fields too.
	r, err = schema.Resolve(only, schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"n","type":"long"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got = rec{}
	if err := avro.Unmarshal(r, []byte{2}, &got); err != nil || !cmp.Equal(got, rec{N: 1, Tags: []string{"x", "y"}, Lvl: "info", Rate: 0.5}) {
		t.Errorf("Unmarshal resolved to a reader without the fields = %+v, %v", got, err)
	}
	// A default that is not a value of the schema field's type.
	type bad struct {
		N int32 `avro:"n,default=\"seven\""`
	}
	var te *avro.TypeError
	if _, err := avro.Marshal(only, &bad{}); !errors.As(err, &te) || !strings.Contains(err.Error(), "default") {
		t.Errorf("Marshal with a bad default = %v, want a *TypeError", err)
	}
	if err := avro.Unmarshal(only, []byte{2}, &bad{}); !errors.As(err, &te) {
		t.Errorf("Unmarshal with a bad default = %v, want a *TypeError", err)
	}
	if _, err := avro.SchemaOf[bad](); !errors.As(err, &te) {
		t.Errorf("SchemaOf with a bad default = %v, want a *TypeError", err)
	}
}

// A logical type in a tag must be the schema field's.
func TestTagLogical(t *testing.T) {
	type rec struct {
		T time.Time `avro:"t,timestamp-micros"`
	}
	micros := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"t","type":{"type":"long","logicalType":"timestamp-micros"}}]}`)
	millis := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"t","type":{"type":"long","logicalType":"timestamp-millis"}}]}`)
	in := rec{T: time.UnixMicro(1234567).UTC()}
	data, err := avro.Marshal(micros, &in)
	if err != nil {
		t.Fatal(err)
	}
	var out rec
	if err := avro.Unmarshal(micros, data, &out); err != nil || !out.T.Equal(in.T) {
		t.Errorf("round trip = %v, %v", out.T, err)
	}
	var te *avro.TypeError
	if _, err := avro.Marshal(millis, &in); !errors.As(err, &te) || !strings.Contains(err.Error(), "timestamp-micros") {
		t.Errorf("Marshal to millis = %v, want a *TypeError naming the tag's type", err)
	}
	if err := avro.Unmarshal(millis, data, &out); !errors.As(err, &te) {
		t.Errorf("Unmarshal from millis = %v, want a *TypeError", err)
	}
	type dec struct {
		D []byte `avro:"d,decimal(10,2)"`
	}
	other := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":3}}]}`)
	if _, err := avro.Marshal(other, &dec{}); !errors.As(err, &te) {
		t.Errorf("decimal(10,2) against decimal(10,3) = %v, want a *TypeError", err)
	}
}

// Bad tags are *TypeErrors when the codec is compiled, never ignored.
func TestTagErrors(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"n","type":"int","default":0}]}`)
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"unknown", &struct {
			N int32 `avro:"n,omitempty"`
		}{}, "omitempty"},
		{"value on a flag", &struct {
			N int32 `avro:"n,omitzero=yes"`
		}{}, "no value"},
		{"missing value", &struct {
			N int32 `avro:"n,doc"`
		}{}, "doc"},
		{"unclosed quote", &struct {
			N int32 `avro:"n,doc='oops"`
		}{}, "quote"},
		{"bad JSON default", &struct {
			N int32 `avro:"n,default={"`
		}{}, "JSON"},
		{"bad decimal", &struct {
			N []byte `avro:"n,decimal(2,5)"`
		}{}, "decimal"},
		{"two logical types", &struct {
			N int64 `avro:"n,date,timestamp-millis"`
		}{}, "two logical"},
		{"inline with a name", &struct {
			N struct{ X int32 } `avro:"n,inline"`
		}{}, "inline"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var te *avro.TypeError
			_, err := avro.Marshal(s, c.v)
			if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Marshal = %v, want a *TypeError with %q", err, c.want)
			}
			if err := avro.Unmarshal(s, []byte{0}, c.v); !errors.As(err, &te) {
				t.Errorf("Unmarshal = %v, want a *TypeError", err)
			}
		})
	}
}
