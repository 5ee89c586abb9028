package avrojson_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// A logicalCase is one value of a logical type: the Go value avro.Marshal
// is given for it, and the JSON texts of that value in each flavour.
type logicalCase struct {
	s *schema.Schema
	// g is the Go value the texts stand for; nil when no Go value holds
	// it, and then ok says whether reading must accept it.
	g  any
	ok bool
	// exact is false for texts that round the value (digits below the
	// unit of a time): reading refuses those with ErrRange.
	exact bool
	// malformed is true for texts the flavour cannot parse as the type
	// (a uuid on fixed that is neither its text nor 16 bytes): refused
	// with ErrInvalid, as malformed readable text is.
	malformed bool
	// limit is set when avro.Marshal refuses the value with ErrLimit
	// (a scale beyond MaxDecimalScale): reading refuses it so too.
	limit bool
	// big is set for values near the limits of the library (a scale at
	// and past MaxDecimalScale): any step may then refuse with ErrLimit.
	big         bool
	avro, plain []string
	// typed returns a new typed target, or nil when there is none.
	typed func() any
}

// JSON reading accepts a logical value exactly when avro.Marshal accepts
// the Go value it stands for, in every flavour, through JSONToBinary,
// Unmarshal into any, typed targets, struct fields and value.Value, in
// records, unions and streams; what it accepts is the datum avro.Marshal
// writes, which decodes and encodes again to the same bytes. Two
// exceptions are documented choices: readable text with digits below a
// time's unit is refused (Marshal drops them), and the limits of reading
// (ErrLimit) may refuse what Marshal of another Go type does not reach.
// Values at and just past every bound are generated on purpose, random
// ones around them from fixed seeds.
func TestLogicalReadingAgreesWithMarshal(t *testing.T) {
	for _, seed := range []uint64{50, 1, 2, 3} {
		r := rand.New(rand.NewPCG(seed, 7))
		var cases []logicalCase
		cases = append(cases, timestampCases(r)...)
		cases = append(cases, dateCases(r)...)
		cases = append(cases, timeOfDayCases(r)...)
		cases = append(cases, uuidCases(r)...)
		cases = append(cases, durationCases(r)...)
		cases = append(cases, decimalCases(r)...)
		// Each type has values read and values refused, in each flavour.
		seen := map[string]int{}
		for _, c := range cases {
			ok := checkLogicalCase(t, c)
			key := fmt.Sprintf("%s on %s ok %v", c.s.Logical(), c.s.Kind(), ok)
			seen[key+" avro"] += len(c.avro)
			seen[key+" plain"] += len(c.plain)
		}
		for _, l := range []string{"timestamp-millis on long", "timestamp-micros on long", "timestamp-nanos on long",
			"local-timestamp-millis on long", "local-timestamp-micros on long", "local-timestamp-nanos on long",
			"date on int", "time-millis on int", "time-micros on long", "uuid on string", "uuid on fixed",
			"duration on fixed", "decimal on bytes", "decimal on fixed"} {
			for _, k := range []string{" ok true avro", " ok true plain", " ok false avro", " ok false plain"} {
				if seen[l+k] == 0 {
					t.Errorf("seed %d: no case of %s%s", seed, l, k)
				}
			}
		}
	}
}

// checkLogicalCase checks the texts of c and reports whether avro.Marshal
// accepts its value.
func checkLogicalCase(t *testing.T, c logicalCase) bool {
	t.Helper()
	ok := c.ok
	var want []byte
	var merr error
	if c.g != nil {
		want, merr = avro.Marshal(c.s, c.g)
		ok = merr == nil
		c.limit = errors.Is(merr, avro.ErrLimit)
	}
	// The same value held in a value.Value encodes alike.
	var gv *value.Value
	switch g := c.g.(type) {
	case []byte:
		gv = &value.Value{}
		*gv = value.Bytes(g)
	case string:
		if c.s.Kind() == schema.String {
			gv = &value.Value{}
			*gv = value.String(g)
		}
	}
	if gv != nil {
		vb, err := avro.Marshal(c.s, gv)
		if (err == nil) != ok || ok && !bytes.Equal(vb, want) {
			t.Errorf("%s: avro.Marshal(value.Value %v) = %x, %v; avro.Marshal(%v): %x, %v", c.s, *gv, vb, err, c.g, want, merr)
		}
	}
	// Numbers of a decimal's 2100 digits fit.
	plain := avrojson.Plain()
	plain.MaxNumberLength = 4096
	union := schema.MustParse(`["null",` + c.s.String() + `]`)
	rec := schema.MustParse(`{"type":"record","name":"W","fields":[{"name":"f","type":` + c.s.String() + `}]}`)
	for _, f := range []struct {
		name   string
		o      avrojson.Options
		texts  []string
		tagged bool
	}{
		{"avro", avrojson.Options{}, c.avro, true},
		{"plain", plain, c.plain, false},
		// The other options, which read the same texts.
		{"avro logical tags", avrojson.Options{Unions: avrojson.TaggedLogicalUnions}, c.avro, true},
		{"readable tagged", avrojson.Options{Logical: avrojson.ReadableLogical, Bytes: avrojson.Base64Bytes, DecimalStrings: true, MaxNumberLength: 4096}, c.plain, true},
	} {
		for _, text := range f.texts {
			what := fmt.Sprintf("%s %s %s (avro.Marshal(%v): %v)", f.name, c.s, text, c.g, merr)
			bin, err := f.o.JSONToBinary(nil, c.s, []byte(text))
			if agreesWith(t, what+" JSONToBinary", err, ok, c) {
				if want != nil && !bytes.Equal(bin, want) {
					t.Errorf("%s: JSONToBinary wrote %x, avro.Marshal %x", what, bin, want)
				}
				reencodes(t, what, c.s, bin, c.big)
			}
			var a any
			err = f.o.Unmarshal(c.s, []byte(text), &a)
			if timeMicrosOverflow(c.s, bin) {
				// An any holds a time-micros as a time.Duration, as
				// binary decoding does: beyond it is ErrRange both ways.
				if !errors.Is(err, avro.ErrRange) {
					t.Errorf("%s Unmarshal any: %v, want ErrRange as avro.Unmarshal gives", what, err)
				}
			} else if agreesWith(t, what+" Unmarshal any", err, ok, c) {
				sameDatum(t, what+" Unmarshal any", c.s, a, bin, c.big)
			}
			if c.typed != nil {
				p := c.typed()
				err = f.o.Unmarshal(c.s, []byte(text), p)
				if agreesWith(t, fmt.Sprintf("%s Unmarshal %T", what, p), err, ok, c) {
					sameDatum(t, fmt.Sprintf("%s Unmarshal %T", what, p), c.s, p, bin, c.big)
				}
			}
			// A stream of the value twice: a value refused does not stop
			// the stream.
			dec := f.o.NewDecoder(strings.NewReader(text+"\n"+text+"\n"), c.s)
			for i := range 2 {
				var d any
				err = dec.Decode(&d)
				if !timeMicrosOverflow(c.s, bin) && agreesWith(t, fmt.Sprintf("%s Decoder %d", what, i), err, ok, c) {
					sameDatum(t, fmt.Sprintf("%s Decoder %d", what, i), c.s, d, bin, c.big)
				}
			}
			var v value.Value
			err = f.o.Unmarshal(c.s, []byte(text), &v)
			if agreesWith(t, what+" Unmarshal value.Value", err, ok, c) {
				sameDatum(t, what+" Unmarshal value.Value", c.s, &v, bin, c.big)
			}
			// In a union with null, tagged as the flavour writes it.
			in := text
			if f.tagged {
				in = `{"` + c.s.FullName() + `":` + text + `}`
			}
			ub, err := f.o.JSONToBinary(nil, union, []byte(in))
			if agreesWith(t, what+" in a union", err, ok, c) && !bytes.Equal(ub, append([]byte{2}, bin...)) {
				t.Errorf("%s in a union: %x, want 02%x", what, ub, bin)
			}
			if c.typed != nil {
				// In a struct field of the typed target.
				st := reflect.StructOf([]reflect.StructField{{Name: "F", Type: reflect.TypeOf(c.typed()).Elem(), Tag: `avro:"f"`}})
				p := reflect.New(st).Interface()
				err = f.o.Unmarshal(rec, []byte(`{"f":`+text+`}`), p)
				if agreesWith(t, fmt.Sprintf("%s Unmarshal %s", what, st), err, ok, c) {
					sameDatum(t, fmt.Sprintf("%s Unmarshal %s", what, st), rec, p, bin, c.big)
				}
			}
			// In a record, with the field's path in the error.
			var m any
			err = f.o.Unmarshal(rec, []byte(`{"f":`+text+`}`), &m)
			if timeMicrosOverflow(c.s, bin) {
				if !errors.Is(err, avro.ErrRange) {
					t.Errorf("%s in a record: %v, want ErrRange as avro.Unmarshal gives", what, err)
				}
			} else if agreesWith(t, what+" in a record", err, ok, c) {
				sameDatum(t, what+" in a record", rec, m, bin, c.big)
			} else if err != nil {
				var e *avro.Error
				if !errors.As(err, &e) || e.Path != "f" || e.Offset < int64(len(`{"f":`)) {
					t.Errorf("%s in a record: %#v, want the path f and the offset of the value", what, err)
				}
			}
		}
	}
	return ok
}

// agreesWith reports whether err is nil, failing t when reading does not
// agree with avro.Marshal: an accepted value must be accepted, and a
// refused one refused with a typed error (ErrRange when avro.Marshal
// refuses the same value; ErrRange or ErrInvalid when no Go value holds
// it).
func agreesWith(t *testing.T, what string, err error, ok bool, c logicalCase) bool {
	t.Helper()
	switch {
	case c.big && errors.Is(err, avro.ErrLimit):
		// A documented limit of reading, which avro.Marshal of another Go
		// type may not reach.
	case ok && c.exact && err != nil:
		t.Errorf("%s: %v, want accepted as avro.Marshal accepts it", what, err)
	case ok && !c.exact && !errors.Is(err, avro.ErrRange):
		t.Errorf("%s: %v, want ErrRange for digits the type does not hold", what, err)
	case c.limit:
		// avro.Marshal of this Go type reached a limit; reading, which may
		// not need what it bounds (a decimal's bytes need no scale),
		// accepts or reaches it too.
		if err != nil && !errors.Is(err, avro.ErrLimit) && !errors.Is(err, avro.ErrRange) {
			t.Errorf("%s: %v, want ErrLimit, ErrRange or accepted", what, err)
		}
	case !ok && c.malformed && !errors.Is(err, avro.ErrInvalid):
		t.Errorf("%s: %v, want ErrInvalid for text that is not the type's", what, err)
	case !ok && !c.malformed && c.g != nil && !errors.Is(err, avro.ErrRange):
		t.Errorf("%s: %v, want ErrRange as avro.Marshal refuses it", what, err)
	case !ok && !errors.Is(err, avro.ErrRange) && !errors.Is(err, avro.ErrInvalid):
		t.Errorf("%s: %v, want ErrRange or ErrInvalid", what, err)
	}
	return err == nil
}

// reencodes checks that bin decodes with avro.Unmarshal and encodes to
// the same bytes.
func reencodes(t *testing.T, what string, s *schema.Schema, bin []byte, big bool) {
	t.Helper()
	var back any
	target := any(&back)
	if timeMicrosOverflow(s, bin) {
		back = new(int64)
		target = back
	}
	if err := avro.Unmarshal(s, bin, target); err != nil {
		if big && errors.Is(err, avro.ErrLimit) {
			return
		}
		t.Errorf("%s: avro.Unmarshal of the datum JSONToBinary wrote (%x): %v", what, bin, err)
		return
	}
	sameDatum(t, what+" decoded", s, back, bin, big)
}

func sameDatum(t *testing.T, what string, s *schema.Schema, v any, bin []byte, big bool) {
	t.Helper()
	got, err := avro.Marshal(s, v)
	if big && errors.Is(err, avro.ErrLimit) {
		return
	}
	if err != nil || !bytes.Equal(got, bin) {
		t.Errorf("%s: avro.Marshal(%v) = %x, %v; want %x", what, v, got, err, bin)
	}
}

// timeMicrosOverflow reports whether bin is a time-micros beyond
// time.Duration, which decodes into an int64 but not into an any.
func timeMicrosOverflow(s *schema.Schema, bin []byte) bool {
	if s.Logical() != schema.TimeMicros {
		return false
	}
	var v int64
	if avro.Unmarshal(schema.MustParse(`"long"`), bin, &v) != nil {
		return false
	}
	return v > math.MaxInt64/1000 || v < math.MinInt64/1000
}
