// Package union is this library's avrogen code for the union workload of the
// benchmark suite (schema.avsc: a record of unions of several branches;
// TestGeneratedUnionsRoundTrip checks them). Regenerate with go generate.
package union

//go:generate go run github.com/avrogo/avro/cmd/avrogen -o types.go schema.avsc
