// Package rec10 is gogen-avro's generated code for the rec10 workload of the
// benchmark suite (schema.avsc, the same schema as the suite's constant;
// TestGogenSchemasMatch checks it). Regenerate with go generate.
package rec10

//go:generate go run github.com/actgardner/gogen-avro/v10/cmd/gogen-avro@v10.2.1 -package=rec10 -sources-comment=false . schema.avsc
