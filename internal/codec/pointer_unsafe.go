package codec

// This file is the fence around package unsafe. Every codec reads and
// writes the Go value it is given through its address; the casts, offsets
// and sizes that takes go through the few operations here, so that no
// other file of the package imports unsafe but map_walk_swiss.go, which
// reads the runtime's private map layout (its purego twin,
// map_walk_portable.go, ranges maps instead). These operations have no
// purego twin: a codec working on the address of a value whose type is
// known only at run time has no pure-Go equivalent, and they rely on
// nothing but the language's rules for unsafe.Pointer, which hold in
// every build.

import (
	"reflect"
	"unsafe"

	"github.com/modern-go/reflect2"

	"github.com/avrogo/avro/internal/cache"
	"github.com/avrogo/avro/internal/wire"
)

// pointer is the address of a Go value whose type the codec holding it was
// compiled for. It is a struct rather than a named unsafe.Pointer, which
// any file could convert to a *T without importing unsafe: this way each
// cast is a call of as, visible where it is made. It has the size and the
// calling convention of unsafe.Pointer, and its operations inline to the
// instructions of the raw casts. Each call still counts against the
// inlining budget of its caller, which is why a few functions here (anyAt,
// chunkData) do in one call what would otherwise take two.
type pointer struct{ p unsafe.Pointer }

// pointerTo returns the address of *x.
func pointerTo[T any](x *T) pointer { return pointer{unsafe.Pointer(x)} }

// as returns p as a *T; p must point at a T.
func as[T any](p pointer) *T { return (*T)(p.p) }

// add returns p advanced by off bytes, which must stay within the value p
// points into.
func (p pointer) add(off uintptr) pointer { return pointer{unsafe.Add(p.p, off)} }

// isNil reports whether p is the nil address.
func (p pointer) isNil() bool { return p.p == nil }

// diff returns how many bytes p lies past base, in the same allocation.
func (p pointer) diff(base pointer) uintptr { return uintptr(p.p) - uintptr(base.p) }

// elem returns the pointer stored at p (p points at a Go pointer, or at
// the data word of a slice or map).
func (p pointer) elem() pointer { return *(*pointer)(p.p) }

// sliceOf returns the n values of type T starting at p.
func sliceOf[T any](p pointer, n int) []T { return unsafe.Slice((*T)(p.p), n) }

// sizeOf returns the size of a T. Inlined, it is the constant
// unsafe.Sizeof would be.
func sizeOf[T any]() uintptr {
	var z T
	return unsafe.Sizeof(z)
}

// slotLayout returns the size of a mapSlot[V] and the offset of its
// value, constants once inlined.
func slotLayout[V any]() (size, valueOff uintptr) {
	var s mapSlot[V]
	return unsafe.Sizeof(s), unsafe.Offsetof(s.value)
}

// sliceHeader is the layout of every Go slice.
type sliceHeader struct {
	data pointer
	len  int
	cap  int
}

// typeWord is the type word of an interface value: it names the dynamic
// Go type, and keys the codec cache.
type typeWord struct{ p unsafe.Pointer }

// isNil reports whether t is the type word of a nil interface value.
func (t typeWord) isNil() bool { return t.p == nil }

// cacheKey is the key of the cache entry of family f for the Go type t
// (the zero typeWord for families without one).
func cacheKey(f Family, t typeWord) cache.Key { return cache.Key{Type: t.p, Family: uint8(f)} }

// eface is the layout of an interface value of type any: its data word
// is the value itself for pointer-shaped types, else its address.
type eface struct {
	typ  typeWord
	data pointer
}

// iface is the layout of a non-empty interface value: its first word
// names the dynamic type and the interface's method table (one word for
// each pair of interface and dynamic type), its data word is as an
// eface's.
type iface struct {
	tab  typeWord
	data pointer
}

// ifaceAt returns the two words of the interface value at p.
func ifaceAt(p pointer) *iface { return (*iface)(p.p) }

// itabOf returns the first word of an interface value of type it that
// holds a t.
func itabOf(it, t reflect.Type) typeWord {
	v := reflect.New(it)
	v.Elem().Set(reflect.Zero(t))
	return ifaceAt(pointer{v.UnsafePointer()}).tab
}

// efaceOf returns the two words of *v.
func efaceOf(v *any) *eface { return (*eface)(unsafe.Pointer(v)) }

// makeAny returns the interface value of type typ whose data word is p.
func makeAny(typ typeWord, p pointer) any {
	var v any
	ef := efaceOf(&v)
	ef.typ, ef.data = typ, p
	return v
}

// anyAt is makeAny for the value at x, written out: the call of makeAny
// would make the boxing functions too costly to inline.
func anyAt[T any](typ typeWord, x *T) any {
	var v any
	ef := (*eface)(unsafe.Pointer(&v))
	ef.typ, ef.data = typ, pointer{unsafe.Pointer(x)}
	return v
}

// chunkData is wire.ChunkSlice for a slice header: the data of n zero
// elements of T carved from d's chunk, or false. It is here for the same
// reason as anyAt: converting the slice through a generic helper would put
// it over the inlining budget of its callers (the pointee allocators).
func chunkData[T typedElem](d *decodeState, n int) (pointer, bool) {
	s, ok := wire.ChunkSlice[T](&d.Decoder, n)
	return pointer{unsafe.Pointer(unsafe.SliceData(s))}, ok
}

// valueAt returns the reflect.Value of type *t for p, which points at a t.
func valueAt(t reflect.Type, p pointer) reflect.Value { return reflect.NewAt(t, p.p) }

// pointerOfValue returns the pointer v holds (v is a pointer, map, ...
// as reflect.Value.UnsafePointer takes).
func pointerOfValue(v reflect.Value) pointer { return pointer{v.UnsafePointer()} }

// unsafeNew, unsafeSet and unsafeGrow are reflect2's operations of the
// same names on values given by their address.

func unsafeNew(t reflect2.Type) pointer { return pointer{t.UnsafeNew()} }

func unsafeSet(t reflect2.Type, dst, src pointer) { t.UnsafeSet(dst.p, src.p) }

func unsafeGrow(t reflect2.SliceType, p pointer, n int) { t.UnsafeGrow(p.p, n) }
