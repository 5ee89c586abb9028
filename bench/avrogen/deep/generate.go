// Package deep is this library's avrogen code for the deep workload of the
// benchmark suite (schema.avsc, the same schema as the suite's constant;
// TestGeneratedSchemasMatch checks it). Regenerate with go generate.
package deep

//go:generate go run github.com/avrogo/avro/cmd/avrogen -o types.go schema.avsc
