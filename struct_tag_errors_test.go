package avro_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

type teMoney struct {
	Amount   int64  `avro:"amount"`
	Currency string `avro:"currency,default=EUR"`
}

type teLine struct {
	Price teMoney `avro:"price"`
}

type teOrder struct {
	Lines []teLine `avro:"lines"`
}

type teCount struct {
	N int32 `avro:"n,default=abc"`
}

type teFlag struct {
	On *bool `avro:"on,default=yes"`
}

type teNote struct {
	Text *string `avro:"text,default=hello,doc=x"`
}

type teUntagged struct {
	Code string `avro:",default=EUR"`
}

type teWrongType struct {
	Qty int64 `avro:"qty,default=\"abc\""`
}

type teByID struct {
	ByID map[string][]teWrongType `avro:"by_id"`
}

type teBadOption struct {
	Inner struct {
		GoName int32 `avro:"avro_name,frobnicate"`
	} `avro:"inner"`
}

// Tag errors name the field by its Avro path, the one Marshal's errors
// use: each field by its Avro name (the tag's, else the Go name), []
// for the items of an array and the values of a map. The Go field's name
// is in the message.
func TestTagErrorsNameTheAvroPath(t *testing.T) {
	cases := []struct {
		name string
		of   func() (*schema.Schema, error)
		path string
		want []string
	}{
		{"string default unquoted, nested in an array", of[teOrder](), "lines[].price.currency",
			[]string{`default=EUR is not a JSON value`, `write default="EUR"`, "Go field Currency"}},
		{"string default in a map", of[map[string]teMoney](), "[].currency", []string{`write default="EUR"`}},
		{"untagged name", of[teUntagged](), "Code", []string{`write default="EUR"`}},
		{"pointer to string, more options after", of[teNote](), "text", []string{`default=hello is not`, `write default="hello"`}},
		{"number default not JSON", of[teCount](), "n", []string{`default=abc is not a JSON value`, "a JSON number, such as default=0"}},
		{"bool default not JSON", of[teFlag](), "on", []string{"default=true or default=false"}},
		{"default of the wrong type", of[teWrongType](), "qty", []string{`default="abc" is not a value of the field`, "Go field Qty"}},
		{"default of the wrong type in a map of arrays", of[teByID](), "by_id[][].qty", []string{`default="abc" is not a value of the field`}},
		{"bad option nested", of[teBadOption](), "inner.avro_name", []string{"frobnicate", "Go field GoName"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.of()
			var te *avro.TypeError
			if !errors.As(err, &te) {
				t.Fatalf("SchemaOf = %v, want a *TypeError", err)
			}
			if te.Path != c.path {
				t.Errorf("path %q, want %q (%v)", te.Path, c.path, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v: lacks %q", err, w)
				}
			}
		})
	}
}

// Marshal and Unmarshal report the same tag errors at the same paths.
func TestTagErrorsSamePathInMarshal(t *testing.T) {
	order := schema.MustParse(`{"type":"record","name":"O","fields":[{"name":"lines","type":{"type":"array","items":
		{"type":"record","name":"L","fields":[{"name":"price","type":{"type":"record","name":"M","fields":[
		{"name":"amount","type":"long"},{"name":"currency","type":"string"}]}}]}}}]}`)
	// A schema without qty: Unmarshal fills it from the tag's default.
	byID := schema.MustParse(`{"type":"record","name":"B","fields":[{"name":"by_id","type":{"type":"map","values":
		{"type":"array","items":{"type":"record","name":"W","fields":[{"name":"x","type":"int","default":0}]}}}}]}`)
	_, serr := avro.SchemaOf[teOrder]()
	var ste *avro.TypeError
	if !errors.As(serr, &ste) {
		t.Fatalf("SchemaOf = %v", serr)
	}
	cases := []struct {
		name string
		err  error
		path string
		want string
	}{
		{"Marshal", func() error { _, err := avro.Marshal(order, &teOrder{}); return err }(), ste.Path, `write default="EUR"`},
		{"Unmarshal", avro.Unmarshal(order, []byte{0}, &teOrder{}), ste.Path, `write default="EUR"`},
		{"Unmarshal of a default of the wrong type", avro.Unmarshal(byID, []byte{0}, &teByID{}), "by_id[][].qty", `default="abc" is not a value of the field`},
	}
	for _, c := range cases {
		var te *avro.TypeError
		if !errors.As(c.err, &te) || te.Path != c.path || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s = %v, want a *TypeError at %s with %q", c.name, c.err, c.path, c.want)
		}
	}
}
