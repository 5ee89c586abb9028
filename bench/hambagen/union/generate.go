// Package union is hamba/avro's avrogen code for the union workload of the
// benchmark suite (schema.avsc: a record of unions of several branches;
// TestGeneratedUnionsRoundTrip checks them). Regenerate with go generate.
package union

//go:generate go tool github.com/hamba/avro/v2/cmd/avrogen -pkg union -o types.go schema.avsc
