package e2e

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// Version 2 evolves version 1: a field added with a default, one
// removed, an int promoted to a long, an enum symbol added, with an enum
// default.
var (
	OrderV1Schema = schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"id","type":"int"},
		{"name":"customer","type":"string"},
		{"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID"]}},
		{"name":"legacy","type":"string"}]}`)
	OrderV2Schema = schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"id","type":"long"},
		{"name":"customer","type":"string"},
		{"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID","SHIPPED"],"default":"NEW"}},
		{"name":"note","type":"string","default":"none"}]}`)
)

// OrderV1 is a value of OrderV1Schema.
type OrderV1 struct {
	ID       int32  `avro:"id"`
	Customer string `avro:"customer"`
	Status   string `avro:"status"`
	Legacy   string `avro:"legacy"`
}

// OrderV2 is a value of OrderV2Schema, the consumer's struct.
type OrderV2 struct {
	ID       int64  `avro:"id"`
	Customer string `avro:"customer"`
	Status   string `avro:"status"`
	Note     string `avro:"note"`
}

// Want is record i as the consumer must read it: the first half is
// written with version 1 (so its note is version 2's default), the
// second with version 2.
func Want(i, records int) OrderV2 {
	if i < records/2 {
		return OrderV2{ID: int64(i), Customer: fmt.Sprintf("c%d", i%97), Status: []string{"NEW", "PAID"}[i%2], Note: "none"}
	}
	return OrderV2{ID: int64(i), Customer: fmt.Sprintf("c%d", i%89), Status: []string{"NEW", "PAID", "SHIPPED"}[i%3], Note: fmt.Sprintf("n%d", i%7)}
}

// Config says what Run produces.
type Config struct {
	// Records is the number of records, half with each schema version.
	Records int
	// Headers puts the schema id in the __value_schema_id header, the
	// payload being the datum alone.
	Headers bool
	// Registry is the registry's URL; empty starts an in-memory one.
	Registry string
}

// Report is what Run did.
type Report struct {
	// IDs are the registry ids of version 1 and version 2.
	IDs [2]int
	// Produced and Consumed count records.
	Produced, Consumed int
	// First is the first record the consumer read, as it read it.
	First OrderV2
	// Elapsed is the time from the first record produced to the last
	// consumed.
	Elapsed time.Duration
}

// Run starts an in-process Kafka cluster (and, unless cfg names one, a
// Schema Registry), registers both schema versions through the registry
// client, produces cfg.Records records with a kgo producer, half with
// each version, and reads them all back with a consumer group into
// OrderV2. Every record read is checked against Want, and each must be
// read exactly once: any difference is an error.
func Run(ctx context.Context, cfg Config) (Report, error) {
	var rep Report
	if cfg.Records < 2 || cfg.Records%2 != 0 {
		return rep, errors.New("e2e: Records must be even and at least 2")
	}
	url := cfg.Registry
	if url == "" {
		reg := srfake.New()
		defer reg.Close()
		url = reg.URL()
	}
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "orders"))
	if err != nil {
		return rep, err
	}
	defer cluster.Close()
	rc, err := registry.NewClient(url)
	if err != nil {
		return rep, err
	}
	s1, err := kafka.NewRegistrySerializer(ctx, rc, "orders", OrderV1Schema, kafka.SerializerConfig{})
	if err != nil {
		return rep, err
	}
	s2, err := kafka.NewRegistrySerializer(ctx, rc, "orders", OrderV2Schema, kafka.SerializerConfig{})
	if err != nil {
		return rep, err
	}
	rep.IDs = [2]int{s1.ID(), s2.ID()}
	if s1.ID() == s2.ID() {
		return rep, fmt.Errorf("e2e: both versions have id %d", s1.ID())
	}
	start := time.Now()
	if rep.Produced, err = produce(ctx, cluster, s1, s2, cfg); err != nil {
		return rep, err
	}
	if rep.Consumed, rep.First, err = consume(ctx, cluster, rc, cfg.Records); err != nil {
		return rep, err
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func produce(ctx context.Context, cluster *kfake.Cluster, s1, s2 *kafka.Serializer, cfg Config) (int, error) {
	producer, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.DefaultProduceTopic("orders"))
	if err != nil {
		return 0, err
	}
	defer producer.Close()
	const batch = 5000
	n := 0
	for first := 0; first < cfg.Records; first += batch {
		recs := make([]*kgo.Record, 0, batch)
		for i := first; i < min(first+batch, cfg.Records); i++ {
			w := Want(i, cfg.Records)
			var v any = &w
			sr := s2
			if i < cfg.Records/2 {
				v, sr = &OrderV1{ID: int32(i), Customer: w.Customer, Status: w.Status, Legacy: "old"}, s1
			}
			rec := &kgo.Record{Key: fmt.Append(nil, i)}
			if cfg.Headers {
				h := sr.IDHeader(false)
				rec.Headers = []kgo.RecordHeader{{Key: h.Key, Value: h.Value}}
				rec.Value, err = sr.AppendDatum(nil, v)
			} else {
				rec.Value, err = sr.Marshal(v)
			}
			if err != nil {
				return n, fmt.Errorf("e2e: record %d: %w", i, err)
			}
			recs = append(recs, rec)
		}
		if err := producer.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			return n, err
		}
		n += len(recs)
	}
	return n, nil
}

func consume(ctx context.Context, cluster *kfake.Cluster, rc *registry.Client, records int) (int, OrderV2, error) {
	var first OrderV2
	consumer, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.ConsumerGroup("readers"),
		kgo.ConsumeTopics("orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		return 0, first, err
	}
	defer consumer.Close()
	d := kafka.NewDeserializer(rc, OrderV2Schema).ForTopic("orders")
	seen := make([]bool, records)
	count := 0
	var hs []kafka.Header
	for count < records {
		fetches := consumer.PollFetches(ctx)
		if err := fetches.Err(); err != nil {
			return count, first, fmt.Errorf("e2e: after %d records: %w", count, err)
		}
		for it := fetches.RecordIter(); !it.Done(); {
			rec := it.Next()
			hs = hs[:0]
			for _, h := range rec.Headers {
				hs = append(hs, kafka.Header{Key: h.Key, Value: h.Value})
			}
			var got OrderV2
			if err := d.UnmarshalRecord(ctx, hs, false, rec.Value, &got); err != nil {
				return count, first, fmt.Errorf("e2e: record %s: %w", rec.Key, err)
			}
			i := int(got.ID)
			switch {
			case i < 0 || i >= records:
				return count, first, fmt.Errorf("e2e: record %d out of range", i)
			case seen[i]:
				return count, first, fmt.Errorf("e2e: record %d read twice", i)
			case got != Want(i, records):
				return count, first, fmt.Errorf("e2e: record %d = %+v, want %+v", i, got, Want(i, records))
			case string(rec.Key) != fmt.Sprint(i):
				return count, first, fmt.Errorf("e2e: record %d has key %s", i, rec.Key)
			}
			if count == 0 {
				first = got
			}
			seen[i] = true
			count++
		}
	}
	return count, first, nil
}
