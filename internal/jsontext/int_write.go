package jsontext

import "encoding/binary"

// intScratch is the room an integer is laid out in: a sign and 20
// digits, with room for the eight-byte stores that run past the end.
const intScratch = 32

// AppendInt appends i in decimal, as strconv.AppendInt(dst, i, 10) does.
func AppendInt(dst []byte, i int64) []byte {
	if uint64(i) < 10 {
		return append(dst, byte('0'+i))
	}
	u := uint64(i)
	neg := i < 0
	if neg {
		u = -u
	}
	if n0 := len(dst); cap(dst)-n0 >= intScratch {
		n := formatUint(dst[n0:n0+intScratch], neg, u)
		return dst[:n0+n]
	}
	var b [intScratch]byte
	n := formatUint(b[:], neg, u)
	return append(dst, b[:n]...)
}

// formatUint lays out ±u, u > 0, in b, intScratch bytes long, and returns
// its length. The digits are written eight at a time; the leading zeros
// of the first word are shifted out, being its lowest bytes.
func formatUint(b []byte, neg bool, u uint64) int {
	b = b[:intScratch]
	i := 0
	if neg {
		b[0] = '-'
		i = 1
	}
	n := decimalLen(u)
	switch {
	case u < 1e8:
		binary.LittleEndian.PutUint64(b[i:], digits8(uint32(u))>>(uint(8-n)*8))
	case u < 1e16:
		k := n - 8
		hi, lo := u/1e8, u%1e8
		binary.LittleEndian.PutUint64(b[i:], digits8(uint32(hi))>>(uint(8-k)*8))
		binary.LittleEndian.PutUint64(b[i+k:], digits8(uint32(lo)))
	default:
		// u < 2^64 < 10^20: at most four digits before the last 16.
		k := n - 16
		top, mid := u/1e16, u%1e16
		hi, lo := mid/1e8, mid%1e8
		binary.LittleEndian.PutUint64(b[i:], digits8(uint32(top))>>(uint(8-k)*8))
		binary.LittleEndian.PutUint64(b[i+k:], digits8(uint32(hi)))
		binary.LittleEndian.PutUint64(b[i+k+8:], digits8(uint32(lo)))
	}
	return i + n
}
