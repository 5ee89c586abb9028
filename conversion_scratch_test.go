package avro_test

import (
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// Types converted through an A that is not a primitive kind: a *big.Rat,
// a struct and a []byte. Their conversions allocate nothing themselves,
// so every allocation counted is the library's.
type (
	// scratchAmount holds its own *big.Rat, which Encode hands over.
	scratchAmount struct{ r *big.Rat }
	// scratchCents copies what it needs out of the *big.Rat it is given.
	scratchCents struct{ cents int64 }
	// scratchSpan is a duration written as a record of its parts.
	scratchSpan time.Duration
	// scratchTag keeps its bytes in an array, never the slice it is given.
	scratchTag struct {
		n int
		b [8]byte
	}
)

type spanRecord struct {
	Secs  int64 `avro:"secs"`
	Nanos int32 `avro:"nanos"`
}

func init() {
	avro.RegisterConversion(avro.Conversion[scratchAmount, *big.Rat]{
		Encode: func(a scratchAmount) (*big.Rat, error) { return a.r, nil },
		Decode: func(r *big.Rat) (scratchAmount, error) { return scratchAmount{new(big.Rat).Set(r)}, nil },
	})
	avro.RegisterConversion(avro.Conversion[scratchCents, *big.Rat]{
		Encode: func(c scratchCents) (*big.Rat, error) { return big.NewRat(c.cents, 100), nil },
		Decode: func(r *big.Rat) (scratchCents, error) {
			if !r.Denom().IsInt64() || !r.Num().IsInt64() || 100%r.Denom().Int64() != 0 {
				return scratchCents{}, fmt.Errorf("%s is not a whole number of cents", r.RatString())
			}
			return scratchCents{r.Num().Int64() * (100 / r.Denom().Int64())}, nil
		},
	})
	avro.RegisterConversion(avro.Conversion[scratchSpan, spanRecord]{
		Encode: func(s scratchSpan) (spanRecord, error) {
			d := time.Duration(s)
			return spanRecord{int64(d / time.Second), int32(d % time.Second)}, nil
		},
		Decode: func(r spanRecord) (scratchSpan, error) {
			return scratchSpan(time.Duration(r.Secs)*time.Second + time.Duration(r.Nanos)), nil
		},
	})
	avro.RegisterConversion(avro.Conversion[scratchTag, []byte]{
		Encode: nil,
		Decode: func(b []byte) (scratchTag, error) {
			if len(b) > 8 {
				return scratchTag{}, fmt.Errorf("%d bytes is more than 8", len(b))
			}
			t := scratchTag{n: len(b)}
			copy(t.b[:], b)
			return t, nil
		},
	})
}

var (
	scratchDecimal = `{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}`
	scratchSpanRec = `{"type":"record","name":"Span","fields":[{"name":"secs","type":"long"},{"name":"nanos","type":"int"}]}`
)

func scratchSchema(t *testing.T, fieldType string) *schema.Schema {
	t.Helper()
	return schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"v","type":` + fieldType + `}]}`)
}

// A conversion through an A that is not a primitive kind allocates no
// more than the plain field of type A does, on encode and on decode.
func TestConversionScratchAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race (sync.Pool drops items at random)")
	}
	type plainRat struct {
		V *big.Rat `avro:"v"`
	}
	type amount struct {
		V scratchAmount `avro:"v"`
	}
	type cents struct {
		V scratchCents `avro:"v"`
	}
	type plainSpan struct {
		V spanRecord `avro:"v"`
	}
	type span struct {
		V scratchSpan `avro:"v"`
	}
	type plainBytes struct {
		V []byte `avro:"v"`
	}
	type tag struct {
		V scratchTag `avro:"v"`
	}
	buf := make([]byte, 0, 256)
	allocs := func(f func()) float64 { return testing.AllocsPerRun(200, f) }
	encode := func(s *schema.Schema, v any) func() {
		return func() {
			var err error
			if buf, err = avro.Append(buf[:0], s, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	decode := func(s *schema.Schema, data []byte, v any) func() {
		return func() {
			if err := avro.Unmarshal(s, data, v); err != nil {
				t.Fatal(err)
			}
		}
	}

	dec := scratchSchema(t, scratchDecimal)
	r := big.NewRat(12345, 100)
	if plain, conv := allocs(encode(dec, &plainRat{r})), allocs(encode(dec, &amount{scratchAmount{r}})); conv > plain {
		t.Errorf("encode *big.Rat: conversion %v allocations, plain field %v", conv, plain)
	}
	decData, err := avro.Marshal(dec, &plainRat{r})
	if err != nil {
		t.Fatal(err)
	}
	var pr plainRat
	var c cents
	if plain, conv := allocs(decode(dec, decData, &pr)), allocs(decode(dec, decData, &c)); conv > plain {
		t.Errorf("decode *big.Rat: conversion %v allocations, plain field %v", conv, plain)
	}

	sp := scratchSchema(t, scratchSpanRec)
	if n := allocs(encode(sp, &span{scratchSpan(90 * time.Second)})); n != 0 {
		t.Errorf("encode struct A: %v allocations, want 0", n)
	}
	spData, err := avro.Marshal(sp, &plainSpan{spanRecord{90, 5}})
	if err != nil {
		t.Fatal(err)
	}
	var s span
	if n := allocs(decode(sp, spData, &s)); n != 0 {
		t.Errorf("decode struct A: %v allocations, want 0", n)
	}

	by := scratchSchema(t, `"bytes"`)
	netipData, err := avro.Marshal(by, &plainBytes{[]byte{10, 0, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	// The netip.Addr conversion of conversion_test.go encodes through a
	// []byte that AsSlice allocates; its encode is measured against the
	// plain field by the bytes it writes, with a slice of its own.
	if n := allocs(encode(by, &plainBytes{[]byte{1, 2, 3}})); n != 0 {
		t.Errorf("encode plain []byte: %v allocations, want 0", n)
	}
	var pb plainBytes
	var tg tag
	if plain, conv := allocs(decode(by, netipData, &pb)), allocs(decode(by, netipData, &tg)); conv > plain {
		t.Errorf("decode []byte: conversion %v allocations, plain field %v", conv, plain)
	}
}

// A reused scratch A never shows one record's value in another's: a
// Decode that keeps a copy keeps the value it was given, and a struct A
// starts from zero for every value.
func TestConversionScratchDoesNotLeak(t *testing.T) {
	type amount struct {
		V scratchAmount `avro:"v"`
	}
	type amounts struct {
		V []scratchAmount `avro:"v"`
	}
	dec := scratchSchema(t, scratchDecimal)
	var first, second amount
	for _, tc := range []struct {
		v   *big.Rat
		out *amount
	}{{big.NewRat(12345, 100), &first}, {big.NewRat(-7, 1), &second}} {
		data, err := avro.Marshal(dec, &amount{scratchAmount{tc.v}})
		if err != nil {
			t.Fatal(err)
		}
		if err := avro.Unmarshal(dec, data, tc.out); err != nil {
			t.Fatal(err)
		}
	}
	if first.V.r.Cmp(big.NewRat(12345, 100)) != 0 || second.V.r.Cmp(big.NewRat(-7, 1)) != 0 {
		t.Errorf("decoded %s then %s, want 123.45 then -7", first.V.r.RatString(), second.V.r.RatString())
	}
	if first.V.r == second.V.r {
		t.Error("two records share one *big.Rat")
	}

	// Many values in one datum, through one scratch slot.
	list := scratchSchema(t, `{"type":"array","items":`+scratchDecimal+`}`)
	in := amounts{[]scratchAmount{{big.NewRat(1, 100)}, {big.NewRat(250, 1)}, {big.NewRat(-33, 10)}}}
	data, err := avro.Marshal(list, &in)
	if err != nil {
		t.Fatal(err)
	}
	var out amounts
	if err := avro.Unmarshal(list, data, &out); err != nil {
		t.Fatal(err)
	}
	for i := range in.V {
		if out.V[i].r.Cmp(in.V[i].r) != 0 {
			t.Errorf("item %d: %s, want %s", i, out.V[i].r.RatString(), in.V[i].r.RatString())
		}
	}

	// Spans of one array go through one scratch record.
	type spans struct {
		V []scratchSpan `avro:"v"`
	}
	sl := scratchSchema(t, `{"type":"array","items":`+scratchSpanRec+`}`)
	sin := spans{[]scratchSpan{scratchSpan(3*time.Second + 7), scratchSpan(4 * time.Second), 0}}
	sdata, err := avro.Marshal(sl, &sin)
	if err != nil {
		t.Fatal(err)
	}
	var sout spans
	if err := avro.Unmarshal(sl, sdata, &sout); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sout.V) != fmt.Sprint(sin.V) {
		t.Errorf("decoded %v, want %v", sout.V, sin.V)
	}

	// A Decode that copies the bytes it is given keeps them, whatever
	// the next value is.
	type tag struct {
		V scratchTag `avro:"v"`
	}
	by := scratchSchema(t, `"bytes"`)
	var t1, t2 tag
	for _, tc := range []struct {
		b   []byte
		out *tag
	}{{[]byte("abcdef"), &t1}, {[]byte("xy"), &t2}} {
		data, err := avro.Marshal(by, &struct {
			V []byte `avro:"v"`
		}{tc.b})
		if err != nil {
			t.Fatal(err)
		}
		if err := avro.Unmarshal(by, data, tc.out); err != nil {
			t.Fatal(err)
		}
	}
	if got := string(t1.V.b[:t1.V.n]) + "," + string(t2.V.b[:t2.V.n]); got != "abcdef,xy" {
		t.Errorf("decoded %q, want abcdef,xy", got)
	}
}
