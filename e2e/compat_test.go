package e2e

import (
	"context"
	"errors"
	"testing"

	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/schema"
)

// srfake answers "compatible" to every check: with CheckCompatibility the
// serializer's local check still refuses an int that becomes a string,
// under the level srfake gives (BACKWARD), and under one set on the
// subject (FORWARD_TRANSITIVE) for a field removed without a default.
func TestCheckCompatibilityWithSRFake(t *testing.T) {
	ctx := context.Background()
	_, rc := newRegistry(t)
	if _, err := rc.Register(ctx, "orders-value", OrderV1Schema); err != nil {
		t.Fatal(err)
	}
	stringID := schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"id","type":"string"},
		{"name":"customer","type":"string"},
		{"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID"]}},
		{"name":"legacy","type":"string"}]}`)
	cfg := kafka.SerializerConfig{CheckCompatibility: true}
	var ie *kafka.IncompatibleSchemaError
	if _, err := kafka.NewRegistrySerializer(ctx, rc, "orders", stringID, cfg); !errors.As(err, &ie) || ie.Level != "BACKWARD" || ie.Registry {
		t.Fatalf("int to string = %v, want the local check refusing under BACKWARD", err)
	}
	// OrderV2 drops legacy, which version 1 needs: BACKWARD takes it.
	if _, err := kafka.NewRegistrySerializer(ctx, rc, "orders", OrderV2Schema, cfg); err != nil {
		t.Fatalf("BACKWARD: %v", err)
	}
	if err := rc.SetConfig(ctx, "orders-value", "FORWARD_TRANSITIVE"); err != nil {
		t.Fatal(err)
	}
	v3 := schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"id","type":"long"},
		{"name":"customer","type":"string"},
		{"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID","SHIPPED"],"default":"NEW"}}]}`)
	if _, err := kafka.NewRegistrySerializer(ctx, rc, "orders", v3, cfg); !errors.As(err, &ie) || ie.Level != "FORWARD_TRANSITIVE" || len(ie.Versions) != 2 {
		t.Fatalf("FORWARD_TRANSITIVE = %v, want a refusal against both versions", err)
	}
}
