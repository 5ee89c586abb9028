package e2e

import (
	"context"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

type Address struct {
	Street string `avro:"street"`
	Zip    string `avro:"zip"`
}

type Shipment struct {
	ID   int64    `avro:"id"`
	To   Address  `avro:"to"`
	From *Address `avro:"from"`
	Tags []string `avro:"tags"`
}

// A schema whose record types come from a Go type is registered as a
// reference graph: Address under a subject of its own, then Shipment
// referring to it. The registry holds Shipment with Address named, not
// defined, and a consumer that knows neither reads it back through the
// references.
func TestReferenceGraph(t *testing.T) {
	ctx := context.Background()
	reg, rc := newRegistry(t)
	addr, err := avro.SchemaOf[Address](avro.WithNamespace("shop"))
	if err != nil {
		t.Fatal(err)
	}
	ship, err := avro.SchemaOf[Shipment](avro.WithNamespace("shop"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Register(ctx, "shop.Address", addr); err != nil {
		t.Fatal(err)
	}
	ser, err := kafka.NewRegistrySerializer(ctx, rc, "shipments", ship, kafka.SerializerConfig{
		References: []registry.Reference{{Name: "shop.Address", Subject: "shop.Address", Version: 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	held, ok := reg.GetSchema("shipments-value", 1)
	if !ok {
		t.Fatal("no shipments-value version 1")
	}
	if want := ship.StringReferring("shop.Address"); held.Schema.Schema != want || len(held.References) != 1 {
		t.Errorf("the registry holds\n%s (references %v)\nwant\n%s", held.Schema.Schema, held.References, want)
	}

	in := Shipment{ID: 4, To: Address{"Dam 1", "1012"}, From: &Address{"Rue 2", "75001"}, Tags: []string{"fragile"}}
	msg, err := ser.Marshal(&in)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := registry.NewClient(reg.URL())
	if err != nil {
		t.Fatal(err)
	}
	var out Shipment
	if err := kafka.NewDeserializer(fresh, nil).Unmarshal(ctx, msg, &out); err != nil {
		t.Fatal(err)
	}
	if out.ID != in.ID || out.To != in.To || out.From == nil || *out.From != *in.From || len(out.Tags) != 1 {
		t.Errorf("read back %+v, want %+v", out, in)
	}
	// The same through the GUID the registry gave the schema.
	byGUID, err := kafka.NewRegistrySerializer(ctx, rc, "shipments", ship, kafka.SerializerConfig{
		GUID:       true,
		References: []registry.Reference{{Name: "shop.Address", Subject: "shop.Address", Version: 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if byGUID.SchemaID().String() != held.GUID {
		t.Errorf("GUID %v, the registry's is %s", byGUID.SchemaID(), held.GUID)
	}
	if msg, err = byGUID.Marshal(&in); err != nil {
		t.Fatal(err)
	}
	out = Shipment{}
	if err := kafka.NewDeserializer(fresh, nil).Unmarshal(ctx, msg, &out); err != nil || out.To != in.To {
		t.Errorf("by GUID: %+v, %v", out, err)
	}
}

// Contexts: a subject qualified as ":.ctx:subject" lives in that context,
// and a client whose URL is the context's (/contexts/.ctx) finds its ids
// and not those of another context.
func TestContexts(t *testing.T) {
	ctx := context.Background()
	reg, rc := newRegistry(t)
	inCtx := func(topic string, _ bool, _ *schema.Schema) string { return ":.staging:" + topic + "-value" }
	ser, err := kafka.NewRegistrySerializer(ctx, rc, "orders", OrderV2Schema, kafka.SerializerConfig{Subject: inCtx})
	if err != nil {
		t.Fatal(err)
	}
	other, err := rc.Register(ctx, "payments-value", OrderV1Schema)
	if err != nil {
		t.Fatal(err)
	}
	subjects, err := rc.Subjects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range subjects {
		found = found || s == ":.staging:orders-value"
	}
	if !found {
		t.Errorf("subjects %v lack :.staging:orders-value", subjects)
	}
	staging, err := registry.NewClient(reg.URL() + "/contexts/.staging")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := staging.SchemaByID(ctx, ser.ID()); err != nil || s.String() != OrderV2Schema.String() {
		t.Errorf("id %d in its context: %v, %v", ser.ID(), s, err)
	}
	if _, err := staging.SchemaByID(ctx, other); err == nil {
		t.Errorf("id %d of the default context found in .staging", other)
	}
	msg, err := ser.Marshal(&OrderV2{ID: 1, Customer: "c", Status: "PAID", Note: "x"})
	if err != nil {
		t.Fatal(err)
	}
	var got OrderV2
	if err := kafka.NewDeserializer(staging, OrderV2Schema).Unmarshal(ctx, msg, &got); err != nil || got.Note != "x" {
		t.Errorf("read in the context: %+v, %v", got, err)
	}
}
