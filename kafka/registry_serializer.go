package kafka

import (
	"context"
	"errors"
	"fmt"

	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// SerializerConfig says how NewRegistrySerializer gets its schema id.
type SerializerConfig struct {
	// Subject names the subject; nil is TopicName.
	Subject SubjectNameStrategy
	// Key makes the Serializer write keys rather than values (the
	// subject "<topic>-key" under TopicName).
	Key bool
	// UseLatest writes with the latest version of the subject, under its
	// id, instead of registering the schema. With CheckLatest, values of
	// the schema given must then be readable as that version
	// (schema.Resolve), or NewRegistrySerializer fails.
	UseLatest   bool
	CheckLatest bool
	// References name the schemas registered before that define named
	// types the schema uses (see registry.Client.Register).
	References []registry.Reference
	// GUID makes the Serializer name the schema by its GUID (MagicGUID)
	// rather than its id; the registry must give GUIDs (Confluent
	// Platform 8 and later).
	GUID bool
	// CheckCompatibility checks the schema against the subject's
	// versions before registering it, and refuses to register it with
	// an *IncompatibleSchemaError that lists every reason when it is not
	// compatible. Two checks are made: the registry's own (which some
	// registries, in-memory fakes among them, answer "compatible" to
	// everything), and the local one of schema.CheckMode under the
	// subject's compatibility level (its own, else the global one, else
	// BACKWARD) against the versions that level compares with; NONE
	// skips the local check. A subject without versions passes. Without
	// it, a registry that checks refuses an incompatible schema itself,
	// and one that does not registers it. It does not apply with
	// UseLatest, which registers nothing (see CheckLatest).
	CheckCompatibility bool
}

// SchemaRegistrar registers schemas under subjects: what
// NewRegistrySerializer needs of a registry by default. Register returns
// the id of s under subject, registering it when the subject does not
// hold it yet; references are as for registry.Client.Register.
// *registry.Client implements it, and so can a cache, a test double or
// another registry client. Implementations must be safe for concurrent
// use.
type SchemaRegistrar interface {
	Register(ctx context.Context, subject string, s *schema.Schema, refs ...registry.Reference) (int, error)
}

// SubjectRegistry is a SchemaRegistrar that also reads a subject's
// versions and compatibility level and checks schemas against them: what
// the options GUID (RegisterSchema), UseLatest (Latest) and
// CheckCompatibility (Config, CheckCompatibility, Versions,
// SchemaByVersion) need. The methods mean what those of
// *registry.Client, which implements it, do; errors should match the
// registry package's sentinels (registry.ErrSubjectNotFound, ...).
type SubjectRegistry interface {
	SchemaRegistrar
	RegisterSchema(ctx context.Context, subject string, s *schema.Schema, refs ...registry.Reference) (registry.SubjectSchema, error)
	Latest(ctx context.Context, subject string) (registry.SubjectSchema, error)
	Versions(ctx context.Context, subject string) ([]int, error)
	SchemaByVersion(ctx context.Context, subject string, version int) (registry.SubjectSchema, error)
	Config(ctx context.Context, subject string) (string, error)
	CheckCompatibility(ctx context.Context, subject string, version int, s *schema.Schema, refs ...registry.Reference) (ok bool, reasons []string, err error)
}

var _ SubjectRegistry = (*registry.Client)(nil)

// NewRegistrySerializer returns a Serializer for topic whose schema id
// comes from the registry r: by default s is registered under its subject
// (registering a schema the subject has returns its id); with UseLatest
// the subject's latest version is used. The options GUID, UseLatest and
// CheckCompatibility need r to be a SubjectRegistry. The id is fixed once the
// Serializer is made, so writing a message costs what NewSerializer's
// does.
func NewRegistrySerializer(ctx context.Context, r SchemaRegistrar, topic string, s *schema.Schema, cfg SerializerConfig) (*Serializer, error) {
	if s == nil {
		return nil, errors.New("kafka: nil schema")
	}
	strategy := cfg.Subject
	if strategy == nil {
		strategy = TopicName
	}
	subject := strategy(topic, cfg.Key, s)
	if subject == "" {
		return nil, fmt.Errorf("kafka: topic %s: the subject name strategy gave no subject", topic)
	}
	c, full := r.(SubjectRegistry)
	if !full && (cfg.GUID || cfg.UseLatest || cfg.CheckCompatibility) {
		return nil, fmt.Errorf("kafka: topic %s: the options GUID, UseLatest and CheckCompatibility need a registry that implements kafka.SubjectRegistry; %T does not", topic, r)
	}
	var ss registry.SubjectSchema
	var err error
	if cfg.CheckCompatibility && !cfg.UseLatest {
		if err := checkCompatibility(ctx, c, topic, subject, s, cfg.References); err != nil {
			return nil, err
		}
	}
	switch {
	case !cfg.UseLatest && !cfg.GUID:
		// Register alone: the id is all that is needed, and its answer
		// is cached.
		ss.Schema = s
		if ss.ID, err = r.Register(ctx, subject, s, cfg.References...); err != nil {
			return nil, fmt.Errorf("kafka: topic %s: registering under %s: %w", topic, subject, err)
		}
	case !cfg.UseLatest:
		if ss, err = c.RegisterSchema(ctx, subject, s, cfg.References...); err != nil {
			return nil, fmt.Errorf("kafka: topic %s: registering under %s: %w", topic, subject, err)
		}
	default:
		if ss, err = c.Latest(ctx, subject); err != nil {
			return nil, fmt.Errorf("kafka: topic %s: the latest version of %s: %w", topic, subject, err)
		}
		if cfg.CheckLatest {
			if _, err := schema.Resolve(s, ss.Schema); err != nil {
				return nil, fmt.Errorf("kafka: topic %s: the schema cannot be read as version %d of %s: %w", topic, ss.Version, subject, err)
			}
		}
	}
	var sr *Serializer
	switch {
	case !cfg.GUID:
		sr, err = NewSerializer(ss.ID, ss.Schema)
	case ss.GUID == [GUIDSize]byte{}:
		return nil, fmt.Errorf("kafka: topic %s: the registry gives no GUID for id %d of %s", topic, ss.ID, subject)
	default:
		sr, err = NewGUIDSerializer(ss.GUID, ss.Schema)
	}
	if err != nil {
		return nil, fmt.Errorf("kafka: topic %s: %w", topic, err)
	}
	sr.topic = topic
	return sr, nil
}
