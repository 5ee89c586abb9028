package kafka

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// mapRegistrar is a test double: ids by subject and schema text, handed
// out from 100, and schemas by id, so that it serves the Deserializer too.
type mapRegistrar struct {
	mu    sync.Mutex
	ids   map[string]int
	byID  map[int]*schema.Schema
	calls int
}

func (m *mapRegistrar) Register(_ context.Context, subject string, s *schema.Schema, _ ...registry.Reference) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if m.ids == nil {
		m.ids, m.byID = map[string]int{}, map[int]*schema.Schema{}
	}
	key := subject + "\x00" + s.String()
	id, ok := m.ids[key]
	if !ok {
		id = 100 + len(m.ids)
		m.ids[key], m.byID[id] = id, s
	}
	return id, nil
}

func (m *mapRegistrar) SchemaByID(_ context.Context, id int) (*schema.Schema, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.byID[id]; ok {
		return s, nil
	}
	return nil, &UnknownIDError{ID: id}
}

// A registrar of one method is enough to register and write; the
// Deserializer reads through the same double.
func TestSchemaRegistrarDouble(t *testing.T) {
	ctx := context.Background()
	m := &mapRegistrar{}
	sr1, err := NewRegistrySerializer(ctx, m, "orders", regOrderV1, SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	sr2, err := NewRegistrySerializer(ctx, m, "orders", regOrderV2, SerializerConfig{Key: true})
	if err != nil {
		t.Fatal(err)
	}
	if sr1.ID() != 100 || sr2.ID() != 101 || m.calls != 2 {
		t.Fatalf("ids %d and %d after %d calls, want 100 and 101 after 2", sr1.ID(), sr2.ID(), m.calls)
	}
	msg, err := sr1.Marshal(&regOrder{ID: 5})
	if err != nil {
		t.Fatal(err)
	}
	if id, _, err := ParseHeader(msg); err != nil || id != 100 {
		t.Fatalf("header id %d, %v", id, err)
	}
	var got regOrder
	if err := NewDeserializer(m, regOrderV2).Unmarshal(ctx, msg, &got); err != nil || got != (regOrder{ID: 5}) {
		t.Fatalf("read back %+v, %v", got, err)
	}
	// The options that read the subject need more than Register.
	for _, cfg := range []SerializerConfig{{UseLatest: true}, {GUID: true}, {CheckCompatibility: true}} {
		_, err := NewRegistrySerializer(ctx, m, "orders", regOrderV1, cfg)
		if err == nil || !strings.Contains(err.Error(), "kafka.SubjectRegistry") {
			t.Errorf("%+v with a Register-only double: %v", cfg, err)
		}
	}
}

// cachingRegistry is a SubjectRegistry that wraps the client and keeps
// the ids it registered, as a user's cache in front of a registry would.
type cachingRegistry struct {
	*registry.Client
	mu   sync.Mutex
	ids  map[string]int
	hits int
}

func (c *cachingRegistry) Register(ctx context.Context, subject string, s *schema.Schema, refs ...registry.Reference) (int, error) {
	key := subject + "\x00" + s.String()
	c.mu.Lock()
	id, ok := c.ids[key]
	if ok {
		c.hits++
	}
	c.mu.Unlock()
	if ok {
		return id, nil
	}
	id, err := c.Client.Register(ctx, subject, s, refs...)
	if err == nil {
		c.mu.Lock()
		c.ids[key] = id
		c.mu.Unlock()
	}
	return id, err
}

// A wrapper of the client is a SubjectRegistry: its Register is the one
// used, and the compatibility check goes through it.
func TestSubjectRegistryWrapper(t *testing.T) {
	ctx := context.Background()
	f, srv := fixture.NewRegistryServer(t)
	f.AlwaysCompatible = true
	rc, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c := &cachingRegistry{Client: rc, ids: map[string]int{}}
	cfg := SerializerConfig{CheckCompatibility: true}
	a, err := NewRegistrySerializer(ctx, c, "orders", regOrderV1, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewRegistrySerializer(ctx, c, "orders", regOrderV1, cfg)
	if err != nil || b.ID() != a.ID() || c.hits != 1 {
		t.Fatalf("second serializer: id %v, %v, %d hits; want id %d from the cache", b, err, c.hits, a.ID())
	}
	bad := schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"string"}]}`)
	var ie *IncompatibleSchemaError
	if _, err := NewRegistrySerializer(ctx, c, "orders", bad, cfg); !errors.As(err, &ie) {
		t.Errorf("an incompatible schema through the wrapper: %v", err)
	}
}
