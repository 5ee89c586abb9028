package codec

import (
	"reflect"

	"github.com/modern-go/reflect2"
)

// Optional fields are Avro's commonest shape (["null","long"],
// ["null","double"]), and each non-null one decodes into a new pointee
// behind a Go pointer. Pointees of the pointer-free number and boolean
// kinds are carved from the decode's chunk of short strings (wire.ChunkSlice),
// so that a record of many optional numbers is not as many allocations.
// A pointee belongs to the field that points to it: writing through the
// pointer changes nothing else. In the purego build, and for every other
// type, each pointee is an allocation of its own.
//
// A slab of string headers for *string pointees was measured too: it
// saved allocations but added bytes (a slab is filled only in part), and
// decodes were no faster, so strings keep one allocation each.

// pointeeAllocator returns the function that makes a new zero T for a
// decode, where t is T. It returns nil, with the decode's error set, when
// T does not fit in what is left of MaxAlloc. (The carved pointees are
// not charged: their branches take at least a byte of input each.)
func pointeeAllocator(t reflect.Type) func(d *decodeState) pointer {
	switch t.Kind() {
	case reflect.Int64, reflect.Uint64, reflect.Float64, reflect.Int, reflect.Uint:
		if t.Size() == 8 {
			return chunkPointee[int64](t)
		}
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return chunkPointee[int32](t)
	case reflect.Bool:
		return chunkPointee[bool](t)
	}
	rt, size := reflect2.Type2(t), t.Size()
	return func(d *decodeState) pointer {
		if !d.ReserveNew(size) {
			return pointer{}
		}
		return unsafeNew(rt)
	}
}

// chunkPointee returns an allocator of pointees of type t, which has E's
// size and alignment, carved from the chunk when it can.
func chunkPointee[E typedElem](t reflect.Type) func(d *decodeState) pointer {
	rt := reflect2.Type2(t)
	return func(d *decodeState) pointer {
		if p, ok := chunkData[E](d, 1); ok {
			return p
		}
		return unsafeNew(rt)
	}
}
