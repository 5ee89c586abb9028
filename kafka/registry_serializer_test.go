package kafka

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

var (
	regOrderV1 = schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"int"}]}`)
	regOrderV2 = schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"long"},{"name":"note","type":"string","default":""}]}`)
)

type regOrder struct {
	ID   int64  `avro:"id"`
	Note string `avro:"note"`
}

func TestRegistrySerializer(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	c, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sr1, err := NewRegistrySerializer(ctx, c, "orders", regOrderV1, SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	sr2, err := NewRegistrySerializer(ctx, c, "orders", regOrderV2, SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if sr1.ID() == sr2.ID() || f.Count("/subjects/orders-value/versions") != 2 {
		t.Fatalf("ids %d and %d, %d registrations", sr1.ID(), sr2.ID(), f.Count("/subjects/orders-value/versions"))
	}
	// The consumer reads both through the same client, into v2's shape.
	d := NewDeserializer(c, regOrderV2)
	for _, sr := range []*Serializer{sr1, sr2} {
		msg, err := sr.Marshal(&regOrder{ID: 7, Note: "n"})
		if err != nil {
			t.Fatal(err)
		}
		var got regOrder
		if err := d.Unmarshal(ctx, msg, &got); err != nil {
			t.Fatal(err)
		}
		want := regOrder{ID: 7, Note: "n"}
		if sr == sr1 {
			want.Note = "" // v1 has no note: the default
		}
		if got != want {
			t.Errorf("id %d: got %+v, want %+v", sr.ID(), got, want)
		}
	}
	// UseLatest writes with version 2, whatever schema is given.
	latest, err := NewRegistrySerializer(ctx, c, "orders", regOrderV1, SerializerConfig{UseLatest: true})
	if err != nil || latest.ID() != sr2.ID() || latest.Schema().Canonical() != regOrderV2.Canonical() {
		t.Fatalf("UseLatest = %v, %v; want id %d", latest, err, sr2.ID())
	}
	// CheckLatest: v1 values can be read as v2 (int to long, note from
	// its default), but a schema without id cannot.
	if _, err := NewRegistrySerializer(ctx, c, "orders", regOrderV1, SerializerConfig{UseLatest: true, CheckLatest: true}); err != nil {
		t.Errorf("CheckLatest with v1: %v", err)
	}
	other := schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"sku","type":"string"}]}`)
	var ce *schema.CompatibilityError
	if _, err := NewRegistrySerializer(ctx, c, "orders", other, SerializerConfig{UseLatest: true, CheckLatest: true}); !errors.As(err, &ce) {
		t.Errorf("CheckLatest with an unreadable schema = %v, want a *schema.CompatibilityError", err)
	}
	if _, err := NewRegistrySerializer(ctx, c, "nobody", regOrderV1, SerializerConfig{UseLatest: true}); !errors.Is(err, registry.ErrSubjectNotFound) {
		t.Errorf("UseLatest of an unknown subject = %v", err)
	}
}

func TestSubjectNameStrategies(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	c, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		cfg  SerializerConfig
		want string
	}{
		{SerializerConfig{}, "t-value"},
		{SerializerConfig{Key: true}, "t-key"},
		{SerializerConfig{Subject: RecordName}, "shop.Order"},
		{SerializerConfig{Subject: TopicRecordName}, "t-shop.Order"},
		{SerializerConfig{Subject: func(topic string, key bool, s *schema.Schema) string { return "custom-" + topic }}, "custom-t"},
	} {
		if _, err := NewRegistrySerializer(ctx, c, "t", regOrderV1, tc.cfg); err != nil {
			t.Fatal(err)
		}
		if n := f.Count("/subjects/" + tc.want + "/versions"); n != 1 {
			t.Errorf("%d registrations under %s, want 1", n, tc.want)
		}
	}
	if _, err := NewSerializer(-1, regOrderV1); err == nil {
		t.Error("NewSerializer(-1) succeeded: it would write ff ff ff ff")
	}
}

// The Serializer a registry gives costs what a fixed id's does.
func BenchmarkRegistrySerializerAppend(b *testing.B) {
	_, srv := fixture.NewRegistryServer(b)
	c, err := registry.NewClient(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	sr, err := NewRegistrySerializer(context.Background(), c, "orders", regOrderV2, SerializerConfig{})
	if err != nil {
		b.Fatal(err)
	}
	v := &regOrder{ID: 1, Note: "x"}
	buf := make([]byte, 0, 64)
	b.Run("serializer", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if buf, err = sr.Append(buf[:0], v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if buf, err = avro.Append(buf[:0], regOrderV2, v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A Serializer that names its schema by GUID writes MagicGUID and the
// registry's GUID, and the Deserializer reads it back through the same
// registry; the same holds for the id or GUID carried in a header.
func TestGUIDAndHeaderSerializers(t *testing.T) {
	_, srv := fixture.NewRegistryServer(t)
	c, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	byID, err := NewRegistrySerializer(ctx, c, "orders", regOrderV1, SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	byGUID, err := NewRegistrySerializer(ctx, c, "orders", regOrderV1, SerializerConfig{GUID: true})
	if err != nil {
		t.Fatal(err)
	}
	latestGUID, err := NewRegistrySerializer(ctx, c, "orders", regOrderV2, SerializerConfig{UseLatest: true, GUID: true})
	if err != nil {
		t.Fatal(err)
	}
	wantGUID := fixture.GUID(byID.ID())
	if id := byGUID.SchemaID(); !id.ByGUID || id.String() != wantGUID || latestGUID.SchemaID() != id {
		t.Fatalf("GUID serializers name %v and %v, want %s", id, latestGUID.SchemaID(), wantGUID)
	}
	d := NewDeserializer(c, regOrderV2)
	in := &regOrder{ID: 9}
	for _, sr := range []*Serializer{byID, byGUID} {
		msg, err := sr.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if sr == byGUID && (len(msg) < 1+GUIDSize || msg[0] != MagicGUID || guidText([GUIDSize]byte(msg[1:1+GUIDSize])) != wantGUID) {
			t.Fatalf("GUID message % x", msg)
		}
		var got regOrder
		if err := d.Unmarshal(ctx, msg, &got); err != nil || got.ID != 9 {
			t.Fatalf("%v: %+v, %v", sr.SchemaID(), got, err)
		}
		// The datum alone, the id in a header (among others).
		datum, err := sr.AppendDatum(nil, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []bool{false, true} {
			h := sr.IDHeader(key)
			if want := map[bool]string{false: ValueSchemaIDHeader, true: KeySchemaIDHeader}[key]; h.Key != want {
				t.Errorf("header %q, want %q", h.Key, want)
			}
			got = regOrder{}
			if err := d.UnmarshalRecord(ctx, []Header{{Key: "trace", Value: []byte("x")}, h}, key, datum, &got); err != nil || got.ID != 9 {
				t.Fatalf("%v in header %s: %+v, %v", sr.SchemaID(), h.Key, got, err)
			}
		}
	}
	if _, err := NewGUIDSerializer([GUIDSize]byte{}, regOrderV1); err == nil {
		t.Error("a zero GUID accepted")
	}
}

// The errors of a datum name the topic (when the Serializer has one) and
// the schema id, and keep the avro error with its path and offset.
func TestDatumErrors(t *testing.T) {
	_, srv := fixture.NewRegistryServer(t)
	c, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sr, err := NewRegistrySerializer(ctx, c, "orders", regOrderV2, SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sr.Marshal(map[string]any{"id": "seven", "note": ""})
	var de *DatumError
	var ae *avro.Error
	if !errors.As(err, &de) || de.Topic != "orders" || de.ID.ID != sr.ID() || !errors.As(err, &ae) || ae.Path != "id" {
		t.Fatalf("Marshal of a bad value = %v, want a *DatumError for topic orders and id %d wrapping an *avro.Error at id", err, sr.ID())
	}
	if want := fmt.Sprintf("kafka: topic orders: schema id %d: avro: ", sr.ID()); !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want the prefix %q", err, want)
	}
	if _, err := sr.AppendDatum(nil, map[string]any{"id": "seven"}); !errors.As(err, &de) {
		t.Errorf("AppendDatum: %v", err)
	}
	msg, err := sr.Marshal(&regOrder{ID: 1, Note: "a long note"})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDeserializer(c, regOrderV2)
	var o regOrder
	for range 2 { // the first lookup, then the cache of recent ids
		err = d.Unmarshal(ctx, msg[:len(msg)-3], &o)
		if !errors.As(err, &de) || de.ID.ID != sr.ID() || !errors.Is(err, avro.ErrTruncated) || !errors.As(err, &ae) || ae.Path != "note" {
			t.Fatalf("a truncated datum = %v, want a *DatumError for id %d matching ErrTruncated at note", err, sr.ID())
		}
	}
	if err := d.UnmarshalRecord(ctx, []Header{sr.IDHeader(false)}, false, []byte{2}, &o); !errors.As(err, &de) || de.ID.ID != sr.ID() {
		t.Errorf("a truncated datum with the id in a header = %v", err)
	}
}
