package avro_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// A uint, uint64 or uintptr has no schema of its own: a long holds half
// of its values. SchemaOf refuses it wherever it is, and says how to
// choose.
func TestSchemaOfRefusesWideUnsigned(t *testing.T) {
	type line struct {
		Qty map[string][]uint64 `avro:"qty"`
	}
	type order struct {
		Lines []line `avro:"lines"`
	}
	cases := []struct {
		name  string
		of    func() (*schema.Schema, error)
		path  string
		field string // the field the advice names, "" for none
	}{
		{"struct field uint64", of[wrap[uint64]](), "f", "f"},
		{"struct field uint", of[wrap[uint]](), "f", "f"},
		{"struct field uintptr", of[wrap[uintptr]](), "f", "f"},
		{"pointer field", of[wrap[*uint64]](), "f", "f"},
		{"slice element", of[wrap[[]uint]](), "f[]", "f"},
		{"array element", of[wrap[[2]uint64]](), "f[]", "f"},
		{"map value", of[wrap[map[string]uint64]](), "f[]", "f"},
		{"nested in arrays and maps", of[order](), "lines[].qty[][]", "qty"},
		{"top-level", of[uint64](), "", ""},
		{"top-level slice", of[[]uint](), "[]", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.of()
			var te *avro.TypeError
			if !errors.As(err, &te) {
				t.Fatalf("SchemaOf = %v, want a *TypeError", err)
			}
			if te.Path != c.path {
				t.Errorf("path %q, want %q", te.Path, c.path)
			}
			msg := err.Error()
			advice := "`avro:\"name,long\"`"
			if c.field != "" {
				advice = "`avro:\"" + c.field + ",long\"`"
			}
			for _, want := range []string{advice, "ErrRange", "a schema that holds every value"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%v: lacks %q", err, want)
				}
			}
		})
	}
}

// The types whose every value an Avro type holds keep their schemas.
func TestSchemaOfNarrowIntegers(t *testing.T) {
	cases := []struct {
		of   func() (*schema.Schema, error)
		want string
	}{
		{of[uint32](), `"long"`}, {of[uint16](), `"int"`}, {of[uint8](), `"int"`},
		{of[int](), `"long"`}, {of[int64](), `"long"`}, {of[int32](), `"int"`},
	}
	for _, c := range cases {
		s, err := c.of()
		if err != nil {
			t.Fatal(err)
		}
		if got := s.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

type soLongTagged struct {
	ID     uint64            `avro:"id,long"`
	Counts []uint            `avro:"counts,long"`
	ByName map[string]uint64 `avro:"by_name,long"`
	Next   *uintptr          `avro:"next,long"`
	Small  int32             `avro:"small,long"`
}

// With the option long, the field gets a long, every value up to 2^63-1
// round-trips, and Marshal of a larger one is ErrRange at its path.
func TestSchemaOfLongOption(t *testing.T) {
	s, err := avro.SchemaOf[soLongTagged]()
	if err != nil {
		t.Fatal(err)
	}
	want := schema.MustParse(`{"type":"record","name":"soLongTagged","fields":[
		{"name":"id","type":"long"},
		{"name":"counts","type":{"type":"array","items":"long"}},
		{"name":"by_name","type":{"type":"map","values":"long"}},
		{"name":"next","type":["null","long"],"default":null},
		{"name":"small","type":"long"}]}`)
	if s.String() != want.String() {
		t.Fatalf("SchemaOf = %s\nwant %s", s, want)
	}
	next := uintptr(9)
	in := soLongTagged{ID: math.MaxInt64, Counts: []uint{0, math.MaxUint >> 1}, ByName: map[string]uint64{"a": 1}, Next: &next, Small: -3}
	data, err := avro.Marshal(s, &in)
	if err != nil {
		t.Fatal(err)
	}
	var out soLongTagged
	if err := avro.Unmarshal(s, data, &out); err != nil {
		t.Fatal(err)
	}
	if out.ID != in.ID || out.Counts[1] != in.Counts[1] || out.ByName["a"] != 1 || *out.Next != 9 || out.Small != -3 {
		t.Fatalf("round trip gave %+v", out)
	}

	tooBig := []struct {
		v    soLongTagged
		path string
	}{
		{soLongTagged{ID: math.MaxUint64}, "id"},
		{soLongTagged{ID: 1 << 63}, "id"},
		{soLongTagged{ByName: map[string]uint64{"k": math.MaxUint64}}, `by_name["k"]`},
	}
	if math.MaxUint > math.MaxInt64 {
		// A 64-bit uint; a 32-bit one always fits.
		tooBig = append(tooBig, struct {
			v    soLongTagged
			path string
		}{soLongTagged{Counts: []uint{1, math.MaxUint}}, "counts[1]"})
	}
	for _, c := range tooBig {
		_, err := avro.Marshal(s, &c.v)
		var ae *avro.Error
		if !errors.Is(err, avro.ErrRange) || !errors.As(err, &ae) || ae.Path != c.path {
			t.Errorf("Marshal of %+v = %v, want ErrRange at %s", c.v, err, c.path)
		}
	}
}

func TestLongOptionErrors(t *testing.T) {
	type onString struct {
		S string `avro:"s,long"`
	}
	type withLogical struct {
		T int64 `avro:"t,long,timestamp-millis"`
	}
	type longInMarshal struct {
		U uint64 `avro:"u,long"`
	}
	for name, f := range map[string]func() (*schema.Schema, error){"string": of[onString](), "logical": of[withLogical]()} {
		var te *avro.TypeError
		if _, err := f(); !errors.As(err, &te) || !strings.Contains(err.Error(), "long") {
			t.Errorf("%s: %v, want a *TypeError about long", name, err)
		}
	}
	// In Marshal the option asks for a long in the schema, as in SchemaOf.
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"u","type":"string"}]}`)
	var te *avro.TypeError
	if _, err := avro.Marshal(s, &longInMarshal{}); !errors.As(err, &te) || te.Path != "u" {
		t.Errorf("Marshal to a string field: %v, want a *TypeError at u", err)
	}
}

// A tag's default reads into an unsigned field without the option long:
// the default is read as a long, which the field holds or Marshal refuses.
func TestUnsignedTagDefault(t *testing.T) {
	type withDefault struct {
		N int32  `avro:"n"`
		U uint64 `avro:"u,default=7"`
	}
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"n","type":"int"}]}`)
	var out withDefault
	if err := avro.Unmarshal(s, []byte{0x02}, &out); err != nil {
		t.Fatal(err)
	}
	if out.N != 1 || out.U != 7 {
		t.Fatalf("got %+v", out)
	}
}
