package value

import (
	"math"
	"slices"
)

// maxDepth bounds the nesting that Equal, String, ToAny and FromAny walk, so
// that a Value that contains itself (possible only through the Set methods)
// or a deeply nested Go value cannot overflow the stack.
const maxDepth = 1000

// Equal reports whether a and b hold the same Avro data:
//
//   - The union branches must match (both -1, or the same index).
//   - Floats and doubles compare by bit pattern, like their Avro encoding:
//     a NaN equals the same NaN, and 0 differs from -0.
//   - A typed array equals an array of Values with equal elements
//     (Int64s([]int64{1}) equals Array([]Value{Long(1)})): the typed form is
//     a representation, not a different type.
//   - Enums compare by index (a schema-less Enum(i) equals EnumOf(s, i)).
//   - Bytes and fixed are different kinds and never equal.
//   - Maps are equal when they have the same keys, each with an equal
//     value, whatever the entry order; a key repeated in a map has the
//     value of its last entry, as when it is decoded into a Go map.
//   - Records are equal when their schemas have the same full name (or
//     either has none) and their fields are equal.
//
// Values nested deeper than 1,000 levels compare by identity.
func Equal(a, b Value) bool { return equal(a, b, 0) }

func equal(a, b Value, depth int) bool {
	if a.p == b.p && a.w == b.w {
		return true
	}
	if a.Branch() != b.Branch() {
		return false
	}
	a, b = a.unbox(), b.unbox()
	k := a.Kind()
	if k != b.Kind() {
		return false
	}
	if depth > maxDepth {
		return false
	}
	switch k {
	case KindNull:
		return true
	case KindBoolean, KindInt, KindLong, KindFloat, KindDouble:
		return a.w == b.w
	case KindEnum:
		return a.EnumIndex() == b.EnumIndex()
	case KindString, KindBytes, KindFixed:
		return a.n() == b.n() && string(rawBytes(a)) == string(rawBytes(b))
	case KindArray:
		return equalArrays(a, b, depth)
	case KindMap:
		// Maps are compared by their keys' values (a repeated key's
		// earlier entries are shadowed): every key of a has an equal value
		// in b, and b has no other keys, counted without its shadowed
		// entries. Comparing entry counts instead made {a, a} equal to
		// {a, b} but not {a, b} to {a, a}.
		ma, mb := a.Map(), b.Map()
		vals := ma.Values()
		keys := 0
		for i, key := range ma.Keys() {
			if ma.find(key) != i {
				continue // an earlier duplicate, shadowed
			}
			keys++
			vb, ok := mb.Get(key)
			if !ok || !equal(vals[i], vb, depth+1) {
				return false
			}
		}
		return keys == mb.distinctKeys()
	case KindRecord:
		ra, rb := a.Record(), b.Record()
		if ra == rb {
			return true
		}
		if ra.s != nil && rb.s != nil && ra.s != rb.s && ra.s.FullName() != rb.s.FullName() {
			return false
		}
		if ra.n != rb.n {
			return false
		}
		fb := rb.Fields()
		for i, f := range ra.Fields() {
			if !equal(f, fb[i], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

func equalArrays(a, b Value, depth int) bool {
	if a.n() != b.n() {
		return false
	}
	if a.tag() == b.tag() {
		switch a.tag() {
		case tInt32s:
			return slices.Equal(a.Int32s(), b.Int32s())
		case tInt64s:
			return slices.Equal(a.Int64s(), b.Int64s())
		case tBools:
			return slices.Equal(a.Bools(), b.Bools())
		case tFloat32s:
			return slices.EqualFunc(a.Float32s(), b.Float32s(), func(x, y float32) bool {
				return math.Float32bits(x) == math.Float32bits(y)
			})
		case tFloat64s:
			return slices.EqualFunc(a.Float64s(), b.Float64s(), func(x, y float64) bool {
				return math.Float64bits(x) == math.Float64bits(y)
			})
		}
	}
	for i := range a.n() {
		if !equal(a.Index(i), b.Index(i), depth+1) {
			return false
		}
	}
	return true
}
