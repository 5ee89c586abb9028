package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/avrogo/avro/cmd/avrogen/internal/gen"
	"github.com/avrogo/avro/internal/registryflags"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// Exit codes, as the go command has them: 2 for a command line it cannot
// use, 1 for a failure.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

type options struct {
	pkg, out           string
	fullName, encoders bool
	tags               string
	logical, types     mapFlag
	registry           string
	subject            string
	version, id        int
	auth               registryflags.Auth
	timeout            time.Duration
	initialisms        string
	pkgDoc             string
	hambaRegistry      string
	hambaLogical       hambaLogicalFlag
	template           string
	ignored            bool
}

// mapFlag is a repeatable KEY=VALUE flag; a value may also list several
// pairs separated by commas.
type mapFlag map[string]string

func (m mapFlag) String() string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k+"="+m[k])
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

func (m mapFlag) Set(v string) error {
	for _, pair := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(pair, "=")
		if !ok || k == "" || val == "" {
			return fmt.Errorf("%q is not NAME=GOTYPE", pair)
		}
		m[k] = val
	}
	return nil
}

const usageText = `usage: avrogen [flags] SCHEMA...

Avrogen writes Go types for Avro schemas: a struct for each record, a
named string type with constants for each enum, a byte array type for each
fixed, and an interface with a type per branch for each union of several
branches. The types go to avro.Marshal, avro.Unmarshal and the packages
ocf, kafka and avrojson as they are; each has a Schema method.

A SCHEMA is a .avsc file (one schema, or a JSON array read as a union), a
.avpr protocol (its types), a .avdl Avro IDL file, a directory (its .avsc,
.avpr and .avdl files), or - for standard input; with none, standard input
is read. Files may refer to each other's types in any order. With
-registry, the schema of a subject (-subject, at -version) or of an id
(-id) is fetched from a Schema Registry.

Use it from go generate:

	//go:generate go run github.com/avrogo/avro/cmd/avrogen -o types.go schemas/

Flags:
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	o := options{logical: mapFlag{}, types: mapFlag{}}
	o.hambaLogical.m = o.logical
	fs := flag.NewFlagSet("avrogen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		say(fs.Output(), "%s", usageText)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.pkg, "pkg", "", "the `package` name of the generated file (default $GOPACKAGE)")
	fs.StringVar(&o.out, "o", "", "the output `file` (default standard output)")
	fs.BoolVar(&o.fullName, "fullname", false, "name types by their full names, namespace included")
	fs.BoolVar(&o.encoders, "encoders", false, "give records MarshalAvro and UnmarshalAvro methods")
	fs.StringVar(&o.tags, "tags", "", "extra struct `tags`: KEY:STYLE,... with STYLE one of "+strings.Join(gen.TagStyles, ", ")+" (json:snake,yaml:camel)")
	fs.Var(o.logical, "logical", "a Go type for a logical type, `LOGICAL=GOTYPE` (uuid=github.com/google/uuid.UUID); repeatable")
	fs.Var(o.types, "type", "a Go type for a named Avro type instead of a generated one, `FULLNAME=GOTYPE` (com.acme.Money=example.com/money.Amount); repeatable")
	fs.StringVar(&o.initialisms, "initialisms", "", "extra `words` to write in upper case in Go names, separated by commas (SKU,EAN)")
	fs.StringVar(&o.pkgDoc, "pkgdoc", "", "the package's doc comment `text`")
	// hamba/avro's avrogen flags, so that its command lines run here.
	fs.BoolVar(&o.ignored, "strict-types", false, "accepted for hamba/avro's avrogen: int is always int32 here")
	fs.BoolVar(&o.ignored, "enums", false, "accepted for hamba/avro's avrogen: enums are always string types with constants here")
	fs.BoolVar(&o.ignored, "fullschema", false, "accepted for hamba/avro's avrogen: Schema methods always return the full schema here")
	fs.Var(&o.hambaLogical, "logicaltype", "hamba/avro's form of -logical: `LOGICAL,GOTYPE[,IMPORT]` (uuid,uuid.UUID,github.com/google/uuid); repeatable")
	fs.StringVar(&o.hambaRegistry, "schemaregistry", "", "hamba/avro's form of -registry: the `URL`, with SUBJECT[:VERSION] arguments instead of schema files")
	fs.StringVar(&o.template, "template-filename", "", "not supported (hamba/avro's avrogen takes a template `file`)")
	fs.StringVar(&o.registry, "registry", "", "a Schema Registry `URL` to fetch the schema from (with -subject or -id)")
	fs.StringVar(&o.subject, "subject", "", "the registry `subject` whose schema to fetch")
	fs.IntVar(&o.version, "version", 0, "the subject's schema `version` (default the latest)")
	fs.IntVar(&o.id, "id", 0, "the registry `id` of the schema to fetch")
	o.auth.Declare(fs)
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "how long the registry may take")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	usage := func(format string, args ...any) int {
		say(stderr, "avrogen: "+format+"\n", args...)
		say(stderr, "run 'avrogen -help' for usage\n")
		return exitUsage
	}
	if o.pkg == "" {
		o.pkg = getenv("GOPACKAGE")
	}
	if o.pkg == "" {
		return usage("no package name: give -pkg, or run from go generate")
	}
	if !gen.IsIdentifier(o.pkg) || o.pkg == "_" {
		return usage("-pkg %q is not a Go package name", o.pkg)
	}
	if o.template != "" {
		return usage("-template-filename is not supported: the generated code is the library's own (see go doc github.com/avrogo/avro/cmd/avrogen)")
	}
	cfg := gen.Config{Package: o.pkg, PackageDoc: o.pkgDoc, FullName: o.fullName, Encoders: o.encoders, Logical: o.logical, Types: o.types}
	tags, err := parseTags(o.tags)
	if err != nil {
		return usage("-tags: %v", err)
	}
	cfg.Tags = tags
	if o.initialisms != "" {
		cfg.Initialisms = strings.Split(o.initialisms, ",")
	}

	var inputs []gen.Input
	paths := fs.Args()
	var reqs []request
	switch {
	case o.registry != "" && o.hambaRegistry != "":
		return usage("give one of -registry and -schemaregistry")
	case o.registry != "":
		if o.subject == "" && o.id == 0 || o.subject != "" && o.id != 0 {
			return usage("-registry needs one of -subject and -id")
		}
		reqs = []request{{subject: o.subject, version: o.version, id: o.id}}
	case o.hambaRegistry != "":
		if len(paths) == 0 {
			return usage("-schemaregistry needs SUBJECT[:VERSION] arguments")
		}
		for _, arg := range paths {
			req, err := parseRequest(arg)
			if err != nil {
				return usage("%v", err)
			}
			reqs = append(reqs, req)
		}
		o.registry, paths = o.hambaRegistry, nil
	case o.subject != "" || o.id != 0 || o.version != 0:
		return usage("-subject, -id and -version need -registry")
	case len(paths) == 0:
		paths = []string{"-"}
	}
	if len(reqs) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
		defer cancel()
		fetched, err := fetch(ctx, o, getenv, reqs)
		if err != nil {
			say(stderr, "avrogen: %v\n", err)
			return exitFail
		}
		inputs = fetched
	}
	if len(paths) > 0 || len(inputs) > 0 {
		inputs, err = gen.Load(paths, stdin, inputs)
	}
	if err != nil {
		say(stderr, "avrogen: %v\n", err)
		return exitFail
	}
	res, err := gen.Generate(cfg, inputs)
	if err != nil {
		say(stderr, "avrogen: %v\n", err)
		return exitFail
	}
	for _, w := range res.Warnings {
		say(stderr, "avrogen: %s\n", w)
	}
	if o.out == "" {
		if _, err := stdout.Write(res.Code); err != nil {
			say(stderr, "avrogen: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	if err := os.WriteFile(o.out, res.Code, 0o644); err != nil {
		say(stderr, "avrogen: %v\n", err)
		return exitFail
	}
	return exitOK
}

// hambaLogicalFlag reads hamba/avro's -logicaltype LOGICAL,GOTYPE[,IMPORT]
// into the -logical map.
type hambaLogicalFlag struct{ m mapFlag }

func (h *hambaLogicalFlag) String() string { return "" }

func (h *hambaLogicalFlag) Set(v string) error {
	parts := strings.Split(v, ",")
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" || parts[1] == "" {
		return fmt.Errorf("%q is not LOGICAL,GOTYPE[,IMPORT]", v)
	}
	goType := parts[1]
	if len(parts) == 3 {
		// uuid.UUID from github.com/google/uuid is github.com/google/uuid.UUID
		goType = parts[2] + "." + goType[strings.LastIndexByte(goType, '.')+1:]
		if strings.HasPrefix(parts[1], "*") {
			goType = "*" + goType
		}
	}
	h.m[parts[0]] = goType
	return nil
}

func parseTags(s string) ([]gen.Tag, error) {
	if s == "" {
		return nil, nil
	}
	var tags []gen.Tag
	for _, part := range strings.Split(s, ",") {
		k, style, ok := strings.Cut(part, ":")
		if !ok || k == "" || strings.ContainsAny(k, " `\":") {
			return nil, fmt.Errorf("%q is not KEY:STYLE", part)
		}
		tags = append(tags, gen.Tag{Key: k, Style: style})
	}
	return tags, nil
}

// say writes a message for the user; there is nowhere to report a
// failure to write it.
func say(w io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(w, format, args...)
}
