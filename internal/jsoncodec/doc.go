// Package jsoncodec is the engine of the Avro JSON encoding: programs
// compiled once per (schema node, flavour) that rewrite an Avro binary
// datum as JSON text, and JSON text as the binary datum, in one pass and
// without Go values. Package avrojson builds Marshal and Unmarshal of
// every Go type on them and on the binary codecs: a value is encoded in
// binary and the bytes rendered as JSON; JSON is read into binary and the
// binary decoded, so both encodings share one Go type mapping.
//
// A flavour says how the text looks where the encodings differ: union
// branches tagged by type name (the specification), by type and logical
// name, or bare; logical types as their underlying values or as text for
// people; bytes as code points or base64.
package jsoncodec
