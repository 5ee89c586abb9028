package codec

import (
	"errors"
	"reflect"
	"testing"

	"github.com/avrogo/avro/schema"
)

type compileLine struct {
	SKU   string            `avro:"sku"`
	Qty   int32             `avro:"qty"`
	Attrs map[string]string `avro:"attrs"`
}

type compileOrder struct {
	ID    int64         `avro:"id"`
	Lines []compileLine `avro:"lines"`
	Note  *string       `avro:"note"`
}

const compileOrderSchema = `{"type":"record","name":"Order","fields":[
	{"name":"id","type":"long"},
	{"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[
		{"name":"sku","type":"string"},
		{"name":"qty","type":"int"},
		{"name":"attrs","type":{"type":"map","values":"string"}}]}}},
	{"name":"note","type":["null","string"],"default":null}]}`

// compilesDuring returns how many codecs f compiled.
func compilesDuring(f func()) int64 {
	before := compilations.Load()
	f()
	return compilations.Load() - before
}

func TestCompileLeavesNothingToCompile(t *testing.T) {
	note := "fragile"
	in := compileOrder{ID: 7, Lines: []compileLine{{SKU: "a", Qty: 2, Attrs: map[string]string{"c": "red"}}}, Note: &note}
	cases := []struct {
		name string
		t    reflect.Type
		use  func(t *testing.T, s *schema.Schema)
	}{
		{"struct", reflect.TypeFor[compileOrder](), func(t *testing.T, s *schema.Schema) {
			data, err := Marshal(s, &in)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Marshal(s, in); err != nil {
				t.Fatal(err)
			}
			var out compileOrder
			if err := Unmarshal(s, data, &out); err != nil {
				t.Fatal(err)
			}
			if out.ID != in.ID || len(out.Lines) != 1 || out.Lines[0].Attrs["c"] != "red" || out.Note == nil || *out.Note != note {
				t.Fatalf("round trip gave %+v", out)
			}
		}},
		{"pointer", reflect.TypeFor[*compileOrder](), func(t *testing.T, s *schema.Schema) {
			p := &in
			data, err := Marshal(s, p)
			if err != nil {
				t.Fatal(err)
			}
			var out *compileOrder
			if err := Unmarshal(s, data, &out); err != nil {
				t.Fatal(err)
			}
			if out == nil || out.ID != in.ID {
				t.Fatalf("round trip gave %+v", out)
			}
			into := new(compileOrder)
			if err := Unmarshal(s, data, into); err != nil || into.ID != in.ID {
				t.Fatalf("into *T: %+v, %v", into, err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := schema.MustParse(compileOrderSchema)
			if n := compilesDuring(func() {
				if err := Compile(s, c.t); err != nil {
					t.Fatal(err)
				}
			}); n == 0 {
				t.Fatal("Compile compiled nothing")
			}
			if n := compilesDuring(func() { c.use(t, s) }); n != 0 {
				t.Fatalf("Marshal and Unmarshal after Compile compiled %d codecs", n)
			}
		})
	}
}

func TestCompileUnfitType(t *testing.T) {
	s := schema.MustParse(compileOrderSchema)
	type badLine struct {
		SKU int `avro:"sku"`
	}
	type bad struct {
		ID    string    `avro:"id"`
		Lines []badLine `avro:"lines"`
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[bad](), reflect.TypeFor[[]string](), reflect.TypeFor[*map[string]int]()} {
		err := Compile(s, typ)
		var te *TypeError
		if !errors.As(err, &te) {
			t.Fatalf("Compile of %s: %v, want a *TypeError", typ, err)
		}
		_, merr := Marshal(s, reflect.New(typ).Interface())
		if merr == nil || merr.Error() != err.Error() {
			t.Fatalf("Compile of %s: %v; Marshal: %v", typ, err, merr)
		}
	}
}
