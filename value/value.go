package value

import (
	"math"
	"unsafe"

	"github.com/avrogo/avro/schema"
)

// The representation of a Value.
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
// GC-safety invariants of that representation.
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

// Value is one Avro value: null, a scalar, a string, bytes, fixed, an enum,
// an array, a map or a record, optionally tagged with the union branch it
// was written under. It is two words (16 bytes) and is passed by value.
// The zero Value is null (with no branch).
//
// Values are immutable except through the slices, *Record and *Map they
// share (see the package documentation for ownership). Values are not
// comparable with ==; use Equal.
type Value struct {
	_ [0]func() // not comparable: == on two words would compare identities

	// p is nil (null), a pointer into the scalars sentinel array (scalar
	// kinds: the element's offset encodes row and branch), or the data
	// pointer of a pointer kind. It is the only word the GC scans.
	p unsafe.Pointer
	_ [8 - unsafe.Sizeof(uintptr(0))]byte // 16 bytes on 32-bit platforms too
	// w is the payload bits of a scalar, or for a pointer kind the length
	// (low 48 bits), the tag (bits 48-55) and the branch+1 (bits 56-63).
	// It never holds a pointer.
	w uint64
}

// Rows of the scalar sentinel array. A scalar Value points at
// &scalars[row][branch+1], or &scalars[row][0] when it has no branch.
const (
	rowNull = iota
	rowBool
	rowInt
	rowLong
	rowFloat
	rowDouble
	rowEnum
	numRows
)

// rowBranches is the number of branch slots of a row: slot 0 means "no
// branch", slot b+1 branch b, so branches 0..maxInline are inline.
const (
	rowBranches = 256
	maxInline   = rowBranches - 2 // 254
	scalarSpan  = numRows * rowBranches
)

// scalars is the sentinel array that scalar Values point into. Only its
// address matters; its bytes are never read or written.
var scalars [numRows][rowBranches]byte

// zeroBase is what empty strings, bytes and arrays point at, so that their
// p is never nil (nil is null) and never points past the end of an
// allocation. It is a uint64 so that it is aligned for every element type.
var zeroBase uint64

var rowKinds = [numRows]Kind{KindNull, KindBoolean, KindInt, KindLong, KindFloat, KindDouble, KindEnum}

// Tags of the pointer kinds, stored in bits 48-55 of w. Tag 0 is unused so
// that the zero Value (p == nil, w == 0) matches no pointer tag.
const (
	tBytes    = 1 + iota // p: data; len
	tString              // p: data; len
	tFixed               // p: data; len
	tEnumS               // p: *schema.Schema; index in the length bits
	tArray               // p: first Value; len
	tInt32s              // p: first int32; len
	tInt64s              // p: first int64; len
	tFloat32s            // p: first float32; len
	tFloat64s            // p: first float64; len
	tBools               // p: first bool; len
	tMap                 // p: *Map
	tRecord              // p: *Record
	tBoxed               // p: *boxed (branch > maxInline)
	numTags
)

var tagKinds = [numTags]Kind{
	tBytes: KindBytes, tString: KindString, tFixed: KindFixed, tEnumS: KindEnum, tArray: KindArray,
	tInt32s: KindArray, tInt64s: KindArray, tFloat32s: KindArray, tFloat64s: KindArray, tBools: KindArray,
	tMap: KindMap, tRecord: KindRecord,
}

const (
	lenBits    = 48
	lenMask    = 1<<lenBits - 1
	tagShift   = 48
	branchShft = 56
	maxLen     = lenMask
	tagMask    = 0xff << tagShift
)

// boxed is a union value whose branch index does not fit in 8 bits, or a
// fixed value with its schema.
type boxed struct {
	v      Value // branch-less
	branch int
	s      *schema.Schema // of a fixed value, or nil
}

// sbase is the address of the sentinel array.
func sbase() uintptr { return uintptr(unsafe.Pointer(&scalars)) }

// row returns the sentinel row of a scalar Value, or a number >= numRows
// for any other Value (nil and heap pointers wrap around or lie outside).
func (v Value) row() uintptr { return (uintptr(v.p) - sbase()) / rowBranches }

// isScalar reports whether p points into the sentinel array.
func (v Value) isScalar() bool { return uintptr(v.p)-sbase() < scalarSpan }

// tag returns the pointer tag, or 0 for null and scalars.
func (v Value) tag() uint8 {
	if v.isScalar() {
		return 0
	}
	return uint8(v.w >> tagShift)
}

// n returns the length bits of a pointer Value.
func (v Value) n() int { return int(v.w & lenMask) }

func scalar(row int, w uint64) Value {
	return Value{p: unsafe.Pointer(&scalars[row][0]), w: w}
}

// ptr builds a pointer Value; p must not be nil.
func ptr(p unsafe.Pointer, tag uint8, n int) Value {
	if uint64(n) > maxLen {
		panic("value: length out of range")
	}
	return Value{p: p, w: uint64(n) | uint64(tag)<<tagShift}
}

// slice builds a pointer Value over n elements at p; p may be nil when n
// is 0.
func slice(p unsafe.Pointer, tag uint8, n int) Value {
	if n == 0 {
		p = unsafe.Pointer(&zeroBase)
	}
	return ptr(p, tag, n)
}

// unbox returns the inner Value of a boxed union value, or v.
func (v Value) unbox() Value {
	if v.tag() == tBoxed {
		return (*boxed)(v.p).v
	}
	return v
}

// Kind returns the Avro kind of v. A union value reports the kind of its
// branch; typed arrays report KindArray.
func (v Value) Kind() Kind {
	if off := uintptr(v.p) - uintptr(unsafe.Pointer(&scalars)); off < scalarSpan {
		return rowKinds[off/rowBranches]
	}
	return v.ptrKind()
}

func (v Value) ptrKind() Kind {
	if v.p == nil {
		return KindNull
	}
	t := uint8(v.w >> tagShift)
	if t == tBoxed {
		return (*boxed)(v.p).v.Kind()
	}
	return tagKinds[t]
}

// IsNull reports whether v is null (with or without a branch).
func (v Value) IsNull() bool {
	return v.p == nil || v.row() == rowNull || v.tag() == tBoxed && (*boxed)(v.p).v.p == nil
}

// Branch returns the union branch index v carries, or -1 when v is not a
// union value.
func (v Value) Branch() int {
	if v.isScalar() {
		return int((uintptr(v.p)-sbase())%rowBranches) - 1
	}
	if v.p == nil {
		return -1
	}
	if uint8(v.w>>tagShift) == tBoxed {
		return (*boxed)(v.p).branch
	}
	return int(v.w>>branchShft) - 1
}

// WithBranch returns v tagged with union branch i, replacing any branch it
// had; i == -1 removes the branch. Branches up to 254 cost nothing (the
// index lives in spare bits); larger ones allocate a small box.
func (v Value) WithBranch(i int) Value {
	if i < -1 {
		panic("value: negative union branch")
	}
	if v.tag() == tBoxed {
		if b := (*boxed)(v.p); b.s != nil {
			return box(boxed{v: b.v, branch: i, s: b.s})
		}
	}
	v = v.unbox()
	switch {
	case v.isScalar():
		if i <= maxInline {
			return Value{p: unsafe.Pointer(&scalars[v.row()][i+1]), w: v.w}
		}
		v = Value{p: unsafe.Pointer(&scalars[v.row()][0]), w: v.w}
	case v.p == nil:
		if i <= maxInline {
			return Value{p: unsafe.Pointer(&scalars[rowNull][i+1])}
		}
	case i <= maxInline:
		return Value{p: v.p, w: v.w&^(0xff<<branchShft) | uint64(i+1)<<branchShft}
	default:
		v = Value{p: v.p, w: v.w &^ (0xff << branchShft)}
	}
	return box(boxed{v: v, branch: i})
}

// box returns a Value of b, on the heap.
func box(b boxed) Value { return Value{p: unsafe.Pointer(&b), w: uint64(tBoxed) << tagShift} }

// Union returns v tagged with union branch branch; it is
// v.WithBranch(branch).
func Union(branch int, v Value) Value { return v.WithBranch(branch) }

// rawBytes returns the payload of an unboxed string, bytes or fixed Value.
func rawBytes(v Value) []byte { return unsafe.Slice((*byte)(v.p), v.n()) }

// The accessors that the decoders and users call most check the pointer
// word inline; through the operations below they would cost more than the
// compiler inlines.

// Bool returns the value of a boolean Value.
func (v Value) Bool() bool {
	if uintptr(v.p)-uintptr(unsafe.Pointer(&scalars[rowBool])) >= rowBranches {
		v = v.slowBool()
	}
	return v.w != 0
}

// Int returns the value of an Avro int Value.
func (v Value) Int() int32 {
	if uintptr(v.p)-uintptr(unsafe.Pointer(&scalars[rowInt])) >= rowBranches {
		v = v.slowInt()
	}
	return int32(v.w)
}

// Long returns the value of an Avro long Value.
func (v Value) Long() int64 {
	if uintptr(v.p)-uintptr(unsafe.Pointer(&scalars[rowLong])) >= rowBranches {
		v = v.slowLong()
	}
	return int64(v.w)
}

// Float returns the value of an Avro float Value.
func (v Value) Float() float32 {
	if uintptr(v.p)-uintptr(unsafe.Pointer(&scalars[rowFloat])) >= rowBranches {
		v = v.slowFloat()
	}
	return math.Float32frombits(uint32(v.w))
}

// Double returns the value of an Avro double Value.
func (v Value) Double() float64 {
	if uintptr(v.p)-uintptr(unsafe.Pointer(&scalars[rowDouble])) >= rowBranches {
		v = v.slowDouble()
	}
	return math.Float64frombits(v.w)
}

// Record returns the record of a record Value.
func (v Value) Record() *Record {
	if v.w&tagMask != tRecord<<tagShift || uintptr(v.p)-uintptr(unsafe.Pointer(&scalars)) < scalarSpan {
		v = v.slowRecord()
	}
	return (*Record)(v.p)
}

// Map returns the map of a map Value.
func (v Value) Map() *Map {
	if v.w&tagMask != tMap<<tagShift || uintptr(v.p)-uintptr(unsafe.Pointer(&scalars)) < scalarSpan {
		v = v.slowMap()
	}
	return (*Map)(v.p)
}

// The operations on the pointer word. They are the only uses of unsafe in
// the package outside this file and the Arena's layout check, so that
// what the representation relies on is read in one place: p always points
// at a live Go object (a scalar row, a slice's data, a Map, a Record, a
// schema) or is nil, and the word w never holds a pointer.

// pointer is the type of the pointer word.
type pointer = unsafe.Pointer

// addr is the address of x as a number, for the scalar row checks.
func addr[T any](x *T) uintptr { return uintptr(unsafe.Pointer(x)) }

// ptrTo returns x as the pointer word.
func ptrTo[T any](x *T) pointer { return unsafe.Pointer(x) }

// as returns the pointer word as a *T.
func as[T any](p pointer) *T { return (*T)(p) }

// sliceAt returns the n values of type T from p.
func sliceAt[T any, N int | uint64](p pointer, n N) []T { return unsafe.Slice((*T)(p), n) }

// sliceOf returns the n values of type T from p.
func sliceOf[T any, N int | uint64](p *T, n N) []T { return unsafe.Slice(p, n) }

// stringAt returns the string of n bytes at p.
func stringAt(p pointer, n uint64) string { return unsafe.String((*byte)(p), n) }

// dataOf returns the data pointer of s.
func dataOf[T any](s []T) pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// firstOf returns the pointer to the first element of s.
func firstOf[T any](s []T) *T { return unsafe.SliceData(s) }

// stringData returns the data pointer of s.
func stringData(s string) pointer { return unsafe.Pointer(unsafe.StringData(s)) }

// mapHeaderValues is the number of Values a Map header occupies in an
// Arena block.
const mapHeaderValues = int(unsafe.Sizeof(Map{}) / unsafe.Sizeof(Value{}))
