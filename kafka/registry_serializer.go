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

// NewRegistrySerializer returns a Serializer for topic whose schema id
// comes from the registry c: by default s is registered under its subject
// (registering a schema the subject has returns its id); with UseLatest
// the subject's latest version is used. The id is fixed once the
// Serializer is made, so writing a message costs what NewSerializer's
// does.
func NewRegistrySerializer(ctx context.Context, c *registry.Client, topic string, s *schema.Schema, cfg SerializerConfig) (*Serializer, error) {
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
		if ss.ID, err = c.Register(ctx, subject, s, cfg.References...); err != nil {
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
