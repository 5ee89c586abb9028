package idl

import "testing"

// TestStringEscapes checks the escapes of string literals, unescaped as
// Java's StringEscapeUtils.unescapeJava does.
func TestStringEscapes(t *testing.T) {
	tests := []struct{ lit, want string }{
		{`"a\tb\n\"q\" \\ \'"`, "a\tb\n\"q\" \\ '"},
		{`"\u00e9\uuu0041"`, "éA"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud83d x"`, "\uFFFD x"},
		{`"\101\7\0101"`, "A\a\b1"},
	}
	for _, tc := range tests {
		toks, err := tokenize("t", tc.lit, 100)
		if err != nil {
			t.Errorf("%s: %v", tc.lit, err)
			continue
		}
		if toks[0].kind != tString || toks[0].val != tc.want {
			t.Errorf("%s: got %q, want %q", tc.lit, toks[0].val, tc.want)
		}
	}
}

// TestNumbers checks the integer and floating point literals Java reads.
func TestNumbers(t *testing.T) {
	ints := map[string]int64{"0": 0, "-12": -12, "0x1F": 31, "010": 8, "5L": 5, "-0x10l": -16}
	for lit, want := range ints {
		toks, err := tokenize("t", lit, 100)
		if err != nil || toks[0].kind != tInt {
			t.Errorf("%s: %v %v", lit, err, toks)
			continue
		}
		if v, _ := parseJavaLong(toks[0].text); v != want {
			t.Errorf("%s = %d, want %d", lit, v, want)
		}
	}
	floats := map[string]float64{"1.5": 1.5, ".5": 0.5, "2.": 2, "1e3": 1000, "-2.5E-1": -0.25, "3f": 3, "1.5d": 1.5, "0x1p3": 8}
	for lit, want := range floats {
		toks, err := tokenize("t", lit, 100)
		if err != nil || toks[0].kind != tFloat {
			t.Errorf("%s: %v %v", lit, err, toks)
			continue
		}
		if v, _ := parseJavaDouble(toks[0].text); v != want {
			t.Errorf("%s = %v, want %v", lit, v, want)
		}
	}
	for _, bad := range []string{"99999999999999999999", "0x", "1e", "12abc"} {
		if _, err := tokenize("t", bad, 100); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestJavaDouble checks doubles print as Java's Double.toString.
func TestJavaDouble(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0.0", 1: "1.0", -2.5: "-2.5", 1e7: "1.0E7", 9999999: "9999999.0", 0.001: "0.001",
		0.0001: "1.0E-4", -1e12: "-1.0E12", 1.2345e-10: "1.2345E-10", 123456789.5: "1.234567895E8",
	} {
		if got := javaDouble(f); got != want {
			t.Errorf("javaDouble(%v) = %s, want %s", f, got, want)
		}
	}
}
