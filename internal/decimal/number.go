package decimal

import (
	"math/big"
	"strings"
)

// Number is the value of a JSON number text: ±Digits·10^Exp, with no
// leading or trailing zeros in Digits ("" for zero).
type Number struct {
	Neg    bool
	Digits string
	Exp    int
}

// ScanNumber reads text, a JSON number such as "6.17", "-1e-3" or "42",
// without computing its value, which costs time quadratic in its digits
// and a power of ten as large as its exponent: the caller bounds both
// first. ok is false when text is not a JSON number. An exponent beyond
// ±2^30 is held as ±2^30.
func ScanNumber(text string) (n Number, ok bool) {
	i := 0
	if i < len(text) && text[i] == '-' {
		n.Neg = true
		i++
	}
	start := i
	i = skipDigits(text, i)
	intPart := text[start:i]
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return Number{}, false
	}
	var frac string
	if i < len(text) && text[i] == '.' {
		start = i + 1
		i = skipDigits(text, start)
		if frac = text[start:i]; frac == "" {
			return Number{}, false
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
			if exp < 1<<30 {
				exp = min(exp*10+int(text[i]-'0'), 1<<30)
			}
		}
		if i == start {
			return Number{}, false
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(text) {
		return Number{}, false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	n.Exp = exp - len(frac)
	end := len(digits)
	for end > 0 && digits[end-1] == '0' {
		end--
	}
	n.Exp += len(digits) - end
	n.Digits = digits[:end]
	if n.Digits == "" {
		return Number{}, true
	}
	return n, true
}

// Rat returns the value of n. Its cost grows with the square of the
// number of digits and with the size of the exponent.
func (n Number) Rat() *big.Rat {
	r := new(big.Rat)
	if n.Digits == "" {
		return r
	}
	num, _ := new(big.Int).SetString(n.Digits, 10)
	if n.Neg {
		num.Neg(num)
	}
	if n.Exp >= 0 {
		return r.SetInt(num.Mul(num, Pow10(n.Exp)))
	}
	return r.SetFrac(num, Pow10(-n.Exp))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func skipDigits(text string, i int) int {
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	return i
}
