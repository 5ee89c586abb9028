package varint

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The bulk functions call these implementation variables. They default to
// the pure-Go loops below. A CPU-specific kernel (assembly or SIMD, in a file
// with build tags) may replace them from an init function after checking the
// CPU features; a replacement must have exactly the semantics of the generic
// version, including the error values and the partial results on error, and
// is kept only if it beats the generic loop on uniform and on mixed data.
var (
	decodeLongsImpl = decodeLongsGeneric
	decodeIntsImpl  = decodeIntsGeneric
	appendLongsImpl = appendLongsGeneric
	appendIntsImpl  = appendIntsGeneric
)

// DecodeLongs decodes exactly len(dst) longs from the start of src into dst
// and returns the number of bytes consumed.
//
// On error it returns a [*DecodeError] wrapping [ErrTruncated] (src ended
// before the last value did) or [ErrOverflow] (an invalid varint); dst[:e.Index]
// hold the values decoded so far and consumed is the number of bytes they used
// (e.Offset). The contents of the rest of dst are unspecified.
func DecodeLongs(dst []int64, src []byte) (consumed int, err error) {
	return decodeLongsImpl(dst, src)
}

// DecodeInts decodes exactly len(dst) ints from the start of src into dst and
// returns the number of bytes consumed. Errors are as for [DecodeLongs]; a
// value outside the int32 range is an [ErrOverflow].
func DecodeInts(dst []int32, src []byte) (consumed int, err error) {
	return decodeIntsImpl(dst, src)
}

// AppendLongs appends the encodings of the values of src to dst and returns
// the extended slice. It grows dst in chunks, never by more than the worst
// case of the values still to write, and writes only bytes inside the result.
func AppendLongs(dst []byte, src []int64) []byte {
	if len(src) <= shortLongs {
		return appendShortLongs(dst, src)
	}
	return appendLongsImpl(dst, src)
}

// shortLongs is the most values appendShortLongs takes.
const shortLongs = 8

// appendShortLongs encodes a short array (a record's few longs) with one
// word store per value into a scratch buffer, where the bytes a store
// writes past its value do no harm, and appends the result once. The
// bulk loops write the last values of a chunk byte by byte, which for a
// whole short array of mixed lengths is a loop of unpredictable length
// per value.
func appendShortLongs(dst []byte, src []int64) []byte {
	var scratch [shortLongs*MaxLenLong + 8]byte
	q := 0
	for _, v := range src {
		u := Zigzag64(v)
		s := scratch[q : q+MaxLenLong : q+MaxLenLong]
		if u < 1<<56 {
			q += putWord(s, u)
			continue
		}
		q += putUvarintLong(s, u, true)
	}
	return append(dst, scratch[:q]...)
}

// AppendInts appends the encodings of the values of src to dst and returns
// the extended slice, like [AppendLongs].
func AppendInts(dst []byte, src []int32) []byte {
	return appendIntsImpl(dst, src)
}

// unzigBytes unzigzags 8 one-byte varints (continuation bits clear) in
// place: byte k of the result, read as an int8, is the value of byte k of
// w. (x>>1) ^ -(x&1) per byte: the shift's bits that cross into the byte
// below are masked off, and (x&1)*0xff is -(x&1) in a byte.
func unzigBytes(w uint64) uint64 {
	return (w>>1)&0x3f3f3f3f3f3f3f3f ^ (w&0x0101010101010101)*0xff
}

// oneByteRuns, when a CPU kernel sets it (bulk_amd64.go), decodes runs of
// one-byte longs 32 at a time: as many whole 32-byte blocks as hold only
// one-byte values and fit dst. It returns how many it decoded. It is nil
// in the purego build and on other architectures, where the loop below
// decodes runs 8 values at a time.
var oneByteRuns func(dst []int64, src []byte) int

// mixedLongs, when a CPU kernel sets it (bulk_amd64.go), decodes longs
// from the start of src into dst while dst has room: the values of a
// 32-byte block at a time while 40 bytes are left from the block, then
// one a step while 16 bytes are left from the step (in both, 8 one-byte
// values at once). It returns how many values it decoded and the bytes
// they used, and leaves to the caller an invalid value (which the caller
// reports), what is left at the end of src (fewer than 16 bytes, or
// fewer than 40 from the block the values end in), and a block of 32
// one-byte values that dst has room for (oneByteRuns' work: in the block
// loop, a block 32-aligned from the start of src; in the step loop, from
// any value). Called where the value at the start of src is valid and not
// the start of such a block, with 16 bytes of src left, it decodes at
// least that one. It is nil in the purego build, on other architectures
// and where the CPU lacks a fast PEXT.
var mixedLongs func(dst []int64, src []byte) (n, p int)

// kernelValues bounds the values one kernel call may decode: the runtime
// cannot preempt assembly, and a call over a huge slice would hold up a
// stop-the-world pause for as long as it runs (64K values take about a
// third of a millisecond at the slowest, 5 ns a value).
const kernelValues = 1 << 16

// oneByteRunsInts is oneByteRuns for DecodeInts.
var oneByteRunsInts func(dst []int32, src []byte) int

// runOf32 reports whether the 32 bytes at the start of s (which has that
// many) are all one-byte varints.
func runOf32(s []byte) bool {
	s = s[:32:32]
	w := binary.LittleEndian.Uint64(s) | binary.LittleEndian.Uint64(s[8:]) |
		binary.LittleEndian.Uint64(s[16:]) | binary.LittleEndian.Uint64(s[24:])
	return w&msbs == 0
}

// decodeLongsGeneric is the pure-Go bulk long decoder.
func decodeLongsGeneric(dst []int64, src []byte) (int, error) {
	i, p := 0, 0
	// How many short runs may still be tried for the kernel (none
	// without one).
	kernelTries := 0
	if oneByteRuns != nil {
		kernelTries = 4
	}
	// Main loop: at least 16 bytes left, so a word load and the 9th and
	// 10th bytes need no length checks of their own.
	for i < len(dst) && p+16 <= len(src) {
		s := src[p : p+16 : p+16]
		w := binary.LittleEndian.Uint64(s)
		if w&msbs == 0 && i+8 <= len(dst) {
			if kernelTries > 0 && i+32 <= len(dst) && p+32 <= len(src) {
				// A run of at least 32 small values goes to the kernel
				// whole, one call per run. Shorter runs stay here, and
				// after a few of them the loop stops looking: on data of
				// mostly small values with some large ones (runs of about
				// 10), checking every run cost 5% more than the loop.
				if runOf32(src[p:]) {
					n := oneByteRuns(dst[i:min(len(dst), i+kernelValues)], src[p:])
					i += n
					p += n
					continue
				}
				kernelTries--
			}
			// 8 one-byte values, unzigzagged in all bytes at once: each
			// result fits a signed byte, which the stores sign-extend.
			z := unzigBytes(w)
			d := dst[i : i+8 : i+8]
			d[0] = int64(int8(z))
			d[1] = int64(int8(z >> 8))
			d[2] = int64(int8(z >> 16))
			d[3] = int64(int8(z >> 24))
			d[4] = int64(int8(z >> 32))
			d[5] = int64(int8(z >> 40))
			d[6] = int64(int8(z >> 48))
			d[7] = int64(int8(z >> 56))
			i += 8
			p += 8
			continue
		}
		if k := bits.TrailingZeros64(w&msbs) >> 3; k > 1 && i+8 <= len(dst) {
			// k >= 2 one-byte values before a longer one: all 8 bytes are
			// stored as above, and the values past the k-th are written
			// again by what follows (dst[i+7] is still inside dst). Data
			// of mostly small values with some large ones (counters with
			// timestamps) decodes a third faster; a single one-byte value
			// takes the path below, which mispredicts less on data that
			// alternates one- and two-byte values.
			z := unzigBytes(w)
			d := dst[i : i+8 : i+8]
			d[0] = int64(int8(z))
			d[1] = int64(int8(z >> 8))
			d[2] = int64(int8(z >> 16))
			d[3] = int64(int8(z >> 24))
			d[4] = int64(int8(z >> 32))
			d[5] = int64(int8(z >> 40))
			d[6] = int64(int8(z >> 48))
			d[7] = int64(int8(z >> 56))
			i += k
			p += k
			continue
		}
		if mixedLongs != nil {
			// One call for the values up to the last 15 bytes of src (or
			// kernelValues of them): never a call per value. It decodes
			// none only at an invalid value, which the code below reports.
			if n, q := mixedLongs(dst[i:min(len(dst), i+kernelValues)], src[p:]); n > 0 {
				i += n
				p += q
				continue
			}
		}
		if m := ^w & msbs; m != 0 {
			// 1 to 8 bytes, found and packed without a branch per byte.
			// (Decoding every varint of the word in an inner loop was
			// faster on uniform 2-4 byte data but slower on mixed 1-10
			// byte data, from the mispredicted loop exits.)
			dst[i] = Unzigzag64(compact(w & (m ^ (m - 1))))
			i++
			p += (bits.TrailingZeros64(m) + 1) >> 3
			continue
		}
		x := compact(w)
		c := s[8]
		if c < 0x80 {
			dst[i] = Unzigzag64(x | uint64(c)<<56)
			i++
			p += 9
			continue
		}
		x |= uint64(c&0x7f) << 56
		c = s[9]
		if c > 1 {
			return p, decodeError(-1, i, p)
		}
		dst[i] = Unzigzag64(x | uint64(c)<<63)
		i++
		p += 10
	}
	// Tail: fewer than 16 bytes left, value by value with length checks.
	for ; i < len(dst); i++ {
		v, n := Long(src[p:])
		if n <= 0 {
			return p, decodeError(n, i, p)
		}
		dst[i] = v
		p += n
	}
	return p, nil
}

// decodeIntsGeneric is the pure-Go bulk int decoder.
func decodeIntsGeneric(dst []int32, src []byte) (int, error) {
	i, p := 0, 0
	kernelTries := 0 // as in decodeLongsGeneric
	if oneByteRunsInts != nil {
		kernelTries = 4
	}
	for i < len(dst) && p+8 <= len(src) {
		w := binary.LittleEndian.Uint64(src[p : p+8 : p+8])
		if w&msbs == 0 && i+8 <= len(dst) {
			if kernelTries > 0 && i+32 <= len(dst) && p+32 <= len(src) {
				if runOf32(src[p:]) {
					n := oneByteRunsInts(dst[i:min(len(dst), i+kernelValues)], src[p:])
					i += n
					p += n
					continue
				}
				kernelTries--
			}
			z := unzigBytes(w)
			d := dst[i : i+8 : i+8]
			d[0] = int32(int8(z))
			d[1] = int32(int8(z >> 8))
			d[2] = int32(int8(z >> 16))
			d[3] = int32(int8(z >> 24))
			d[4] = int32(int8(z >> 32))
			d[5] = int32(int8(z >> 40))
			d[6] = int32(int8(z >> 48))
			d[7] = int32(int8(z >> 56))
			i += 8
			p += 8
			continue
		}
		m := ^w & msbsInt
		if m == 0 {
			return p, decodeError(-1, i, p)
		}
		x := compact(w & (m ^ (m - 1)))
		if x > 0xffffffff {
			return p, decodeError(-1, i, p)
		}
		dst[i] = Unzigzag32(uint32(x))
		i++
		p += (bits.TrailingZeros64(m) + 1) >> 3
	}
	for ; i < len(dst); i++ {
		v, n := Int(src[p:])
		if n <= 0 {
			return p, decodeError(n, i, p)
		}
		dst[i] = v
		p += n
	}
	return p, nil
}

// appendChunk is the number of values encoded per growth of dst.
const appendChunk = 256

// appendLongsGeneric is the pure-Go bulk long encoder.
func appendLongsGeneric(dst []byte, src []int64) []byte {
	for len(src) > 0 {
		chunk := src
		if len(chunk) > appendChunk {
			chunk = chunk[:appendChunk]
		}
		src = src[len(chunk):]
		// Word stores may write up to 7 bytes past the end of a value; they
		// are used only while at least 8 more values follow in this chunk,
		// so that those bytes are always overwritten and nothing outside
		// the result is touched.
		wordOK := len(chunk) - 8
		if cap(dst)-len(dst) < len(chunk)*MaxLenLong {
			if tight(dst, chunk) {
				for _, v := range chunk {
					dst = AppendLong(dst, v) // fits: no reallocation
				}
				continue
			}
			dst = slices.Grow(dst, len(chunk)*MaxLenLong)
		}
		l := len(dst)
		b := dst[l : l+len(chunk)*MaxLenLong]
		p := 0
		for j, v := range chunk {
			u := Zigzag64(v)
			if u < 0x80 {
				b[p] = byte(u)
				p++
				continue
			}
			if u < 1<<14 {
				s := b[p : p+2 : p+2]
				s[0] = byte(u) | 0x80
				s[1] = byte(u >> 7)
				p += 2
				continue
			}
			// 3 to 8 bytes with one word store, inline (putUvarintLong is
			// too large to inline, and a call per value cost more than
			// the encoding).
			if j < wordOK {
				if n := sizeUvarint(u); n <= 8 {
					binary.LittleEndian.PutUint64(b[p:p+8:p+8], spread(u)|msbs>>(8*(9-n)))
					p += n
					continue
				}
				p += putUvarintLong(b[p:p+MaxLenLong:p+MaxLenLong], u, true)
				continue
			}
			// The last values of a chunk (all of a short array), byte by
			// byte so that nothing past the result is written.
			s := b[p : p+MaxLenLong : p+MaxLenLong]
			k := 0
			for ; u >= 0x80 && k < MaxLenLong-1; k++ {
				s[k] = byte(u) | 0x80
				u >>= 7
			}
			s[k] = byte(u)
			p += k + 1
		}
		dst = dst[:l+p]
	}
	return dst
}

// tight reports whether the encoding of chunk fits in the spare capacity of
// dst although the worst case does not. The encoders then write into that
// capacity value by value instead of reallocating, so that a caller's buffer
// that is large enough is always used.
func tight[T int32 | int64](dst []byte, chunk []T) bool {
	room := cap(dst) - len(dst)
	if room < len(chunk) {
		return false
	}
	n := 0
	for _, v := range chunk {
		n += sizeUvarint(Zigzag64(int64(v)))
	}
	return n <= room
}

// putUvarintLong writes u >= 1<<14 to s (10 bytes of room) and returns the
// length. If word is set it may write all 10 bytes of s.
func putUvarintLong(s []byte, u uint64, word bool) int {
	n := sizeUvarint(u)
	if word {
		if n <= 8 {
			return putWord(s, u)
		}
		binary.LittleEndian.PutUint64(s, spread(u)|msbs)
		if n == 9 {
			s[8] = byte(u >> 56)
			return 9
		}
		s[8] = byte(u>>56) | 0x80
		s[9] = byte(u >> 63)
		return 10
	}
	for i := 0; i < n-1; i++ {
		s[i] = byte(u) | 0x80
		u >>= 7
	}
	s[n-1] = byte(u)
	return n
}

// appendIntsGeneric is the pure-Go bulk int encoder.
func appendIntsGeneric(dst []byte, src []int32) []byte {
	for len(src) > 0 {
		chunk := src
		if len(chunk) > appendChunk {
			chunk = chunk[:appendChunk]
		}
		src = src[len(chunk):]
		wordOK := len(chunk) - 8
		// Worst case 5 bytes a value, plus 5 so that an int may be written
		// with a word store at any position.
		if cap(dst)-len(dst) < len(chunk)*MaxLenInt+MaxLenInt {
			if tight(dst, chunk) {
				for _, v := range chunk {
					dst = AppendInt(dst, v) // fits: no reallocation
				}
				continue
			}
			dst = slices.Grow(dst, len(chunk)*MaxLenInt+MaxLenInt)
		}
		l := len(dst)
		b := dst[l : l+len(chunk)*MaxLenInt+MaxLenInt]
		p := 0
		for j, v := range chunk {
			u := uint64(Zigzag32(v))
			if u < 0x80 {
				b[p] = byte(u)
				p++
				continue
			}
			if u < 1<<14 {
				s := b[p : p+2 : p+2]
				s[0] = byte(u) | 0x80
				s[1] = byte(u >> 7)
				p += 2
				continue
			}
			p += putUvarintLong(b[p:p+MaxLenLong:p+MaxLenLong], u, j < wordOK)
		}
		dst = dst[:l+p]
	}
	return dst
}
