package decimal

import (
	"math/big"
	"testing"
)

func TestScanNumber(t *testing.T) {
	for _, c := range []struct {
		text string
		want string // the value as a fraction; "" when not a number
		big  bool   // beyond maxExp 10
	}{
		{"0", "0/1", false},
		{"-0", "0/1", false},
		{"6.17", "617/100", false},
		{"-6.170", "-617/100", false},
		{"1e3", "1000/1", false},
		{"1E+3", "1000/1", false},
		{"12.5e-1", "5/4", false},
		{"0.000", "0/1", false},
		{"100e-2", "1/1", false},
		{"1e10", "10000000000/1", false},
		{"1e11", "", true},
		{"1e-11", "", true},
		{"1000000000000e-2", "10000000000/1", false},
		{"1e999999999999999999999", "", true},
		{"-1e-999999999999999999999", "", true},
		{"123000e-3", "123/1", false},
		{"0e999999999999999999999", "0/1", false},
		{"", "", false},
		{"-", "", false},
		{"01", "", false},
		{"1.", "", false},
		{".5", "", false},
		{"1e", "", false},
		{"1e+", "", false},
		{"+1", "", false},
		{"1/3", "", false},
		{"0x10", "", false},
		{"Infinity", "", false},
		{"NaN", "", false},
		{" 1", "", false},
		{"1 ", "", false},
	} {
		n, ok := ScanNumber(c.text)
		tooLarge := n.Exp > 10 || n.Exp < -10
		switch {
		case c.big:
			if !ok || !tooLarge {
				t.Errorf("%q: ok %v, %+v; want an exponent past ±10", c.text, ok, n)
			}
		case c.want == "":
			if ok {
				t.Errorf("%q: a number (%+v), want none", c.text, n)
			}
		case !ok || tooLarge:
			t.Errorf("%q: ok %v, %+v", c.text, ok, n)
		default:
			want, _ := new(big.Rat).SetString(c.want)
			if r := n.Rat(); r.Cmp(want) != 0 {
				t.Errorf("%q = %v, want %v", c.text, r, want)
			}
		}
	}
}
