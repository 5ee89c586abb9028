package bench

import (
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// The cost of a conversion: rec10 with two of its fields (ts, a long, and
// score, a double) held in Go types of their own that registered
// conversions map, against rec10 itself. The conversions are a field
// access each, so the difference is what the library adds to them.
//
//	BenchmarkConversion/rec=rec10/op=append|decode-new/lib=avrogo  the custom fields
//	BenchmarkConversion/rec=rec10/op=append|decode-new/lib=plain   the plain rec10 (a reference row)
//
// And the cost of a conversion whose Avro-side type is a pointer: a
// record of decimals held in a money type of its own, converted through
// *big.Rat, against the same record of *big.Rat fields.
//
//	BenchmarkConversion/rec=decimal/op=append|decode-new/lib=avrogo  the money fields
//	BenchmarkConversion/rec=decimal/op=append|decode-new/lib=plain   *big.Rat fields (a reference row)

type convStamp struct{ micros int64 }

type convScore struct{ v float64 }

type Rec10Conv struct {
	ID     int32             `avro:"id"`
	TS     convStamp         `avro:"ts"`
	Name   string            `avro:"name"`
	Score  convScore         `avro:"score"`
	Active bool              `avro:"active"`
	Counts []int64           `avro:"counts"`
	Attrs  map[string]string `avro:"attrs"`
	Note   *string           `avro:"note"`
	Digest []byte            `avro:"digest"`
	Inner  Inner             `avro:"inner"`
}

func init() {
	avro.RegisterConversion(avro.Conversion[convStamp, int64]{
		Encode: func(s convStamp) (int64, error) { return s.micros, nil },
		Decode: func(v int64) (convStamp, error) { return convStamp{v}, nil },
	})
	avro.RegisterConversion(avro.Conversion[convScore, float64]{
		Encode: func(s convScore) (float64, error) { return s.v, nil },
		Decode: func(v float64) (convScore, error) { return convScore{v}, nil },
	})
}

// convMoney owns its amount; the conversion hands it over on encode and
// copies the scratch value it is given on decode, as the Conversion doc
// asks.
type convMoney struct{ r *big.Rat }

const convDecimalSchema = `{"type":"record","name":"Amounts","fields":[
  {"name":"net","type":{"type":"bytes","logicalType":"decimal","precision":18,"scale":4}},
  {"name":"tax","type":{"type":"bytes","logicalType":"decimal","precision":18,"scale":4}},
  {"name":"gross","type":{"type":"bytes","logicalType":"decimal","precision":18,"scale":4}}]}`

type convAmounts struct {
	Net   convMoney `avro:"net"`
	Tax   convMoney `avro:"tax"`
	Gross convMoney `avro:"gross"`
}

type ratAmounts struct {
	Net   *big.Rat `avro:"net"`
	Tax   *big.Rat `avro:"tax"`
	Gross *big.Rat `avro:"gross"`
}

func init() {
	avro.RegisterConversion(avro.Conversion[convMoney, *big.Rat]{
		Encode: func(m convMoney) (*big.Rat, error) { return m.r, nil },
		Decode: func(r *big.Rat) (convMoney, error) { return convMoney{new(big.Rat).Set(r)}, nil },
	})
}

func convDecimalPool() ([]ratAmounts, []convAmounts) {
	plain := make([]ratAmounts, poolSize)
	conv := make([]convAmounts, poolSize)
	for i := range plain {
		net := big.NewRat(int64(i)*7919+12345, 10000)
		tax := new(big.Rat).Mul(net, big.NewRat(1, 5))
		tax.SetFrac(new(big.Int).Quo(new(big.Int).Mul(tax.Num(), big.NewInt(10000)), tax.Denom()), big.NewInt(10000))
		gross := new(big.Rat).Add(net, tax)
		plain[i] = ratAmounts{net, tax, gross}
		conv[i] = convAmounts{convMoney{net}, convMoney{tax}, convMoney{gross}}
	}
	return plain, conv
}

func convPool(recs []Rec10) []Rec10Conv {
	out := make([]Rec10Conv, len(recs))
	for i, r := range recs {
		out[i] = Rec10Conv{r.ID, convStamp{r.TS}, r.Name, convScore{r.Score}, r.Active, r.Counts, r.Attrs, r.Note, r.Digest, r.Inner}
	}
	return out
}

func BenchmarkConversion(b *testing.B) {
	releaseWorkloads()
	w := wlRec10(b)
	s := schema.MustParse(rec10Schema)
	conv := convPool(w.recs)
	data := make([][]byte, len(w.recs))
	for i := range w.recs {
		var err error
		if data[i], err = avro.Marshal(s, &w.recs[i]); err != nil {
			b.Fatal(err)
		}
	}
	const mask = poolSize - 1
	run := newRowRunner(b, "rec=rec10")
	run("append", libOurs, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], s, &conv[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("append", libPlain, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], s, &w.recs[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("decode-new", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := new(Rec10Conv)
			if err := avro.Unmarshal(s, data[i&mask], r); err != nil {
				b.Fatal(err)
			}
			sinkAny = r
		}
	})
	run("decode-new", libPlain, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := new(Rec10)
			if err := avro.Unmarshal(s, data[i&mask], r); err != nil {
				b.Fatal(err)
			}
			sinkAny = r
		}
	})

	ds := schema.MustParse(convDecimalSchema)
	plain, money := convDecimalPool()
	ddata := make([][]byte, poolSize)
	for i := range plain {
		var err error
		if ddata[i], err = avro.Marshal(ds, &plain[i]); err != nil {
			b.Fatal(err)
		}
	}
	runDec := func(op, lib string, f func(b *testing.B)) {
		b.Run("rec=decimal/op="+op+"/lib="+lib, func(b *testing.B) {
			b.ReportAllocs()
			f(b)
		})
	}
	runDec("append", libOurs, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], ds, &money[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	runDec("append", libPlain, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], ds, &plain[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	runDec("decode-new", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := new(convAmounts)
			if err := avro.Unmarshal(ds, ddata[i&mask], r); err != nil {
				b.Fatal(err)
			}
			sinkAny = r
		}
	})
	runDec("decode-new", libPlain, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := new(ratAmounts)
			if err := avro.Unmarshal(ds, ddata[i&mask], r); err != nil {
				b.Fatal(err)
			}
			sinkAny = r
		}
	})
}

// The two rows do the same work: the custom struct writes rec10's bytes
// and reads them back to the same values.
func TestConversionParity(t *testing.T) {
	w := wlRec10(t)
	s := schema.MustParse(rec10Schema)
	conv := convPool(w.recs[:64])
	for i := range conv {
		got, err := avro.Marshal(s, &conv[i])
		if err != nil {
			t.Fatal(err)
		}
		want, err := avro.Marshal(s, &w.recs[i])
		if err != nil || string(got) != string(want) {
			t.Fatalf("record %d: the custom struct writes other bytes (%v)", i, err)
		}
		var back Rec10Conv
		if err := avro.Unmarshal(s, want, &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(conv[i], back, cmp.AllowUnexported(convStamp{}, convScore{})); diff != "" {
			t.Fatalf("record %d (-want +got):\n%s", i, diff)
		}
	}
}

// The decimal rows do the same work: the money record writes the bytes
// of the *big.Rat record and reads them back to the same amounts.
func TestConversionDecimalParity(t *testing.T) {
	ds := schema.MustParse(convDecimalSchema)
	plain, money := convDecimalPool()
	for i := range plain[:64] {
		want, err := avro.Marshal(ds, &plain[i])
		if err != nil {
			t.Fatal(err)
		}
		got, err := avro.Marshal(ds, &money[i])
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("record %d: the money record writes %x, the *big.Rat record %x", i, got, want)
		}
		var back convAmounts
		if err := avro.Unmarshal(ds, want, &back); err != nil {
			t.Fatal(err)
		}
		for j, pair := range [][2]*big.Rat{{back.Net.r, plain[i].Net}, {back.Tax.r, plain[i].Tax}, {back.Gross.r, plain[i].Gross}} {
			if pair[0].Cmp(pair[1]) != 0 {
				t.Fatalf("record %d field %d: read %s, want %s", i, j, pair[0].RatString(), pair[1].RatString())
			}
		}
	}
}
