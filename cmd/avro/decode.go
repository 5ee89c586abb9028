package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"io"

	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// maxMessage bounds one message given to decode: Kafka's own default
// limit on a message is 1 MiB, and brokers are seldom set past 64 MiB.
const maxMessage = 64 << 20

var decodeCmd = &command{
	name:  "decode",
	args:  "[IN|-]",
	short: "print Kafka messages in the Confluent wire format as JSON",
	long: `Decode reads messages in the Confluent wire format (the magic byte 0 and
a 4-byte schema id, or the magic byte 1 and a 16-byte schema GUID, then
the Avro datum) from IN (standard input when absent or -), fetches each
writer schema from the Schema Registry once, and prints each message as a
line of JSON, as kcat -s avro -r URL does. The input is one message a
line in hex (--format hex, the default) or base64 (--format base64),
blank lines ignored, or one whole message as its bytes (--format raw).

A line that does not decode is reported on standard error with its line
number, and the others are still printed; the exit status is then 1.
Registry flags and their environment variables are those of
"avro registry".`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var rf registryFlags
		rf.declare(fs, "registry")
		var o jsonOut
		fs.BoolVar(&o.plain, "plain", false, "write plain JSON: bare unions, readable logical types, base64 bytes")
		fs.BoolVar(&o.pretty, "pretty", false, "indent each message over several lines")
		format := fs.String("format", "hex", "the input's `format`: hex, base64 or raw")
		return func(ctx context.Context, args []string) error {
			switch *format {
			case "hex", "base64", "raw":
			default:
				return usagef("unknown --format %q: want hex, base64 or raw", *format)
			}
			if len(args) > 1 {
				return usagef("want at most one input, got %d arguments", len(args))
			}
			c, err := rf.client(e, "registry")
			if err != nil {
				return err
			}
			in, err := e.openInput(argOr(args, 0, "-"))
			if err != nil {
				return err
			}
			defer func() { _ = in.close() }()
			out, err := e.createOutput("-")
			if err != nil {
				return err
			}
			// A stream of messages may come from a live consumer: each
			// line is flushed as it is decoded.
			o.out, o.left, o.flushLines = out, -1, true
			d := &messageDecoder{c: c, out: &o, schemas: map[kafka.SchemaID]*schema.Schema{}}
			err = d.run(ctx, e, in, *format)
			if cerr := out.close(); err == nil {
				err = cerr
			}
			return err
		}
	},
}

type messageDecoder struct {
	c       *registry.Client
	out     *jsonOut
	schemas map[kafka.SchemaID]*schema.Schema
}

func (d *messageDecoder) run(ctx context.Context, e *env, in *input, format string) error {
	if format == "raw" {
		msg, err := io.ReadAll(io.LimitReader(in.r, maxMessage+1))
		if err != nil {
			return inFile(in.name, err)
		}
		if len(msg) > maxMessage {
			return inFile(in.name, fmt.Errorf("a message of more than %d bytes", maxMessage))
		}
		return inFile(in.name, d.message(ctx, msg))
	}
	sc := bufio.NewScanner(in.r)
	// A message of maxMessage bytes takes twice that in hex.
	sc.Buffer(make([]byte, 64<<10), 2*maxMessage+2)
	bad := 0
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var msg []byte
		var err error
		if format == "hex" {
			msg = make([]byte, hex.DecodedLen(len(text)))
			_, err = hex.Decode(msg, text)
		} else {
			msg = make([]byte, base64.StdEncoding.DecodedLen(len(text)))
			var n int
			n, err = base64.StdEncoding.Decode(msg, text)
			msg = msg[:n]
		}
		if err == nil {
			err = d.message(ctx, msg)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			bad++
			say(e.stderr, "avro decode: %s, line %d: %v\n", in.name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return inFile(in.name, err)
	}
	if bad > 0 {
		return errSilent
	}
	return nil
}

// message prints one message.
func (d *messageDecoder) message(ctx context.Context, msg []byte) error {
	id, datum, err := kafka.ParseSchemaID(msg)
	if err != nil {
		return err
	}
	s, ok := d.schemas[id]
	if !ok {
		if id.ByGUID {
			s, err = d.c.SchemaByGUID(ctx, id.GUID)
		} else {
			s, err = d.c.SchemaByID(ctx, id.ID)
		}
		if err != nil {
			return fmt.Errorf("schema %s: %w", id, err)
		}
		d.schemas[id] = s
	}
	if err := d.out.write(d.out.options(), s, datum); err != nil {
		return fmt.Errorf("schema %s: %w", id, err)
	}
	return nil
}
