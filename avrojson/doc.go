// Package avrojson reads and writes Avro data as JSON: the JSON encoding
// of the Avro specification, which Java, Python, avsc and the Avro tools
// read and write, and plain JSON for people, logs and JSON tools.
//
//	data, err := avrojson.Marshal(s, &user)              // the specification's encoding
//	data, err = avrojson.Plain().Marshal(s, &user)       // plain JSON
//	err = avrojson.Unmarshal(s, data, &user)
//
// Every Go type that avro.Marshal and avro.Unmarshal take for a schema
// works here with the same mapping: structs, maps, slices, any,
// value.Value, registered interfaces and the Go types of logical types. A
// schema that schema.Resolve returned reads JSON written with the writer's
// schema into the reader's shape, as in binary.
//
// # The two flavours
//
// For the record {"name": "Ada", "nick": a union of null and string,
// "born": a timestamp-millis, "key": bytes}, the specification's encoding
// (Options{}) and plain JSON (Plain()) are:
//
//	{"name":"Ada","nick":{"string":"ada"},"born":-4861728000000,"key":"\u0001ÿ"}
//	{"name":"Ada","nick":"ada","born":"1815-12-10T00:00:00Z","key":"Af8="}
//
// The specification's encoding writes a union's non-null branch as an
// object of one member named by the branch's type ({"string": "ada"}; the
// full name of a record, enum or fixed), null bare, bytes and fixed as
// strings of the code points U+0000 to U+00FF (one per byte), enums as
// their symbol, logical types as their underlying values and record
// fields in schema order. Options choose each of these: bare unions, the
// goavro style of union tags ({"long.timestamp-millis": 1}), logical types
// as text (RFC 3339 timestamps, dates, exact decimals, uuids, ISO 8601
// durations) and base64 bytes.
//
// # Numbers
//
// Longs are exact over the whole int64 range: they are never converted
// through a float64. Floats and doubles are written in the shortest form
// that reads back to the same value. NaN and the infinities, which JSON
// numbers cannot hold, are written as the strings "NaN", "Infinity" and
// "-Infinity", as Java's JSON encoder writes them; readers also accept
// them as bare words (as Python writes them) and null for NaN (as avsc
// and goavro write it). A JSON number given for an int or long must be an
// integer in its range: 1.5 or 3e9 for an int is an error, never
// truncated.
//
// # Reading
//
// Record fields may come in any order; a field that is missing takes its
// default (an error when it has none), a member that names no field is an
// error unless Options.AllowUnknownFields, and a member or map key given
// twice is an error. The limits of Options.Decode bound the nesting,
// string lengths, item counts and the defaults filled in, and
// MaxNumberLength the text of numbers: bad or hostile text is an
// *avro.Error wrapping avro.ErrInvalid, ErrTruncated, ErrLimit or
// ErrRange, with the path of the value and the byte offset in the text.
//
// Strings are written as JSON requires and otherwise kept byte for byte,
// as binary decoding keeps them; with Decode.ValidateUTF8 a string that
// is not UTF-8 is an error in either direction.
//
// # Without Go values
//
// BinaryToJSON and JSONToBinary rewrite a binary datum as JSON text and
// back in one pass, given the schema; they are the fastest way to render
// records. Marshal and Unmarshal write and read structs, slices, maps,
// pointers, generic values and the primitive kinds straight from and
// into the text, and every other value (and, in Unmarshal, any text
// written otherwise than Marshal writes it) through its binary encoding
// and these rewrites, so the two ways agree on every value.
//
// # Streams
//
// An Encoder writes JSON Lines; a Decoder reads JSON Lines or JSON values
// one after the other. A value that is JSON but does not fit the schema
// is an error the Decoder moves past, so that a reader can skip bad lines
// and go on; an error after which the stream cannot be read on (text that
// is not JSON, a value longer than the limit, a stream cut short) wraps
// ErrStopped, and every later Decode returns it again.
package avrojson
