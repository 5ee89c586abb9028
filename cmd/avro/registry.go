package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/avrogo/avro/internal/registryflags"
	"github.com/avrogo/avro/registry"
)

// registryFlags are the flags that reach a Schema Registry, each with an
// environment variable that stands in for it.
type registryFlags struct {
	url  string
	auth registryflags.Auth
}

func (r *registryFlags) declare(fs *flag.FlagSet, urlFlag string) {
	fs.StringVar(&r.url, urlFlag, "", "the Schema Registry's `URL`, several separated by commas (default $AVRO_REGISTRY_URL)")
	r.auth.Declare(fs)
}

// client returns the registry client of the flags and the environment.
func (r *registryFlags) client(e *env, urlFlag string) (*registry.Client, error) {
	url := r.url
	if url == "" {
		url = e.getenv("AVRO_REGISTRY_URL")
	}
	if url == "" {
		return nil, usagef("no registry: give --%s or set AVRO_REGISTRY_URL", urlFlag)
	}
	c, err := r.auth.Client(url, e.getenv)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return c, nil
}

var registryCmd = &command{
	name:  "registry",
	args:  "subjects | versions SUBJECT | get ID|SUBJECT[@VERSION] | register SUBJECT S | check SUBJECT S",
	short: "list, get, register and check schemas of a Schema Registry",
	long: `Registry talks to a Confluent Schema Registry (or one that speaks its API:
Redpanda, Apicurio's compatible API, ...):

  subjects                 list the subjects
  versions SUBJECT         list a subject's versions
  get ID                   print the schema of a registry id
  get SUBJECT[@VERSION]    print the schema of a subject's version (the latest
                           by default, or @latest), and its id and version on
                           standard error
  register SUBJECT S       register the schema S under SUBJECT and print its id
  check SUBJECT S          check S against SUBJECT's latest version, or with
                           --all against the versions its mode compares with,
                           under the subject's compatibility mode: exit 0
                           when compatible, 1 with the registry's reasons

The registry's URL comes from --url or AVRO_REGISTRY_URL, and credentials
from --user and --password (or AVRO_REGISTRY_USER, AVRO_REGISTRY_PASSWORD)
or --token (AVRO_REGISTRY_TOKEN); prefer the environment for secrets, which
a command line shows to other users of the machine.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var rf registryFlags
		rf.declare(fs, "url")
		all := fs.Bool("all", false, "check: against every version the subject's mode compares with")
		return func(ctx context.Context, args []string) error {
			if len(args) == 0 {
				return usagef("want an action: subjects, versions, get, register or check")
			}
			action, args := args[0], args[1:]
			want := map[string]int{"subjects": 0, "versions": 1, "get": 1, "register": 2, "check": 2}
			n, ok := want[action]
			if !ok {
				return usagef("unknown action %q: want subjects, versions, get, register or check", action)
			}
			if len(args) != n {
				return usagef("%s wants %d arguments, got %d", action, n, len(args))
			}
			if *all && action != "check" {
				return usagef("--all is for check")
			}
			c, err := rf.client(e, "url")
			if err != nil {
				return err
			}
			out, err := e.createOutput("-")
			if err != nil {
				return err
			}
			err = registryAction(ctx, e, c, out, action, args, *all)
			if cerr := out.close(); err == nil {
				err = cerr
			}
			return err
		}
	},
}

func registryAction(ctx context.Context, e *env, c *registry.Client, out *output, action string, args []string, all bool) error {
	switch action {
	case "subjects":
		subjects, err := c.Subjects(ctx)
		if err != nil {
			return err
		}
		for _, s := range subjects {
			out.printf("%s\n", s)
		}
	case "versions":
		versions, err := c.Versions(ctx, args[0])
		if err != nil {
			return err
		}
		for _, v := range versions {
			out.printf("%d\n", v)
		}
	case "get":
		return registryGet(ctx, e, c, out, args[0])
	case "register":
		s, err := e.loadSchema(args[1])
		if err != nil {
			return err
		}
		ss, err := c.RegisterSchema(ctx, args[0], s)
		if err != nil {
			return err
		}
		out.printf("id %d", ss.ID)
		if ss.Version > 0 {
			out.printf(", version %d", ss.Version)
		}
		out.printf(" of %s\n", args[0])
	case "check":
		s, err := e.loadSchema(args[1])
		if err != nil {
			return err
		}
		v := -1
		if all {
			v = registry.AllVersions
		}
		ok, reasons, err := c.CheckCompatibility(ctx, args[0], v, s)
		if err != nil {
			return err
		}
		if ok {
			out.printf("compatible with %s\n", args[0])
			return nil
		}
		out.printf("not compatible with %s:\n", args[0])
		for _, r := range reasons {
			out.printf("  %s\n", r)
		}
		return errSilentAfter(out)
	}
	return nil
}

// errSilentAfter flushes what was written and reports a failure already
// described.
func errSilentAfter(out *output) error {
	if err := out.Flush(); err != nil {
		return err
	}
	return errSilent
}

// registryGet prints the schema of an id, or of a subject's version.
func registryGet(ctx context.Context, e *env, c *registry.Client, out *output, what string) error {
	if id, err := strconv.Atoi(what); err == nil {
		s, err := c.SchemaByID(ctx, id)
		if err != nil {
			return err
		}
		return printSchema(out, s.String())
	}
	subject, version, hasVersion := strings.Cut(what, "@")
	var ss registry.SubjectSchema
	var err error
	if !hasVersion || version == "latest" {
		ss, err = c.Latest(ctx, subject)
	} else {
		v, verr := strconv.Atoi(version)
		if verr != nil || v <= 0 {
			return usagef("version %q of %s: want a number from 1, or latest", version, subject)
		}
		ss, err = c.SchemaByVersion(ctx, subject, v)
	}
	if err != nil {
		return err
	}
	// The schema alone goes to standard output, to be saved or piped.
	say(e.stderr, "%s version %d, id %d\n", ss.Subject, ss.Version, ss.ID)
	return printSchema(out, ss.Schema.String())
}

// printSchema writes a schema's JSON indented.
func printSchema(out *output, text string) error {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(text), "", "  "); err != nil {
		return fmt.Errorf("the registry's schema is not JSON: %w", err)
	}
	b.WriteByte('\n')
	_, err := out.Write(b.Bytes())
	return err
}
