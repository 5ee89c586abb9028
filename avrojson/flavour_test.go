package avrojson_test

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

var logicalSchema = schema.MustParse(`{"type":"record","name":"L","namespace":"t","fields":[
	{"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
	{"name":"us","type":{"type":"long","logicalType":"timestamp-micros"}},
	{"name":"ns","type":{"type":"long","logicalType":"timestamp-nanos"}},
	{"name":"local","type":{"type":"long","logicalType":"local-timestamp-millis"}},
	{"name":"day","type":{"type":"int","logicalType":"date"}},
	{"name":"tod","type":{"type":"int","logicalType":"time-millis"}},
	{"name":"todus","type":{"type":"long","logicalType":"time-micros"}},
	{"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
	{"name":"fprice","type":{"type":"fixed","name":"F","size":4,"logicalType":"decimal","precision":9,"scale":3}},
	{"name":"big","type":{"type":"bytes","logicalType":"big-decimal"}},
	{"name":"id","type":{"type":"string","logicalType":"uuid"}},
	{"name":"fid","type":{"type":"fixed","name":"U","size":16,"logicalType":"uuid"}},
	{"name":"dur","type":{"type":"fixed","name":"D","size":12,"logicalType":"duration"}},
	{"name":"opt","type":["null",{"type":"long","logicalType":"timestamp-millis"}]},
	{"name":"raw","type":"bytes"}
]}`)

type logicalRecord struct {
	TS     time.Time     `avro:"ts"`
	US     time.Time     `avro:"us"`
	NS     time.Time     `avro:"ns"`
	Local  time.Time     `avro:"local"`
	Day    time.Time     `avro:"day"`
	TOD    time.Duration `avro:"tod"`
	TODus  time.Duration `avro:"todus"`
	Price  *big.Rat      `avro:"price"`
	FPrice *big.Rat      `avro:"fprice"`
	Big    *big.Rat      `avro:"big"`
	ID     string        `avro:"id"`
	FID    [16]byte      `avro:"fid"`
	Dur    avro.Duration `avro:"dur"`
	Opt    *time.Time    `avro:"opt"`
	Raw    []byte        `avro:"raw"`
}

func sampleLogical() logicalRecord {
	ts := time.Date(2026, 12, 1, 10, 30, 0, 500e6, time.UTC)
	return logicalRecord{
		TS: ts, US: ts.Add(1234 * time.Microsecond), NS: ts.Add(7), Local: ts,
		Day: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), TOD: 10*time.Hour + 30*time.Minute + 500*time.Millisecond,
		TODus: time.Second + time.Microsecond,
		Price: big.NewRat(617, 100), FPrice: big.NewRat(-1, 1000), Big: big.NewRat(-15, 10),
		ID:  "123e4567-e89b-12d3-a456-426614174000",
		FID: [16]byte{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0},
		Dur: avro.Duration{Months: 1, Days: 2, Milliseconds: 3723004},
		Opt: &ts, Raw: []byte{0, 0xff, 'A'},
	}
}

// TestFlavours writes one record of every logical type in each flavour.
func TestFlavours(t *testing.T) {
	v := sampleLogical()
	for _, c := range []struct {
		name string
		o    avrojson.Options
		want string
	}{
		{"spec", avrojson.Options{}, `{"ts":1796121000500,"us":1796121000501234,"ns":1796121000500000007,` +
			`"local":1796121000500,"day":20788,"tod":37800500,"todus":1000001,"price":"\u0002i",` +
			`"fprice":"ÿÿÿÿ","big":"\u0002ñ\u0002","id":"123e4567-e89b-12d3-a456-426614174000",` +
			`"fid":"\u0012>Eg` + "è\u009b" + `\u0012Ó¤VBf\u0014\u0017@\u0000",` +
			`"dur":"\u0001\u0000\u0000\u0000\u0002\u0000\u0000\u0000üÎ8\u0000",` +
			`"opt":{"long":1796121000500},"raw":"\u0000ÿA"}`},
		{"tagged-logical", avrojson.Options{Unions: avrojson.TaggedLogicalUnions}, `"opt":{"long.timestamp-millis":1796121000500}`},
		{"plain", avrojson.Plain(), `{"ts":"2026-12-01T10:30:00.5Z","us":"2026-12-01T10:30:00.501234Z",` +
			`"ns":"2026-12-01T10:30:00.500000007Z","local":"2026-12-01T10:30:00.5","day":"2026-12-01",` +
			`"tod":"10:30:00.500","todus":"00:00:01.000001","price":6.17,"fprice":-0.001,"big":-1.5,` +
			`"id":"123e4567-e89b-12d3-a456-426614174000","fid":"123e4567-e89b-12d3-a456-426614174000",` +
			`"dur":"P1M2DT1H2M3.004S","opt":"2026-12-01T10:30:00.5Z","raw":"AP9B"}`},
		{"decimal-strings", avrojson.Options{Logical: avrojson.ReadableLogical, DecimalStrings: true}, `"price":"6.17","fprice":"-0.001","big":"-1.5"`},
	} {
		got, err := c.o.Marshal(logicalSchema, &v)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.Contains(string(got), c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		var back logicalRecord
		if err := c.o.Unmarshal(logicalSchema, got, &back); err != nil {
			t.Fatalf("%s: Unmarshal(%s): %v", c.name, got, err)
		}
		again, err := c.o.Marshal(logicalSchema, &back)
		if err != nil || string(again) != string(got) {
			t.Errorf("%s: written again as %s, %v", c.name, again, err)
		}
	}
}

// TestReadableAcceptsUnderlying: a reader of readable text takes the
// underlying values too, and text beyond the unit is an error rather than
// a silent truncation.
func TestReadableAcceptsUnderlying(t *testing.T) {
	o := avrojson.Options{Logical: avrojson.ReadableLogical}
	ts := schema.MustParse(`{"type":"long","logicalType":"timestamp-millis"}`)
	var tm time.Time
	if err := o.Unmarshal(ts, []byte(`1796121000500`), &tm); err != nil || tm.UnixMilli() != 1796121000500 {
		t.Errorf("number: %v, %v", tm, err)
	}
	if err := o.Unmarshal(ts, []byte(`"2026-12-01T12:30:00.5+02:00"`), &tm); err != nil || tm.UnixMilli() != 1796121000500 {
		t.Errorf("offset: %v, %v", tm, err)
	}
	if err := o.Unmarshal(ts, []byte(`"2026-12-01T10:30:00.5001Z"`), &tm); !errors.Is(err, avro.ErrRange) {
		t.Errorf("sub-millisecond digits: %v, want ErrRange", err)
	}
	// RFC 3339 allows the T and the Z in lower case.
	for _, in := range []string{`"2026-12-01t10:30:00.5z"`, `"2026-12-01t12:30:00.5+02:00"`, `"2026-12-01T10:30:00.5z"`} {
		if err := o.Unmarshal(ts, []byte(in), &tm); err != nil || tm.UnixMilli() != 1796121000500 {
			t.Errorf("%s: %v, %v", in, tm, err)
		}
	}
	local := schema.MustParse(`{"type":"long","logicalType":"local-timestamp-millis"}`)
	if err := o.Unmarshal(local, []byte(`"2026-12-01t10:30:00.5"`), &tm); err != nil || tm.UnixMilli() != 1796121000500 {
		t.Errorf("local, lower-case t: %v, %v", tm, err)
	}
	if err := o.Unmarshal(local, []byte(`"2026-12-01T10:30:00.5z"`), &tm); !errors.Is(err, avro.ErrInvalid) {
		t.Errorf("local with a zone: %v, want ErrInvalid", err)
	}
	dec := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`)
	var r big.Rat
	for in, want := range map[string]string{`6.17`: "617/100", `"6.17"`: "617/100", `6.1`: "61/10", `617e-2`: "617/100", `-0.5`: "-1/2"} {
		if err := o.Unmarshal(dec, []byte(in), &r); err != nil || r.String() != want {
			t.Errorf("decimal %s: %v, %v; want %s", in, r.String(), err, want)
		}
	}
	// Digits beyond the scale cannot be held, nor digits beyond the
	// precision: reading writes a datum, and avro.Marshal refuses both.
	for _, in := range []string{`6.171`, `100.00`, `1e10`, `1e1000000000`} {
		if err := o.Unmarshal(dec, []byte(in), &r); !errors.Is(err, avro.ErrRange) {
			t.Errorf("decimal %s: %v, want ErrRange", in, err)
		}
	}
	// uuids on fixed and durations: their bytes, as the specification
	// writes them, in either way of writing bytes.
	uuid := schema.MustParse(`{"type":"fixed","name":"U","size":16,"logicalType":"uuid"}`)
	duration := schema.MustParse(`{"type":"fixed","name":"D","size":12,"logicalType":"duration"}`)
	raw := []byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\xff")
	for _, c := range []struct {
		s   *schema.Schema
		bin []byte
	}{{uuid, raw}, {duration, raw[:12]}} {
		for _, bo := range []avrojson.Bytes{avrojson.CodePointBytes, avrojson.Base64Bytes} {
			spec := avrojson.Options{Bytes: bo}
			text, err := spec.BinaryToJSON(nil, c.s, c.bin)
			if err != nil {
				t.Fatal(err)
			}
			readable := avrojson.Options{Logical: avrojson.ReadableLogical, Bytes: bo}
			forPeople, err := readable.BinaryToJSON(nil, c.s, c.bin)
			if err != nil || forPeople[1] == text[1] {
				t.Fatalf("%s: readable %s, %v; spec %s", c.s, forPeople, err, text)
			}
			for _, in := range []string{string(text), string(forPeople)} {
				back, err := readable.JSONToBinary(nil, c.s, []byte(in))
				if err != nil || string(back) != string(c.bin) {
					t.Errorf("%s %s: % x, %v; want % x", c.s, in, back, err, c.bin)
				}
			}
			if _, err := readable.JSONToBinary(nil, c.s, []byte(`"abc"`)); !errors.Is(err, avro.ErrInvalid) {
				t.Errorf("%s \"abc\": %v, want ErrInvalid", c.s, err)
			}
		}
	}
	fixed := schema.MustParse(`{"type":"fixed","name":"F","size":2,"logicalType":"decimal","precision":4,"scale":0}`)
	for in, sentinel := range map[string]error{`9999`: nil, `10000`: avro.ErrRange, `32768`: avro.ErrRange, `1e400`: avro.ErrRange} {
		if err := o.Unmarshal(fixed, []byte(in), &r); !errors.Is(err, sentinel) && (sentinel != nil || err != nil) {
			t.Errorf("fixed(2) decimal %s: %v, want %v", in, err, sentinel)
		}
	}
}

// TestReadableDurations: a duration's text names each designator once and
// in ISO 8601's order, and counts that overflow are ErrRange rather than a
// sum that wraps.
func TestReadableDurations(t *testing.T) {
	o := avrojson.Options{Logical: avrojson.ReadableLogical}
	s := schema.MustParse(`{"type":"fixed","name":"D","size":12,"logicalType":"duration"}`)
	for in, want := range map[string][3]uint32{
		`"P1Y2M3W4DT5H6M7.008S"`: {14, 25, 5*3600000 + 6*60000 + 7008},
		`"PT0S"`:                 {},
		`"P3D"`:                  {0, 3, 0},
		`"PT1193H2M47.295S"`:     {0, 0, math.MaxUint32},
	} {
		bin, err := o.JSONToBinary(nil, s, []byte(in))
		if err != nil || len(bin) != 12 {
			t.Errorf("%s: % x, %v", in, bin, err)
			continue
		}
		got := [3]uint32{binary.LittleEndian.Uint32(bin), binary.LittleEndian.Uint32(bin[4:]), binary.LittleEndian.Uint32(bin[8:])}
		if got != want {
			t.Errorf("%s: %v, want %v", in, got, want)
		}
	}
	for in, sentinel := range map[string]error{
		`"P1M1M"`:            avro.ErrInvalid, // a designator twice
		`"PT1H1H"`:           avro.ErrInvalid,
		`"P1D2M"`:            avro.ErrInvalid, // out of order
		`"PT1S2M"`:           avro.ErrInvalid,
		`"P1DT"`:             avro.ErrInvalid, // T with no time after it
		`"P1DTT1H"`:          avro.ErrInvalid,
		`"P1H"`:              avro.ErrInvalid, // a time designator before T
		`"PT1D"`:             avro.ErrInvalid,
		`"PT1193H2M47.296S"`: avro.ErrRange,
		`"P357913942Y"`:      avro.ErrRange,
		// Repeated counts that a wrapping sum would take for 5 seconds.
		`"PT` + strings.Repeat("999999999999H", 5) + `124095576035H25M56.616S"`: avro.ErrInvalid,
		`"PT999999999999H999999999999M999999999999S"`:                           avro.ErrRange,
	} {
		if _, err := o.JSONToBinary(nil, s, []byte(in)); !errors.Is(err, sentinel) {
			t.Errorf("%.40s: %v, want %v", in, err, sentinel)
		}
	}
}

// TestBareUnions: bare values read back where the JSON type tells the
// branch; where two branches share it, the error names the field.
func TestBareUnions(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":["null","string","long",{"type":"array","items":"int"}]},
		{"name":"b","type":["int","long"]}]}`)
	o := avrojson.Options{Unions: avrojson.BareUnions}
	type R struct {
		A any   `avro:"a"`
		B int64 `avro:"b"`
	}
	got, err := o.Marshal(s, &R{A: "x", B: 5})
	if err != nil || string(got) != `{"a":"x","b":5}` {
		t.Fatalf("Marshal = %s, %v", got, err)
	}
	for in, want := range map[string]any{`"x"`: "x", `7`: int64(7), `null`: nil} {
		text := `{"a":` + in + `,"b":{"long":1}}`
		var r R
		if err := o.Unmarshal(s, []byte(text), &r); err != nil || r.A != want {
			t.Errorf("Unmarshal(%s) = %#v, %v; want %#v", text, r.A, err, want)
		}
	}
	var r R
	err = o.Unmarshal(s, []byte(`{"a":null,"b":5}`), &r)
	var ae *avro.Error
	if !errors.As(err, &ae) || ae.Path != "b" || ae.Offset != 14 || !strings.Contains(err.Error(), "int and long") {
		t.Errorf("ambiguous bare union: %v (%#v); want the path b, offset 14, and the branches", err, ae)
	}
}

// TestBareUnionsReadWhatPlainWrites: Plain reads back what it writes. A
// readable timestamp, date or time outside the range of its text is
// written as its number, which its branch takes; a non-finite double is
// written as a string, which selects the double branch, and is tagged
// where a string branch would take it too. Given bare there, it is an
// error rather than a string.
func TestBareUnionsReadWhatPlainWrites(t *testing.T) {
	plain := avrojson.Plain()
	for _, c := range []struct {
		union string
		bin   []byte
		text  string
	}{
		{`["null",{"type":"long","logicalType":"timestamp-millis"}]`, varint.AppendLong([]byte{2}, 253402300800000), `253402300800000`},
		{`["null",{"type":"int","logicalType":"date"}]`, varint.AppendLong([]byte{2}, -719529), `-719529`},
		{`["null",{"type":"int","logicalType":"time-millis"}]`, varint.AppendLong([]byte{2}, -1), `-1`},
		{`["null","int","double"]`, append([]byte{4}, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f), `"Infinity"`},
		{`["null","double"]`, append([]byte{2}, 1, 0, 0, 0, 0, 0, 0xf8, 0x7f), `"NaN"`},
		{`["null","string","double"]`, append([]byte{4}, 0, 0, 0, 0, 0, 0, 0xf0, 0xff), `{"double":"-Infinity"}`},
		{`["null","string","float"]`, append([]byte{4}, 0, 0, 0xc0, 0x7f), `{"float":"NaN"}`},
		{`["null","string","double"]`, append([]byte{4}, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f), `1.5`},
		{`["null","string"]`, append([]byte{2, 6}, "NaN"...), `"NaN"`},
		// A timestamp written as its number is tagged where a bare
		// number would be the double's.
		{`["null","double",{"type":"long","logicalType":"timestamp-millis"}]`, varint.AppendLong([]byte{4}, math.MaxInt64), `{"long":9223372036854775807}`},
		{`["null","double",{"type":"long","logicalType":"timestamp-millis"}]`, varint.AppendLong([]byte{4}, 0), `"1970-01-01T00:00:00Z"`},
		{`["null","double",{"type":"int","logicalType":"time-millis"}]`, varint.AppendLong([]byte{4}, -1), `{"int":-1}`},
		{`["null","double",{"type":"long","logicalType":"timestamp-millis"}]`, append([]byte{2}, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f), `1.5`},
		{`["null","double",{"type":"long","logicalType":"timestamp-millis"}]`, append([]byte{2}, 0, 0, 0, 0, 0, 0, 0x3e, 0x43), `8444249301319680`},
	} {
		s := schema.MustParse(c.union)
		text, ok := writesText(t, plain, s, c.bin, c.text)
		if !ok {
			continue
		}
		back, err := plain.JSONToBinary(nil, s, text)
		if err != nil || string(back) != string(c.bin) {
			t.Errorf("%s: %s read as % x, %v; want % x", c.union, text, back, err, c.bin)
		}
		var v any
		if err := plain.Unmarshal(s, text, &v); err != nil {
			t.Errorf("%s: %s into any: %v", c.union, text, err)
		} else if again, err := avro.Marshal(s, v); err != nil || string(again) != string(c.bin) {
			t.Errorf("%s: %s into any, %#v, encodes as % x, %v; want % x", c.union, text, v, again, err, c.bin)
		} else if again, err := plain.Marshal(s, v); err != nil || string(again) != c.text {
			t.Errorf("%s: %#v written as %s, %v; want %s", c.union, v, again, err, c.text)
		}
	}
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"t","type":["null",{"type":"long","logicalType":"timestamp-millis"}]}]}`)
	type R struct {
		T *time.Time `avro:"t"`
	}
	tm := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	text, err := plain.Marshal(s, &R{T: &tm})
	var r R
	if err != nil || plain.Unmarshal(s, text, &r) != nil || r.T == nil || !r.T.Equal(tm) {
		t.Errorf("year 10000 in a struct: %s, %v, read as %v", text, err, r.T)
	}
	// A struct's float field in such a union is tagged too.
	type D struct {
		D *float64 `avro:"d"`
	}
	inf := math.Inf(1)
	either := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"d","type":["null","string","double"]}]}`)
	text, err = plain.Marshal(either, &D{D: &inf})
	var d D
	if err != nil || string(text) != `{"d":{"double":"Infinity"}}` || plain.Unmarshal(either, text, &d) != nil || d.D == nil || *d.D != inf {
		t.Errorf("+Inf in a struct: %s, %v, read as %v", text, err, d.D)
	}
	// Bare "NaN" could be the string or the double.
	_, err = plain.JSONToBinary(nil, either, []byte(`{"d":"NaN"}`))
	wantError(t, "NaN for [null,string,double]", err, avro.ErrInvalid, "d", 5)
	if err == nil || !strings.Contains(err.Error(), "string and double") {
		t.Errorf("NaN for [null,string,double]: %v, want the two branches named", err)
	}
	// A struct's timestamp field is tagged as the binary's is.
	type T struct {
		T any `avro:"t"`
	}
	stamp := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"t","type":["null","double",{"type":"long","logicalType":"timestamp-millis"}]}]}`)
	for _, v := range []any{&T{T: tm}, map[string]any{"t": tm}} {
		text, err = plain.Marshal(stamp, v)
		var back T
		if err != nil || string(text) != `{"t":{"long":253402300800000}}` || plain.Unmarshal(stamp, text, &back) != nil || !tm.Equal(asTime(back.T)) {
			t.Errorf("year 10000 in [null,double,timestamp] from %T: %s, %v, read as %#v", v, text, err, back.T)
		}
	}
	if _, err := plain.JSONToBinary(nil, either, []byte(`{"d":`)); !errors.Is(err, avro.ErrTruncated) {
		t.Errorf("text that ends before a bare union's value: %v, want ErrTruncated", err)
	}
}

// writesText checks that o writes the datum bin of s as want.
func writesText(t *testing.T, o avrojson.Options, s *schema.Schema, bin []byte, want string) ([]byte, bool) {
	t.Helper()
	text, err := o.BinaryToJSON(nil, s, bin)
	if err != nil || string(text) != want {
		t.Errorf("%s: wrote %s, %v; want %s", s, text, err, want)
		return text, false
	}
	return text, true
}

func asTime(v any) time.Time {
	tm, _ := v.(time.Time)
	return tm
}

// TestBareUnionsWithObjectBranches: where a record or map branch would
// read a tagged value, Plain cannot tag NaN or a timestamp written as its
// number; it writes them bare, and reading them back is an error that
// names the branches, never another branch's value.
func TestBareUnionsWithObjectBranches(t *testing.T) {
	plain := avrojson.Plain()
	for _, c := range []struct {
		union, branches string
		bin             []byte
		text            string
	}{
		{`["null","double","string",{"type":"map","values":"string"}]`, "double and string",
			append([]byte{2}, 1, 0, 0, 0, 0, 0, 0xf8, 0x7f), `"NaN"`},
		{`["double",{"type":"long","logicalType":"timestamp-millis"},{"type":"map","values":"long"}]`, "double and long",
			varint.AppendLong([]byte{2}, math.MaxInt64), `9223372036854775807`},
		{`["double",{"type":"int","logicalType":"date"},{"type":"record","name":"R","fields":[]}]`, "double and int",
			varint.AppendLong([]byte{2}, -719529), `-719529`},
	} {
		s := schema.MustParse(c.union)
		text, ok := writesText(t, plain, s, c.bin, c.text)
		if !ok {
			continue
		}
		back, err := plain.JSONToBinary(nil, s, text)
		wantError(t, c.union, err, avro.ErrInvalid, "", 0)
		if err == nil || !strings.Contains(err.Error(), c.branches) {
			t.Errorf("%s: %s read as % x, %v; want an error naming %s", c.union, text, back, err, c.branches)
		}
	}
	// Numbers that no other branch would write stay the number branch's.
	s := schema.MustParse(`["double",{"type":"long","logicalType":"timestamp-millis"},{"type":"map","values":"long"}]`)
	for _, text := range []string{`1.5`, `5`, `-1e300`, `99999999999999999999`} {
		bin, err := plain.JSONToBinary(nil, s, []byte(text))
		if err != nil || len(bin) != 9 || bin[0] != 0 {
			t.Errorf("%s: read as % x, %v; want the double", text, bin, err)
		}
	}
}

// TestOptionsOutOfRange: a Unions, Logical or Bytes value that is none
// of their constants is an error from every entry point, and leaves the
// TestTextAsJSONSpellsIt: text is read as JSON spells it. A bare union
// takes an escaped "NaN" for its double as it takes "NaN"; a decimal's
// string is its number alone, without white space; base64 has no line
// breaks, which the decoder would otherwise skip.
func TestTextAsJSONSpellsIt(t *testing.T) {
	plain := avrojson.Plain()
	union := schema.MustParse(`["null","double"]`)
	nan := append([]byte{2}, 1, 0, 0, 0, 0, 0, 0xf8, 0x7f)
	for _, in := range []string{`"NaN"`, `"\u004eaN"`, `"\u004E\u0061\u004E"`, `"-\u0049nfinity"`} {
		bin, err := plain.JSONToBinary(nil, union, []byte(in))
		if err != nil || len(bin) != 9 || bin[0] != 2 {
			t.Errorf("%s: % x, %v; want the double", in, bin, err)
		}
		var v any
		if err := plain.Unmarshal(union, []byte(in), &v); err != nil {
			t.Errorf("%s into any: %v", in, err)
		} else if f, ok := v.(float64); !ok || !math.IsNaN(f) && !math.IsInf(f, -1) {
			t.Errorf("%s into any: %#v", in, v)
		}
	}
	if bin, _ := plain.JSONToBinary(nil, union, []byte(`"\u004eaN"`)); string(bin) != string(nan) {
		t.Errorf("escaped NaN: % x, want % x", bin, nan)
	}
	for _, in := range []string{`"\u004eaNx"`, `"\u004e"`, `"` + strings.Repeat(`\u004e`, 20) + `"`} {
		if _, err := plain.JSONToBinary(nil, union, []byte(in)); !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%.30s: %v, want ErrInvalid", in, err)
		}
	}
	dec := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`)
	for _, in := range []string{`" 6.17"`, `"6.17 "`, `"\t6.17"`, `"\n6.17"`, `"+6.17"`, `""`} {
		if _, err := plain.JSONToBinary(nil, dec, []byte(in)); !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("decimal %s: %v, want ErrInvalid", in, err)
		}
	}
	b64 := avrojson.Options{Bytes: avrojson.Base64Bytes}
	for in, want := range map[string]error{`"AP9B"`: nil, `"AP8"`: nil, `"AP\n9B"`: avro.ErrInvalid, `"AP9B\r\n"`: avro.ErrInvalid, `"AP 9B"`: avro.ErrInvalid} {
		if _, err := b64.JSONToBinary(nil, schema.MustParse(`"bytes"`), []byte(in)); !errors.Is(err, want) && (want != nil || err != nil) {
			t.Errorf("base64 %s: %v, want %v", in, err, want)
		}
	}
}

// TestReadableRejectsWhatItCannotHold: readable text that is malformed, or
// well formed and out of range, is an error; it is not read as the bytes
// its characters also spell, nor rounded.
func TestReadableRejectsWhatItCannotHold(t *testing.T) {
	uuid := schema.MustParse(`{"type":"fixed","name":"U","size":16,"logicalType":"uuid"}`)
	dur := schema.MustParse(`{"type":"fixed","name":"D","size":12,"logicalType":"duration"}`)
	millis := schema.MustParse(`{"type":"long","logicalType":"timestamp-millis"}`)
	nanos := schema.MustParse(`{"type":"long","logicalType":"timestamp-nanos"}`)
	union := schema.MustParse(`["null","double"]`)
	for _, o := range []avrojson.Options{{Logical: avrojson.ReadableLogical}, avrojson.Plain()} {
		for _, c := range []struct {
			s    *schema.Schema
			in   string
			want error
		}{
			// Hyphens only where RFC 4122 puts them.
			{uuid, `"-------------------------00000000000"`, avro.ErrInvalid},
			{uuid, `"00000000-0000-0000-0000-0000000000--"`, avro.ErrInvalid},
			{uuid, `"00000000-0000-0000-0000-00000000000A"`, nil},
			// A duration past its counts, in twelve or sixteen characters.
			{dur, `"P4294967296D"`, avro.ErrRange},
			{dur, `"PT4294967.3S"`, avro.ErrRange},
			{dur, `"P99999999999999D"`, avro.ErrRange},
			{dur, `"PT4294967296000S"`, avro.ErrRange},
			// Digits past the nanosecond, which time.Parse drops.
			{millis, `"2026-01-01T00:00:00.0000000001Z"`, avro.ErrRange},
			{nanos, `"2026-01-01T00:00:00.1234567891Z"`, avro.ErrRange},
			{nanos, `"2026-01-01T00:00:00.1234567890Z"`, nil},
			{nanos, `"2026-01-01T00:00:00.12345678+02:00"`, nil},
			// What RFC 3339 does not have.
			{millis, `"2026-01-01T00:00:00,5Z"`, avro.ErrInvalid},
			{millis, `"2026-01-01T00:00:00+24:00"`, avro.ErrInvalid},
			{millis, `"2026-01-01T00:00:00+23:59"`, nil},
			// A byte that starts no JSON value is a syntax error.
			{union, `]`, avro.ErrInvalid},
			{union, `x`, avro.ErrInvalid},
		} {
			_, err := o.JSONToBinary(nil, c.s, []byte(c.in))
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("%+v %s: %v, want %v", o, c.in, err, c.want)
			}
			var v any
			err = o.Unmarshal(c.s, []byte(c.in), &v)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("%+v %s into any: %v, want %v", o, c.in, err, c.want)
			}
		}
	}
	_, err := avrojson.Plain().JSONToBinary(nil, union, []byte(`x`))
	if err == nil || strings.Contains(err.Error(), "number") {
		t.Errorf("x for a union: %v, want a syntax error", err)
	}
}

// TestBareUnionDecimalsReadBothForms: a decimal branch of a bare union
// reads its number and its string, as a decimal outside a union does,
// where no other branch takes the form.
func TestBareUnionDecimalsReadBothForms(t *testing.T) {
	dec := `{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}`
	quoted := avrojson.Plain()
	quoted.DecimalStrings = true
	want := []byte{2, 4, 2, 105} // branch 1, 617 in two bytes
	for _, o := range []avrojson.Options{avrojson.Plain(), quoted} {
		s := schema.MustParse(`["null",` + dec + `]`)
		for _, in := range []string{`6.17`, `"6.17"`} {
			bin, err := o.JSONToBinary(nil, s, []byte(in))
			if err != nil || string(bin) != string(want) {
				t.Errorf("DecimalStrings %v, %s: % x, %v; want % x", o.DecimalStrings, in, bin, err, want)
			}
			var r *big.Rat
			if err := o.Unmarshal(s, []byte(in), &r); err != nil || r == nil || r.String() != "617/100" {
				t.Errorf("DecimalStrings %v, %s into *big.Rat: %v, %v", o.DecimalStrings, in, r, err)
			}
		}
	}
	// A string branch keeps the strings.
	withString := schema.MustParse(`["null","string",` + dec + `]`)
	if bin, err := avrojson.Plain().JSONToBinary(nil, withString, []byte(`"6.17"`)); err != nil || bin[0] != 2 {
		t.Errorf("\"6.17\" with a string branch: % x, %v; want the string", bin, err)
	}
	// A timestamp written as its number is tagged where the decimal
	// would read the number too, and a bare number is either's.
	both := schema.MustParse(`["null",` + dec + `,{"type":"long","logicalType":"timestamp-millis"}]`)
	bin := varint.AppendLong([]byte{4}, math.MaxInt64)
	text, err := quoted.BinaryToJSON(nil, both, bin)
	if err != nil || string(text) != `{"long":9223372036854775807}` {
		t.Errorf("MaxInt64 timestamp beside a decimal string: %s, %v", text, err)
	}
	if back, err := quoted.JSONToBinary(nil, both, text); err != nil || string(back) != string(bin) {
		t.Errorf("%s read back: % x, %v; want % x", text, back, err, bin)
	}
	_, err = quoted.JSONToBinary(nil, both, []byte(`9223372036854775807`))
	if !errors.Is(err, avro.ErrInvalid) || !strings.Contains(err.Error(), "bytes and long") {
		t.Errorf("a bare number beside a decimal string and a timestamp: %v, want the ambiguity of both", err)
	}
}

// schema's programs of the valid styles as they are.
func TestOptionsOutOfRange(t *testing.T) {
	s := schema.MustParse(`{"type":"long","logicalType":"timestamp-millis"}`)
	for _, o := range []avrojson.Options{{Unions: 3}, {Unions: 4}, {Unions: 34}, {Logical: 2}, {Bytes: 2}} {
		calls := map[string]error{}
		_, calls["Marshal"] = o.Marshal(s, int64(0))
		_, calls["BinaryToJSON"] = o.BinaryToJSON(nil, s, []byte{0})
		_, calls["JSONToBinary"] = o.JSONToBinary(nil, s, []byte(`0`))
		calls["Unmarshal"] = o.Unmarshal(s, []byte(`0`), new(int64))
		calls["Encode"] = o.NewEncoder(io.Discard, s).Encode(int64(0))
		calls["Decode"] = o.NewDecoder(strings.NewReader(`0`), s).Decode(new(int64))
		for call, err := range calls {
			if err == nil || !strings.Contains(err.Error(), "none of the") {
				t.Errorf("%+v: %s: %v, want an error naming the option", o, call, err)
			}
		}
	}
	for _, o := range []avrojson.Options{{}, avrojson.Plain(), {Logical: avrojson.ReadableLogical}} {
		want := `0`
		if o.Logical == avrojson.ReadableLogical {
			want = `"1970-01-01T00:00:00Z"`
		}
		if out, err := o.BinaryToJSON(nil, s, []byte{0}); err != nil || string(out) != want {
			t.Errorf("%+v after the bad options: %s, %v; want %s", o, out, err, want)
		}
	}
}
