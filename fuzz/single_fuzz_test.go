package fuzz

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// FuzzSingleObject reads arbitrary bytes as a single-object message (the
// C3 01 marker, a fingerprint, a datum) and as a Confluent Kafka message
// (a zero byte, a 4-byte id, a datum), with and without a reader schema
// to resolve against. Errors must be typed; a message that decodes must
// re-encode to a message that decodes to an equal value, no longer than
// the input.
//
//	go test -run '^$' -fuzz '^FuzzSingleObject$' -fuzztime 60s ./fuzz/
func FuzzSingleObject(f *testing.F) {
	writers := []*schema.Schema{
		schema.MustParse(eventSchema),
		schema.MustParse(nodeSchema),
		schema.MustParse(unionsSchema),
		schema.MustParse(`{"type":"array","items":"long"}`),
		schema.MustParse(`{"type":"map","values":["null","string"]}`),
		schema.MustParse(`{"type":"record","name":"L","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","L"]}]}`),
	}
	// readers[i] evolves writers[i]: promotions, a wider union, an added
	// field with a default.
	readers := []*schema.Schema{
		nil,
		nil,
		nil,
		schema.MustParse(`{"type":"array","items":"double"}`),
		schema.MustParse(`{"type":"map","values":["null","string","long"]}`),
		schema.MustParse(`{"type":"record","name":"L","fields":[{"name":"v","type":"long"},{"name":"next","type":["null","L"]},{"name":"t","type":"string","default":"x"}]}`),
	}
	store := avro.NewMemoryStore(writers...)
	reg := &kafka.MemoryRegistry{}
	for i, w := range writers {
		reg.Register(i, w)
	}
	header := func(w *schema.Schema) []byte {
		return binary.LittleEndian.AppendUint64([]byte{0xc3, 0x01}, w.Fingerprint())
	}
	r := rand.New(rand.NewPCG(7, 8))
	datums, _ := hostileCorpus(f, 256)
	for i, w := range writers {
		for range 3 {
			if v, ok := randomValue(w, r, 0); ok {
				data, err := avro.MarshalSingleObject(w, v)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint8(i), data)
				f.Add(uint8(i), append([]byte{0, 0, 0, 0, byte(i)}, data[10:]...))
			}
		}
		for _, h := range hostileSeeds() {
			f.Add(uint8(i), append(header(w), h...))
		}
		for _, h := range datums {
			f.Add(uint8(i), append(header(w), h...))
			f.Add(uint8(i), append([]byte{0, 0, 0, 0, byte(i)}, h...))
		}
	}
	f.Add(uint8(0), []byte{0xc3, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0})
	f.Add(uint8(0), []byte{0xc3})
	f.Add(uint8(0), []byte{0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		reader := readers[int(which)%len(readers)]
		opts := avro.DecodeOptions{MaxAlloc: 8 << 20}

		// Single-object, writer schema only.
		var v value.Value
		err := opts.UnmarshalSingleObject(store, nil, data, &v)
		if err != nil {
			var ns *avro.NotSingleObjectError
			var us *avro.UnknownSchemaError
			if !errors.As(err, &ns) && !errors.As(err, &us) {
				checkDecodeError(t, err)
			}
		} else {
			fp, _ := avro.SingleObjectFingerprint(data)
			w, _ := store.SchemaByFingerprint(fp)
			enc, err := avro.AppendSingleObject(nil, w, v)
			if err != nil {
				t.Fatalf("decoded %v from % x but cannot re-encode it: %v", v, data, err)
			}
			var back value.Value
			if err := avro.UnmarshalSingleObject(store, nil, enc, &back); err != nil || !value.Equal(v, back) {
				t.Fatalf("re-encoded message: %v, %v; want %v", back, err, v)
			}
			if len(enc) > len(data) {
				t.Fatalf("re-encoding % x is longer than the input % x", enc, data)
			}
			// The writer's bytes are valid: through a resolution to a
			// compatible reader they decode too.
			if reader != nil {
				if rs, err := schema.Resolve(w, reader); err == nil {
					var rv value.Value
					if err := opts.UnmarshalSingleObject(store, reader, data, &rv); err != nil && !errors.Is(err, avro.ErrLimit) {
						t.Fatalf("writer data % x decodes but not as reader %s: %v", data, rs, err)
					}
				}
			}
		}
		// With the reader: resolved when the writer differs.
		if reader != nil {
			var rv any
			if err := opts.UnmarshalSingleObject(store, reader, data, &rv); err != nil {
				var ns *avro.NotSingleObjectError
				var us *avro.UnknownSchemaError
				var ce *schema.CompatibilityError
				if !errors.As(err, &ns) && !errors.As(err, &us) && !errors.As(err, &ce) {
					checkDecodeError(t, err)
				}
			}
		}

		// Kafka.
		ds := kafka.NewDeserializerWithOptions(reg, reader, opts)
		var kv value.Value
		if err := ds.Unmarshal(context.Background(), data, &kv); err != nil {
			var fe *kafka.FormatError
			var le *kafka.LookupError
			var ce *schema.CompatibilityError
			if !errors.As(err, &fe) && !errors.As(err, &le) && !errors.As(err, &ce) {
				checkDecodeError(t, err)
			}
			return
		}
		id, _, _ := kafka.ParseHeader(data)
		s, err := ds.SchemaFor(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if reader != nil {
			s = reader
		}
		enc, err := avro.Marshal(s, kv)
		if err != nil {
			t.Fatalf("kafka: decoded %v but cannot re-encode it: %v", kv, err)
		}
		var back value.Value
		if err := avro.Unmarshal(s, enc, &back); err != nil || !value.Equal(kv, back) {
			t.Fatalf("kafka: re-encoded datum: %v, %v; want %v", back, err, kv)
		}
		if reader == nil && len(enc) > len(data)-kafka.HeaderSize {
			t.Fatalf("kafka: re-encoding % x is longer than the datum % x", enc, data[kafka.HeaderSize:])
		}
	})
}
