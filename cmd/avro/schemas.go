package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/avrogo/avro/schema"
)

var canonicalCmd = &command{
	name:  "canonical",
	args:  "S",
	short: "print a schema's Parsing Canonical Form",
	long: `Canonical prints the Parsing Canonical Form of the schema S (a file, -
or the schema's JSON): the form the specification defines for comparing
schemas and computing fingerprints, as Java's SchemaNormalization writes it.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return func(_ context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one schema, got %d arguments", len(args))
			}
			s, err := e.loadSchema(args[0])
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(e.stdout, s.Canonical())
			return err
		}
	},
}

var fingerprintCmd = &command{
	name:  "fingerprint",
	args:  "S",
	short: "print a schema's fingerprint (CRC-64-AVRO, MD5 or SHA-256)",
	long: `Fingerprint prints the fingerprint of the schema S's Parsing Canonical
Form in hex: the CRC-64-AVRO of the specification (the number that
single-object encoding writes, as Java's
SchemaNormalization.parsingFingerprint64 computes it, as 16 hex digits),
or the MD5 or SHA-256 digest of the canonical form.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		alg := fs.String("alg", "crc64", "the `algorithm`: crc64, md5 or sha256")
		return func(_ context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("want one schema, got %d arguments", len(args))
			}
			var print func(*schema.Schema) string
			switch strings.ToLower(*alg) {
			case "crc64", "crc-64", "crc-64-avro":
				print = func(s *schema.Schema) string { return fmt.Sprintf("%016x", s.Fingerprint()) }
			case "md5":
				print = func(s *schema.Schema) string { d := s.FingerprintMD5(); return hex.EncodeToString(d[:]) }
			case "sha256", "sha-256":
				print = func(s *schema.Schema) string { d := s.FingerprintSHA256(); return hex.EncodeToString(d[:]) }
			default:
				return usagef("unknown --alg %q: want crc64, md5 or sha256", *alg)
			}
			s, err := e.loadSchema(args[0])
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(e.stdout, print(s))
			return err
		}
	},
}

var compatCmd = &command{
	name:  "compat",
	args:  "NEW OLD...",
	short: "check a new schema against older ones under a registry's mode",
	long: `Compat checks the schema NEW against the schemas OLD, oldest first, under
a schema registry's compatibility mode:

  backward             NEW reads data written with the last OLD (the default)
  forward              the last OLD reads data written with NEW
  full                 both
  backward-transitive  NEW reads data written with every OLD
  forward-transitive   every OLD reads data written with NEW
  full-transitive      both, with every OLD

It prints "compatible" and exits 0, or lists every incompatibility with
its path in the reading schema and exits 1.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		mode := fs.String("mode", "backward", "the compatibility `mode`")
		return func(_ context.Context, args []string) error {
			m, err := parseMode(*mode)
			if err != nil {
				return err
			}
			if len(args) < 2 {
				return usagef("want a new schema and at least one old one")
			}
			if err := checkInputs(args); err != nil {
				return err
			}
			schemas := make([]*schema.Schema, len(args))
			for i, a := range args {
				if schemas[i], err = e.loadSchema(a); err != nil {
					return err
				}
			}
			err = schema.CheckMode(m, schemas[0], schemas[1:]...)
			var me *schema.ModeError
			if errors.As(err, &me) {
				out, err := e.createOutput("-")
				if err != nil {
					return err
				}
				printModeError(out, me, args[1:])
				if err := out.close(); err != nil {
					return err
				}
				return errSilent
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "compatible (%s)\n", strings.ToLower(strings.ReplaceAll(m.String(), "_", "-")))
			return err
		}
	},
}

// parseMode reads a compatibility mode, in the command's spelling or the
// registry's (BACKWARD_TRANSITIVE).
func parseMode(name string) (schema.Mode, error) {
	key := strings.ReplaceAll(strings.ToUpper(name), "-", "_")
	for m := schema.Backward; m <= schema.FullTransitive; m++ {
		if m.String() == key {
			return m, nil
		}
	}
	return 0, usagef("unknown --mode %q: want backward, forward, full or one of them with -transitive", name)
}

// printModeError lists every failed check of a compatibility mode, naming
// the old schemas by their arguments.
func printModeError(out *output, me *schema.ModeError, olds []string) {
	mode := strings.ToLower(strings.ReplaceAll(me.Mode.String(), "_", "-"))
	out.printf("not compatible (%s):\n", mode)
	for _, f := range me.Failures {
		old := olds[f.Previous]
		if f.CandidateReads {
			out.printf("  the new schema cannot read data written with %s:\n", old)
		} else {
			out.printf("  %s cannot read data written with the new schema:\n", old)
		}
		for _, it := range f.Err.Items {
			out.printf("    %s: %s\n", it.Path, it.Reason)
		}
	}
}
