package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// textSchema is the schema of the files of fromtext and totext, as
// avro-tools writes them: each line's bytes.
var textSchema = schema.MustParse(`"bytes"`)

var fromtextCmd = &command{
	name:  "fromtext",
	args:  "[IN|-] [OUT|-]",
	short: "write the lines of a text file as a container file of bytes",
	long: `Fromtext reads the text file IN (standard input when absent or -) and
writes each line, without its line ending (\n or \r\n), as a record of
schema "bytes" to the container file OUT (standard output when absent or
-), as avro-tools fromtext does.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		quiet := fs.Bool("quiet", false, "draw no progress line")
		var wf writeFlags
		wf.declare(fs, ocf.CodecNull)
		return func(ctx context.Context, args []string) error {
			if len(args) > 2 {
				return usagef("want at most an input and an output, got %d arguments", len(args))
			}
			opts, err := wf.options(fs, "")
			if err != nil {
				return err
			}
			inName, outName := argOr(args, 0, "-"), argOr(args, 1, "-")
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
			defer p.stop()
			w, err := newWriter(out, textSchema, opts...)
			if err == nil {
				err = inFile(in.name, writeLines(ctx, p, bufio.NewReaderSize(p.reader(in.r), 64<<10), w))
			}
			return finishWriter(w, out, err)
		}
	},
}

// maxLine bounds a line of fromtext: it is one record, and a block holds
// records of at most the Writer's block limit.
const maxLine = ocf.DefaultMaxBlockSize

func writeLines(ctx context.Context, p *progress, br *bufio.Reader, w *ocf.Writer) error {
	var line []byte
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line = line[:0]
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > maxLine {
				return fmt.Errorf("line %d is longer than %d bytes", n+1, maxLine)
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err == io.EOF {
				if len(line) == 0 {
					return nil
				}
				break
			}
			if err != nil {
				return err
			}
			break
		}
		text := line
		if len(text) > 0 && text[len(text)-1] == '\n' {
			text = text[:len(text)-1]
			if len(text) > 0 && text[len(text)-1] == '\r' {
				text = text[:len(text)-1]
			}
		}
		if err := w.Encode(text); err != nil {
			return err
		}
		p.addRecords(1)
	}
}

var totextCmd = &command{
	name:  "totext",
	args:  "[IN|-] [OUT|-]",
	short: "write the records of a container file of bytes or strings as lines",
	long: `Totext reads the container file IN (standard input when absent or -),
whose schema is "bytes" or "string" (as fromtext and avro-tools fromtext
write), and writes each record followed by a newline to OUT (standard
output when absent or -), as avro-tools totext does.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		quiet := fs.Bool("quiet", false, "draw no progress line")
		return func(ctx context.Context, args []string) error {
			if len(args) > 2 {
				return usagef("want at most an input and an output, got %d arguments", len(args))
			}
			inName, outName := argOr(args, 0, "-"), argOr(args, 1, "-")
			in, err := e.openInput(inName)
			if err != nil {
				return err
			}
			defer func() { _ = in.close() }()
			p := e.startProgress(*quiet, outName == "-", in.size)
			defer p.stop()
			r, err := ocf.NewReader(p.reader(in.r))
			if err != nil {
				return inFile(in.name, err)
			}
			if k := r.Schema().Kind(); k != schema.Bytes && k != schema.String {
				return inFile(in.name, fmt.Errorf("the schema is %s; totext reads files of bytes or string", r.Schema().Canonical()))
			}
			out, err := e.createOutput(outName, inName)
			if err != nil {
				return err
			}
			var v value.Value
			for r.Next() {
				if err = r.Decode(&v); err != nil {
					break
				}
				_, _ = out.Write(v.Bytes()) // the error sticks: WriteByte returns it
				if err = out.WriteByte('\n'); err != nil {
					break
				}
				p.addRecords(1)
			}
			if err == nil {
				err = r.Err()
			}
			return finishWriter(nil, out, inFile(in.name, err))
		}
	},
}
