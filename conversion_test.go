package avro_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Money is an amount in cents, written as a decimal.
type Money struct{ cents int64 }

// geoPoint is a point with unexported fields, written as a record.
type geoPoint struct{ lat, lng float64 }

type pointRecord struct {
	Lat float64 `avro:"lat"`
	Lng float64 `avro:"lng"`
}

func init() {
	avro.RegisterConversion(avro.Conversion[Money, *big.Rat]{
		Encode: func(m Money) (*big.Rat, error) { return big.NewRat(m.cents, 100), nil },
		Decode: func(r *big.Rat) (Money, error) {
			c := new(big.Rat).Mul(r, big.NewRat(100, 1))
			if !c.IsInt() || !c.Num().IsInt64() {
				return Money{}, fmt.Errorf("%s is not a whole number of cents", r.FloatString(4))
			}
			return Money{c.Num().Int64()}, nil
		},
		Logical: "decimal",
		Schema:  schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}`),
	})
	// netip.Addr has text methods; the conversion takes precedence on
	// the schemas it serves and writes the address's 4 or 16 bytes.
	avro.RegisterConversion(avro.Conversion[netip.Addr, []byte]{
		Encode: func(a netip.Addr) ([]byte, error) { return a.AsSlice(), nil },
		Decode: func(b []byte) (netip.Addr, error) {
			a, ok := netip.AddrFromSlice(b)
			if !ok {
				return a, fmt.Errorf("%d bytes are not an IP address", len(b))
			}
			return a, nil
		},
		AvroType: "bytes",
	})
	avro.RegisterConversion(avro.Conversion[time.Time, string]{
		Encode:    func(t time.Time) (string, error) { return t.Format(time.RFC3339Nano), nil },
		Decode:    func(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) },
		Prop:      "connect.name",
		PropValue: "io.debezium.time.ZonedTimestamp",
	})
	avro.RegisterConversion(avro.Conversion[geoPoint, pointRecord]{
		Encode:   func(p geoPoint) (pointRecord, error) { return pointRecord{p.lat, p.lng}, nil },
		Decode:   func(r pointRecord) (geoPoint, error) { return geoPoint{r.Lat, r.Lng}, nil },
		AvroType: "geo.Point",
		Schema: schema.MustParse(`{"type":"record","name":"Point","namespace":"geo","fields":[
			{"name":"lat","type":"double"},{"name":"lng","type":"double"}]}`),
	})
}

type shipment struct {
	Price   Money      `avro:"price"`
	Costs   []Money    `avro:"costs"`
	From    netip.Addr `avro:"from"`
	Via     *netip.Addr
	Shipped time.Time `avro:"shipped"`
	Where   geoPoint  `avro:"where"`
	Route   []geoPoint
}

const shipmentSchemaText = `{"type":"record","name":"Shipment","fields":[
	{"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}},
	{"name":"costs","type":{"type":"array","items":{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}}%s},
	{"name":"from","type":"bytes"},
	{"name":"Via","type":["null","bytes"],"default":null},
	{"name":"shipped","type":{"type":"string","connect.name":"io.debezium.time.ZonedTimestamp"}},
	{"name":"where","type":{"type":"record","name":"Point","namespace":"geo","fields":[{"name":"lat","type":"double"},{"name":"lng","type":"double"}]}},
	{"name":"Route","type":{"type":"array","items":"geo.Point"}}]}`

var shipmentSchema = schema.MustParse(fmt.Sprintf(shipmentSchemaText, ""))

func sampleShipment() shipment {
	via := netip.MustParseAddr("2001:db8::1")
	return shipment{
		Price:   Money{123456},
		Costs:   []Money{{1}, {-250}},
		From:    netip.MustParseAddr("192.0.2.7"),
		Via:     &via,
		Shipped: time.Date(2026, 12, 3, 10, 4, 5, 123456789, time.FixedZone("", 3600)),
		Where:   geoPoint{52.5, 13.4},
		Route:   []geoPoint{{1, 2}, {3, 4}},
	}
}

var shipmentCmp = cmp.Options{cmp.AllowUnexported(Money{}, geoPoint{}), cmp.Comparer(func(a, b netip.Addr) bool { return a == b }), cmpopts.EquateEmpty()}

func TestConversionRoundTrip(t *testing.T) {
	in := sampleShipment()
	data, err := avro.Marshal(shipmentSchema, &in)
	if err != nil {
		t.Fatal(err)
	}
	// The generic value keeps the Avro values: the decimal, the bytes,
	// the string and the record.
	var generic map[string]any
	if err := avro.Unmarshal(shipmentSchema, data, &generic); err != nil {
		t.Fatal(err)
	}
	if got := generic["price"].(*big.Rat).FloatString(2); got != "1234.56" {
		t.Errorf("price = %s, want 1234.56", got)
	}
	if got := generic["from"].([]byte); !bytes.Equal(got, []byte{192, 0, 2, 7}) {
		t.Errorf("from = %v, want the 4 bytes", got)
	}
	if got := generic["shipped"]; got != "2026-12-03T10:04:05.123456789+01:00" {
		t.Errorf("shipped = %v, want the RFC 3339 text", got)
	}
	if got := generic["where"].(map[string]any)["lat"]; got != 52.5 {
		t.Errorf("where.lat = %v", got)
	}
	var out shipment
	if err := avro.Unmarshal(shipmentSchema, data, &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out, shipmentCmp); diff != "" {
		t.Errorf("round trip (-in +out):\n%s", diff)
	}
	// The JSON encoding serves conversions too.
	text, err := avrojson.Marshal(shipmentSchema, &in)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON shipment
	if err := avrojson.Unmarshal(shipmentSchema, text, &fromJSON); err != nil {
		t.Fatalf("avrojson.Unmarshal(%s): %v", text, err)
	}
	if diff := cmp.Diff(in, fromJSON, shipmentCmp); diff != "" {
		t.Errorf("JSON round trip (-in +out):\n%s", diff)
	}
	// The same through value.Value, which keeps the raw value too.
	var v value.Value
	if err := avro.Unmarshal(shipmentSchema, data, &v); err != nil {
		t.Fatal(err)
	}
	again, err := avro.Marshal(shipmentSchema, v)
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("value.Value re-encoding differs: %v", err)
	}
}

// Resolution reads the writer's data into the reader's schema, whose
// types the conversions then see: an older writer with a float point and
// without costs.
func TestConversionResolution(t *testing.T) {
	writer := schema.MustParse(`{"type":"record","name":"Shipment","fields":[
		{"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}},
		{"name":"from","type":"bytes"},
		{"name":"shipped","type":{"type":"string","connect.name":"io.debezium.time.ZonedTimestamp"}},
		{"name":"where","type":{"type":"record","name":"Point","namespace":"geo","fields":[{"name":"lat","type":"float"},{"name":"lng","type":"float"}]}},
		{"name":"Route","type":{"type":"array","items":"geo.Point"}}]}`)
	reader := schema.MustParse(fmt.Sprintf(shipmentSchemaText, `,"default":["\u0001"]`))
	type old struct {
		Price   Money      `avro:"price"`
		From    netip.Addr `avro:"from"`
		Shipped time.Time  `avro:"shipped"`
		Where   struct {
			Lat float32 `avro:"lat"`
			Lng float32 `avro:"lng"`
		} `avro:"where"`
		Route []struct {
			Lat float32 `avro:"lat"`
			Lng float32 `avro:"lng"`
		}
	}
	in := old{Price: Money{99}, From: netip.MustParseAddr("10.0.0.1"), Shipped: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)}
	in.Where.Lat, in.Where.Lng = 1.5, -2.25
	data, err := avro.Marshal(writer, &in)
	if err != nil {
		t.Fatal(err)
	}
	r, err := schema.Resolve(writer, reader)
	if err != nil {
		t.Fatal(err)
	}
	var out shipment
	if err := avro.Unmarshal(r, data, &out); err != nil {
		t.Fatal(err)
	}
	want := shipment{Price: Money{99}, Costs: []Money{{1}}, From: in.From, Shipped: in.Shipped, Where: geoPoint{1.5, -2.25}}
	if diff := cmp.Diff(want, out, shipmentCmp); diff != "" {
		t.Errorf("resolved (-want +got):\n%s", diff)
	}
}

func TestConversionContainerFile(t *testing.T) {
	var file bytes.Buffer
	w, err := ocf.NewWriter(&file, shipmentSchema, ocf.WithCodec(ocf.CodecDeflate))
	if err != nil {
		t.Fatal(err)
	}
	in := []shipment{sampleShipment(), {From: netip.MustParseAddr("::1"), Shipped: time.Unix(0, 0).UTC()}}
	for i := range in {
		if err := w.Encode(&in[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := ocf.NewReader(&file)
	if err != nil {
		t.Fatal(err)
	}
	var out []shipment
	for s, err := range ocf.Records[shipment](r) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if diff := cmp.Diff(in, out, shipmentCmp); diff != "" {
		t.Errorf("container file (-in +out):\n%s", diff)
	}
}

// Errors of a conversion are *Errors at the field's path that wrap the
// conversion's own error.
func TestConversionErrors(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"from","type":"bytes"}]}`)
	type rec struct {
		From netip.Addr `avro:"from"`
	}
	var ae *avro.Error
	err := avro.Unmarshal(s, []byte{6, 1, 2, 3}, &rec{})
	if !errors.As(err, &ae) || ae.Path != "from" || !errors.Is(err, avro.ErrInvalid) || !strings.Contains(err.Error(), "3 bytes") {
		t.Errorf("Unmarshal of 3 bytes = %v, want an ErrInvalid *Error at from", err)
	}
	type bad struct {
		Price Money `avro:"price"`
	}
	sm := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":12,"scale":3}}]}`)
	data, err := avro.Marshal(sm, &struct {
		Price *big.Rat `avro:"price"`
	}{big.NewRat(1, 1000)})
	if err != nil {
		t.Fatal(err)
	}
	if err := avro.Unmarshal(sm, data, &bad{}); !errors.As(err, &ae) || ae.Path != "price" || !strings.Contains(err.Error(), "cents") {
		t.Errorf("Unmarshal of 0.001 = %v, want the conversion's error at price", err)
	}
	// A conversion restricted to a property does not serve a schema
	// without it: time.Time keeps its text methods there.
	plain := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"t","type":"string"}]}`)
	type ts struct {
		T time.Time `avro:"t"`
	}
	in := ts{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	data, err = avro.Marshal(plain, &in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\x282026-01-02T03:04:05Z"; string(data) != want {
		t.Errorf("time.Time on a plain string = %q, want %q (MarshalText)", data, want)
	}
}

// Of two conversions that match, the more specific wins; of equally
// specific ones, the first registered.
type rankTemp float64

func init() {
	for _, c := range []avro.Conversion[rankTemp, string]{
		{Encode: func(rankTemp) (string, error) { return "any", nil }},
		{Encode: func(rankTemp) (string, error) { return "string", nil }, AvroType: "string"},
		{Encode: func(rankTemp) (string, error) { return "second string", nil }, AvroType: "string"},
		{Encode: func(rankTemp) (string, error) { return "prop", nil }, Prop: "unit", PropValue: "C"},
		{Encode: func(rankTemp) (string, error) { return "prop+type", nil }, Prop: "unit", PropValue: "C", AvroType: "string"},
	} {
		avro.RegisterConversion(c)
	}
}

func TestConversionPrecedence(t *testing.T) {
	cases := []struct{ schema, want string }{
		{`"string"`, "string"},
		{`{"type":"string","unit":"F"}`, "string"},
		{`{"type":"string","unit":"C"}`, "prop+type"},
		{`{"type":"enum","name":"E","symbols":["any","prop"],"unit":"C"}`, "prop"},
		{`{"type":"enum","name":"E","symbols":["any","prop"]}`, "any"},
	}
	for _, c := range cases {
		s := schema.MustParse(c.schema)
		data, err := avro.Marshal(s, rankTemp(1))
		if err != nil {
			t.Errorf("%s: %v", c.schema, err)
			continue
		}
		var got string
		if err := avro.Unmarshal(s, data, &got); err != nil || got != c.want {
			t.Errorf("%s: the conversion that ran wrote %q, %v; want %q", c.schema, got, err, c.want)
		}
	}
}
