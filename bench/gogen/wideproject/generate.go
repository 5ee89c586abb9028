// Package wideproject is gogen-avro's generated code for the reader schema of the wide-project2 resolution rows
// (schema.avsc, the same schema as the suite's constant;
// TestGogenSchemasMatch checks it). Regenerate with go generate.
package wideproject

//go:generate go run github.com/actgardner/gogen-avro/v10/cmd/gogen-avro@v10.2.1 -package=wideproject -sources-comment=false . schema.avsc
