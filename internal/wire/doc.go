// Package wire is the bottom layer of the codec engine: the Avro binary
// encoding as a decode cursor (Decoder: varints, floats, strings, bytes,
// collection blocks with their counts and byte sizes) and an encode
// buffer (Encoder), the limits and budgets that bound what a decode may
// read and allocate, the chunks that short strings and small arrays are
// carved from, the budgets that the datums of a stream share (Credit),
// and the sentinel errors. It knows no schema and no Go type
// beyond the primitives: those are package codec's.
//
// The carving of strings and arrays from shared chunks, and the copies of
// float and bool arrays as memory, have portable twins behind the purego
// build tag.
package wire
