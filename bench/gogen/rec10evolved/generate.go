// Package rec10evolved is gogen-avro's generated code for the reader schema of the rec10-evolved resolution rows
// (schema.avsc, the same schema as the suite's constant;
// TestGogenSchemasMatch checks it). Regenerate with go generate.
package rec10evolved

//go:generate go run github.com/actgardner/gogen-avro/v10/cmd/gogen-avro@v10.2.1 -package=rec10evolved -sources-comment=false . schema.avsc
