package jsontext

// The scans of strings test eight bytes at a time for the bytes that end
// a run of plain text: a quote, a backslash, a control character, and for
// code points, a byte from 0x80. The loads are portable Go (the compiler
// merges the byte loads into one), so there is no unsafe twin to keep.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

func load8[T ~string | ~[]byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

func load4[T ~string | ~[]byte](s T, i int) uint64 {
	_ = s[i+3]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24
}

// special reports whether one of the eight bytes of x is a quote, a
// backslash or below 0x20 (a byte from 0x80 never is).
func special(x uint64) bool {
	q := x ^ ('"' * ones)
	b := x ^ ('\\' * ones)
	return ((x-0x20*ones)|(q-ones)|(b-ones))&^x&highs != 0
}

// plainRun returns the length of the run at the start of s[i:] whose
// eight-byte blocks hold no special byte, a multiple of eight.
func plainRun[T ~string | ~[]byte](s T, i int) int {
	j := i
	for j+8 <= len(s) && !special(load8(s, j)) {
		j += 8
	}
	return j - i
}

// plain reports whether s holds no special byte. Most strings do, and
// this tests them a block at a time, the last block overlapping the one
// before it, instead of the tail byte by byte.
func plain[T ~string | ~[]byte](s T) bool {
	n := len(s)
	if n < 8 {
		if n < 4 {
			for i := 0; i < n; i++ {
				if !safe[s[i]] {
					return false
				}
			}
			return true
		}
		// Two four-byte blocks, overlapping (the same one when n is 4).
		return !special(load4(s, 0) | load4(s, n-4)<<32)
	}
	for i := 0; i+8 < n; i += 8 {
		if special(load8(s, i)) {
			return false
		}
	}
	return !special(load8(s, n-8))
}

// asciiPlainRun is plainRun for code points: bytes from 0x80 end it too.
func asciiPlainRun(b []byte, i int) int {
	j := i
	for j+8 <= len(b) {
		x := load8(b, j)
		if x&highs != 0 || special(x) {
			break
		}
		j += 8
	}
	return j - i
}

// ASCII reports whether b holds only bytes below 0x80.
func ASCII(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if load8(b, i)&highs != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= 0x80 {
			return false
		}
	}
	return true
}
