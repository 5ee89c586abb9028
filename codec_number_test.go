package avro_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

var numberSchema = schema.MustParse(`{"type":"record","name":"N","fields":[
 {"name":"i","type":"int"},{"name":"l","type":"long"},
 {"name":"f","type":"float"},{"name":"d","type":"double"},
 {"name":"o","type":["null","long"]}]}`)

type numbers struct {
	I json.Number  `avro:"i"`
	L json.Number  `avro:"l"`
	F json.Number  `avro:"f"`
	D json.Number  `avro:"d"`
	O *json.Number `avro:"o"`
}

// json.Number fields take the numbers value.FromAny takes, to the same
// bytes, and read back as the shortest literal of the value.
func TestJSONNumberFields(t *testing.T) {
	o := json.Number("-9223372036854775808")
	v := numbers{I: "-2147483648", L: "9223372036854775807", F: "0.1", D: "1e-320", O: &o}
	got, err := avro.Marshal(numberSchema, &v)
	if err != nil {
		t.Fatal(err)
	}
	generic, err := value.FromAny(numberSchema, map[string]any{
		"i": json.Number("-2147483648"), "l": json.Number("9223372036854775807"),
		"f": json.Number("0.1"), "d": json.Number("1e-320"), "o": json.Number("-9223372036854775808"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want, err := avro.Marshal(numberSchema, &generic)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("Marshal = %x, value.FromAny gives %x", got, want)
	}
	var back numbers
	if err := avro.Unmarshal(numberSchema, got, &back); err != nil {
		t.Fatal(err)
	}
	if back.I != v.I || back.L != v.L || back.F != "0.1" || back.D != "1e-320" || back.O == nil || *back.O != o {
		t.Errorf("read back %+v (o %v), want %+v", back, back.O, v)
	}
}

func TestJSONNumberOutOfRange(t *testing.T) {
	for _, v := range []numbers{
		{I: "2147483648", L: "0", F: "0", D: "0"},
		{I: "0", L: "9223372036854775808", F: "0", D: "0"},
		{I: "0", L: "1.5", F: "0", D: "0"},
		{I: "0", L: "0", F: "1e39", D: "0"},
		{I: "0", L: "0", F: "0", D: "x"},
	} {
		if _, err := avro.Marshal(numberSchema, &v); !errors.Is(err, avro.ErrRange) {
			t.Errorf("Marshal(%+v): %v, want ErrRange", v, err)
		}
	}
}

var numberLogicalSchema = schema.MustParse(`{"type":"record","name":"L","fields":[
 {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
 {"name":"fix","type":{"type":"fixed","name":"F8","size":8,"logicalType":"decimal","precision":12,"scale":3}},
 {"name":"big","type":{"type":"bytes","logicalType":"big-decimal"}},
 {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
 {"name":"day","type":{"type":"int","logicalType":"date"}}]}`)

type numberLogical struct {
	Dec json.Number `avro:"dec"`
	Fix json.Number `avro:"fix"`
	Big json.Number `avro:"big"`
	TS  json.Number `avro:"ts"`
	Day json.Number `avro:"day"`
}

type ratLogical struct {
	Dec *big.Rat `avro:"dec"`
	Fix *big.Rat `avro:"fix"`
	Big *big.Rat `avro:"big"`
	TS  int64    `avro:"ts"`
	Day int32    `avro:"day"`
}

// A json.Number for a decimal is its exact value, written as the
// *big.Rat of that value is; under a timestamp or a date it is the
// underlying count. In a struct field and held in a map[string]any alike,
// and read back in plain digits.
func TestJSONNumberLogical(t *testing.T) {
	rat := func(s string) *big.Rat {
		r, _ := new(big.Rat).SetString(s)
		return r
	}
	v := numberLogical{Dec: "6.17", Fix: "-12.5e1", Big: "1.000e-3", TS: "1733500000000", Day: "20000"}
	want, err := avro.Marshal(numberLogicalSchema, &ratLogical{
		Dec: rat("6.17"), Fix: rat("-125"), Big: rat("0.001"), TS: 1733500000000, Day: 20000,
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := avro.Marshal(numberLogicalSchema, &v)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Marshal struct = % x, %v; want % x", got, err, want)
	}
	m := map[string]any{"dec": v.Dec, "fix": v.Fix, "big": v.Big, "ts": v.TS, "day": v.Day}
	if got, err := avro.Marshal(numberLogicalSchema, m); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Marshal map = % x, %v; want % x", got, err, want)
	}
	var back numberLogical
	if err := avro.Unmarshal(numberLogicalSchema, want, &back); err != nil {
		t.Fatal(err)
	}
	if wantBack := (numberLogical{Dec: "6.17", Fix: "-125.000", Big: "0.001", TS: "1733500000000", Day: "20000"}); back != wantBack {
		t.Errorf("read back %+v, want %+v", back, wantBack)
	}
}

// A json.Number that a decimal cannot hold exactly, or that is not a
// number, is an error, never its text's bytes; an exponent that would
// take a power of ten past MaxDecimalScale is ErrLimit, and is not
// computed.
func TestJSONNumberDecimalErrors(t *testing.T) {
	ok := numberLogical{Dec: "0", Fix: "0", Big: "0", TS: "0", Day: "0"}
	for _, c := range []struct {
		set  func(*numberLogical)
		want error
	}{
		{func(v *numberLogical) { v.Dec = "6.175" }, avro.ErrRange},       // past the scale
		{func(v *numberLogical) { v.Dec = "10000000" }, avro.ErrRange},    // past the precision
		{func(v *numberLogical) { v.Fix = "1e9" }, avro.ErrRange},         // past the precision
		{func(v *numberLogical) { v.Dec = "6,17" }, avro.ErrRange},        // not a number
		{func(v *numberLogical) { v.Big = "0x10" }, avro.ErrRange},        // not a JSON number
		{func(v *numberLogical) { v.Big = "1e999999999" }, avro.ErrLimit}, // 10^999999999 not computed
		{func(v *numberLogical) { v.Dec = "1e-999999999" }, avro.ErrLimit},
		// Digits past MaxDecimalScale are not parsed (in time quadratic
		// in their count); past a decimal's precision they are ErrRange.
		{func(v *numberLogical) { v.Big = json.Number(strings.Repeat("7", 1<<20)) }, avro.ErrLimit},
		{func(v *numberLogical) { v.Dec = json.Number(strings.Repeat("7", 1<<20)) }, avro.ErrRange},
		{func(v *numberLogical) { v.TS = "1.5" }, avro.ErrRange},
	} {
		v := ok
		c.set(&v)
		if _, err := avro.Marshal(numberLogicalSchema, &v); !errors.Is(err, c.want) {
			t.Errorf("Marshal(%+v): %v, want %v", v, err, c.want)
		}
		m := map[string]any{"dec": v.Dec, "fix": v.Fix, "big": v.Big, "ts": v.TS, "day": v.Day}
		if _, err := avro.Marshal(numberLogicalSchema, m); !errors.Is(err, c.want) {
			t.Errorf("Marshal(%v): %v, want %v", m, err, c.want)
		}
	}
}

// In a union a json.Number goes to the branch its text picks, as one held
// in a map[string]any does (an integer literal as an int64, so to a long
// before an int, where value.FromAny takes the first branch that holds
// it): the same bytes from a json.Number, a *json.Number, one at the top
// level and one in a map.
func TestJSONNumberUnions(t *testing.T) {
	unions := []string{
		`["null","int","double"]`,
		`["null","long","double"]`,
		`["null","double","long"]`,
		`["int","long","float"]`,
		`["null",{"type":"bytes","logicalType":"decimal","precision":20,"scale":4},"long"]`,
		`["null",{"type":"bytes","logicalType":"big-decimal"}]`,
	}
	for _, text := range unions {
		u := schema.MustParse(text)
		rec := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"u","type":` + text + `}]}`)
		for _, n := range []json.Number{"1", "-7", "1.25", "1.0", "1e3", "2147483648", "9223372036854775807", "1e-4"} {
			want, wantErr := avro.Marshal(rec, map[string]any{"u": n})
			top, err := avro.Marshal(u, n)
			if wantErr != nil {
				if err == nil {
					t.Errorf("%s %s: top level %x, but %v in a map", text, n, top, wantErr)
				}
				continue
			}
			if err != nil || !bytes.Equal(top, want) {
				t.Errorf("%s %s: top level % x, %v; want % x", text, n, top, err, want)
			}
			field, err := avro.Marshal(rec, &struct {
				U json.Number `avro:"u"`
			}{n})
			if err != nil || !bytes.Equal(field, want) {
				t.Errorf("%s %s: field % x, %v; want % x", text, n, field, err, want)
			}
			if u.Branches()[0].Kind() == schema.Null {
				ptr, err := avro.Marshal(rec, &struct {
					U *json.Number `avro:"u"`
				}{&n})
				if err != nil || !bytes.Equal(ptr, want) {
					t.Errorf("%s %s: pointer % x, %v; want % x", text, n, ptr, err, want)
				}
			}
		}
	}
	// What the unions pick, spelled out.
	for _, c := range []struct {
		union  string
		n      json.Number
		branch int
	}{
		{`["null","int","double"]`, "1", 1},
		{`["null","int","double"]`, "1.25", 2},
		{`["null","int","double"]`, "2147483648", 2},
		{`["null","double","long"]`, "7", 2},
		{`["null",{"type":"bytes","logicalType":"decimal","precision":20,"scale":4},"long"]`, "7", 2},
		{`["null",{"type":"bytes","logicalType":"decimal","precision":20,"scale":4},"long"]`, "7.5", 1},
	} {
		got, err := avro.Marshal(schema.MustParse(c.union), c.n)
		if err != nil || int(got[0]/2) != c.branch {
			t.Errorf("%s %s: % x, %v; want branch %d", c.union, c.n, got, err, c.branch)
		}
	}
}
