package value

import (
	"math"

	"github.com/avrogo/avro/schema"
)

// Null returns the null Value (the zero Value).
func Null() Value { return Value{} }

// Bool returns a boolean Value.
func Bool(b bool) Value {
	var w uint64
	if b {
		w = 1
	}
	return scalar(rowBool, w)
}

// Int returns an Avro int Value.
func Int(i int32) Value { return scalar(rowInt, uint64(i)) }

// Long returns an Avro long Value.
func Long(i int64) Value { return scalar(rowLong, uint64(i)) }

// Float returns an Avro float Value.
func Float(f float32) Value { return scalar(rowFloat, uint64(math.Float32bits(f))) }

// Double returns an Avro double Value.
func Double(f float64) Value { return scalar(rowDouble, math.Float64bits(f)) }

// String returns an Avro string Value holding s. It does not copy: Go
// strings are immutable.
func String(s string) Value { return slice(stringData(s), tString, len(s)) }

// StringOwned returns an Avro string Value whose bytes are b, without a
// copy. It takes ownership of b: the caller must not modify b afterwards
// (decoders use it to hand over a freshly allocated buffer).
func StringOwned(b []byte) Value { return slice(dataOf(b), tString, len(b)) }

// Bytes returns an Avro bytes Value holding b[:len(b)]. It takes ownership
// of b: it does not copy, and later changes to b's elements show through
// the Value. Accessors return slices with no spare capacity, so an append
// to them never writes past the value.
func Bytes(b []byte) Value { return slice(dataOf(b), tBytes, len(b)) }

// Fixed returns an Avro fixed Value holding b, with the ownership rule of
// Bytes. The size is not checked against any schema here.
func Fixed(b []byte) Value { return slice(dataOf(b), tFixed, len(b)) }

// FixedOf returns a fixed Value of the fixed schema s holding b, with the
// ownership rule of Bytes. Unlike Fixed, the Value knows its schema, so
// that MarshalJSON can name it as a union branch outside any record. It
// allocates a small box. It panics if s is not a fixed schema or b is not
// of its size.
func FixedOf(s *schema.Schema, b []byte) Value {
	if s == nil || s.Kind() != schema.Fixed || len(b) != s.Size() {
		panic("value: FixedOf: not a fixed schema or not of its size")
	}
	return box(boxed{v: Fixed(b), branch: -1, s: s})
}

// Enum returns an enum Value with the given symbol index and no schema (so
// Symbol reports ""). It panics if index is negative.
func Enum(index int) Value {
	if index < 0 {
		panic("value: negative enum index")
	}
	return scalar(rowEnum, uint64(index))
}

// EnumOf returns an enum Value of the enum schema s with the given symbol
// index; the Value knows its symbol. It does not allocate. It panics if s
// is not an enum or index is out of range.
func EnumOf(s *schema.Schema, index int) Value {
	if s == nil || s.Kind() != schema.Enum || uint(index) >= uint(len(s.Symbols())) {
		panic("value: EnumOf: not an enum schema or index out of range")
	}
	return ptr(ptrTo(s), tEnumS, index)
}

// Int32s returns a typed array Value of Avro ints. It takes ownership of a
// (no copy); the Value reports KindArray and ElemKind KindInt.
func Int32s(a []int32) Value { return slice(dataOf(a), tInt32s, len(a)) }

// Int64s returns a typed array Value of Avro longs, taking ownership of a.
func Int64s(a []int64) Value { return slice(dataOf(a), tInt64s, len(a)) }

// Float32s returns a typed array Value of Avro floats, taking ownership of a.
func Float32s(a []float32) Value {
	return slice(dataOf(a), tFloat32s, len(a))
}

// Float64s returns a typed array Value of Avro doubles, taking ownership of a.
func Float64s(a []float64) Value {
	return slice(dataOf(a), tFloat64s, len(a))
}

// Bools returns a typed array Value of Avro booleans, taking ownership of a.
func Bools(a []bool) Value { return slice(dataOf(a), tBools, len(a)) }

// Array returns an array Value of arbitrary elements, taking ownership of
// a (no copy, no header allocation).
func Array(a []Value) Value { return slice(dataOf(a), tArray, len(a)) }

// MapOf returns a map Value that refers to m (not a copy). It panics if m
// is nil.
func MapOf(m *Map) Value {
	if m == nil {
		panic("value: MapOf(nil)")
	}
	return ptr(ptrTo(m), tMap, 0)
}

// RecordOf returns a record Value that refers to r (not a copy). It panics
// if r is nil.
func RecordOf(r *Record) Value {
	if r == nil {
		panic("value: RecordOf(nil)")
	}
	return ptr(ptrTo(r), tRecord, 0)
}
