// Package skip reads Avro values without decoding them: a Skipper per
// schema node reads a value of it and discards it, without allocating;
// Steps skip the consecutive primitive fields of a record inline, for the
// codecs and the resolution transcoder; and a Framer finds where a datum
// ends in a stream whose bytes arrive piece by piece, so that a streaming
// decoder reads it whole before it decodes it, once.
//
// A block that gives its byte size is not jumped over: its items are read,
// and must end where it says, as the decoders require, so that a skipping
// reader and a decoding one never see different data.
package skip
