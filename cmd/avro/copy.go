package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

// sources opens container files one after the other, for the commands
// that read several into one.
type sources struct {
	e     *env
	names []string
	p     *progress
}

// each opens every input in turn and calls fn with its reader; the input
// is closed when fn returns.
func (s *sources) each(fn func(name string, r *ocf.Reader) error) error {
	for _, name := range s.names {
		in, r, err := s.e.openContainer(name, s.p)
		if err != nil {
			return err
		}
		err = fn(in.name, r)
		_ = in.close()
		if err != nil {
			return inFile(in.name, err)
		}
	}
	return nil
}

// totalSize is the bytes of the inputs together, or -1 when one of them
// is not a file of known size.
func totalSize(names []string) int64 {
	var total int64
	for _, name := range names {
		if name == "-" {
			return -1
		}
		in, err := (&env{}).openInput(name)
		if err != nil {
			return -1
		}
		size := in.size
		_ = in.close()
		if size < 0 {
			return -1
		}
		total += size
	}
	return total
}

// header is what the output of cat, concat and recodec takes from the
// first input: its schema, codec and user metadata.
type header struct {
	s     *schema.Schema
	codec string
	meta  map[string][]byte
}

func headerOf(r *ocf.Reader) header {
	meta := r.Metadata()
	for k := range meta {
		if strings.HasPrefix(k, "avro.") {
			delete(meta, k)
		}
	}
	return header{s: r.Schema(), codec: r.Codec(), meta: meta}
}

// sameSchema checks that a later input has the first one's schema.
func (h *header) sameSchema(r *ocf.Reader) error {
	if r.Schema().Canonical() != h.s.Canonical() {
		return fmt.Errorf("its schema differs from the first input's (canonical forms %s and %s)", r.Schema().Canonical(), h.s.Canonical())
	}
	return nil
}

func (h *header) writerOptions() []ocf.WriterOption {
	var opts []ocf.WriterOption
	for _, k := range slices.Sorted(maps.Keys(h.meta)) {
		opts = append(opts, ocf.WithMetadata(k, h.meta[k]))
	}
	return opts
}

// copyCmd is the shape of cat, concat and recodec: inputs, then an output.
func splitOutput(args []string, minIn int) (ins []string, out string, err error) {
	if len(args) < minIn+1 {
		return nil, "", usagef("want %d or more inputs and an output", minIn)
	}
	ins, out = args[:len(args)-1], args[len(args)-1]
	if err := checkInputs(ins); err != nil {
		return nil, "", err
	}
	return ins, out, nil
}

var catCmd = &command{
	name:  "cat",
	args:  "IN... OUT|-",
	short: "copy records of container files into one, with offsets and sampling",
	long: `Cat copies the records of the container files IN (- for standard input)
into the container file OUT (- for standard output), as avro-tools cat
does: --offset skips records at the start, --limit stops after that many
records have been written, and --samplerate keeps that fraction of the
records, evenly spaced. The inputs must have one schema (the same
canonical form); the output has the first input's schema, user metadata
and, unless --codec says otherwise, its codec. Records are copied as
bytes, without being decoded.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		offset := fs.Int64("offset", 0, "skip the first `N` records")
		limit := fs.Int64("limit", -1, "write at most `N` records")
		rate := fs.Float64("samplerate", 1, "keep this `fraction` of the records, in (0, 1]")
		quiet := fs.Bool("quiet", false, "draw no progress line")
		var wf writeFlags
		wf.declare(fs, ocf.CodecNull)
		return func(ctx context.Context, args []string) error {
			ins, outName, err := splitOutput(args, 1)
			if err != nil {
				return err
			}
			switch {
			case *offset < 0:
				return usagef("--offset must not be negative")
			case !(*rate > 0 && *rate <= 1):
				return usagef("--samplerate must be in (0, 1]")
			}
			p := e.startProgress(*quiet, outName == "-", totalSize(ins))
			defer p.stop()
			var w *ocf.Writer
			var h header
			var out *output
			skip, left := *offset, *limit
			var seen int64 // records past the offset, for the sampling
			src := sources{e: e, names: ins, p: p}
			err = src.each(func(name string, r *ocf.Reader) error {
				if w == nil {
					h = headerOf(r)
					opts, err := wf.options(fs, h.codec)
					if err != nil {
						return err
					}
					if out, err = e.createOutput(outName, ins...); err != nil {
						return err
					}
					if w, err = newWriter(out, h.s, append(h.writerOptions(), opts...)...); err != nil {
						return err
					}
				} else if err := h.sameSchema(r); err != nil {
					return err
				}
				for n := 0; left != 0; n++ {
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
						return err
					}
					p.addRecords(1)
					if skip > 0 {
						skip--
						continue
					}
					keep := int64(float64(seen+1)**rate) > int64(float64(seen)**rate)
					seen++
					if !keep {
						continue
					}
					if err := w.EncodeRaw(datum); err != nil {
						return err
					}
					if left > 0 {
						left--
					}
				}
				return nil
			})
			return finishWriter(w, out, err)
		}
	},
}

// finishWriter closes the container writer and its output, returning the
// first error.
func finishWriter(w *ocf.Writer, out *output, err error) error {
	if w != nil {
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if out != nil {
		if cerr := out.close(); err == nil {
			err = cerr
		}
	}
	return err
}

var concatCmd = &command{
	name:  "concat",
	args:  "IN... OUT|-",
	short: "concatenate container files of one schema, copying their blocks",
	long: `Concat writes the blocks of the container files IN, in order, to the
container file OUT, as avro-tools concat does: blocks are copied as they
are stored when an input has the output's codec (the first input's), and
decompressed and compressed again when it has another. The inputs must
have one schema (the same canonical form) and the same user metadata.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		quiet := fs.Bool("quiet", false, "draw no progress line")
		return func(ctx context.Context, args []string) error {
			ins, outName, err := splitOutput(args, 1)
			if err != nil {
				return err
			}
			p := e.startProgress(*quiet, outName == "-", totalSize(ins))
			defer p.stop()
			var w *ocf.Writer
			var h header
			var out *output
			src := sources{e: e, names: ins, p: p}
			err = src.each(func(name string, r *ocf.Reader) error {
				if w == nil {
					h = headerOf(r)
					var err error
					if out, err = e.createOutput(outName, ins...); err != nil {
						return err
					}
					if w, err = newWriter(out, h.s, append(h.writerOptions(), ocf.WithCodec(h.codec))...); err != nil {
						return err
					}
				} else {
					if err := h.sameSchema(r); err != nil {
						return err
					}
					if hr := headerOf(r); !maps.EqualFunc(hr.meta, h.meta, bytes.Equal) {
						return fmt.Errorf("its user metadata differs from the first input's")
					}
				}
				return copyBlocks(ctx, p, r, w, r.Codec() == h.codec)
			})
			return finishWriter(w, out, err)
		}
	},
}

// copyBlocks copies the blocks of r to w: as stored when raw, else
// decompressed and compressed again with w's codec.
func copyBlocks(ctx context.Context, p *progress, r *ocf.Reader, w *ocf.Writer, raw bool) error {
	read := r.ReadBlock
	write := w.WriteBlock
	if raw {
		read, write = r.ReadRawBlock, w.WriteRawBlock
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := write(b); err != nil {
			return fmt.Errorf("block at offset %d: %w", b.Offset, err)
		}
		p.addRecords(b.Count)
	}
}

var recodecCmd = &command{
	name:  "recodec",
	args:  "IN OUT",
	short: "compress a container file's blocks with another codec",
	long: `Recodec writes the container file IN (- for standard input) to OUT (- for
standard output) with its blocks compressed with --codec, at --level:
the same schema, user metadata, records and block boundaries. Records are
not decoded, but each is framed to check that the block holds what it
says.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		quiet := fs.Bool("quiet", false, "draw no progress line")
		var wf writeFlags
		wf.declare(fs, ocf.CodecNull)
		return func(ctx context.Context, args []string) error {
			if len(args) != 2 {
				return usagef("want an input and an output, got %d arguments", len(args))
			}
			if !flagSet(fs, "codec") {
				return usagef("--codec is required")
			}
			opts, err := wf.options(fs, "")
			if err != nil {
				return err
			}
			in, err := e.openInput(args[0])
			if err != nil {
				return err
			}
			defer func() { _ = in.close() }()
			p := e.startProgress(*quiet, args[1] == "-", in.size)
			defer p.stop()
			r, err := ocf.NewReader(p.reader(in.r))
			if err != nil {
				return inFile(in.name, err)
			}
			out, err := e.createOutput(args[1], args[0])
			if err != nil {
				return err
			}
			h := headerOf(r)
			w, err := newWriter(out, h.s, append(h.writerOptions(), opts...)...)
			if err == nil {
				err = inFile(in.name, copyBlocks(ctx, p, r, w, false))
			}
			return finishWriter(w, out, err)
		}
	},
}
