package main

import (
	"context"
	"flag"
	"io"
	"strings"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// writeFlags are the flags of the commands that write container files.
type writeFlags struct {
	codec string
	level int
}

func (w *writeFlags) declare(fs *flag.FlagSet, defaultCodec string) {
	fs.StringVar(&w.codec, "codec", defaultCodec, "compress blocks with `codec`: null, deflate, snappy, zstandard (bzip2 and xz are read only)")
	fs.IntVar(&w.level, "level", 0, "the compression `level`: -2 to 9 for deflate, 1 to 22 for zstandard (0: the codec's default)")
}

// options returns the writer options of the flags, after checking them;
// codec, when the flag was not given, is the codec to use (an input's).
func (w *writeFlags) options(fs *flag.FlagSet, codec string) ([]ocf.WriterOption, error) {
	if flagSet(fs, "codec") || codec == "" {
		codec = strings.ToLower(w.codec)
	}
	if _, ok := ocf.LookupCodec(codec); !ok {
		return nil, usagef("unknown --codec %q: want null, deflate, snappy or zstandard", w.codec)
	}
	opts := []ocf.WriterOption{ocf.WithCodec(codec)}
	if w.level != 0 {
		opts = append(opts, ocf.WithCompressionLevel(w.level))
	}
	return opts, nil
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// newWriter starts a container file on out. Options the Writer refuses
// (a codec that cannot write, a level out of range) are a usage error,
// found before anything is written.
func newWriter(out io.Writer, s *schema.Schema, opts ...ocf.WriterOption) (*ocf.Writer, error) {
	if _, err := ocf.NewWriter(io.Discard, s, opts...); err != nil {
		return nil, usagef("%v", err)
	}
	return ocf.NewWriter(out, s, opts...)
}

var fromjsonCmd = &command{
	name:  "fromjson",
	args:  "[IN|-] [OUT|-]",
	short: "write JSON records to a container file",
	long: `Fromjson reads JSON values of the schema --schema, one a line (JSON Lines)
or one after the other, from IN (standard input when absent or -) and
writes them to the container file OUT (standard output when absent or -).
The JSON is the specification's encoding (what avro-tools tojson prints
and fromjson reads), or with --plain the plain JSON of "avro tojson
--plain". With --raw, the output is the binary datums alone, one after
another, with no container (avro-tools jsontofrag writes one).`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		schemaArg := fs.String("schema", "", "the schema `S` of the records (required)")
		plain := fs.Bool("plain", false, "read plain JSON: bare unions, readable logical types, base64 bytes")
		raw := fs.Bool("raw", false, "write headerless binary datums, not a container file")
		quiet := fs.Bool("quiet", false, "draw no progress line")
		var wf writeFlags
		wf.declare(fs, ocf.CodecNull)
		return func(ctx context.Context, args []string) error {
			if *schemaArg == "" {
				return usagef("--schema is required")
			}
			if len(args) > 2 {
				return usagef("want at most an input and an output, got %d arguments", len(args))
			}
			inName, outName := argOr(args, 0, "-"), argOr(args, 1, "-")
			if inName == "-" && *schemaArg == "-" {
				return usagef("the schema and the input cannot both be standard input")
			}
			s, err := e.loadSchema(*schemaArg)
			if err != nil {
				return err
			}
			var wopts []ocf.WriterOption
			if !*raw {
				if wopts, err = wf.options(fs, ""); err != nil {
					return err
				}
			} else if flagSet(fs, "codec") || flagSet(fs, "level") {
				return usagef("--codec and --level are for container files, not --raw datums")
			}
			in, err := e.openInput(inName)
			if err != nil {
				return err
			}
			defer func() { _ = in.close() }()
			out, err := e.createOutput(outName, inName)
			if err != nil {
				return err
			}
			p := e.startProgress(*quiet, outName == "-", in.size)
			err = fromJSON(ctx, p, in, out, s, *plain, *raw, wopts)
			p.stop()
			if cerr := out.close(); err == nil {
				err = cerr
			}
			return err
		}
	},
}

// argOr returns args[i], or def when there are not that many.
func argOr(args []string, i int, def string) string {
	if i < len(args) {
		return args[i]
	}
	return def
}

func fromJSON(ctx context.Context, p *progress, in *input, out *output, s *schema.Schema, plain, raw bool, wopts []ocf.WriterOption) error {
	opts := avrojson.Options{}
	if plain {
		opts = avrojson.Plain()
	}
	dec := opts.NewDecoder(p.reader(in.r), s)
	var w *ocf.Writer
	if !raw {
		var err error
		if w, err = newWriter(out, s, wopts...); err != nil {
			return err
		}
	}
	var datum []byte
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var v value.Value
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return inFile(in.name, err)
		}
		if raw {
			if datum, err = avro.Append(datum[:0], s, &v); err == nil {
				_, err = out.Write(datum)
			}
		} else {
			err = w.Encode(&v)
		}
		if err != nil {
			return inFile(in.name, err)
		}
		p.addRecords(1)
	}
	if w != nil {
		return w.Close()
	}
	return nil
}
