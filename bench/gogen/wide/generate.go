// Package wide is gogen-avro's generated code for the wide workload of the
// benchmark suite (schema.avsc, the same schema as the suite's constant;
// TestGogenSchemasMatch checks it). Regenerate with go generate.
package wide

//go:generate go run github.com/actgardner/gogen-avro/v10/cmd/gogen-avro@v10.2.1 -package=wide -sources-comment=false . schema.avsc
