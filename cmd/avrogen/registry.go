package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/avrogo/avro/cmd/avrogen/internal/gen"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// fetch reads the schema that the registry flags name.
func fetch(ctx context.Context, o options, getenv func(string) string) (gen.Input, error) {
	or := func(v, key string) string {
		if v != "" {
			return v
		}
		return getenv(key)
	}
	var opts []registry.Option
	user, password := or(o.user, "AVRO_REGISTRY_USER"), or(o.password, "AVRO_REGISTRY_PASSWORD")
	if user != "" || password != "" {
		opts = append(opts, registry.WithBasicAuth(user, password))
	}
	if token := or(o.token, "AVRO_REGISTRY_TOKEN"); token != "" {
		opts = append(opts, registry.WithBearerToken(token))
	}
	c, err := registry.NewClient(o.registry, opts...)
	if err != nil {
		return gen.Input{}, err
	}
	var s *schema.Schema
	name := o.subject
	switch {
	case o.id != 0:
		name = "schema" + strconv.Itoa(o.id)
		s, err = c.SchemaByID(ctx, o.id)
	case o.version != 0:
		var ss registry.SubjectSchema
		ss, err = c.SchemaByVersion(ctx, o.subject, o.version)
		s = ss.Schema
	default:
		var ss registry.SubjectSchema
		ss, err = c.Latest(ctx, o.subject)
		s = ss.Schema
	}
	if err != nil {
		return gen.Input{}, fmt.Errorf("registry: %w", err)
	}
	if s == nil {
		return gen.Input{}, errors.New("registry: no schema in the response")
	}
	// A subject's name is often topic-value: the root's Go type, when it
	// needs one, is named after the topic.
	name = strings.TrimSuffix(strings.TrimSuffix(name, "-value"), "-key")
	return gen.Input{Name: name, Schema: s, Text: s.String(), Root: true}, nil
}
