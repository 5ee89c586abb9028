// Package codec is the engine of package avro. It compiles, once per
// schema node and Go type, the decoders and encoders of every Avro type
// (structs, slices and maps, any and value.Value, logical types, unions),
// the resolution that reads a writer's data into a reader's shape, and the
// skippers of the values a reader does not want, and runs them over a
// decode cursor and an encode buffer, under the limits of DecodeOptions.
//
// Package avro is its public face: it re-exports the sentinel errors and
// converts the engine's error types (which have the same fields as its
// own) at its boundary. Package ocf decodes the records of a container
// file with a DatumReader, which keeps its state from record to record.
package codec
