package fuzz

import (
	"context"
	"testing"

	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/schema"
)

// FuzzKafkaSchemaID reads arbitrary schema id prefixes and headers (magic
// 0 with an id, magic 1 with a GUID): an id and the rest, or a typed
// error, and no panic in the Deserializer that reads records with them.
func FuzzKafkaSchemaID(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 1, 2}, []byte{0, 0, 0, 0, 1})
	f.Add([]byte{1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 2}, []byte{1})
	f.Add([]byte{}, []byte{2, 0})
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"long"}]}`)
	reg := &kafka.MemoryRegistry{}
	reg.Register(1, s)
	ds := kafka.NewDeserializer(reg, s)
	f.Fuzz(func(t *testing.T, msg, header []byte) {
		id, rest, err := kafka.ParseSchemaID(msg)
		if err == nil {
			n := 1 + 4
			if id.ByGUID {
				n = 1 + kafka.GUIDSize
			}
			if len(rest) != len(msg)-n {
				t.Fatalf("ParseSchemaID(% x) left %d bytes", msg, len(rest))
			}
		}
		var v map[string]any
		_ = ds.Unmarshal(context.Background(), msg, &v)
		_ = ds.UnmarshalRecord(context.Background(), []kafka.Header{{Key: kafka.ValueSchemaIDHeader, Value: header}}, false, msg, &v)
	})
}
