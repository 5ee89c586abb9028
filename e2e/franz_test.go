package e2e

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/franz"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// franzRegistry starts srfake and returns the franz adapter of a
// franz-go client of it.
func franzRegistry(t *testing.T) *franz.Registry {
	t.Helper()
	reg := srfake.New()
	t.Cleanup(reg.Close)
	return franzClient(t, reg)
}

// franzClient returns the adapter of a new franz-go client of reg.
func franzClient(t *testing.T, reg *srfake.Registry) *franz.Registry {
	t.Helper()
	cl, err := sr.NewClient(sr.URLs(reg.URL()))
	if err != nil {
		t.Fatal(err)
	}
	return franz.NewRegistry(cl)
}

var orderKeySchema = schema.MustParse(`{"type":"record","name":"OrderKey","namespace":"shop","fields":[{"name":"id","type":"long"}]}`)

type orderKey struct {
	ID int64 `avro:"id"`
}

// Producer and consumer through franz-go alone: its sr.Client as the
// registry (both versions registered through it, the second checked for
// compatibility), records written and read with the record adapters,
// with the schema id in the payload, in a header, and by GUID, keys
// included.
func TestFranzRecords(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rg := franzRegistry(t)
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()

	s1, err := kafka.NewRegistrySerializer(ctx, rg, "orders", OrderV1Schema, kafka.SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := kafka.NewRegistrySerializer(ctx, rg, "orders", OrderV2Schema, kafka.SerializerConfig{CheckCompatibility: true})
	if err != nil {
		t.Fatal(err)
	}
	byGUID, err := kafka.NewRegistrySerializer(ctx, rg, "orders", OrderV2Schema, kafka.SerializerConfig{GUID: true})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := kafka.NewRegistrySerializer(ctx, rg, "orders", orderKeySchema, kafka.SerializerConfig{Key: true})
	if err != nil {
		t.Fatal(err)
	}
	if s1.ID() == s2.ID() || byGUID.SchemaID().GUID == [kafka.GUIDSize]byte{} {
		t.Fatalf("ids %d, %d, GUID %v", s1.ID(), s2.ID(), byGUID.SchemaID())
	}

	const n = 40
	producer, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.DefaultProduceTopic("orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		w := Want(i, n)
		rec := &kgo.Record{Headers: []kgo.RecordHeader{{Key: "trace", Value: []byte("t")}}}
		if err := franz.SetKey(rec, keys, &orderKey{ID: int64(i)}); err != nil {
			t.Fatal(err)
		}
		switch {
		case i < n/2:
			err = franz.SetValue(rec, s1, &OrderV1{ID: int32(i), Customer: w.Customer, Status: w.Status, Legacy: "old"})
		case i%3 == 0:
			err = franz.SetValueHeader(rec, s2, &w)
		case i%3 == 1:
			err = franz.SetValueHeader(rec, byGUID, &w)
		default:
			err = franz.SetValue(rec, s2, &w)
		}
		if err != nil {
			t.Fatal(err)
		}
		recs[i] = rec
	}
	if err := producer.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}

	consumer, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.ConsumeTopics("orders"),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer consumer.Close()
	d := kafka.NewDeserializer(rg, OrderV2Schema).ForTopic("orders")
	kd := kafka.NewDeserializer(rg, orderKeySchema)
	seen := 0
	for seen < n {
		fetches := consumer.PollFetches(ctx)
		if err := fetches.Err(); err != nil {
			t.Fatal(err)
		}
		for it := fetches.RecordIter(); !it.Done(); {
			rec := it.Next()
			var k orderKey
			if err := franz.Key(ctx, kd, rec, &k); err != nil {
				t.Fatalf("key %d: %v", seen, err)
			}
			var got OrderV2
			if err := franz.Value(ctx, d, rec, &got); err != nil {
				t.Fatalf("record %d: %v", k.ID, err)
			}
			if want := Want(int(k.ID), n); got != want || k.ID != int64(seen) {
				t.Errorf("record %d (the %dth) = %+v, want %+v", k.ID, seen, got, want)
			}
			if len(rec.Headers) == 0 || rec.Headers[0].Key != "trace" {
				t.Errorf("record %d: headers %v, want trace kept first", k.ID, rec.Headers)
			}
			seen++
		}
	}
}

// A record rewritten from one form to the other keeps one id: SetValue
// drops the header SetValueHeader wrote, and the value reads back.
func TestFranzRecordRewritten(t *testing.T) {
	ctx := context.Background()
	rg := franzRegistry(t)
	s2, err := kafka.NewRegistrySerializer(ctx, rg, "orders", OrderV2Schema, kafka.SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	d := kafka.NewDeserializer(rg, OrderV2Schema)
	w := Want(3, 4)
	rec := &kgo.Record{}
	if err := franz.SetValueHeader(rec, s2, &w); err != nil {
		t.Fatal(err)
	}
	if err := franz.SetValueHeader(rec, s2, &w); err != nil || len(rec.Headers) != 1 || rec.Headers[0].Key != kafka.ValueSchemaIDHeader {
		t.Fatalf("headers after two SetValueHeader: %v, %v", rec.Headers, err)
	}
	if err := franz.SetValue(rec, s2, &w); err != nil || len(rec.Headers) != 0 {
		t.Fatalf("headers after SetValue: %v, %v", rec.Headers, err)
	}
	var got OrderV2
	if err := franz.Value(ctx, d, rec, &got); err != nil || got != w {
		t.Fatalf("read %+v, %v; want %+v", got, err, w)
	}
	// A value that does not fit leaves the record as it was.
	before := bytes.Clone(rec.Value)
	if err := franz.SetValueHeader(rec, s2, "not an order"); err == nil || !bytes.Equal(rec.Value, before) || len(rec.Headers) != 0 {
		t.Errorf("a failed SetValueHeader: %v, record %v %v", err, rec.Value, rec.Headers)
	}
}

// The adapter's errors match the registry package's sentinels, and its
// compatibility answers go through the serializer's check: srfake says
// "compatible" to an int that became a string, the local check refuses.
func TestFranzRegistryErrors(t *testing.T) {
	ctx := context.Background()
	rg := franzRegistry(t)
	if _, err := rg.Latest(ctx, "nobody-value"); !errors.Is(err, registry.ErrSubjectNotFound) {
		t.Errorf("Latest of an unknown subject = %v, want ErrSubjectNotFound", err)
	}
	if _, err := rg.SchemaByID(ctx, 999); !errors.Is(err, registry.ErrSchemaNotFound) {
		t.Errorf("SchemaByID of an unknown id = %v, want ErrSchemaNotFound", err)
	}
	if _, err := kafka.NewRegistrySerializer(ctx, rg, "orders", OrderV1Schema, kafka.SerializerConfig{}); err != nil {
		t.Fatal(err)
	}
	if level, err := rg.Config(ctx, "orders-value"); err != nil || level != "BACKWARD" {
		t.Errorf("Config = %q, %v", level, err)
	}
	stringID := schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"string"}]}`)
	var ie *kafka.IncompatibleSchemaError
	if _, err := kafka.NewRegistrySerializer(ctx, rg, "orders", stringID, kafka.SerializerConfig{CheckCompatibility: true}); !errors.As(err, &ie) || ie.Registry {
		t.Errorf("int to string = %v, want the local check refusing", err)
	}
}

// References through the adapter: the registry holds Shipment with
// Address named, not defined, and a fresh adapter reads it back by id and
// by GUID through the references.
func TestFranzReferences(t *testing.T) {
	ctx := context.Background()
	reg := srfake.New()
	t.Cleanup(reg.Close)
	rg := franzClient(t, reg)
	addr, err := avro.SchemaOf[Address](avro.WithNamespace("shop"))
	if err != nil {
		t.Fatal(err)
	}
	ship, err := avro.SchemaOf[Shipment](avro.WithNamespace("shop"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rg.Register(ctx, "shop.Address", addr); err != nil {
		t.Fatal(err)
	}
	refs := []registry.Reference{{Name: "shop.Address", Subject: "shop.Address", Version: 1}}
	ser, err := kafka.NewRegistrySerializer(ctx, rg, "shipments", ship, kafka.SerializerConfig{References: refs, CheckCompatibility: true})
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
	byGUID, err := kafka.NewRegistrySerializer(ctx, rg, "shipments", ship, kafka.SerializerConfig{References: refs, GUID: true})
	if err != nil {
		t.Fatal(err)
	}
	in := Shipment{ID: 4, To: Address{"Dam 1", "1012"}, From: &Address{"Rue 2", "75001"}, Tags: []string{"fragile"}}
	for _, s := range []*kafka.Serializer{ser, byGUID} {
		rec := &kgo.Record{}
		if err := franz.SetValueHeader(rec, s, &in); err != nil {
			t.Fatal(err)
		}
		var out Shipment
		if err := franz.Value(ctx, kafka.NewDeserializer(franzClient(t, reg), nil), rec, &out); err != nil {
			t.Fatalf("%v: %v", s.SchemaID(), err)
		}
		if out.ID != in.ID || out.To != in.To || out.From == nil || *out.From != *in.From || len(out.Tags) != 1 {
			t.Errorf("%v: read back %+v, want %+v", s.SchemaID(), out, in)
		}
	}
}
