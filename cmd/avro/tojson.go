package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

var tojsonCmd = &command{
	name:  "tojson",
	args:  "FILE...",
	short: "print the records of container files as JSON Lines",
	long: `Tojson prints the records of the container files FILE (or - for standard
input) as JSON, one record a line: the specification's JSON encoding (what
avro-tools tojson prints: unions as {"type": value}, bytes as code
points), or with --plain JSON for people (bare unions, RFC 3339 times,
exact decimals, base64 bytes). Records are rendered from their binary
form, without decoding them into values.

With --reader-schema, records are read into the shape of that schema
through schema resolution. With --raw, the input is binary datums of
--schema, one after another with no container around them (avro-tools
fragtojson reads one).`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var o jsonOut
		fs.BoolVar(&o.pretty, "pretty", false, "indent each record over several lines")
		fs.BoolVar(&o.plain, "plain", false, "write plain JSON: bare unions, readable logical types, base64 bytes")
		readerArg := fs.String("reader-schema", "", "read records into the shape of schema `S`")
		head := fs.Int64("head", -1, "print the first `N` records only")
		raw := fs.Bool("raw", false, "read headerless binary datums of --schema")
		schemaArg := fs.String("schema", "", "the schema `S` of --raw datums")
		quiet := fs.Bool("quiet", false, "draw no progress line")
		jobs := jobsFlag(fs)
		return func(ctx context.Context, args []string) error {
			if len(args) == 0 {
				return usagef("want at least one file (- for standard input)")
			}
			if err := checkInputs(args); err != nil {
				return err
			}
			ropts, err := readerJobs(*jobs)
			if err != nil {
				return err
			}
			var reader *schema.Schema
			if *readerArg != "" {
				if reader, err = e.loadSchema(*readerArg); err != nil {
					return err
				}
				ropts = append(ropts, ocf.WithReaderSchema(reader))
			}
			out, err := e.createOutput("-")
			if err != nil {
				return err
			}
			o.out, o.left, o.flushLines = out, *head, e.stdoutTerminal
			if *raw {
				if *schemaArg == "" {
					return usagef("--raw needs --schema")
				}
				err = o.rawFiles(ctx, e, args, *schemaArg, reader, *quiet)
			} else {
				if *schemaArg != "" {
					return usagef("--schema is for --raw input; a container file holds its schema")
				}
				err = o.files(ctx, e, args, reader, ropts, *quiet)
			}
			if cerr := out.close(); err == nil {
				err = cerr
			}
			return err
		}
	},
}

// jsonOut writes records as JSON lines.
type jsonOut struct {
	out           *output
	pretty, plain bool
	// left is the number of records still to print, or negative for all.
	left int64
	// flushLines flushes each line, for a person at a terminal.
	flushLines bool
	line, ind  []byte
}

func (o *jsonOut) options() avrojson.Options {
	if o.plain {
		return avrojson.Plain()
	}
	return avrojson.Options{}
}

// done reports whether --head has been reached.
func (o *jsonOut) done() bool { return o.left == 0 }

// write renders one datum of s as a line.
func (o *jsonOut) write(opts avrojson.Options, s *schema.Schema, datum []byte) error {
	var err error
	if o.line, err = opts.BinaryToJSON(o.line[:0], s, datum); err != nil {
		return err
	}
	text := o.line
	if o.pretty {
		var b bytes.Buffer
		b.Grow(2 * len(text))
		if err := json.Indent(&b, text, "", "  "); err != nil {
			return err
		}
		o.ind = append(o.ind[:0], b.Bytes()...)
		text = o.ind
	}
	_, _ = o.out.Write(text) // a bufio.Writer's error sticks: WriteByte returns it
	if err := o.out.WriteByte('\n'); err != nil {
		return err
	}
	if o.flushLines {
		if err := o.out.Flush(); err != nil {
			return err
		}
	}
	if o.left > 0 {
		o.left--
	}
	return nil
}

func (o *jsonOut) files(ctx context.Context, e *env, names []string, reader *schema.Schema, ropts []ocf.ReaderOption, quiet bool) error {
	opts := o.options()
	for _, name := range names {
		if o.done() {
			return nil
		}
		in, err := e.openInput(name)
		if err != nil {
			return err
		}
		err = o.file(ctx, e, in, reader, ropts, opts, quiet)
		_ = in.close()
		if err != nil {
			return err
		}
	}
	return nil
}

func (o *jsonOut) file(ctx context.Context, e *env, in *input, reader *schema.Schema, ropts []ocf.ReaderOption, opts avrojson.Options, quiet bool) error {
	p := e.startProgress(quiet, true, in.size)
	defer p.stop()
	r, err := ocf.NewReader(p.reader(in.r), ropts...)
	if err != nil {
		return inFile(in.name, err)
	}
	// Close stops the goroutines of -j, which read ahead of --head.
	defer func() { _ = r.Close() }()
	s := r.Schema()
	if reader != nil {
		if s, err = schema.Resolve(s, reader); err != nil {
			return inFile(in.name, err)
		}
	}
	for n := int64(0); !o.done(); n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		datum, err := r.Raw()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return inFile(in.name, err)
		}
		if err := o.write(opts, s, datum); err != nil {
			return inFile(in.name, recordErr(r, err))
		}
		p.addRecords(1)
	}
	return nil
}

// recordErr says where the record that failed to render is.
func recordErr(r *ocf.Reader, err error) error {
	var ae *avro.Error
	if errors.As(err, &ae) {
		return fmt.Errorf("record ending at offset %d: %w", r.Offset(), err)
	}
	return err
}

// rawFiles renders headerless datums of the schema S.
func (o *jsonOut) rawFiles(ctx context.Context, e *env, names []string, schemaArg string, reader *schema.Schema, quiet bool) error {
	s, err := e.loadSchema(schemaArg)
	if err != nil {
		return err
	}
	if reader != nil {
		if s, err = schema.Resolve(s, reader); err != nil {
			return err
		}
	}
	opts := o.options()
	for _, name := range names {
		if o.done() {
			return nil
		}
		in, err := e.openInput(name)
		if err != nil {
			return err
		}
		p := e.startProgress(quiet, true, in.size)
		d := avro.NewDecoder(p.reader(in.r), s)
		for !o.done() {
			var datum []byte
			if datum, err = d.Raw(); err != nil {
				break
			}
			if err = o.write(opts, s, datum); err != nil {
				break
			}
			p.addRecords(1)
			if err = ctx.Err(); err != nil {
				break
			}
		}
		p.stop()
		_ = in.close()
		if err != nil && err != io.EOF {
			return inFile(in.name, err)
		}
	}
	return nil
}
