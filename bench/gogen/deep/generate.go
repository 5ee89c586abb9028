// Package deep is gogen-avro's generated code for the deep workload of the
// benchmark suite (schema.avsc, the same schema as the suite's constant;
// TestGogenSchemasMatch checks it). Regenerate with go generate.
package deep

//go:generate go run github.com/actgardner/gogen-avro/v10/cmd/gogen-avro@v10.2.1 -package=deep -sources-comment=false . schema.avsc
