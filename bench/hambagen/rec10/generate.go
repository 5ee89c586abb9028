// Package rec10 is hamba/avro's avrogen code for the rec10 workload of the
// benchmark suite (schema.avsc, the same schema as the suite's constant;
// TestGeneratedSchemasMatch checks it). Regenerate with go generate.
package rec10

//go:generate go tool github.com/hamba/avro/v2/cmd/avrogen -pkg rec10 -o types.go schema.avsc
