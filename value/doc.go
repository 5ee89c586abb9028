// Package value is the generic Avro value model: a 16-byte Value that holds
// any Avro datum, with the union branch it was written under.
//
// # Building and reading values
//
// Scalars are built with Null, Bool, Int, Long, Float, Double and Enum (or
// EnumOf, which keeps the enum schema so the Value knows its symbol);
// strings with String; bytes and fixed with Bytes and Fixed; arrays with
// Array ([]Value) or, for primitive items, the typed forms Int32s, Int64s,
// Float32s, Float64s and Bools, which hold the Go slice itself (a decoded
// array of doubles is one allocation); maps with NewMap and MapOf; records
// with NewRecord and RecordOf. Union values are ordinary values tagged with
// their branch: Union(i, v) or v.WithBranch(i), read back with v.Branch().
//
// Accessors are named after the Avro type (v.Long(), v.Str(), v.Bytes(),
// v.Int64s(), v.Record(), ...). Calling an accessor on a Value of another
// kind panics with a *KindError, as reflect does; check v.Kind() first when
// the kind is not known. v.Kind() reports the kind of a union value's
// branch; typed arrays report KindArray (see IsTyped and ElemKind) and are
// also readable element by element with Len and Index.
//
// None of the scalar constructors allocate, with or without a union branch
// of up to 254; neither do String, Bytes, Fixed, the typed array
// constructors, Array, EnumOf, MapOf or RecordOf. NewRecord makes one
// allocation for the header and all fields. A branch above 254 (a union of
// more than 255 branches) costs one small allocation. An Arena builds the
// records, maps and value slices of a whole tree in shared blocks: the
// decoders of package avro use one per decode, so that a record with a
// nested record and a map is one allocation.
//
// # Ownership
//
// String(s) keeps s (Go strings are immutable). Bytes, Fixed, StringOwned,
// Array, the typed array constructors and NewMap take ownership of the
// slices they are given: they do not copy, the caller must not modify
// (StringOwned) or should not modify (the others) them afterwards.
// Decoders hand over fresh slices. Accessors that return slices share the
// Value's memory and return them with no spare capacity (cap == len), so
// an append never writes past the value into memory another value may
// use. FromAny copies the bytes it is given.
//
// # Concurrency
//
// Values, and the records, maps and slices behind them, are safe for
// concurrent reading. Writing through Record.Set, Map.Set or a returned
// slice while other goroutines read is a data race.
package value
