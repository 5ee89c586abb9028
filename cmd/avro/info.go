package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/avrogo/avro/ocf"
)

// openContainer opens the named input as a container file, counting its
// bytes for the progress line p.
func (e *env) openContainer(name string, p *progress, opts ...ocf.ReaderOption) (*input, *ocf.Reader, error) {
	in, err := e.openInput(name)
	if err != nil {
		return nil, nil, err
	}
	r, err := ocf.NewReader(p.reader(in.r), opts...)
	if err != nil {
		_ = in.close()
		return nil, nil, inFile(in.name, err)
	}
	return in, r, nil
}

var getschemaCmd = &command{
	name:  "getschema",
	args:  "FILE",
	short: "print the schema of a container file",
	long: `Getschema prints the schema of the container file FILE (or - for standard
input), from its header, as the file holds it, indented.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return func(_ context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one file, got %d arguments", len(args))
			}
			in, r, err := e.openContainer(args[0], nil)
			if err != nil {
				return err
			}
			defer func() { _ = in.close() }()
			var out bytes.Buffer
			if err := json.Indent(&out, r.Metadata()["avro.schema"], "", "  "); err != nil {
				out.Reset()
				out.WriteString(r.Schema().String())
			}
			out.WriteByte('\n')
			_, err = e.stdout.Write(out.Bytes())
			return err
		}
	},
}

var getmetaCmd = &command{
	name:  "getmeta",
	args:  "FILE",
	short: "print the metadata of a container file",
	long: `Getmeta prints the metadata of the container file FILE (or - for standard
input), one "key<TAB>value" a line in key order, or with --key the value
of one key alone, as its bytes.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		key := fs.String("key", "", "print the value of metadata `key` only")
		return func(_ context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one file, got %d arguments", len(args))
			}
			in, r, err := e.openContainer(args[0], nil)
			if err != nil {
				return err
			}
			defer func() { _ = in.close() }()
			meta := r.Metadata()
			if *key != "" {
				v, ok := meta[*key]
				if !ok {
					return inFile(in.name, fmt.Errorf("no metadata key %q", *key))
				}
				_, err := e.stdout.Write(append(v, '\n'))
				return err
			}
			var out bytes.Buffer
			for _, k := range slices.Sorted(maps.Keys(meta)) {
				fmt.Fprintf(&out, "%s\t%s\n", k, meta[k])
			}
			_, err = e.stdout.Write(out.Bytes())
			return err
		}
	},
}

var countCmd = &command{
	name:  "count",
	args:  "FILE...",
	short: "count the records and blocks of container files",
	long: `Count prints the number of records and blocks of each container file
(or - for standard input), reading block headers only: no block is
decompressed and no record decoded, and blocks are sought over in files.
With several files, each line names its file and a total follows.

Count takes -j as tojson and validate do, so that their command lines
can share it, but with no block to decompress it reads on one goroutine
whatever N is.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		quiet := fs.Bool("quiet", false, "draw no progress line")
		jobs := fs.Int("j", 0, "accepted as tojson and validate take it (`N` goroutines); count decompresses nothing")
		return func(ctx context.Context, args []string) error {
			if len(args) == 0 {
				return usagef("want at least one file")
			}
			if err := checkInputs(args); err != nil {
				return err
			}
			// The parallel reader would read and decompress every block
			// that count seeks over.
			if _, err := readerJobs(*jobs); err != nil {
				return err
			}
			out, err := e.createOutput("-")
			if err != nil {
				return err
			}
			var recs, blocks int64
			for _, name := range args {
				r, b, err := e.countFile(ctx, name, *quiet)
				if err != nil {
					_ = out.close()
					return err
				}
				recs, blocks = recs+r, blocks+b
				if len(args) > 1 {
					out.printf("%s: ", name)
				}
				out.printf("%s in %s\n", plural(r, "record"), plural(b, "block"))
			}
			if len(args) > 1 {
				out.printf("total: %s in %s\n", plural(recs, "record"), plural(blocks, "block"))
			}
			return out.close()
		}
	},
}

func (e *env) countFile(ctx context.Context, name string, quiet bool) (recs, blocks int64, err error) {
	in, err := e.openInput(name)
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = in.close() }()
	p := e.startProgress(quiet, true, in.size)
	defer p.stop()
	// The Reader seeks over block data when it can, so the progress is
	// the offset of each block rather than the bytes read.
	r, err := ocf.NewReader(in.r)
	if err != nil {
		return 0, 0, inFile(in.name, err)
	}
	for {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		b, err := r.SkipBlock()
		if err == io.EOF {
			return recs, blocks, nil
		}
		if err != nil {
			return 0, 0, inFile(in.name, err)
		}
		recs, blocks = recs+b.Count, blocks+1
		p.addRecords(b.Count)
		p.setBytes(r.Offset())
	}
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
