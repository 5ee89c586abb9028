// Package schema parses Avro schemas (Apache Avro 1.12) into an immutable
// tree of nodes that packages avro and avrojson compile to codecs, and
// computes their Parsing Canonical Form and fingerprints.
//
// # Nodes
//
// A *Schema is one node. Kind says which Avro type it is, and the
// accessors read the parts that type has: Fields and Field for a record,
// Symbols, SymbolIndex and EnumDefault for an enum, Items for an array,
// Values for a map, Branches for a union, Size for a fixed, and Logical,
// Precision and Scale for a logical type. Accessors of another kind return
// their zero value. Plain primitives ("int", or {"type":"int"} with no other
// attribute) are shared nodes.
//
// Named types (record, enum, fixed) are shared by pointer: every reference
// to a named type, by short or full name, is the node that defines it. A
// recursive type is therefore a cycle: in
//
//	{"type":"record","name":"List","fields":[
//	  {"name":"next","type":["null","List"]}]}
//
// the union's second branch is the record itself. Code that walks a schema
// must remember the named nodes it has visited, or it will not terminate.
//
// Schemas are safe for concurrent use. MinEncodedSize gives the least
// number of bytes a value of a node encodes to (a record still being
// summed on a recursive path counts as 0, so the figure is a lower bound),
// which decoders use to bound what a declared count may allocate.
//
// # Names
//
// Full names follow the specification: a dotted name is the full name; an
// undotted one takes the "namespace" attribute, or else the namespace of
// the nearest enclosing named type. References are resolved in the
// enclosing namespace and then, as Java does, in the null namespace. A
// name must be defined before it is used (depth first, left to right),
// defining a full name twice is an error, and primitive names cannot be
// defined. Names, field names and enum symbols must match
// [A-Za-z_][A-Za-z0-9_]*; namespace components may also contain '$', which
// Java-generated schemas use; ParseOptions.UnicodeNames admits letters and
// digits of any script, as Java does. Aliases are not validated as names (the
// specification uses them to rename invalid names) and are stored as full
// names, a relative alias being in the namespace of its type.
//
// Parser accumulates named types across several texts, for schemas split
// into one file per type; ParseFiles accepts the files in any order.
//
// # Defaults
//
// A field default is checked against the field type when the schema is
// parsed, and an invalid one is an error that names the field. For a
// union, the default matches the first branch it fits, as Avro 1.12 says;
// DefaultBranch reports that branch. Readers older than Avro 1.12 require
// the default to fit the first branch, so schemas shared with them should
// be written that way. bytes and fixed defaults are strings whose
// characters U+0000 to U+00FF are the bytes. A float or double default may
// be the string "NaN", "Infinity" or "-Infinity", as Java writes those
// values, which JSON has no number for. A record default that lacks a
// field takes that field's own default. Default returns the value in the
// generic Go model and DefaultBinary its Avro binary encoding.
//
// # Logical types
//
// The logical types of Avro 1.12 are recognised on the types the
// specification allows: decimal on bytes and fixed (precision > 0,
// 0 <= scale <= precision, and for fixed(n) precision at most
// MaxDecimalPrecision(n)), big-decimal on bytes, uuid on string and
// fixed(16), date and time-millis on int, time-micros and the timestamp
// and local-timestamp types (millis, micros, nanos) on long, duration on
// fixed(12). As the specification requires, a logical type that is unknown
// or invalid for its node is ignored: the node is its underlying type,
// and logicalType (with precision and scale) is kept as props. The
// canonical form and fingerprints never include logical types.
//
// # Protocols
//
// ParseProtocol reads an Avro protocol (.avpr): its name and namespace,
// its named types (parsed as one Parser parses texts, in the protocol's
// namespace) and its messages (parameters, response, errors, one-way).
// Protocol.String writes it back as JSON.
//
// # Limits
//
// Parse never panics and never recurses without bound: JSON nesting deeper
// than MaxDepth (1,000) levels is an *Error wrapping ErrLimit, and a fixed
// larger than MaxFixedSize (math.MaxInt32) bytes is an error. Its time and
// memory grow in proportion to the text, which ParseOptions bounds (64 MiB
// by default), and so do the defaults the text defines and the work of
// checking them (ParseOptions.MaxDefaultSize and MaxDefaultSteps): a
// schema over a limit is an *Error wrapping ErrLimit. Every rejected
// schema yields an *Error whose Path locates the offending value ("fields[2].type"); for malformed
// JSON it wraps the *encoding/json.SyntaxError. Duplicate keys in a JSON
// object are rejected, because they make a schema ambiguous.
package schema
