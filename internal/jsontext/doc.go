// Package jsontext is the JSON text layer of the Avro JSON encoding: it
// writes strings, Avro bytes as strings of code points, and numbers the
// way the encoding needs them, and it reads the tokens of JSON text with
// their byte offsets. It knows no schema: the transcoders of package
// jsoncodec drive it node by node, and the generic value model uses its
// writer to implement json.Marshaler.
//
// Strings are escaped as JSON requires and no more: the quote, the
// backslash and the control characters below U+0020; every other byte is
// kept, so text in any script stays readable and a string that is not
// UTF-8 comes back byte for byte.
package jsontext
