//go:build !purego

package avro

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// copyFloat64s fills dst from little-endian IEEE-754 bytes: one memmove on
// little-endian hosts.
func copyFloat64s(dst []float64, src []byte) {
	if nativeLittleEndian {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*8), src)
		return
	}
	copyFloat64sPortable(dst, src)
}

func copyFloat32s(dst []float32, src []byte) {
	if nativeLittleEndian {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*4), src)
		return
	}
	copyFloat32sPortable(dst, src)
}

// copyBools fills dst from bytes already checked to be 0 or 1, which is
// Go's representation of bool.
func copyBools(dst []bool, src []byte) {
	copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)), src)
}

func appendFloat64s(dst []byte, src []float64) []byte {
	if nativeLittleEndian {
		return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src)*8)...)
	}
	for _, f := range src {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	return dst
}

func appendFloat32s(dst []byte, src []float32) []byte {
	if nativeLittleEndian {
		return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src)*4)...)
	}
	for _, f := range src {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
	}
	return dst
}

// slabBoxing lets the any decoder box numbers and strings into shared
// chunks by writing interface words directly.
const slabBoxing = true

// makeString copies raw into a string, sharing a chunk with other short
// strings (see carve).
func (d *decodeState) makeString(raw []byte) string {
	if len(raw) > stringShareMax {
		return string(raw)
	}
	return unsafe.String(unsafe.SliceData(d.carve(raw)), len(raw))
}

// chunkSlice returns n elements of a pointer-free type carved from the
// chunk of short strings (aligned to 8 bytes), when they take at most
// stringShareMax bytes: the typed arrays of a value.Value decode then
// share that allocation too. ok is false for larger arrays. The elements
// are zero.
func chunkSlice[T typedElem](d *decodeState, n int) (s []T, ok bool) {
	var zero T
	size := n * int(unsafe.Sizeof(zero))
	if n == 0 || size > stringShareMax {
		return nil, false
	}
	pad := -len(d.strChunk) & 7
	if cap(d.strChunk)-len(d.strChunk) < pad+size {
		d.strChunk, pad = make([]byte, 0, d.newChunkSize()), 0
	}
	start := len(d.strChunk) + pad
	d.strChunk = d.strChunk[:start+size]
	return unsafe.Slice((*T)(unsafe.Pointer(&d.strChunk[start])), n), true
}
