package avro_test

import (
	"errors"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// Types of the kind a user's packages define, converted to types the
// library maps, by conversions restricted to a logical type.

// cvDecimal is a decimal number kept as its exact rational text, as a
// decimal package's type keeps its digits.
type cvDecimal struct{ rat string }

func mustDecimal(s string) cvDecimal {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return cvDecimal{r.RatString()}
}

// cvInstant is a point in time in microseconds.
type cvInstant struct{ micros int64 }

// cvID is a 128-bit identifier.
type cvID struct{ hi, lo uint64 }

func init() {
	avro.RegisterConversion(avro.Conversion[cvDecimal, *big.Rat]{
		Logical: "decimal",
		Encode: func(d cvDecimal) (*big.Rat, error) {
			r, ok := new(big.Rat).SetString(d.rat)
			if !ok {
				return nil, fmt.Errorf("bad decimal %q", d.rat)
			}
			return r, nil
		},
		Decode: func(r *big.Rat) (cvDecimal, error) { return cvDecimal{r.RatString()}, nil },
	})
	avro.RegisterConversion(avro.Conversion[cvInstant, time.Time]{
		Logical: "timestamp-micros",
		Encode:  func(i cvInstant) (time.Time, error) { return time.UnixMicro(i.micros).UTC(), nil },
		Decode:  func(t time.Time) (cvInstant, error) { return cvInstant{t.UnixMicro()}, nil },
	})
	avro.RegisterConversion(avro.Conversion[cvID, string]{
		Logical: "uuid",
		Encode: func(id cvID) (string, error) {
			return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", id.hi>>32, id.hi>>16&0xffff, id.hi&0xffff, id.lo>>48, id.lo&0xffffffffffff), nil
		},
		Decode: func(s string) (cvID, error) {
			var a, b, c, d, e uint64
			if _, err := fmt.Sscanf(s, "%08x-%04x-%04x-%04x-%012x", &a, &b, &c, &d, &e); err != nil {
				return cvID{}, err
			}
			return cvID{a<<32 | b<<16 | c, d<<48 | e}, nil
		},
	})
}

type cvInvoice struct {
	Amount cvDecimal  `avro:"amount,decimal(18,4)"`
	Tax    *cvDecimal `avro:"tax,decimal(10,2)"`
	At     cvInstant  `avro:"at,timestamp-micros"`
	ID     cvID       `avro:"id,uuid"`
}

const cvInvoiceSchema = `{"type":"record","name":"cvInvoice","fields":[
	{"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":18,"scale":4}},
	{"name":"tax","type":["null",{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}],"default":null},
	{"name":"at","type":{"type":"long","logicalType":"timestamp-micros"}},
	{"name":"id","type":{"type":"string","logicalType":"uuid"}}]}`

// A tag means the same in SchemaOf as in Marshal: a converted type's
// field gets the logical type its tag names, with per-field precision and
// scale, and the conversion serves the schema SchemaOf returns.
func TestSchemaOfConversionWithLogicalTag(t *testing.T) {
	hand := schema.MustParse(cvInvoiceSchema)
	got, err := avro.SchemaOf[cvInvoice]()
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != hand.String() {
		t.Fatalf("SchemaOf = %s\nwant %s", got, hand)
	}
	tax := mustDecimal("1.25")
	in := cvInvoice{Amount: mustDecimal("-12345.6789"), Tax: &tax, At: cvInstant{1_700_000_000_123_456}, ID: cvID{0x0123456789abcdef, 0x8877665544332211}}
	fromHand, err := avro.Marshal(hand, &in)
	if err != nil {
		t.Fatal(err)
	}
	fromDerived, err := avro.Marshal(got, &in)
	if err != nil {
		t.Fatal(err)
	}
	if string(fromHand) != string(fromDerived) {
		t.Fatalf("Marshal with the derived schema % x, with the hand-written one % x", fromDerived, fromHand)
	}
	var out cvInvoice
	if err := avro.Unmarshal(got, fromDerived, &out); err != nil {
		t.Fatal(err)
	}
	if out.Amount != in.Amount || out.Tax == nil || *out.Tax != tax || out.At != in.At || out.ID != in.ID {
		t.Fatalf("round trip gave %+v, want %+v", out, in)
	}
	// The scale is the field's: the tax's 2 digits refuse a third.
	third := mustDecimal("1.255")
	in.Tax = &third
	if _, err := avro.Marshal(got, &in); !errors.Is(err, avro.ErrRange) {
		t.Fatalf("Marshal of a tax of 3 decimals = %v, want ErrRange", err)
	}
}

// A tag whose logical type no conversion of the type serves is refused by
// SchemaOf, as Marshal refuses it with the hand-written schema.
func TestSchemaOfConversionOtherLogicalTag(t *testing.T) {
	type millis struct {
		At cvInstant `avro:"at,timestamp-millis"`
	}
	type asDate struct {
		Amount cvDecimal `avro:"amount,date"`
	}
	for name, c := range map[string]struct {
		of   func() (*schema.Schema, error)
		hand string
		v    any
	}{
		"timestamp-millis": {of[millis](), `{"type":"record","name":"R","fields":[{"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}}]}`, &millis{}},
		"date":             {of[asDate](), `{"type":"record","name":"R","fields":[{"name":"amount","type":{"type":"int","logicalType":"date"}}]}`, &asDate{}},
	} {
		var te *avro.TypeError
		if _, err := c.of(); !errors.As(err, &te) {
			t.Errorf("%s: SchemaOf = %v, want a *TypeError", name, err)
		}
		if _, err := avro.Marshal(schema.MustParse(c.hand), c.v); !errors.As(err, &te) {
			t.Errorf("%s: Marshal = %v, want a *TypeError", name, err)
		}
	}
}
