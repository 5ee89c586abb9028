// Package resolve reads data written with one schema into the shape of
// another (schema.Resolve).
//
// A resolved schema has the reader's shape and carries the writer schema
// and a resolution graph (schema.Action). Rather than a second family of decoders that
// know about resolution for every Go target (structs, any, value.Value,
// ...), a resolved schema is read by a transcoder: a program compiled once
// per resolved schema that reads the writer's bytes and writes the bytes
// the reader schema would have written for the same datum, into a pooled
// buffer; the ordinary decoder compiled for the reader's shape then reads
// that buffer. Every target gets resolution from this one piece of code,
// and fields the reader does not want are skipped without being decoded.
//
// The program copies whole subtrees whose encoding does not change (same
// types, int read as long, string read as bytes, enums and unions whose
// indexes map to themselves) as spans of the input, after a skipper has
// found their end; it re-encodes promotions, remaps enum symbols and
// union branches, skips writer-only fields with skippers (no allocation),
// appends the reader's defaults (Field.DefaultBinary) for reader-only
// fields, and reorders record fields when the reader's order differs.
// When the whole resolution is such a copy (a writer that encodes like
// the reader), no transcoder runs at all.
//
// Limits: the transcoder reads the writer's bytes with the same cursor as
// any decoder, so depth, lengths, item counts (bounded by the bytes left)
// and the zero-size budget apply to the writer's data, and a datum cut
// short is ErrTruncated, which lets the streaming Decoder refill and
// retry. The output is bounded by the allocation limit (defaults can make
// it larger than the input). Errors carry offsets in the writer's bytes:
// when the reader's decoder fails on the transcoded bytes, the transcoder
// runs again with position tracking to map the offset back.
package resolve
