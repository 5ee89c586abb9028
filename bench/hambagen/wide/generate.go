// Package wide is hamba/avro's avrogen code for the wide workload of the
// benchmark suite (schema.avsc, the same schema as the suite's constant;
// TestGeneratedSchemasMatch checks it). Regenerate with go generate.
package wide

//go:generate go tool github.com/hamba/avro/v2/cmd/avrogen -pkg wide -o types.go schema.avsc
