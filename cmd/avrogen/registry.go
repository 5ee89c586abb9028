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

// request names one schema of a registry: a subject's version (0 for the
// latest), or an id.
type request struct {
	subject     string
	version, id int
}

// parseRequest reads hamba's form of a subject: SUBJECT[:VERSION], the
// version a number or "latest".
func parseRequest(arg string) (request, error) {
	subject, v, ok := strings.Cut(arg, ":")
	if subject == "" {
		return request{}, fmt.Errorf("%q names no subject", arg)
	}
	if !ok || v == "latest" {
		return request{subject: subject}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return request{}, fmt.Errorf("%q: the version must be a positive number or latest", arg)
	}
	return request{subject: subject, version: n}, nil
}

// fetch reads the schemas the requests name.
func fetch(ctx context.Context, o options, getenv func(string) string, reqs []request) ([]gen.Input, error) {
	c, err := o.auth.Client(o.registry, getenv)
	if err != nil {
		return nil, err
	}
	var out []gen.Input
	for _, req := range reqs {
		var s *schema.Schema
		name := req.subject
		switch {
		case req.id != 0:
			name = "schema" + strconv.Itoa(req.id)
			s, err = c.SchemaByID(ctx, req.id)
		case req.version != 0:
			var ss registry.SubjectSchema
			ss, err = c.SchemaByVersion(ctx, req.subject, req.version)
			s = ss.Schema
		default:
			var ss registry.SubjectSchema
			ss, err = c.Latest(ctx, req.subject)
			s = ss.Schema
		}
		if err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
		if s == nil {
			return nil, errors.New("registry: no schema in the response")
		}
		// A subject's name is often topic-value: the root's Go type,
		// when it needs one, is named after the topic.
		name = strings.TrimSuffix(strings.TrimSuffix(name, "-value"), "-key")
		out = append(out, gen.Input{Name: name, Schema: s, Text: s.String(), Root: true})
	}
	return out, nil
}
