//go:build purego

package codec

import (
	"encoding/binary"
	"math"
)

// The purego twins of copy_unsafe.go: element by element, with no
// assumption about the host's byte order.

func copyFloat64s(dst []float64, src []byte) { copyFloat64sPortable(dst, src) }
func copyFloat32s(dst []float32, src []byte) { copyFloat32sPortable(dst, src) }

func copyBools(dst []bool, src []byte) {
	for i, b := range src {
		dst[i] = b == 1
	}
}

func appendFloat64s(dst []byte, src []float64) []byte {
	for _, f := range src {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	return dst
}

func appendFloat32s(dst []byte, src []float32) []byte {
	for _, f := range src {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
	}
	return dst
}

// slabBoxing lets the any decoder box numbers and strings into shared
// chunks by writing interface words directly; the purego build boxes each value the ordinary way.
const slabBoxing = false

// makeString copies raw into a string of its own (the unsafe build shares
// chunks between short strings).
func (d *decodeState) makeString(raw []byte) string { return string(raw) }

// chunkSlice declines: the purego build allocates typed arrays on their own.
func chunkSlice[T typedElem](d *decodeState, n int) ([]T, bool) {
	return nil, false
}

// decodeStringsSpan declines: the purego build copies each string on its
// own (decodeStringsEach).
func decodeStringsSpan(dst []string, d *decodeState) bool { return false }

// readShortSpan declines: the purego build copies each string on its own.
func (d *decodeState) readShortSpan(strs int64) ([]byte, bool) { return nil, false }

// cutSpanString is never reached in the purego build (readShortSpan
// declines); it copies like makeString.
func cutSpanString(span *[]byte) string {
	s := *span
	n := int(s[0] >> 1)
	*span = s[1+n:]
	return string(s[1 : 1+n])
}
