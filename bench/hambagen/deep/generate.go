// Package deep is hamba/avro's avrogen code for the deep workload of the
// benchmark suite (schema.avsc, the same schema as the suite's constant;
// TestGeneratedSchemasMatch checks it). Regenerate with go generate.
package deep

//go:generate go tool github.com/hamba/avro/v2/cmd/avrogen -pkg deep -o types.go schema.avsc
