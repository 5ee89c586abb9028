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
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // bad data, incompatible schemas, a failed request
	exitUsage = 2 // wrong flags or arguments
)

// env is what a command sees of the process: its standard streams, its
// environment and its files. Tests give one of their own.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// stderrTerminal reports whether stderr is a terminal, and its width,
	// for the progress display.
	stderrTerminal func() (bool, int)
	// stdoutTerminal reports whether stdout is a terminal, so that output
	// to people is flushed line by line.
	stdoutTerminal bool
}

func newSystemEnv() *env {
	return &env{
		stdin:          os.Stdin,
		stdout:         os.Stdout,
		stderr:         os.Stderr,
		getenv:         os.Getenv,
		stderrTerminal: func() (bool, int) { return terminal(os.Stderr) },
		stdoutTerminal: isTerminal(os.Stdout),
	}
}

// A command is one subcommand of avro.
type command struct {
	name string
	// args is the synopsis after the name and flags: "FILE...".
	args string
	// short is the line "avro help" lists; long the rest of "avro help
	// NAME", after the synopsis and before the flags.
	short, long string
	// flags declares the command's flags on fs and returns the function
	// that runs it with the arguments that are not flags.
	flags func(fs *flag.FlagSet, e *env) func(ctx context.Context, args []string) error
}

// commands lists the subcommands in the order "avro help" shows them.
var commands []*command

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usageError is a wrong use of a command: exit status 2, with its usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errSilent is a failure whose report the command has written already.
var errSilent = errors.New("failed")

// run runs the command line args (without the program name) and returns
// the exit status.
func run(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 {
		printOverview(e.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		return runHelp(e, args[1:])
	case "version", "--version", "-version":
		say(e.stdout, "avro %s\n", version())
		return exitOK
	}
	c := lookup(name)
	if c == nil {
		say(e.stderr, "avro: unknown command %q\nRun 'avro help' for the list of commands.\n", name)
		return exitUsage
	}
	fs := flag.NewFlagSet("avro "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	runCmd := c.flags(fs, e)
	rest, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		printHelp(e.stdout, c, fs)
		return exitOK
	}
	if err == nil {
		err = runCmd(ctx, rest)
	}
	return report(e, c, fs, err)
}

// report prints err as the command's failure and returns the exit status.
func report(e *env, c *command, fs *flag.FlagSet, err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errSilent):
		return exitFail
	case errors.As(err, &ue) || isFlagError(err):
		say(e.stderr, "avro %s: %v\n", c.name, err)
		printUsage(e.stderr, c, fs)
		return exitUsage
	}
	say(e.stderr, "avro %s: %v\n", c.name, err)
	return exitFail
}

// flagError is an error of the flag package, which it returns unwrapped.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

func isFlagError(err error) bool {
	var fe *flagError
	return errors.As(err, &fe)
}

// parseInterspersed parses flags wherever they are among the arguments,
// as the go command and most tools do ("avro tojson f.avro --pretty");
// "--" ends the flags. It returns the other arguments in order; "-" is
// one of them (standard input or output).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &flagError{err}
		}
		left := fs.Args()
		if len(left) == 0 {
			return rest, nil
		}
		// The flag package stops at the first non-flag, or drops a "--"
		// and stops after it.
		if at := len(args) - len(left); at > 0 && args[at-1] == "--" {
			return append(rest, left...), nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

func printOverview(w io.Writer) {
	var b strings.Builder
	b.WriteString("avro reads, writes and checks Avro data, schemas and schema registries.\n\n")
	b.WriteString("Usage:\n\n\tavro COMMAND [flags] [arguments]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "\t%-12s %s\n", c.name, c.short)
	}
	b.WriteString("\nRun 'avro help COMMAND' for a command's flags and arguments.\n")
	b.WriteString("A schema argument S is a file, - (standard input) or the schema's JSON.\n")
	b.WriteString("Exit status: 0 success, 1 bad data or a failed check, 2 wrong usage.\n")
	say(w, "%s", b.String())
}

func runHelp(e *env, args []string) int {
	if len(args) == 0 {
		printOverview(e.stdout)
		return exitOK
	}
	c := lookup(args[0])
	if c == nil {
		say(e.stderr, "avro help: unknown command %q\nRun 'avro help' for the list of commands.\n", args[0])
		return exitUsage
	}
	fs := flag.NewFlagSet("avro "+c.name, flag.ContinueOnError)
	c.flags(fs, e)
	printHelp(e.stdout, c, fs)
	return exitOK
}

func printUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	say(w, "usage: avro %s%s %s\nRun 'avro help %s' for details.\n", c.name, flagSynopsis(fs), c.args, c.name)
}

func printHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: avro %s%s %s\n\n%s\n", c.name, flagSynopsis(fs), c.args, strings.TrimSpace(c.long))
	var flags []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f) })
	sort.Slice(flags, func(i, j int) bool { return flags[i].Name < flags[j].Name })
	if len(flags) > 0 {
		b.WriteString("\nFlags:\n")
	}
	for _, f := range flags {
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := "  " + dash + f.Name
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(&b, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			fmt.Fprintf(&b, " (default %s)", f.DefValue)
		}
		b.WriteByte('\n')
	}
	say(w, "%s", b.String())
}

// say writes to a stream whose errors the command cannot report anywhere
// else: its standard error, or the help it was asked for.
func say(w io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(w, format, args...)
}

// flagSynopsis is " [flags]" when the command has flags.
func flagSynopsis(fs *flag.FlagSet) string {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return ""
	}
	return " [flags]"
}
