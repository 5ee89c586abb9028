package kafka

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// compatRegistry starts a registry holding versions of subject
// "orders-value", in order, and returns it with a client.
func compatRegistry(t *testing.T, alwaysCompatible bool, versions ...string) (*fixture.Registry, *registry.Client) {
	t.Helper()
	f, srv := fixture.NewRegistryServer(t)
	f.AlwaysCompatible = alwaysCompatible
	for _, v := range versions {
		f.Add("orders-value", fixture.Schema{Schema: schema.MustParse(v).String()})
	}
	c, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

func versionCount(t *testing.T, c *registry.Client) int {
	t.Helper()
	vs, err := c.Versions(context.Background(), "orders-value")
	if err != nil {
		t.Fatal(err)
	}
	return len(vs)
}

const (
	compatIntID    = `{"type":"record","name":"Order","fields":[{"name":"id","type":"int"}]}`
	compatStringID = `{"type":"record","name":"Order","fields":[{"name":"id","type":"string"}]}`
)

// A registry that answers "compatible" to everything (as srfake does)
// does not let an int become a string: the local check under the
// subject's level (BACKWARD by default) refuses it, and nothing is
// registered.
func TestCheckCompatibilityLocalRefuses(t *testing.T) {
	ctx := context.Background()
	_, c := compatRegistry(t, true, compatIntID)
	candidate := schema.MustParse(compatStringID)
	_, err := NewRegistrySerializer(ctx, c, "orders", candidate, SerializerConfig{CheckCompatibility: true})
	var ie *IncompatibleSchemaError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want an *IncompatibleSchemaError", err)
	}
	if ie.Registry || ie.Level != "BACKWARD" || ie.Subject != "orders-value" || ie.Topic != "orders" || len(ie.Versions) != 1 || ie.Versions[0] != 1 {
		t.Errorf("error %+v", ie)
	}
	var me *schema.ModeError
	if !errors.As(err, &me) || len(me.Failures) != 1 || !me.Failures[0].CandidateReads {
		t.Errorf("the local check's error = %v", me)
	}
	if !errors.Is(err, registry.ErrIncompatible) {
		t.Error("the error does not match registry.ErrIncompatible")
	}
	if msg := err.Error(); !strings.Contains(msg, "cannot read the data of version 1: /fields/0/type: writer type int") {
		t.Errorf("message %q does not name version 1 and the field", msg)
	}
	if n := versionCount(t, c); n != 1 {
		t.Errorf("%d versions after the refusal, want 1", n)
	}
	// Without the check the same registry takes it.
	if _, err := NewRegistrySerializer(ctx, c, "orders", candidate, SerializerConfig{}); err != nil {
		t.Fatal(err)
	}
	if n := versionCount(t, c); n != 2 {
		t.Errorf("%d versions without the check, want 2", n)
	}
}

// A registry that checks gives its reasons, and the local check's are
// listed beside them.
func TestCheckCompatibilityRegistryRefuses(t *testing.T) {
	_, c := compatRegistry(t, false, compatIntID)
	_, err := NewRegistrySerializer(context.Background(), c, "orders", schema.MustParse(compatStringID), SerializerConfig{CheckCompatibility: true})
	var ie *IncompatibleSchemaError
	if !errors.As(err, &ie) || !ie.Registry || len(ie.Reasons) == 0 || ie.Local == nil {
		t.Fatalf("err = %v (%+v), want the registry's reasons and the local check's", err, ie)
	}
	msg := err.Error()
	if !strings.Contains(msg, "registry: "+ie.Reasons[0]) || !strings.Contains(msg, "version 1") {
		t.Errorf("message %q lacks a reason", msg)
	}
	if n := versionCount(t, c); n != 1 {
		t.Errorf("%d versions after the refusal, want 1", n)
	}
}

// A field without a default removed: every earlier version that has the
// field without a default cannot read the new data. FORWARD compares with
// the latest version, which has a default; FORWARD_TRANSITIVE with every
// version, and version 1 has none.
func TestCheckCompatibilityForwardTransitive(t *testing.T) {
	const (
		v1 = `{"type":"record","name":"Order","fields":[{"name":"id","type":"int"},{"name":"legacy","type":"string"}]}`
		v2 = `{"type":"record","name":"Order","fields":[{"name":"id","type":"int"},{"name":"legacy","type":"string","default":""}]}`
		v3 = `{"type":"record","name":"Order","fields":[{"name":"id","type":"int"}]}`
	)
	ctx := context.Background()
	candidate := schema.MustParse(v3)

	f, c := compatRegistry(t, true, v1, v2)
	f.SetLevel("orders-value", "FORWARD_TRANSITIVE")
	_, err := NewRegistrySerializer(ctx, c, "orders", candidate, SerializerConfig{CheckCompatibility: true})
	var ie *IncompatibleSchemaError
	if !errors.As(err, &ie) || ie.Level != "FORWARD_TRANSITIVE" || len(ie.Versions) != 2 {
		t.Fatalf("FORWARD_TRANSITIVE: err = %v, want an *IncompatibleSchemaError against both versions", err)
	}
	if len(ie.Local.Failures) != 1 || ie.Local.Failures[0].Previous != 0 || ie.Local.Failures[0].CandidateReads {
		t.Errorf("failures %+v, want version 1 failing to read the new data", ie.Local.Failures)
	}
	if msg := err.Error(); !strings.Contains(msg, "version 1 cannot read the schema's data: /fields/1: reader field \"legacy\"") || strings.Contains(msg, "version 2") {
		t.Errorf("message %q", msg)
	}

	f, c = compatRegistry(t, true, v1, v2)
	f.SetLevel("orders-value", "FORWARD")
	if _, err := NewRegistrySerializer(ctx, c, "orders", candidate, SerializerConfig{CheckCompatibility: true}); err != nil {
		t.Errorf("FORWARD: %v", err)
	}
	if n := versionCount(t, c); n != 3 {
		t.Errorf("FORWARD: %d versions, want 3", n)
	}
}

// The subject's level falls back to the global one, and to BACKWARD:
// a field added without a default is FORWARD compatible, not BACKWARD.
// NONE skips the local check; a new subject has nothing to compare with.
func TestCheckCompatibilityLevels(t *testing.T) {
	const withNote = `{"type":"record","name":"Order","fields":[{"name":"id","type":"int"},{"name":"note","type":"string"}]}`
	ctx := context.Background()
	candidate := schema.MustParse(withNote)
	cfg := SerializerConfig{CheckCompatibility: true}

	_, c := compatRegistry(t, true, compatIntID)
	var ie *IncompatibleSchemaError
	if _, err := NewRegistrySerializer(ctx, c, "orders", candidate, cfg); !errors.As(err, &ie) || ie.Level != "BACKWARD" {
		t.Errorf("default level: err = %v, want BACKWARD refusing", err)
	}

	f, c := compatRegistry(t, true, compatIntID)
	f.SetLevel("", "FORWARD")
	if _, err := NewRegistrySerializer(ctx, c, "orders", candidate, cfg); err != nil {
		t.Errorf("global FORWARD: %v", err)
	}

	f, c = compatRegistry(t, true, compatIntID)
	f.SetLevel("", "FORWARD")
	f.SetLevel("orders-value", "FULL")
	if _, err := NewRegistrySerializer(ctx, c, "orders", candidate, cfg); !errors.As(err, &ie) || ie.Level != "FULL" {
		t.Errorf("subject FULL over global FORWARD: err = %v", err)
	}

	f, c = compatRegistry(t, true, compatIntID)
	f.SetLevel("orders-value", "NONE")
	if _, err := NewRegistrySerializer(ctx, c, "orders", schema.MustParse(compatStringID), cfg); err != nil {
		t.Errorf("NONE: %v", err)
	}

	_, c = compatRegistry(t, false)
	if _, err := NewRegistrySerializer(ctx, c, "orders", candidate, cfg); err != nil {
		t.Errorf("a new subject: %v", err)
	}

	f, c = compatRegistry(t, true, compatIntID)
	f.SetLevel("orders-value", "SIDEWAYS")
	if _, err := NewRegistrySerializer(ctx, c, "orders", candidate, cfg); err == nil || !strings.Contains(err.Error(), `"SIDEWAYS"`) {
		t.Errorf("an unknown level: %v", err)
	}
}
