//go:build !purego

package wire

import (
	"encoding/binary"
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/avrogo/avro/internal/memcopy"
	"github.com/avrogo/avro/varint"
)

// CopyFloat64s fills dst from little-endian IEEE-754 bytes: one copy on
// little-endian hosts, through memcopy because the bytes start wherever the
// block count ended, rarely 8-byte aligned (see package memcopy). Encoding
// keeps the builtin append: there the source is aligned, and memcopy
// measured no faster.
func CopyFloat64s(dst []float64, src []byte) {
	if nativeLittleEndian {
		memcopy.Copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*8), src)
		return
	}
	copyFloat64sPortable(dst, src)
}

func CopyFloat32s(dst []float32, src []byte) {
	if nativeLittleEndian {
		memcopy.Copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*4), src)
		return
	}
	copyFloat32sPortable(dst, src)
}

// CopyBools fills dst from bytes already checked to be 0 or 1, which is
// Go's representation of bool.
func CopyBools(dst []bool, src []byte) {
	copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)), src)
}

func AppendFloat64s(dst []byte, src []float64) []byte {
	if nativeLittleEndian {
		return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src)*8)...)
	}
	for _, f := range src {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	return dst
}

func AppendFloat32s(dst []byte, src []float32) []byte {
	if nativeLittleEndian {
		return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src)*4)...)
	}
	for _, f := range src {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
	}
	return dst
}

// SlabBoxing lets the any decoder box numbers and strings into shared
// chunks by writing interface words directly.
const SlabBoxing = true

// MakeString copies raw into a string, sharing a chunk with other short
// strings (see Carve).
func (d *Decoder) MakeString(raw []byte) string {
	if len(raw) > StringShareMax {
		return string(raw)
	}
	return unsafe.String(unsafe.SliceData(d.Carve(raw)), len(raw))
}

// ChunkSlice returns n elements of a pointer-free type carved from the
// chunk of short strings (aligned to 8 bytes), when they take at most
// StringShareMax bytes: the typed arrays of a value.Value decode then
// share that allocation too. ok is false for larger arrays. The elements
// are zero.
func ChunkSlice[T Elem](d *Decoder, n int) (s []T, ok bool) {
	var zero T
	// n is bounded before the product, which could wrap (on 32-bit
	// platforms a count of 2^28 longs made it negative, and the chunk
	// was sliced out of range).
	if n <= 0 || n > StringShareMax/int(unsafe.Sizeof(zero)) {
		return nil, false
	}
	size := n * int(unsafe.Sizeof(zero))
	pad := -len(d.Chunk) & 7
	if cap(d.Chunk)-len(d.Chunk) < pad+size {
		d.Chunk, pad = make([]byte, 0, d.newChunkSize()), 0
	}
	start := len(d.Chunk) + pad
	d.Chunk = d.Chunk[:start+size]
	return unsafe.Slice((*T)(unsafe.Pointer(&d.Chunk[start])), n), true
}

// stringSpanMax bounds the block of strings DecodeStringsSpan copies at
// once: the strings share that one allocation, so one kept string keeps
// it alive.
const stringSpanMax = 64 << 10

// DecodeStringsSpan decodes a block of strings with one copy: it finds the
// end of the block (checking every length, and UTF-8 if asked), copies the
// whole span, lengths included, and makes the strings point into the copy.
// One memmove instead of one per string. It reports false, having read
// nothing, when the span is too large to share one allocation or when the
// block is bad (the string-by-string path then reports the error at its
// item).
func DecodeStringsSpan(dst []string, d *Decoder) bool {
	if len(dst) < 8 || d.ZeroCopy {
		return false
	}
	start, need := d.Pos, d.Need
	strBytes := 0 // what the strings take, as readString accounts them
	for range dst {
		n := d.ReadLength()
		if d.Err != nil {
			d.Pos, d.Err, d.Need = start, nil, need
			return false
		}
		if d.ValidateUTF && !utf8.Valid(d.Buf[d.Pos:d.Pos+n]) {
			d.Pos = start
			return false
		}
		d.Pos += n
		strBytes += n
		if d.Pos-start > stringSpanMax {
			d.Pos = start
			return false
		}
	}
	// The limit is charged for the strings only, as one by one: with the
	// same MaxAlloc both paths accept the same data, and when the limit
	// is hit the one-by-one path reports it at its item.
	if d.AllocLeft < int64(strBytes) {
		d.Pos = start
		return false
	}
	d.AllocLeft -= int64(strBytes)
	span := d.Buf[start:d.Pos]
	var cp []byte
	if len(span) <= StringShareMax {
		cp = d.Carve(span)
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

// ReadShortSpan reads the next strs string or bytes values with one copy
// when each has a one-byte length (under 64 bytes, the common case) and
// together they fit a share of the string chunk: one chunk write instead
// of one per value. Each length is checked as readShort checks it, and the
// budget is charged for the values' bytes only, as value by value. It
// reports false, having read nothing, for any other run; the caller then
// reads value by value, and that path reports any error at its item. Cut
// the values off the returned copy with CutSpanString. The scan repeats
// readShort's checks on locals rather than calling it per value: calling it
// stores the position and the budget to the state for every value, which
// measured 11% slower on records of four 8-byte strings.
func (d *Decoder) ReadShortSpan(strs int64) ([]byte, bool) {
	if strs > StringShareMax || d.ZeroCopy || d.ValidateUTF {
		return nil, false
	}
	start, end := d.Pos, len(d.Buf)
	p, strBytes := start, 0
	for range strs {
		if p >= end {
			return nil, false
		}
		b := d.Buf[p]
		n := int(b >> 1)
		if b&0x81 != 0 || n >= end-p || int64(n) > d.MaxLength {
			return nil, false
		}
		p += 1 + n
		strBytes += n
	}
	if p-start > StringShareMax || int64(strBytes) > d.AllocLeft {
		return nil, false
	}
	d.Pos = p
	d.AllocLeft -= int64(strBytes)
	return d.Carve(d.Buf[start:p]), true
}

// CutSpanString returns the first value of a span from readShortSpan, which
// it shares, and removes it from the span.
func CutSpanString(span *[]byte) string {
	s := *span
	n := int(s[0] >> 1)
	*span = s[1+n:]
	if n == 0 {
		return ""
	}
	return unsafe.String(&s[1], n)
}
