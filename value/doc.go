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
// # Representation
//
// A Value is two words, {p unsafe.Pointer; w uint64}:
//
//   - p == nil: null without a branch (the zero Value).
//   - p points into scalars, a package-level array of numRows×256 bytes.
//     The row of the element is the kind (null, boolean, int, long, float,
//     double, enum without schema) and its column is 0 for "no branch" or
//     branch+1; w holds the payload bits (the int sign-extended, the float
//     or double bits, 0/1, the enum index). A kind test is a subtraction
//     and a compare against the array's address.
//   - Otherwise p is the data pointer of a pointer kind and w packs the
//     length (bits 0-47), a tag (bits 48-55: string, bytes, fixed, enum
//     with schema, array of Values, the five typed arrays, map, record,
//     boxed union) and branch+1 (bits 56-63). For a string or bytes, p is
//     the first byte; for an array, the first element (no slice header is
//     allocated); for an enum built with EnumOf, the *schema.Schema (the
//     index is in the length bits); then *Map, *Record, and a box holding
//     the Value and its branch for branches above 254.
//
// # GC-safety invariants
//
// The code relies on these, and tests check them under -race (which turns
// on checkptr) and GODEBUG=invalidptr=1 with forced collections:
//
//  1. Every pointer is in p, typed unsafe.Pointer, so the collector sees
//     it; w never holds an address or anything derived from one.
//  2. p is nil, a pointer into a package-level array (scalars, zeroBase),
//     or a pointer to the start of, or into, a live Go object that holds
//     the payload. Keeping the Value keeps the payload alive.
//  3. An empty string, bytes, fixed or array stores &zeroBase instead of
//     its data pointer, so p is never nil for a non-null Value and never
//     points one past the end of an allocation (which could keep the next
//     object alive or name no object at all).
//  4. A uintptr made from p is only compared, never turned back into a
//     pointer: new sentinel pointers are taken as &scalars[row][col].
//  5. A Record's header {schema, n, fields pointer, unused} has the pointer
//     layout of two Values, so NewRecord can put it at the start of a
//     []Value allocation followed by the fields; the allocation's type
//     tells the collector where the pointers are. A Map's header {keys
//     pointer, len, values pointer, cap, index pointer, unused} has the
//     layout of three Values, and a string header that of one Value, so an
//     Arena places a map's header, keys and values in a []Value block too.
//     These layouts hold on 64-bit platforms, where arenaSlabs checks them
//     at compile time; elsewhere, and in the purego build, an Arena
//     allocates every node on its own. Record headers are always placed
//     (their pointers point into their own block, which the header keeps
//     alive whatever the word size).
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
