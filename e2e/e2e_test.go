package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// Version 2 evolves version 1: a field added with a default, one
// removed, an int promoted to a long, an enum symbol added, with an enum
// default.
var (
	orderV1 = schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"id","type":"int"},
		{"name":"customer","type":"string"},
		{"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID"]}},
		{"name":"legacy","type":"string"}]}`)
	orderV2 = schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"id","type":"long"},
		{"name":"customer","type":"string"},
		{"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID","SHIPPED"],"default":"NEW"}},
		{"name":"note","type":"string","default":"none"}]}`)
)

type OrderV1 struct {
	ID       int32  `avro:"id"`
	Customer string `avro:"customer"`
	Status   string `avro:"status"`
	Legacy   string `avro:"legacy"`
}

type OrderV2 struct {
	ID       int64  `avro:"id"`
	Customer string `avro:"customer"`
	Status   string `avro:"status"`
	Note     string `avro:"note"`
}

const perVersion = 50_000

func want(i int) OrderV2 {
	if i < perVersion {
		return OrderV2{ID: int64(i), Customer: fmt.Sprintf("c%d", i%97), Status: []string{"NEW", "PAID"}[i%2], Note: "none"}
	}
	return OrderV2{ID: int64(i), Customer: fmt.Sprintf("c%d", i%89), Status: []string{"NEW", "PAID", "SHIPPED"}[i%3], Note: fmt.Sprintf("n%d", i%7)}
}

// TestEndToEnd produces 100,000 records, half with each version, and
// reads them all with a consumer group into the version 2 struct: every
// record is checked and counted, none lost or duplicated. With headers,
// the schema id travels in __value_schema_id and the payload is the datum.
func TestEndToEnd(t *testing.T) {
	for _, headers := range []bool{false, true} {
		t.Run(fmt.Sprintf("headers=%v", headers), func(t *testing.T) { endToEnd(t, headers) })
	}
}

func endToEnd(t *testing.T, headers bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	reg := srfake.New()
	defer reg.Close()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	rc, err := registry.NewClient(reg.URL())
	if err != nil {
		t.Fatal(err)
	}

	producer, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.DefaultProduceTopic("orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	s1, err := kafka.NewRegistrySerializer(ctx, rc, "orders", orderV1, kafka.SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := kafka.NewRegistrySerializer(ctx, rc, "orders", orderV2, kafka.SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if s1.ID() == s2.ID() {
		t.Fatalf("both versions have id %d", s1.ID())
	}
	const batch = 5000
	for start := 0; start < 2*perVersion; start += batch {
		recs := make([]*kgo.Record, 0, batch)
		for i := start; i < start+batch; i++ {
			w := want(i)
			var v any = &w
			sr := s2
			if i < perVersion {
				v, sr = &OrderV1{ID: int32(i), Customer: w.Customer, Status: w.Status, Legacy: "old"}, s1
			}
			rec := &kgo.Record{Key: []byte(fmt.Sprint(i))}
			if headers {
				datum, err := avro.Marshal(sr.Schema(), v)
				if err != nil {
					t.Fatal(err)
				}
				h, _ := kafka.AppendHeader(nil, sr.ID())
				rec.Value = datum
				rec.Headers = []kgo.RecordHeader{{Key: kafka.ValueSchemaIDHeader, Value: h}}
			} else if rec.Value, err = sr.Marshal(v); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
		if err := producer.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}

	consumer, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.ConsumerGroup("readers"),
		kgo.ConsumeTopics("orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer consumer.Close()
	d := kafka.NewDeserializer(rc, orderV2)
	seen := make([]bool, 2*perVersion)
	count := 0
	var hs []kafka.Header
	for count < 2*perVersion {
		fetches := consumer.PollFetches(ctx)
		if err := fetches.Err(); err != nil {
			t.Fatalf("after %d records: %v", count, err)
		}
		for it := fetches.RecordIter(); !it.Done(); {
			rec := it.Next()
			var got OrderV2
			hs = hs[:0]
			for _, h := range rec.Headers {
				hs = append(hs, kafka.Header{Key: h.Key, Value: h.Value})
			}
			if err := d.UnmarshalRecord(ctx, hs, false, rec.Value, &got); err != nil {
				t.Fatalf("record %s: %v", rec.Key, err)
			}
			i := int(got.ID)
			if i < 0 || i >= len(seen) || seen[i] {
				t.Fatalf("record %d: out of range or seen twice", i)
			}
			if got != want(i) {
				t.Fatalf("record %d = %+v, want %+v", i, got, want(i))
			}
			if string(rec.Key) != fmt.Sprint(i) {
				t.Fatalf("record %d has key %s", i, rec.Key)
			}
			seen[i] = true
			count++
		}
	}
	if count != 2*perVersion {
		t.Errorf("%d records read, want %d", count, 2*perVersion)
	}
}
