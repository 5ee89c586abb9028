package decimal

import (
	"math/big"
	"strings"
)

// ParseNumber returns the exact value of text, a JSON number such as
// "6.17", "-1e-3" or "42". ok is false when text is not a JSON number;
// tooLarge is true when the value, written as digits times a power of
// ten with no trailing zeros in the digits, needs a power beyond 10^maxExp
// or 10^-maxExp, which is not computed.
func ParseNumber(text string, maxExp int) (r *big.Rat, ok, tooLarge bool) {
	i := 0
	neg := false
	if i < len(text) && text[i] == '-' {
		neg = true
		i++
	}
	start := i
	i = skipDigits(text, i)
	intPart := text[start:i]
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return nil, false, false
	}
	var frac string
	if i < len(text) && text[i] == '.' {
		start = i + 1
		i = skipDigits(text, start)
		if frac = text[start:i]; frac == "" {
			return nil, false, false
		}
	}
	exp := 0
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		expNeg := false
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			expNeg = text[i] == '-'
			i++
		}
		start = i
		for ; i < len(text) && isDigit(text[i]); i++ {
			if exp < 1<<30 { // saturates: anything past is too large
				exp = exp*10 + int(text[i]-'0')
			}
		}
		if i == start {
			return nil, false, false
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(text) {
		return nil, false, false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	e := exp - len(frac)
	end := len(digits)
	for end > 0 && digits[end-1] == '0' {
		end--
	}
	e += len(digits) - end
	digits = digits[:end]
	r = new(big.Rat)
	if digits == "" {
		return r, true, false
	}
	if e > maxExp || e < -maxExp {
		return nil, true, true
	}
	num, _ := new(big.Int).SetString(digits, 10)
	if neg {
		num.Neg(num)
	}
	if e >= 0 {
		return r.SetInt(num.Mul(num, Pow10(e))), true, false
	}
	return r.SetFrac(num, Pow10(-e)), true, false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func skipDigits(text string, i int) int {
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	return i
}
