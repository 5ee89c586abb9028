package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

// version is the module version the binary was built from.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// fileError is a failure of one input or output file, reported with its
// name.
type fileError struct {
	name string
	err  error
}

func (e *fileError) Error() string { return e.name + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// inFile wraps err, a failure reading the named input, with its name.
func inFile(name string, err error) error {
	if err == nil {
		return nil
	}
	var fe *fileError
	if errors.As(err, &fe) {
		return err
	}
	if name == "-" {
		name = "stdin"
	}
	return &fileError{name, err}
}

// input is an opened input: a file, or standard input.
type input struct {
	name string
	r    io.Reader
	// size is the file's size, or -1 when it is not known (a pipe).
	size  int64
	close func() error
}

// openInput opens the named input; "-" is standard input, which can be
// read once.
func (e *env) openInput(name string) (*input, error) {
	if name == "-" {
		return &input{name: "stdin", r: e.stdin, size: -1, close: func() error { return nil }}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return &input{name: name, r: f, size: size, close: f.Close}, nil
}

// checkInputs refuses "-" given more than once: standard input reads
// once.
func checkInputs(names []string) error {
	n := 0
	for _, name := range names {
		if name == "-" {
			n++
		}
	}
	if n > 1 {
		return usagef("standard input (-) can be read once, and is named %d times", n)
	}
	return nil
}

// output is an opened output, buffered: a file, or standard output.
type output struct {
	name string
	*bufio.Writer
	f *os.File // nil for standard output
}

// createOutput creates (or truncates) the named output; "-" is standard
// output. An output that is one of the inputs is refused, since creating
// it would destroy what is to be read.
func (e *env) createOutput(name string, inputs ...string) (*output, error) {
	if name == "-" {
		return &output{name: "stdout", Writer: bufio.NewWriterSize(e.stdout, 64<<10)}, nil
	}
	if fo, err := os.Stat(name); err == nil {
		for _, in := range inputs {
			if fi, err := os.Stat(in); in != "-" && err == nil && os.SameFile(fi, fo) {
				return nil, usagef("the output %s is also an input", name)
			}
		}
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	return &output{name: name, Writer: bufio.NewWriterSize(f, 64<<10), f: f}, nil
}

// printf writes to the output. A write error sticks in the buffer, and
// close returns it.
func (o *output) printf(format string, args ...any) {
	_, _ = fmt.Fprintf(o.Writer, format, args...)
}

// close flushes the output and closes its file; the first error wins.
func (o *output) close() error {
	err := o.Flush()
	if o.f != nil {
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return &fileError{o.name, err}
	}
	return nil
}

// maxSchemaArg bounds a schema read from a file or standard input: the
// container reader's bound on the schema in a file's header.
const maxSchemaArg = ocf.DefaultMaxSchemaSize

// loadSchema reads a schema argument: the schema's JSON itself when it
// starts with '{', '[' or '"', standard input for "-", else a file.
func (e *env) loadSchema(arg string) (*schema.Schema, error) {
	text, name, err := e.schemaText(arg)
	if err != nil {
		return nil, err
	}
	s, err := schema.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// schemaText returns the text of a schema argument and the name to report
// it by.
func (e *env) schemaText(arg string) (text, name string, err error) {
	switch t := strings.TrimLeft(arg, " \t\r\n"); {
	case t == "":
		return "", "", usagef("empty schema argument")
	case t[0] == '{' || t[0] == '[' || t[0] == '"':
		return arg, "schema argument", nil
	}
	var r io.Reader
	name = arg
	if arg == "-" {
		r, name = e.stdin, "stdin"
	} else {
		f, err := os.Open(arg)
		if err != nil {
			return "", "", err
		}
		defer func() { _ = f.Close() }()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxSchemaArg+1))
	if err != nil {
		return "", "", &fileError{name, err}
	}
	if len(b) > maxSchemaArg {
		return "", "", fmt.Errorf("%s: a schema of more than %d bytes", name, maxSchemaArg)
	}
	return string(b), name, nil
}
