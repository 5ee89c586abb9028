package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/avrogo/avro/idl"
)

var idlCmd = &command{
	name:  "idl",
	args:  "[IN.avdl|-] [OUT|-]",
	short: "compile an Avro IDL file to its protocol's or schema's JSON",
	long: `Idl reads an Avro IDL file (IN, or standard input) and writes, as
avro-tools idl does, the JSON of the protocol it declares, or the schema of
a file that declares one with the schema keyword, to OUT (or standard
output), indented. Imports are found beside the importing file, then in
the -path directories.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var path pathList
		fs.Var(&path, "path", "a `directory` searched for imports after the importing file's (repeatable)")
		return func(_ context.Context, args []string) error {
			if len(args) > 2 {
				return usagef("want at most an input and an output, got %d arguments", len(args))
			}
			in, out := "-", "-"
			if len(args) > 0 {
				in = args[0]
			}
			if len(args) > 1 {
				out = args[1]
			}
			f, err := e.parseIDL(in, path)
			if err != nil {
				return err
			}
			text := f.ProtocolJSON()
			if text == nil {
				text = f.SchemaJSON()
			}
			if text == nil {
				return fmt.Errorf("%s declares neither a protocol nor a schema", in)
			}
			o, err := e.createOutput(out, in)
			if err != nil {
				return err
			}
			o.printf("%s\n", indent(text))
			return o.close()
		}
	},
}

var idl2schemataCmd = &command{
	name:  "idl2schemata",
	args:  "IN.avdl [OUTDIR]",
	short: "write each named type of an Avro IDL file as a .avsc file",
	long: `Idl2schemata reads an Avro IDL file and writes, as avro-tools
idl2schemata does, one file NAME.avsc for each named type it declares
(records, errors, enums, fixed) into OUTDIR (default the current
directory), each schema indented, the types it refers to defined in it.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var path pathList
		fs.Var(&path, "path", "a `directory` searched for imports after the importing file's (repeatable)")
		return func(_ context.Context, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("want an input and at most an output directory, got %d arguments", len(args))
			}
			dir := "."
			if len(args) == 2 {
				dir = args[1]
			}
			f, err := e.parseIDL(args[0], path)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			for _, t := range f.Types() {
				name := filepath.Join(dir, t.Name()+".avsc")
				if err := os.WriteFile(name, append(indent([]byte(t.String())), '\n'), 0o644); err != nil {
					return err
				}
			}
			return nil
		}
	},
}

// pathList is a repeatable directory flag.
type pathList []string

func (p *pathList) String() string     { return strings.Join(*p, ",") }
func (p *pathList) Set(v string) error { *p = append(*p, v); return nil }

// parseIDL reads the IDL file name ("-" for standard input).
func (e *env) parseIDL(name string, path []string) (*idl.File, error) {
	opts := []idl.Option{idl.WithSearchPath(path...)}
	if name != "-" {
		return idl.ParseFile(name, opts...)
	}
	in, err := e.openInput(name)
	if err != nil {
		return nil, err
	}
	defer func() { _ = in.close() }()
	// One byte over the limit is enough for Parse to refuse the text.
	var b bytes.Buffer
	if _, err := b.ReadFrom(io.LimitReader(in.r, idl.DefaultMaxSize+1)); err != nil {
		return nil, err
	}
	return idl.Parse("stdin", b.Bytes(), opts...)
}

// indent writes JSON with two spaces an indent, as Java's tools do.
func indent(text []byte) []byte {
	var b bytes.Buffer
	if json.Indent(&b, text, "", "  ") != nil {
		return text
	}
	return b.Bytes()
}
