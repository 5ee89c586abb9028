//go:build purego

package wire

import (
	"encoding/binary"
	"math"
)

// The purego twins of copy_unsafe.go: element by element, with no
// assumption about the host's byte order.

func CopyFloat64s(dst []float64, src []byte) { copyFloat64sPortable(dst, src) }
func CopyFloat32s(dst []float32, src []byte) { copyFloat32sPortable(dst, src) }

func CopyBools(dst []bool, src []byte) {
	for i, b := range src {
		dst[i] = b == 1
	}
}

func AppendFloat64s(dst []byte, src []float64) []byte {
	for _, f := range src {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	return dst
}

func AppendFloat32s(dst []byte, src []float32) []byte {
	for _, f := range src {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
	}
	return dst
}

// SlabBoxing lets the any decoder box numbers and strings into shared
// chunks by writing interface words directly; the purego build boxes each value the ordinary way.
const SlabBoxing = false

// MakeString copies raw into a string of its own (the unsafe build shares
// chunks between short strings).
func (d *Decoder) MakeString(raw []byte) string { return string(raw) }

// ChunkSlice declines: the purego build allocates typed arrays on their own.
func ChunkSlice[T Elem](d *Decoder, n int) ([]T, bool) {
	return nil, false
}

// DecodeStringsSpan declines: the purego build copies each string on its
// own (decodeStringsEach).
func DecodeStringsSpan(dst []string, d *Decoder) bool { return false }

// ReadShortSpan declines: the purego build copies each string on its own.
func (d *Decoder) ReadShortSpan(strs int64) ([]byte, bool) { return nil, false }

// CutSpanString is never reached in the purego build (readShortSpan
// declines); it copies like makeString.
func CutSpanString(span *[]byte) string {
	s := *span
	n := int(s[0] >> 1)
	*span = s[1+n:]
	return string(s[1 : 1+n])
}
