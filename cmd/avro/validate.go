package main

import (
	"context"
	"errors"
	"flag"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

var validateCmd = &command{
	name:  "validate",
	args:  "FILE...",
	short: "check that every block and record of container files reads",
	long: `Validate reads every block of the container files FILE (- for standard
input) and decodes every record: each block must decompress, hold the
records its header counts and no byte more, and end with the file's sync
marker, and each record must decode (its strings UTF-8, its logical
values valid). With --reader-schema, each record must also read into that
schema. It prints one line a file, "ok" with the counts or the first
problem with its block and offset, and exits 1 if any file is bad.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		readerArg := fs.String("reader-schema", "", "also read every record into schema `S`")
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
			}
			out, err := e.createOutput("-")
			if err != nil {
				return err
			}
			bad := 0
			for _, name := range args {
				recs, blocks, err := e.validateFile(ctx, name, reader, ropts, *quiet)
				if errors.Is(err, context.Canceled) {
					_ = out.close()
					return err
				}
				shown := name
				if name == "-" {
					shown = "stdin"
				}
				if err != nil {
					bad++
					var fe *fileError
					if errors.As(err, &fe) {
						err = fe.err
					}
					out.printf("%s: %v\n", shown, err)
					continue
				}
				out.printf("%s: ok, %s in %s\n", shown, plural(recs, "record"), plural(blocks, "block"))
			}
			if err := out.close(); err != nil {
				return err
			}
			if bad > 0 {
				return errSilent
			}
			return nil
		}
	},
}

func (e *env) validateFile(ctx context.Context, name string, reader *schema.Schema, ropts []ocf.ReaderOption, quiet bool) (recs, blocks int64, err error) {
	in, err := e.openInput(name)
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = in.close() }()
	p := e.startProgress(quiet, true, in.size)
	defer p.stop()
	opts := append([]ocf.ReaderOption{ocf.WithDecodeOptions(avro.DecodeOptions{ValidateUTF8: true})}, ropts...)
	if reader != nil {
		opts = append(opts, ocf.WithReaderSchema(reader))
	}
	r, err := ocf.NewReader(p.reader(in.r), opts...)
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = r.Close() }()
	var v value.Value
	last := int64(-1)
	for r.Next() {
		if recs&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		if err := r.Decode(&v); err != nil {
			return 0, 0, err
		}
		recs++
		p.addRecords(1)
		// The Reader reads a block whole when it starts on it, so the
		// offset consumed moves once a block (blocks of no records are
		// not counted).
		if off := r.Offset(); off != last {
			blocks++
			last = off
		}
	}
	if err := r.Err(); err != nil {
		return 0, 0, err
	}
	return recs, blocks, nil
}
