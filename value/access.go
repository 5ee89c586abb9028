package value

import (
	"github.com/avrogo/avro/schema"
)

// Accessors panic with a *KindError when called on a Value of another kind
// (as reflect.Value does); they accept union values of the right kind,
// whatever their branch.

var rowMethods = [numRows]string{
	rowNull: "Value.IsNull", rowBool: "Value.Bool", rowInt: "Value.Int", rowLong: "Value.Long",
	rowFloat: "Value.Float", rowDouble: "Value.Double", rowEnum: "Value.EnumIndex",
}

var tagMethods = [numTags]string{
	tString: "Value.Str", tBytes: "Value.Bytes", tFixed: "Value.Bytes", tEnumS: "Value.EnumIndex",
	tArray: "Value.Array", tInt32s: "Value.Int32s", tInt64s: "Value.Int64s",
	tFloat32s: "Value.Float32s", tFloat64s: "Value.Float64s", tBools: "Value.Bools",
	tMap: "Value.Map", tRecord: "Value.Record",
}

// unboxRow returns the inner Value of a boxed union value of the given
// scalar row, or panics with a *KindError. Accessors call it off their
// fast path, which keeps them small enough to inline.
func (v Value) unboxRow(row uintptr) Value {
	if u := v.unbox(); u.row() == row {
		return u
	}
	panic(&KindError{Method: rowMethods[row], Kind: v.Kind()})
}

// unboxTag is unboxRow for pointer tags.
func (v Value) unboxTag(t uint8) Value {
	if u := v.unbox(); u.tag() == t {
		return u
	}
	panic(&KindError{Method: tagMethods[t], Kind: v.Kind()})
}

//go:noinline
func (v Value) slowBool() Value { return v.unboxRow(rowBool) }

//go:noinline
func (v Value) slowInt() Value { return v.unboxRow(rowInt) }

//go:noinline
func (v Value) slowLong() Value { return v.unboxRow(rowLong) }

//go:noinline
func (v Value) slowFloat() Value { return v.unboxRow(rowFloat) }

//go:noinline
func (v Value) slowDouble() Value { return v.unboxRow(rowDouble) }

// Str returns the value of a string Value. (String formats any Value.)
func (v Value) Str() string {
	if v.w&tagMask != tString<<tagShift || uintptr(v.p)-addr(&scalars) < scalarSpan {
		v = v.slowStr()
	}
	return stringAt(v.p, v.w&lenMask)
}

//go:noinline
func (v Value) slowStr() Value { return v.unboxTag(tString) }

// Bytes returns the contents of a bytes or fixed Value. The slice shares
// the Value's memory and has no spare capacity (cap == len).
func (v Value) Bytes() []byte {
	if t := v.tag(); t != tBytes && t != tFixed {
		v = v.slowBytes()
	}
	return sliceAt[byte](v.p, v.n())
}

func (v Value) slowBytes() Value {
	if u := v.unbox(); v.tag() == tBoxed && (u.tag() == tBytes || u.tag() == tFixed) {
		return u
	}
	panic(&KindError{Method: "Value.Bytes", Kind: v.Kind()})
}

// EnumIndex returns the symbol index of an enum Value.
func (v Value) EnumIndex() int {
	if uintptr(v.p)-addr(&scalars[rowEnum]) < rowBranches {
		return int(v.w)
	}
	return v.slowEnumIndex()
}

//go:noinline
func (v Value) slowEnumIndex() int {
	switch u := v.unbox(); {
	case u.row() == rowEnum:
		return int(u.w)
	case u.tag() == tEnumS:
		return u.n()
	}
	panic(&KindError{Method: "Value.EnumIndex", Kind: v.Kind()})
}

// Symbol returns the symbol of an enum Value built with its schema (EnumOf,
// or a decoder), or "" when the Value has no schema.
func (v Value) Symbol() string {
	i := v.EnumIndex()
	if s := v.unbox().enumSchema(); s != nil {
		return s.Symbols()[i]
	}
	return ""
}

func (v Value) enumSchema() *schema.Schema {
	if v.tag() == tEnumS {
		return (*schema.Schema)(v.p)
	}
	return nil
}

// Schema returns the schema that an enum, fixed or record Value carries,
// or nil (for other kinds, and for enums and fixed values built with Enum
// and Fixed).
func (v Value) Schema() *schema.Schema {
	if v.tag() == tBoxed && (*boxed)(v.p).s != nil {
		return (*boxed)(v.p).s
	}
	v = v.unbox()
	switch v.tag() {
	case tEnumS:
		return (*schema.Schema)(v.p)
	case tRecord:
		return (*Record)(v.p).s
	}
	return nil
}

//go:noinline
func (v Value) slowRecord() Value { return v.unboxTag(tRecord) }

//go:noinline
func (v Value) slowMap() Value { return v.unboxTag(tMap) }

// Int32s returns the elements of a typed array of ints (ElemKind Int),
// sharing the Value's memory (cap == len).
func (v Value) Int32s() []int32 {
	if v.w&tagMask != tInt32s<<tagShift || uintptr(v.p)-addr(&scalars) < scalarSpan {
		v = v.slowInt32s()
	}
	return sliceAt[int32](v.p, v.w&lenMask)
}

//go:noinline
func (v Value) slowInt32s() Value { return v.unboxTag(tInt32s) }

// Int64s returns the elements of a typed array of longs, sharing memory.
func (v Value) Int64s() []int64 {
	if v.w&tagMask != tInt64s<<tagShift || uintptr(v.p)-addr(&scalars) < scalarSpan {
		v = v.slowInt64s()
	}
	return sliceAt[int64](v.p, v.w&lenMask)
}

//go:noinline
func (v Value) slowInt64s() Value { return v.unboxTag(tInt64s) }

// Float32s returns the elements of a typed array of floats, sharing memory.
func (v Value) Float32s() []float32 {
	if v.w&tagMask != tFloat32s<<tagShift || uintptr(v.p)-addr(&scalars) < scalarSpan {
		v = v.slowFloat32s()
	}
	return sliceAt[float32](v.p, v.w&lenMask)
}

//go:noinline
func (v Value) slowFloat32s() Value { return v.unboxTag(tFloat32s) }

// Float64s returns the elements of a typed array of doubles, sharing memory.
func (v Value) Float64s() []float64 {
	if v.w&tagMask != tFloat64s<<tagShift || uintptr(v.p)-addr(&scalars) < scalarSpan {
		v = v.slowFloat64s()
	}
	return sliceAt[float64](v.p, v.w&lenMask)
}

//go:noinline
func (v Value) slowFloat64s() Value { return v.unboxTag(tFloat64s) }

// Bools returns the elements of a typed array of booleans, sharing memory.
func (v Value) Bools() []bool {
	if v.w&tagMask != tBools<<tagShift || uintptr(v.p)-addr(&scalars) < scalarSpan {
		v = v.slowBools()
	}
	return sliceAt[bool](v.p, v.w&lenMask)
}

//go:noinline
func (v Value) slowBools() Value { return v.unboxTag(tBools) }

// IsTyped reports whether v is a typed primitive array (built with Int32s,
// Int64s, Float32s, Float64s or Bools).
func (v Value) IsTyped() bool {
	t := v.unbox().tag()
	return t >= tInt32s && t <= tBools
}

// ElemKind returns the element kind of an array Value: KindInt, KindLong,
// KindFloat, KindDouble or KindBoolean for a typed array, KindGeneric for
// an array of Values.
// It panics if v is not an array.
func (v Value) ElemKind() Kind {
	switch v.unbox().tag() {
	case tArray:
		return KindGeneric
	case tInt32s:
		return KindInt
	case tInt64s:
		return KindLong
	case tFloat32s:
		return KindFloat
	case tFloat64s:
		return KindDouble
	case tBools:
		return KindBoolean
	}
	panic(&KindError{Method: "Value.ElemKind", Kind: v.Kind()})
}

// Array returns the elements of an array Value as Values: the Value's own
// slice (shared, cap == len) for an array of Values, and a new slice of
// boxed elements for a typed array (which allocates; prefer Index or the
// typed accessors for those).
func (v Value) Array() []Value {
	if v.tag() == tArray {
		return sliceAt[Value](v.p, v.n())
	}
	return v.arraySlow()
}

func (v Value) arraySlow() []Value {
	u := v.unbox()
	if u.tag() == tArray {
		return u.Array()
	}
	if !u.IsTyped() {
		panic(&KindError{Method: "Value.Array", Kind: v.Kind()})
	}
	out := make([]Value, u.n())
	for i := range out {
		out[i] = u.Index(i)
	}
	return out
}

// Len returns the length of a string (in bytes), bytes, fixed, array or map
// Value.
func (v Value) Len() int {
	switch v.tag() {
	case tString, tBytes, tFixed, tArray, tInt32s, tInt64s, tFloat32s, tFloat64s, tBools:
		return v.n()
	case tMap:
		return (*Map)(v.p).Len()
	case tBoxed:
		return v.unbox().Len()
	}
	panic(&KindError{Method: "Value.Len", Kind: v.Kind()})
}

// Index returns element i of an array Value (typed or not). It panics if i
// is out of range.
func (v Value) Index(i int) Value {
	switch v.tag() {
	case tArray:
		return sliceAt[Value](v.p, v.n())[i]
	case tInt32s:
		return Int(sliceAt[int32](v.p, v.n())[i])
	case tInt64s:
		return Long(sliceAt[int64](v.p, v.n())[i])
	case tFloat32s:
		return Float(sliceAt[float32](v.p, v.n())[i])
	case tFloat64s:
		return Double(sliceAt[float64](v.p, v.n())[i])
	case tBools:
		return Bool(sliceAt[bool](v.p, v.n())[i])
	case tBoxed:
		return v.unbox().Index(i)
	}
	panic(&KindError{Method: "Value.Index", Kind: v.Kind()})
}
