package main

import (
	"context"
	"flag"
	"slices"
	"strings"
	"testing"
)

// Every command has help that gives its synopsis and describes each of
// its flags, from "avro help NAME" and from "avro NAME --help".
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands {
		out, errb, code := runAvro([]string{"help", c.name}, nil)
		if code != exitOK || len(errb) != 0 {
			t.Errorf("avro help %s: exit %d, stderr %q", c.name, code, errb)
		}
		help := string(out)
		if !strings.HasPrefix(help, "usage: avro "+c.name) || len(strings.TrimSpace(c.long)) < 80 {
			t.Errorf("avro help %s does not start with its usage, or says little:\n%s", c.name, help)
		}
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs, &env{})
		fs.VisitAll(func(f *flag.Flag) {
			if f.Usage == "" || !strings.Contains(help, "--"+f.Name) && !strings.Contains(help, "-"+f.Name+" ") {
				t.Errorf("avro help %s does not describe --%s", c.name, f.Name)
			}
		})
		if flagHelp, _, code := runAvro([]string{c.name, "--help"}, nil); code != exitOK || string(flagHelp) != help {
			t.Errorf("avro %s --help: exit %d, and not what avro help %s prints", c.name, code, c.name)
		}
		if !strings.Contains(string(mustOverview(t)), c.name+" ") {
			t.Errorf("avro help does not list %s", c.name)
		}
	}
}

func mustOverview(t *testing.T) []byte {
	out, _, code := runAvro([]string{"help"}, nil)
	if code != exitOK {
		t.Fatalf("avro help: exit %d", code)
	}
	return out
}

// Flags may come before, between and after the arguments; "--" ends
// them, and "-" is an argument.
func TestFlagsAmongArguments(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		want       []string
		pretty     bool
		head       int64
		wantErrSub string
	}{
		{args: []string{"a", "--pretty", "b"}, want: []string{"a", "b"}, pretty: true, head: -1},
		{args: []string{"--head", "3", "-", "--pretty"}, want: []string{"-"}, pretty: true, head: 3},
		{args: []string{"a", "--", "--pretty", "-"}, want: []string{"a", "--pretty", "-"}, head: -1},
		{args: []string{"a", "-head=2"}, want: []string{"a"}, head: 2},
		{args: []string{"a", "--head"}, wantErrSub: "flag needs an argument"},
		{args: []string{"--nope"}, wantErrSub: "not defined"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(nopWriter{})
		pretty := fs.Bool("pretty", false, "")
		head := fs.Int64("head", -1, "")
		got, err := parseInterspersed(fs, tc.args)
		if tc.wantErrSub != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErrSub) || !isFlagError(err) {
				t.Errorf("%q: err %v, want a flag error with %q", tc.args, err, tc.wantErrSub)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) || *pretty != tc.pretty || *head != tc.head {
			t.Errorf("%q: %q pretty=%v head=%d err=%v; want %q pretty=%v head=%d", tc.args, got, *pretty, *head, err, tc.want, tc.pretty, tc.head)
		}
	}
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

// An interrupted command stops with the context's error, and exit 1.
func TestInterruptStops(t *testing.T) {
	t.Chdir(workDir(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb strings.Builder
	e := &env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	for _, args := range [][]string{{"tojson", "readings.avro"}, {"count", "readings.avro"}, {"validate", "readings.avro"}} {
		out.Reset()
		errb.Reset()
		if code := run(ctx, e, args); code != exitFail || !strings.Contains(errb.String(), "context canceled") {
			t.Errorf("%v after cancel: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
