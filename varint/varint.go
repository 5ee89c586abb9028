// Package varint encodes and decodes the variable-length zigzag integers that
// Avro uses for int and long values (and for every length, count, union index
// and enum symbol on the wire).
//
// # Encoding
//
// A signed value v is first mapped to an unsigned one with zigzag encoding,
// so that values of small magnitude get small codes:
//
//	0 → 0, -1 → 1, 1 → 2, -2 → 3, 2 → 4, …   (u = v<<1 ^ v>>63)
//
// The unsigned value is then written in base 128, least significant group
// first: each byte carries 7 bits, and its high bit (0x80) is set when more
// bytes follow. A long takes 1 to 10 bytes, an int 1 to 5. For example
// 0 is 00, -1 is 01, 64 is 80 01 and 8192 is 80 80 01. This is exactly the
// format of encoding/binary.AppendVarint.
//
// # Decoding and errors
//
// [Long] and [Int] return the value and the number of bytes used, n:
//
//   - n > 0: success; the value used b[:n].
//   - n == 0: b is truncated: it ended before the last byte of the varint.
//   - n < 0: the varint is invalid: it is overlong (more than 10 bytes for a
//     long, 5 for an int) or its last byte has bits that do not fit (a 10th
//     byte above 1 for a long, a 5th byte above 0x0f for an int, that is an
//     int outside the int32 range). -n is the number of bytes examined.
//
// Non-minimal encodings that still fit (such as 80 00 for 0) are accepted, as
// they are by the Java, C and Python implementations; the encoders always
// write the minimal form.
//
// The bulk functions [DecodeLongs] and [DecodeInts] report the same two
// conditions as [ErrTruncated] and [ErrOverflow], wrapped in a [*DecodeError]
// that says which value failed; test for them with errors.Is.
//
// # Speed
//
// [Long], [Int], [AppendInt] and [AppendLong] inline at the call site, with
// the one-byte case handled there. The bulk functions decode runs of
// one-byte values 8 at a time and make no call per value. On amd64 with
// AVX2, [DecodeLongs] decodes runs of one-byte values with an assembly
// kernel, 32 values a step; with BMI2 as well, on CPUs where its PEXT
// instruction is fast (not AMD or Hygon before Zen 3), it decodes the values
// of other lengths with a second kernel. The CPU is checked at start-up.
// The purego build tag, and other architectures, keep the pure-Go loops,
// which the tests check against the kernels.
package varint

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"
)

// MaxLenLong and MaxLenInt are the maximum encoded lengths of a long and an int.
const (
	MaxLenLong = 10
	MaxLenInt  = 5
)

var (
	// ErrTruncated means that the input ended in the middle of a varint
	// (the n == 0 result of [Long] and [Int]).
	ErrTruncated = errors.New("varint: truncated input")
	// ErrOverflow means that a varint is invalid: longer than the maximum
	// length for its type, or with bits in its last byte that do not fit the
	// type (the n < 0 result of [Long] and [Int]).
	ErrOverflow = errors.New("varint: overlong or out-of-range varint")
)

// DecodeError is the error returned by [DecodeLongs] and [DecodeInts]. It
// wraps [ErrTruncated] or [ErrOverflow] (use errors.Is) and says where the
// failing value is.
type DecodeError struct {
	Index  int   // index in dst of the value that failed; dst[:Index] were decoded
	Offset int   // byte offset in src at which that value starts
	Err    error // ErrTruncated or ErrOverflow
}

// Error implements error.
func (e *DecodeError) Error() string {
	return e.Err.Error() + " (value " + strconv.Itoa(e.Index) + " at byte " + strconv.Itoa(e.Offset) + ")"
}

// Unwrap returns the sentinel error, ErrTruncated or ErrOverflow.
func (e *DecodeError) Unwrap() error { return e.Err }

func decodeError(n, index, offset int) error {
	err := ErrOverflow
	if n == 0 {
		err = ErrTruncated
	}
	return &DecodeError{Index: index, Offset: offset, Err: err}
}

// Zigzag64 maps a signed value to its zigzag code: 0, -1, 1, -2 … become 0, 1, 2, 3 ….
func Zigzag64(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// Unzigzag64 is the inverse of [Zigzag64].
func Unzigzag64(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// Zigzag32 maps a signed 32-bit value to its zigzag code.
func Zigzag32(v int32) uint32 { return uint32(v<<1) ^ uint32(v>>31) }

// Unzigzag32 is the inverse of [Zigzag32].
func Unzigzag32(u uint32) int32 { return int32(u>>1) ^ -int32(u&1) }

// SizeLong returns the encoded length of v, 1 to 10 bytes.
func SizeLong(v int64) int { return sizeUvarint(Zigzag64(v)) }

// SizeInt returns the encoded length of v, 1 to 5 bytes.
func SizeInt(v int32) int { return sizeUvarint(uint64(Zigzag32(v))) }

// sizeUvarint is ceil(bits/7) with at least 1, computed without a division.
func sizeUvarint(u uint64) int { return (bits.Len64(u|1)*9 + 64) >> 6 }

// ---------------------------------------------------------------------------
// Single-value decoding

// Long decodes an Avro long from the start of b. It returns the value and the
// number of bytes used: n > 0 on success, n == 0 if b is truncated, n < 0 if
// the varint is invalid (see the package documentation).
//
// Long is small enough to be inlined: the one-byte case costs a comparison and
// a table load at the call site, and longer values call an out-of-line
// decoder.
func Long(b []byte) (v int64, n int) {
	// The shape is tuned to the inliner's budget of 80; TestInlining checks
	// that it stays inlinable.
	for _, c := range b {
		if c < 0x80 {
			return oneByteLong[c], 1
		}
		break //nolint:staticcheck // SA4004: a loop that looks at one byte costs fewer inlining nodes than a bounds check
	}
	v, n = longSlow(b)
	return
}

// Int decodes an Avro int from the start of b. It returns the value and the
// number of bytes used: n > 0 on success, n == 0 if b is truncated, n < 0 if
// the varint is invalid, including a value outside the int32 range.
//
// Int is inlined like [Long].
func Int(b []byte) (v int32, n int) {
	for _, c := range b {
		if c < 0x80 {
			return oneByteInt[c], 1
		}
		break //nolint:staticcheck // SA4004: as in Long, to stay inlinable
	}
	v, n = intSlow(b)
	return
}

// oneByteLong and oneByteInt hold the values of the one-byte varints. A table
// load costs fewer inlining-budget nodes than the zigzag arithmetic, and it
// is as fast when the table is hot.
var (
	oneByteLong [128]int64
	oneByteInt  [128]int32
)

func init() {
	for c := range oneByteLong {
		oneByteLong[c] = Unzigzag64(uint64(c))
		oneByteInt[c] = Unzigzag32(uint32(c))
	}
}

const (
	msbs    = 0x8080808080808080 // the continuation bits of 8 bytes
	msbsInt = 0x0000008080808080 // the continuation bits of the 5 bytes of an int
)

// compact packs the low 7 bits of each of the 8 little-endian bytes of w
// into a 56-bit value (a PEXT with mask 0x7f7f7f7f7f7f7f7f, in three steps).
func compact(w uint64) uint64 {
	w = w&0x007f007f007f007f | (w>>1)&0x3f803f803f803f80
	w = w&0x00003fff00003fff | (w>>2)&0x0fffc0000fffc000
	return w&0x000000000fffffff | (w>>4)&0x00fffffff0000000
}

// spread is the inverse of compact: it spreads the low 56 bits of u into the
// low 7 bits of 8 bytes (continuation bits clear).
func spread(u uint64) uint64 {
	w := u&0x000000000fffffff | (u&0x00fffffff0000000)<<4
	w = w&0x00003fff00003fff | (w&0x0fffc0000fffc000)<<2
	return w&0x007f007f007f007f | (w&0x3f803f803f803f80)<<1
}

// longSlow decodes a long whose first byte is not a one-byte value (or an
// empty b). With 8 bytes available it finds the last byte of the varint from
// a single word and packs the groups without a branch per byte.
func longSlow(b []byte) (int64, int) {
	if len(b) >= 8 {
		// Two bytes are the most common long value (lengths, counts, small
		// numbers): a predictable branch here lets the CPU run ahead to the
		// next value, where the branch-free length below is a dependency
		// (load, find the stop bit, advance, load).
		w := binary.LittleEndian.Uint64(b)
		if w&0x8000 == 0 {
			return Unzigzag64(w&0x7f | w>>1&0x3f80), 2
		}
		// Three and four bytes (counts, ids, microsecond offsets) get
		// predictable branches too: on data of one length the next value's
		// position is then known before this one is decoded.
		if w&0x800000 == 0 {
			return Unzigzag64(w&0x7f | w>>1&0x3f80 | w>>2&0x1fc000), 3
		}
		if w&0x80000000 == 0 {
			return Unzigzag64(w&0x7f | w>>1&0x3f80 | w>>2&0x1fc000 | w>>3&0xfe00000), 4
		}
		if w&0x8000000000 == 0 {
			return Unzigzag64(w&0x7f | w>>1&0x3f80 | w>>2&0x1fc000 | w>>3&0xfe00000 | w>>4&0x7f0000000), 5
		}
		if m := ^w & msbs; m != 0 {
			// The lowest set bit of m is the high bit of the last byte;
			// m^(m-1) keeps the bytes of the varint.
			x := compact(w & (m ^ (m - 1)))
			return Unzigzag64(x), (bits.TrailingZeros64(m) + 1) >> 3
		}
		return long9(b, compact(w))
	}
	// Fewer than 8 bytes: the varint cannot reach the 10th byte.
	var x uint64
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c < 0x80 {
			return Unzigzag64(x | uint64(c)<<(7*i)), i + 1
		}
		x |= uint64(c&0x7f) << (7 * i)
	}
	return 0, 0
}

// long9 finishes a long of 9 or 10 bytes, given the packed first 8 bytes.
func long9(b []byte, x uint64) (int64, int) {
	if len(b) < 9 {
		return 0, 0
	}
	c := b[8]
	if c < 0x80 {
		return Unzigzag64(x | uint64(c)<<56), 9
	}
	if len(b) < 10 {
		return 0, 0
	}
	x |= uint64(c&0x7f) << 56
	c = b[9]
	if c > 1 {
		return 0, -10
	}
	return Unzigzag64(x | uint64(c)<<63), 10
}

// intSlow decodes an int whose first byte is not a one-byte value (or an
// empty b).
func intSlow(b []byte) (int32, int) {
	if len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		if w&0x8000 == 0 {
			return Unzigzag32(uint32(w&0x7f | w>>1&0x3f80)), 2
		}
		m := ^w & msbsInt
		if m == 0 {
			return 0, -5 // more than 5 bytes
		}
		x := compact(w & (m ^ (m - 1)))
		if x > 0xffffffff {
			return 0, -5 // 5th byte above 0x0f
		}
		return Unzigzag32(uint32(x)), (bits.TrailingZeros64(m) + 1) >> 3
	}
	var x uint32
	for i := 0; i < len(b); i++ {
		c := b[i]
		if i == 4 {
			if c > 0x0f {
				return 0, -5
			}
			return Unzigzag32(x | uint32(c)<<28), 5
		}
		if c < 0x80 {
			return Unzigzag32(x | uint32(c)<<(7*i)), i + 1
		}
		x |= uint32(c&0x7f) << (7 * i)
	}
	return 0, 0
}

// ---------------------------------------------------------------------------
// Single-value encoding

// AppendLong appends the encoding of v to dst and returns the extended slice.
// It inlines at the call site.
func AppendLong(dst []byte, v int64) []byte {
	// A byte loop whose exits the branch predictor learns on data of one
	// length beats a call to a branch-free encoder here, and on mixed
	// lengths it costs no more.
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// PutLong writes the encoding of v at the start of b, which must be at
// least MaxLenLong bytes long, and returns its length n. Unlike
// encoding/binary.PutUvarint it may also change b[n:8]: it writes a value
// of up to 8 bytes with one word store, and no branch per byte that
// values of mixed lengths would mispredict.
func PutLong(b []byte, v int64) int {
	b = b[:MaxLenLong]
	u := Zigzag64(v)
	if u >= 1<<56 {
		return putUvarintLong(b, u, true)
	}
	return putWord(b, u)
}

// putWord writes u < 1<<56 to b, at least 8 bytes long, with one word
// store, and returns its length.
func putWord(b []byte, u uint64) int {
	n := sizeUvarint(u)
	binary.LittleEndian.PutUint64(b, spread(u)|msbs>>(8*(9-n)))
	return n
}

// AppendInt appends the encoding of v to dst and returns the extended slice.
// The one-byte case (-64 <= v < 64) inlines at the call site.
func AppendInt(dst []byte, v int32) []byte {
	if uint32(v+64) < 128 {
		return append(dst, byte(v<<1^v>>31))
	}
	return appendIntSlow(dst, v)
}

// appendIntSlow appends v outside [-64, 64) (2 to 5 bytes).
func appendIntSlow(dst []byte, v int32) []byte {
	u := Zigzag32(v)
	switch {
	case u < 1<<14:
		return append(dst, byte(u)|0x80, byte(u>>7))
	case u < 1<<21:
		return append(dst, byte(u)|0x80, byte(u>>7)|0x80, byte(u>>14))
	case u < 1<<28:
		return append(dst, byte(u)|0x80, byte(u>>7)|0x80, byte(u>>14)|0x80, byte(u>>21))
	}
	return append(dst, byte(u)|0x80, byte(u>>7)|0x80, byte(u>>14)|0x80, byte(u>>21)|0x80, byte(u>>28))
}
