package bench

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/twmb/franz-go/pkg/sr"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/kafka"
)

// The Kafka serde: rec10 in the Confluent wire format.
//
//	BenchmarkKafka/rec=rec10/op=serialize|deserialize/lib=avrogo  kafka.Serializer.Append, Deserializer.Unmarshal (cache hit)
//	                                                   lib=twmb    franz-go's sr.Serde with twmb/avro's AppendEncode and Decode, what a franz-go user runs
//	                                                   lib=plain   avro.Append and avro.Unmarshal of the bare datum (a reference row: the serde's cost is the difference)

const kafkaID = 100007

func kafkaSerdes(tb testing.TB) (*workload[Rec10], *kafka.Serializer, *kafka.Deserializer, *sr.Serde, [][]byte) {
	w := wlRec10(tb)
	ser, err := kafka.NewSerializer(kafkaID, w.ours)
	if err != nil {
		tb.Fatal(err)
	}
	reg := &kafka.MemoryRegistry{}
	reg.Register(kafkaID, w.ours)
	de := kafka.NewDeserializer(reg, w.ours)
	var serde sr.Serde
	serde.Register(kafkaID, &Rec10{},
		sr.AppendEncodeFn(func(b []byte, v any) ([]byte, error) { return w.twmb.AppendEncode(b, v) }),
		sr.DecodeFn(func(b []byte, v any) error { _, err := w.twmb.Decode(b, v); return err }))
	msgs := make([][]byte, len(w.recs))
	for i := range w.recs {
		if msgs[i], err = ser.Marshal(&w.recs[i]); err != nil {
			tb.Fatal(err)
		}
	}
	return w, ser, de, &serde, msgs
}

func BenchmarkKafka(b *testing.B) {
	releaseWorkloads()
	w, ser, de, serde, msgs := kafkaSerdes(b)
	ctx := context.Background()
	const mask = poolSize - 1
	run := newRowRunner(b, "rec=rec10")
	run("serialize", libOurs, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = ser.Append(buf[:0], &w.recs[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("serialize", libTwmb, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = serde.AppendEncode(buf[:0], &w.recs[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("serialize", libPlain, func(b *testing.B) {
		buf := make([]byte, 0, 64<<10)
		var err error
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], w.ours, &w.recs[i&mask]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	run("deserialize", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			v := new(Rec10)
			if err := de.Unmarshal(ctx, msgs[i&mask], v); err != nil {
				b.Fatal(err)
			}
			sinkAny = v
		}
	})
	run("deserialize", libTwmb, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			v := new(Rec10)
			if err := serde.Decode(msgs[i&mask], v); err != nil {
				b.Fatal(err)
			}
			sinkAny = v
		}
	})
	run("deserialize", libPlain, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			v := new(Rec10)
			if err := avro.Unmarshal(w.ours, w.enc[i&mask], v); err != nil {
				b.Fatal(err)
			}
			sinkAny = v
		}
	})
}

// Every row writes the same messages (up to map order) and reads them to
// the same records.
func TestKafkaParity(t *testing.T) {
	w, _, de, serde, msgs := kafkaSerdes(t)
	for i := range 256 {
		theirs, err := serde.AppendEncode(nil, &w.recs[i])
		if err != nil {
			t.Fatal(err)
		}
		// The same header; the datums may differ in the order of a
		// map's entries, so they are compared decoded.
		if !bytes.Equal(theirs[:kafka.HeaderSize], msgs[i][:kafka.HeaderSize]) || len(theirs) != len(msgs[i]) {
			t.Fatalf("record %d: sr.Serde with twmb writes another header or length", i)
		}
		var a, b Rec10
		if err := de.Unmarshal(context.Background(), theirs, &a); err != nil {
			t.Fatal(err)
		}
		if err := serde.Decode(msgs[i], &b); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w.recs[i], a, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("record %d through our Deserializer (-want +got):\n%s", i, diff)
		}
		if diff := cmp.Diff(w.recs[i], b, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("record %d through sr.Serde (-want +got):\n%s", i, diff)
		}
	}
}
