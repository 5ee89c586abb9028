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

// makeBytes copies raw into a slice with no spare capacity, sharing a
// chunk with the short strings of the same decode.
func (d *decodeState) makeBytes(raw []byte) []byte {
	n := len(raw)
	if n > stringShareMax {
		return append([]byte(nil), raw...)
	}
	if cap(d.strChunk)-len(d.strChunk) < n {
		d.strChunk = make([]byte, 0, d.stringChunkSize(n))
	}
	start := len(d.strChunk)
	d.strChunk = append(d.strChunk, raw...)
	return d.strChunk[start : start+n : start+n]
}

// makeString copies raw into a string, sharing a chunk with other short
// strings of the same decode.
func (d *decodeState) makeString(raw []byte) string {
	n := len(raw)
	if n > stringShareMax {
		return string(raw)
	}
	if cap(d.strChunk)-len(d.strChunk) < n {
		d.strChunk = make([]byte, 0, d.stringChunkSize(n))
	}
	start := len(d.strChunk)
	d.strChunk = append(d.strChunk, raw...)
	return unsafe.String(&d.strChunk[start], n)
}
