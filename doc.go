// Package avro encodes and decodes Apache Avro binary data with Go values,
// in the manner of encoding/json.
//
//	s := schema.MustParse(`{"type":"record","name":"User","fields":[
//		{"name":"name","type":"string"},{"name":"age","type":"int"}]}`)
//	type User struct {
//		Name string `avro:"name"`
//		Age  int    `avro:"age"`
//	}
//	data, err := avro.Marshal(s, &User{Name: "Ada", Age: 36})
//	var u User
//	err = avro.Unmarshal(s, data, &u)
//
// Marshal, Append and Unmarshal compile a codec for each (schema, Go type)
// pair the first time they meet it, by reflection, and keep it in the
// schema: later calls cost one atomic load and a map lookup, then run
// precompiled code over unsafe field offsets with no reflection. A Go type
// that cannot hold the schema is reported when the codec is compiled, as a
// *TypeError with the path of the field, before any byte is read.
//
// # Type mapping
//
// Each Avro type maps to these Go types; a decode target must be one of
// them, and an encode source likewise. Integer conversions are checked in
// both directions: a value that does not fit is an ErrRange error, never a
// silent wrap.
//
//	Avro           Go
//	null           any (nil); the null branch of unions (see below)
//	boolean        bool
//	int            every integer kind (int, int8..int64, uint..uint64), range-checked;
//	               json.Number (an integer literal)
//	long           every integer kind, range-checked; json.Number (an integer literal)
//	float          float32; float64 (decode exact, encode rounded); json.Number
//	double         float64; float32 (decode rounded, encode exact); json.Number
//	bytes          []byte, string, types implementing encoding.BinaryMarshaler/BinaryUnmarshaler
//	string         string, []byte, types implementing encoding.TextMarshaler/TextUnmarshaler
//	enum           string (the symbol), integer kinds (the index), TextMarshaler types
//	fixed          [N]byte with N the size, []byte of length N, BinaryMarshaler types
//	array          slices, Go arrays ([N]T: more items than N is ErrRange)
//	map            maps with string-kind keys
//	record         structs, maps with string-kind keys (map[string]any)
//	union          see below
//	any schema     any (see "Generic values")
//
// A json.Number is written as value.FromAny reads one (floats rounded once
// to their precision) and is read as the shortest literal of the value;
// under a logical type of int or long (a date, a time, a timestamp) it is
// the underlying count. For a decimal or big-decimal it is the literal's
// exact value ("6.17", "-1e-3"), checked as a *big.Rat is, and it is read
// back in plain digits with as many after the point as the scale. In a
// union it goes to the branch its value picks: an integer literal as an
// int64 does, any other as a float64, and a decimal after those.
//
// Logical types add these mappings; any other Go type falls back to the
// underlying type's mapping (int64 for timestamps, int32 for dates, []byte
// for decimals, ...):
//
//	timestamp-millis, -micros, -nanos        time.Time (an instant, decoded in UTC)
//	local-timestamp-millis, -micros, -nanos  time.Time (the wall clock, decoded with location UTC)
//	date                                     time.Time (the calendar date, decoded as midnight UTC)
//	time-millis, time-micros                 time.Duration
//	decimal (bytes or fixed)                 *big.Rat, big.Rat, json.Number (scale and precision checked on encode)
//	big-decimal                              *big.Rat, big.Rat, json.Number
//	uuid (string)                            string, [16]byte-kinded types (RFC 4122 text on the wire)
//	uuid (fixed 16)                          [16]byte (raw), string (RFC 4122 text in Go)
//	duration (fixed 12)                      Duration
//
// A uuid's text is the RFC 4122 form, 8-4-4-4-12 hexadecimal digits in
// either case (Java's UUID.fromString takes that form too); the version
// and variant bits are not checked. Encoding a uuid on string, from a Go
// string, []byte, any, value.Value or a type with MarshalText, and
// reading one from JSON in every flavour, refuses other text with
// ErrRange and the path; the string is written as it is, not rewritten
// in lower case. Decoding keeps what a writer sent: such text decodes
// into a Go string unchanged, and into a [16]byte-kinded type it is an
// ErrInvalid error with the path and offset. A decimal held as its
// unscaled bytes ([]byte, or the bytes or fixed of a value.Value) is
// refused with ErrRange when it has more digits than the precision, as a
// big.Rat is; decoding keeps it.
//
// Timestamps count units since 1970-01-01T00:00:00Z, with sub-unit digits
// dropped towards the past; the local-timestamp types count the wall clock
// of the time.Time in its own location as if it were UTC. Every long of a
// timestamp type is an instant (or a wall clock), as in the specification
// and the other implementations: no value stands for the zero time.Time
// or for "no time", every long decodes to a time, and a time.Time whose
// count of units does not fit a long is an ErrRange error on encode, never
// wrapped. The millis and micros types hold hundreds of thousands of years
// either side of 1970, the zero time.Time (year 1) included. The nanos
// types hold only 1677-09-21T00:12:43.145224192Z (the long -2^63) to
// 2262-04-11T23:47:16.854775807Z (2^63-1), so the zero time.Time is an
// ErrRange error there. To write "no time", use a union with null and a
// pointer field, which encodes nil as null (as does nil in an any):
//
//	{"name": "seen", "type": ["null", {"type": "long", "logicalType": "timestamp-nanos"}]}
//
//	type Visit struct {
//		Seen *time.Time `avro:"seen"`
//	}
//
// A plain time.Time field for that union reads null as the zero time, but
// writes the zero time to the timestamp branch (an ErrRange error for
// nanos), so only the pointer round-trips "no time". time-millis and
// time-micros values outside [0, 24h) pass through both ways, although
// they are not valid times of day (Java's and Python's readers reject
// them). A time-micros beyond about ±292 years, which a time.Duration
// cannot hold, is an ErrRange error when decoded into a time.Duration or
// an any; an int64 target reads every time-micros.
//
// # Generic values
//
// The Go type any holds a value of any schema (and value.Value does, with
// the union branches and schema kept: see package value).
//
// Decoding into an any gives:
//
//	null                      nil
//	boolean                   bool
//	int, long                 int32, int64
//	float, double             float32, float64
//	string, bytes             string, []byte
//	enum                      string (the symbol)
//	fixed                     []byte
//	array                     []any (empty, not nil, for an empty array)
//	map                       map[string]any
//	record                    map[string]any, keyed by field name
//	union                     the value of the branch, unwrapped
//	date, timestamp-*, local-timestamp-*   time.Time
//	time-millis, time-micros  time.Duration
//	decimal, big-decimal      *big.Rat
//	uuid                      string (the RFC 4122 text, also for uuid on fixed)
//	duration                  Duration
//
// Encoding from an any accepts those shapes and also: any Go integer type
// for int and long (ErrRange when it does not fit), any integer or float
// type for float and double, []byte or string for both string and bytes,
// the symbol or the index (any integer type) for an enum, []byte or a byte
// array of the fixed's size for a fixed, any slice or array for an array,
// any map with string keys for a map or a record, and for logical types
// both the Go types above and the values of the underlying type (an int64
// for a timestamp-millis, a [16]byte for a uuid, ...). Named types (type
// Celsius float64) are accepted by their kind. A record field missing from
// the map is written from its default, or is an ErrRange error when it has
// none; keys that are not fields are ignored.
//
// A union is encoded from:
//   - nil: the null branch;
//   - a map[string]any of one key that names a branch and whose value that
//     branch accepts (goavro's wrapper form, {"string": "x"}); a branch is
//     named by its full name, by its unqualified name for named types (when
//     no branch has that full name), and by type.logicalType for logical
//     types ("long.timestamp-millis");
//   - otherwise the value itself, given to the first branch that accepts it
//     in this order of preference (ties go to the earlier branch):
//     bool: boolean. int, int64, uint, uint64: long, int, double, float.
//     int8 to int32, uint8 to uint32: int, long, double, float. float64:
//     double, float. float32: float, double. string: string, enum (when
//     it is a symbol), uuid on fixed (when it parses), bytes. []byte:
//     bytes, fixed (of its length), string. A byte array: fixed (of its
//     length), uuid on string. []any and other slices: array.
//     map[string]any: a record whose fields it matches exactly (every key
//     a field, every field without a default present), then a map, then a
//     record whose fields without a default are all present. Other maps
//     with string keys: a map, then a record as for map[string]any. time.Time:
//     the first date or timestamp branch. time.Duration: time-millis or
//     time-micros, then long, int. *big.Rat: decimal or big-decimal.
//     json.Number: as an int64 for an integer literal, else as a float64,
//     then decimal or big-decimal. Duration: duration.
//
// Integers must fit the branch (int64(1<<40) skips an int branch for a
// long one), and an enum symbol must exist. A value that fits no branch is
// an ErrRange error. The choice looks at the value's shape only: once a
// branch is chosen, an error inside it (a wrong value in a record field)
// is reported, not retried on the next branch.
//
// Typed Go values inside an any (a struct in a []any, say) are not
// encoded: the shapes above are, and a struct is an ErrRange error there;
// a struct is encoded from its own static type (Marshal(s, &v)).
//
// # Records and structs
//
// A record field matches the struct field tagged `avro:"name"` (a tag
// names its field exactly), else the untagged exported field of that
// name, else one whose name matches ignoring case.
// A tag of "-" hides a field. Embedded structs (and embedded pointers to
// structs) are flattened with encoding/json's rules. A schema field that
// the struct lacks is skipped when decoding and written from its default
// when encoding (a compile error when it has no default). Skipping checks
// the structure it reads as a decoder would (lengths, counts, union and
// enum indexes, varints, the limits; not the UTF-8 of strings, which no
// value holds). An array or map block for which the writer gave a byte
// size is read item by item like any other, and its items must end
// exactly at that size, whether the block is decoded or skipped: a wrong
// size is ErrInvalid, so that a reader that skips a field never sees
// other data than one that decodes it. Struct fields that the schema
// lacks are ignored.
//
// # Struct tags
//
// A field's tag is `avro:"name,option,option=value,..."`: the name (empty
// for the Go name), then options. A value runs to the next comma; quote
// one that holds commas in single quotes (doc='Ages, in years'). A
// default= value is one JSON value, written as the schema's default
// would be, and may hold commas as it is (default={"a":[1,2]}): a string
// is quoted (default="EUR"), a number is bare (default=0). Every option means the same in Marshal,
// Unmarshal, resolution and SchemaOf, and a bad or unknown option is a
// *TypeError when the codec is compiled.
//
//	option              Marshal, Unmarshal (any schema)             SchemaOf
//	-                   the field is not mapped                     the field is left out
//	name                matches the record field of that name       the field's name
//	alias=old           also matches a record field named old;      the field's aliases, which
//	alias=[a,b]         repeatable                                  resolution matches
//	inline              flattens a struct (or *struct) field's      the same: its fields join
//	                    fields into this record, as embedding does  the record; no name or option
//	omitzero            a zero value (IsZero, else Go's zero) is    a field with no default gets
//	                    written as the schema field's default, else the encoding of the zero
//	                    the tag's, else null; a compile error when  value as its default
//	                    there is none of these
//	default=JSON        checked against the field's type; fills the the field's default (a pointer
//	                    Go field when the schema lacks the field;   field with a non-null default
//	                    omitzero writes it when the schema field    puts null last in its union)
//	                    has no default
//	doc=text            no effect on data                           the field's doc
//	logical=L, or L     the schema field must have logical type L   the field's type gets L
//	                    (a compile error otherwise)
//	typename=N          no effect on data                           names the record or fixed the
//	                                                                field's type defines
//	long                the schema field must be a long (or a       the integers of the field
//	                    nullable, array or map of longs); a uint    (through pointers, slices,
//	                    or uint64 above 2^63-1 is an ErrRange error arrays and maps) get long
//
// The logical types a tag may name are date, time-millis, time-micros,
// timestamp-millis, -micros, -nanos, local-timestamp-millis, -micros,
// -nanos, uuid, big-decimal and decimal(precision,scale).
//
// # Schemas of Go types
//
// SchemaOf derives the schema of a Go type, by the mapping above read the
// other way, choosing for each Go type the Avro type that holds all its
// values:
//
//	Go                                      Avro
//	bool                                    boolean
//	int8, int16, int32, uint8, uint16       int
//	int, int64, uint32                      long
//	uint, uint64, uintptr                   a *TypeError, as a long holds only half their values; the
//	                                        tag option long gives them long (ErrRange above 2^63-1)
//	float32, float64                        float, double
//	string                                  string
//	[]byte                                  bytes
//	[N]byte                                 fixed of size N, named by the Go type (else fixed_N)
//	other slices, arrays                    array
//	map[string]T (any string-kind key)      map
//	struct                                  record named by the Go type (else by the field), fields
//	                                        in Go order; recursive types refer to it by name
//	*T                                      ["null", T] with default null
//	interface with registered types         ["null", the registered types' records...], default null
//	time.Time                               long timestamp-micros (a tag picks another timestamp or date)
//	time.Duration                           long time-micros (time-millis by tag)
//	big.Rat (*big.Rat: nullable)            bytes big-decimal (decimal(p,s) by tag)
//	Duration                                fixed duration (12 bytes)
//	[16]byte types named UUID, uuid tag     string uuid
//	types with MarshalText and UnmarshalText string
//	types with MarshalBinary and            bytes
//	UnmarshalBinary
//	any, value.Value, chan, func, complex   a *TypeError naming the field
//
// A schema derived from a Go type holds every value of that type, or
// SchemaOf refuses the type and says how to choose. A tag that names the
// Avro type (long, or a logical type such as date for an int64) is that
// choice, and Marshal range-checks what the chosen type does not hold.
// The time types are the exception to the rule, for they have no Avro
// type that holds every value: time.Time and time.Duration keep
// microseconds (see below), and a time more than about 292,000 years from
// 1970 is an ErrRange error; a *big.Rat with no finite decimal expansion
// (1/3) is an ErrRange error in every schema.
//
// Names take the namespace of WithNamespace, and the root takes the name
// of WithName; a type registered with Register is named by its registered
// name. Two Go types that would share a name get suffixes (_2, _3, ...).
// The Go time types keep microseconds: sub-microsecond digits are dropped
// when written, as the schema's unit requires (a nanos tag keeps them,
// over the years 1678 to 2261 only).
//
// # Conversions
//
// RegisterConversion maps a Go type the library does not know through one
// it does: Conversion[Money, *big.Rat] writes a Money as a decimal,
// Conversion[netip.Addr, string] as a string, Conversion[time.Time,
// string] restricted to the property connect.name
// io.debezium.time.ZonedTimestamp reads Debezium's text timestamps as
// time.Time. The conversion is compiled into the codec tree like any
// other codec, so a value costs the call of the conversion function and
// no lookup. Conversions are global, like Register. They apply wherever a
// Go value of their type meets a schema they serve: struct fields,
// slices, maps, pointers, Marshal and Unmarshal, the JSON of package
// avrojson. Resolution reads the writer's data into the reader's schema
// first, so a conversion sees the reader's types. Generic targets (any,
// value.Value) keep the Avro value: a conversion is chosen by the Go type
// it converts.
//
// Types with their own methods are mapped without a conversion:
// encoding.TextMarshaler and TextUnmarshaler serve string and enum
// schemas, and encoding.BinaryMarshaler and BinaryUnmarshaler serve
// bytes and fixed schemas without a logical type (a fixed must get
// exactly its size).
//
// # Unions
//
//   - ["null", T] (in either order) maps to *T: nil is null. Slices and maps
//     may stand for T directly, with nil for null. Any other Go type T maps
//     to the first non-null branch that holds all its values (long for
//     int64, int, uint, uint32 and uint64; int for the smaller integers;
//     double for float64, float for float32; string for string; bytes for
//     []byte), else to the first non-null branch it can hold: int64 is
//     written to the long of ["int","long"], a string to the string of
//     ["bytes","string"]. null decodes to T's zero value.
//   - Any union maps to any and to value.Value, which keep the branch.
//   - A union maps to a non-empty interface type whose implementations
//     are registered with Register, one Go type per branch (named types by
//     their full names, the others by their type names: "string",
//     "array"); nil is the null branch. Code generated by cmd/avrogen
//     is built this way.
//
// A value that fits no branch is an ErrRange error naming the path.
//
// # Schema evolution
//
// Data written with one schema is read with another through the schema
// that schema.Resolve(writer, reader) returns: Unmarshal, UnmarshalNext and
// Decoder read the writer's bytes into a Go value of the reader's shape
// (promotions, defaults for fields the writer lacks, fields the reader
// lacks skipped without allocating, aliases, enum defaults). Resolve once
// and reuse the result: its codecs are compiled once, like any schema's.
// A struct reads a resolved record in one pass over the writer's bytes;
// other Go targets read bytes transcoded to the reader's encoding.
// AppendSingleObject and UnmarshalSingleObject implement Avro's
// single-object encoding over a SchemaStore; package kafka implements the
// Confluent wire format.
//
// # Map order
//
// Avro maps are unordered. Go maps are encoded in Go's iteration order, so
// a map of several entries may encode to different (equally valid) bytes
// from one call to the next; value.Value maps keep their order and encode
// deterministically.
//
// # Decoded memory
//
// Decoded strings and []byte values are copies: they never alias the input,
// and []byte values never alias each other, so appending to one cannot
// overwrite another. Short strings (256 bytes or less) are copied into
// shared chunks of 1 to 16 KiB (more when more input is left), one
// allocation for many strings, and a chunk serves the following decodes
// too until it is full; a block of eight or more strings of a []string is
// copied at once. The short slices of numbers and booleans of a struct
// decoded into new memory ([]int64, []float64, ... of 256 bytes or less)
// share those chunks too, with no spare capacity, and so do the new
// pointees of optional numbers and booleans (*int64, *float64, *bool, ...
// for ["null","long"] and the like); in a value.Value decode
// the bytes and short typed arrays do, and records, maps and arrays of
// values share the blocks of a value.Arena. Nothing handed out is ever
// written again by the decoder, so this shows only in memory: a kept
// short string, slice or pointee keeps its chunk (up to 16 KiB) alive.
// The DecodeOptions.ZeroCopy mode lets []byte values alias the input
// instead.
// Decoding into a slice reuses its storage when it is large enough, as
// encoding/json does; decoding into a non-nil pointer decodes into the
// value it points at; decoding into a non-nil map adds to its entries
// (clear it first to replace them). Decoding into an any replaces what it
// holds with the generic form (Generic values), even a pointer, which
// encoding/json would decode into: to decode into a *T, pass the *T.
//
// # Hostile input
//
// Every count and length read from the input is computed in 64 bits,
// checked for sign and overflow, and checked against the bytes left before
// anything is allocated, and against the limits of DecodeOptions, which
// apply on every decoding path (structs, any, value.Value, the Decoder,
// UnmarshalNext, resolved schemas, skipped fields, single-object and Kafka
// messages, container files). The limits and their defaults:
//
//	MaxDepth          128      nesting of records, arrays and maps (also when encoding)
//	MaxLength         1 GiB    one string or bytes value; one datum buffered by a Decoder
//	MaxItems          2^30     items of one array or map, all blocks together
//	MaxZeroSizeItems  2^20     items that take no bytes (null, empty records, fixed(0)) per
//	                           datum, a record item counted once per value it holds; a
//	                           stream shares MaxZeroSizeItems + 64 per byte read
//	MaxAlloc          64 B per input byte + 4 MiB, allocated by one decode
//	MaxDecimalScale   2048     scale of a decimal schema or big-decimal value (also encoding)
//	ValidateUTF8      off      strings pass through byte for byte; on: invalid UTF-8 is ErrInvalid
//
// Package ocf adds its own limits: the header size (16 MiB) and the block
// size, stored and decompressed (64 MiB), so that a compression bomb stops
// at the limit. Bad input is an *Error that wraps ErrTruncated, ErrInvalid
// or ErrLimit, with the path to the value and the byte offset; it never
// panics, never overflows the stack and never allocates in proportion to
// a declared count alone. Encoding a value that contains itself (a pointer
// cycle, a map or slice holding itself, a value.Record holding itself) is
// ErrLimit at the depth limit. The package's tests run a corpus of hostile
// inputs through every entry point, and fuzz targets check the same
// properties.
package avro
