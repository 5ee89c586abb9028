package franz

import (
	"context"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/avrogo/avro/kafka"
)

// SetValue writes v as the record's value in the wire format, its schema
// id in the payload's prefix, and removes a value schema id header the
// record held. The value is new memory, not the record's old value:
// franz-go keeps a record's bytes until it is produced. On error the
// record is left as it was.
func SetValue(rec *kgo.Record, s *kafka.Serializer, v any) error {
	b, err := s.Append(nil, v)
	if err != nil {
		return err
	}
	rec.Value = b
	rec.Headers = dropHeader(rec.Headers, kafka.ValueSchemaIDHeader)
	return nil
}

// SetKey is SetValue for the record's key.
func SetKey(rec *kgo.Record, s *kafka.Serializer, v any) error {
	b, err := s.Append(nil, v)
	if err != nil {
		return err
	}
	rec.Key = b
	rec.Headers = dropHeader(rec.Headers, kafka.KeySchemaIDHeader)
	return nil
}

// SetValueHeader writes the datum of v alone as the record's value, and
// its schema id (or GUID) in the kafka.ValueSchemaIDHeader header, which
// replaces any the record held. On error the record is left as it was.
func SetValueHeader(rec *kgo.Record, s *kafka.Serializer, v any) error {
	b, err := s.AppendDatum(nil, v)
	if err != nil {
		return err
	}
	rec.Value = b
	h := s.IDHeader(false)
	rec.Headers = append(dropHeader(rec.Headers, h.Key), kgo.RecordHeader{Key: h.Key, Value: h.Value})
	return nil
}

// SetKeyHeader is SetValueHeader for the record's key, its id in the
// kafka.KeySchemaIDHeader header.
func SetKeyHeader(rec *kgo.Record, s *kafka.Serializer, v any) error {
	b, err := s.AppendDatum(nil, v)
	if err != nil {
		return err
	}
	rec.Key = b
	h := s.IDHeader(true)
	rec.Headers = append(dropHeader(rec.Headers, h.Key), kgo.RecordHeader{Key: h.Key, Value: h.Value})
	return nil
}

// Value decodes the record's value into the value v points at, its
// writer schema named by the value schema id header when the record has
// one, else by the payload's prefix. Errors are those of
// kafka.Deserializer.UnmarshalRecord.
func Value(ctx context.Context, d *kafka.Deserializer, rec *kgo.Record, v any) error {
	return unmarshal(ctx, d, rec, false, rec.Value, v)
}

// Key is Value for the record's key.
func Key(ctx context.Context, d *kafka.Deserializer, rec *kgo.Record, v any) error {
	return unmarshal(ctx, d, rec, true, rec.Key, v)
}

func unmarshal(ctx context.Context, d *kafka.Deserializer, rec *kgo.Record, key bool, payload []byte, v any) error {
	name := kafka.ValueSchemaIDHeader
	if key {
		name = kafka.KeySchemaIDHeader
	}
	for i := len(rec.Headers) - 1; i >= 0; i-- {
		if h := rec.Headers[i]; h.Key == name {
			return d.UnmarshalRecord(ctx, []kafka.Header{{Key: h.Key, Value: h.Value}}, key, payload, v)
		}
	}
	return d.Unmarshal(ctx, payload, v)
}

// dropHeader returns hs without the headers named key: hs itself when it
// has none, else a new slice, as the record's headers may share their
// array with another record's.
func dropHeader(hs []kgo.RecordHeader, key string) []kgo.RecordHeader {
	n := 0
	for _, h := range hs {
		if h.Key == key {
			n++
		}
	}
	if n == 0 {
		return hs
	}
	out := make([]kgo.RecordHeader, 0, len(hs)-n+1)
	for _, h := range hs {
		if h.Key != key {
			out = append(out, h)
		}
	}
	return out
}
