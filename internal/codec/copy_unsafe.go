//go:build !purego

package codec

import (
	"encoding/binary"
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/avrogo/avro/internal/memcopy"
	"github.com/avrogo/avro/varint"
)

// copyFloat64s fills dst from little-endian IEEE-754 bytes: one copy on
// little-endian hosts, through memcopy because the bytes start wherever the
// block count ended, rarely 8-byte aligned (see package memcopy). Encoding
// keeps the builtin append: there the source is aligned, and memcopy
// measured no faster.
func copyFloat64s(dst []float64, src []byte) {
	if nativeLittleEndian {
		memcopy.Copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*8), src)
		return
	}
	copyFloat64sPortable(dst, src)
}

func copyFloat32s(dst []float32, src []byte) {
	if nativeLittleEndian {
		memcopy.Copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*4), src)
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
	// n is bounded before the product, which could wrap (on 32-bit
	// platforms a count of 2^28 longs made it negative, and the chunk
	// was sliced out of range).
	if n <= 0 || n > stringShareMax/int(unsafe.Sizeof(zero)) {
		return nil, false
	}
	size := n * int(unsafe.Sizeof(zero))
	pad := -len(d.strChunk) & 7
	if cap(d.strChunk)-len(d.strChunk) < pad+size {
		d.strChunk, pad = make([]byte, 0, d.newChunkSize()), 0
	}
	start := len(d.strChunk) + pad
	d.strChunk = d.strChunk[:start+size]
	return unsafe.Slice((*T)(unsafe.Pointer(&d.strChunk[start])), n), true
}

// stringSpanMax bounds the block of strings decodeStringsSpan copies at
// once: the strings share that one allocation, so one kept string keeps
// it alive.
const stringSpanMax = 64 << 10

// decodeStringsSpan decodes a block of strings with one copy: it finds the
// end of the block (checking every length, and UTF-8 if asked), copies the
// whole span, lengths included, and makes the strings point into the copy.
// One memmove instead of one per string. It reports false, having read
// nothing, when the span is too large to share one allocation or when the
// block is bad (the string-by-string path then reports the error at its
// item).
func decodeStringsSpan(dst []string, d *decodeState) bool {
	if len(dst) < 8 || d.zeroCopy {
		return false
	}
	start, need := d.pos, d.need
	strBytes := 0 // what the strings take, as readString accounts them
	for range dst {
		n := d.readLength()
		if d.err != nil {
			d.pos, d.err, d.need = start, nil, need
			return false
		}
		if d.validateUTF && !utf8.Valid(d.buf[d.pos:d.pos+n]) {
			d.pos = start
			return false
		}
		d.pos += n
		strBytes += n
		if d.pos-start > stringSpanMax {
			d.pos = start
			return false
		}
	}
	// The limit is charged for the strings only, as one by one: with the
	// same MaxAlloc both paths accept the same data, and when the limit
	// is hit the one-by-one path reports it at its item.
	if d.allocLeft < int64(strBytes) {
		d.pos = start
		return false
	}
	d.allocLeft -= int64(strBytes)
	span := d.buf[start:d.pos]
	var cp []byte
	if len(span) <= stringShareMax {
		cp = d.carve(span)
	} else {
		cp = append([]byte(nil), span...)
	}
	for i := range dst {
		n, w := varint.Long(cp)
		cp = cp[w:]
		if n == 0 {
			dst[i] = ""
			continue
		}
		dst[i] = unsafe.String(unsafe.SliceData(cp), int(n))
		cp = cp[n:]
	}
	return true
}

// readShortSpan reads the next strs string or bytes values with one copy
// when each has a one-byte length (under 64 bytes, the common case) and
// together they fit a share of the string chunk: one chunk write instead
// of one per value. Each length is checked as readShort checks it, and the
// budget is charged for the values' bytes only, as value by value. It
// reports false, having read nothing, for any other run; the caller then
// reads value by value, and that path reports any error at its item. Cut
// the values off the returned copy with cutSpanString. The scan repeats
// readShort's checks on locals rather than calling it per value: calling it
// stores the position and the budget to the state for every value, which
// measured 11% slower on records of four 8-byte strings.
func (d *decodeState) readShortSpan(strs int64) ([]byte, bool) {
	if strs > stringShareMax || d.zeroCopy || d.validateUTF {
		return nil, false
	}
	start, end := d.pos, len(d.buf)
	p, strBytes := start, 0
	for range strs {
		if p >= end {
			return nil, false
		}
		b := d.buf[p]
		n := int(b >> 1)
		if b&0x81 != 0 || n >= end-p || int64(n) > d.maxLength {
			return nil, false
		}
		p += 1 + n
		strBytes += n
	}
	if p-start > stringShareMax || int64(strBytes) > d.allocLeft {
		return nil, false
	}
	d.pos = p
	d.allocLeft -= int64(strBytes)
	return d.carve(d.buf[start:p]), true
}

// cutSpanString returns the first value of a span from readShortSpan, which
// it shares, and removes it from the span.
func cutSpanString(span *[]byte) string {
	s := *span
	n := int(s[0] >> 1)
	*span = s[1+n:]
	if n == 0 {
		return ""
	}
	return unsafe.String(&s[1], n)
}
