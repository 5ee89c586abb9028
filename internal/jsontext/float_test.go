package jsontext

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"
)

// refAppendFloat is the strconv rendering that AppendFloat must match
// byte for byte.
func refAppendFloat(dst []byte, f float64, bits int) []byte {
	if f == 0 && math.Signbit(f) {
		return append(dst, "-0.0"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) ||
			bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		if m := len(dst); m-n >= 4 && dst[m-4] == 'e' && dst[m-3] == '-' && dst[m-2] == '0' {
			dst[m-2] = dst[m-1]
			dst = dst[:m-1]
		}
	}
	return dst
}

// floatChecker compares AppendFloat with the reference, reusing buffers.
type floatChecker struct {
	t         testing.TB
	got, want []byte
	fails     int
}

func (c *floatChecker) check(f float64, bits int) {
	c.t.Helper()
	c.got = AppendFloat(c.got[:0], f, bits)
	c.want = refAppendFloat(c.want[:0], f, bits)
	if bits == 32 && math.Abs(float64(float32(f))) == 0x1p-12 {
		// strconv's float32 rendering from Go 1.26 breaks this one tie
		// upward; earlier releases and AppendFloat break it to even.
		c.want = append(c.want[:0], "0.00024414062"...)
		if f < 0 {
			c.want = append([]byte{'-'}, c.want...)
		}
	}
	if !bytes.Equal(c.got, c.want) {
		c.t.Errorf("AppendFloat(%#x = %v, %d) = %q, want %q", math.Float64bits(f), f, bits, c.got, c.want)
		if c.fails++; c.fails > 20 {
			c.t.FailNow()
		}
	}
}

// check64 checks f at 64 bits, and as the float32 nearest it at 32.
func (c *floatChecker) check64(f float64) {
	c.t.Helper()
	c.check(f, 64)
	c.check(-f, 64)
	c.check(float64(float32(f)), 32)
	c.check(-float64(float32(f)), 32)
}

func newFloatChecker(t testing.TB) *floatChecker {
	return &floatChecker{t: t, got: make([]byte, 0, 64), want: make([]byte, 0, 64)}
}

func scaled(n int) int {
	if raceEnabled {
		return n / 10
	}
	return n
}

func TestAppendFloatRandomBits64(t *testing.T) {
	c := newFloatChecker(t)
	r := rand.New(rand.NewPCG(1, 2))
	for range scaled(1 << 20) {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		c.check(f, 64)
	}
}

func TestAppendFloatRandomBits32(t *testing.T) {
	c := newFloatChecker(t)
	r := rand.New(rand.NewPCG(3, 4))
	for range scaled(1 << 19) {
		f := math.Float32frombits(r.Uint32())
		if f != f || math.IsInf(float64(f), 0) {
			continue
		}
		c.check(float64(f), 32)
	}
}

// TestAppendFloatRandomMagnitudes covers the values that telemetry has:
// short decimals, integers, and small spreads around every exponent.
func TestAppendFloatRandomMagnitudes(t *testing.T) {
	c := newFloatChecker(t)
	r := rand.New(rand.NewPCG(5, 6))
	for range scaled(1 << 16) {
		c.check64(r.NormFloat64() * 100)
		c.check64(r.ExpFloat64() * 10)
		c.check64(float64(r.IntN(1000000)) / 100)
		c.check64(float64(r.Int64N(1 << 60)))
		c.check64(math.Ldexp(r.Float64(), r.IntN(2200)-1100))
	}
}

// TestAppendFloatBinades checks both ends of every binade, where the
// rounding interval is lopsided or the significand is largest, and the
// subnormals with few significant bits.
func TestAppendFloatBinades(t *testing.T) {
	c := newFloatChecker(t)
	for be := uint64(0); be < 0x7FF; be++ {
		for _, m := range []uint64{0, 1, 2, 3, 1<<52 - 1, 1<<52 - 2, 1 << 51} {
			c.check64(math.Float64frombits(be<<52 | m))
		}
	}
	for be := uint32(0); be < 0xFF; be++ {
		for _, m := range []uint32{0, 1, 2, 3, 1<<23 - 1, 1<<23 - 2, 1 << 22} {
			c.check(float64(math.Float32frombits(be<<23|m)), 32)
		}
	}
	for m := uint64(1); m < uint64(scaled(1<<16)); m++ {
		c.check(math.Float64frombits(m), 64)
		c.check(float64(math.Float32frombits(uint32(m))), 32)
	}
}

// TestAppendFloatPowersOfTen checks every power of ten in range and its
// neighbours, where a shorter decimal of the next decade may compete.
func TestAppendFloatPowersOfTen(t *testing.T) {
	c := newFloatChecker(t)
	for e := -325; e <= 309; e++ {
		p, err := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		if err != nil && p == 0 {
			t.Fatal(err)
		}
		for _, f := range []float64{p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1))} {
			if math.IsInf(f, 0) {
				continue
			}
			c.check64(f)
			for _, m := range []float64{2, 3, 5, 9, 9.5} {
				c.check64(f * m)
			}
		}
		p32, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 32)
		f32 := float32(p32)
		for _, f := range []float32{f32, math.Nextafter32(f32, 0), math.Nextafter32(f32, float32(math.Inf(1)))} {
			c.check(float64(f), 32)
		}
	}
}

// TestAppendFloatSwitchPoints checks both sides of the change between
// plain digits and the exponent form.
func TestAppendFloatSwitchPoints(t *testing.T) {
	c := newFloatChecker(t)
	for _, p := range []float64{1e-6, 1e-7, 1e-5, 1e20, 1e21, 1e22} {
		f := p
		for range 50 {
			c.check64(f)
			f = math.Nextafter(f, 0)
		}
		f = p
		for range 50 {
			c.check64(f)
			f = math.Nextafter(f, math.Inf(1))
		}
		for _, p32 := range []float32{float32(p)} {
			f := p32
			for range 50 {
				c.check(float64(f), 32)
				f = math.Nextafter32(f, 0)
			}
			f = p32
			for range 50 {
				c.check(float64(f), 32)
				f = math.Nextafter32(f, float32(math.Inf(1)))
			}
		}
	}
}

func TestAppendFloatIntegers(t *testing.T) {
	c := newFloatChecker(t)
	for i := range 10000 {
		c.check64(float64(i))
	}
	for _, base := range []float64{1 << 24, 1 << 53, 1 << 63, 1e15, 1e16, 1e17} {
		for d := -300.0; d <= 300; d++ {
			c.check64(base + d)
		}
	}
	for e := range 1100 {
		c.check64(math.Ldexp(1, e))
		c.check64(math.Ldexp(1, -e))
		c.check64(math.Ldexp(3, e))
	}
}

func TestAppendFloatSpecial(t *testing.T) {
	c := newFloatChecker(t)
	for _, f := range []float64{
		0, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 0.5, 1.5, 100, 123456789,
		5e-324, 1e-323, 1.5e-323, 2.2250738585072014e-308, 2.225073858507201e-308,
		1.7976931348623157e308, 9007199254740993, 9007199254740992, 9007199254740991,
		1e-7, 1.2e-7, 1e-10, 1e-100, 1e100, 1e21, 1.5e21, 123456789e13, 4.35, 0.000001,
		math.MaxFloat32, math.SmallestNonzeroFloat32, 1.17549435e-38, 16777216, 16777217,
		math.Pi, math.E, -1, 2.5e-8, 1e23, 8.41e21, 5e-7,
	} {
		c.check64(f)
	}
	// float64 arguments outside the float32 range or between its values.
	for _, f := range []float64{1e300, 1e-300, 1e-46, 7e-46, 3.5e38, 0.1, 1.0 / 3, math.Inf(1), math.NaN()} {
		c.check(f, 32)
		c.check(-f, 32)
	}
	for _, f := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1)} {
		c.check(f, 64)
	}
}

func TestAppendFloatDecimals(t *testing.T) {
	want := map[float64]string{
		0: "0", 1: "1", -1: "-1", 0.1: "0.1", 1e-6: "0.000001", 1e-7: "1e-7",
		1e21: "1e+21", 1e20: "100000000000000000000", 5e-324: "5e-324",
		1.7976931348623157e308: "1.7976931348623157e+308", 1e300: "1e+300", 123.456: "123.456",
		math.Copysign(0, -1): "-0.0", 1.5e-10: "1.5e-10", 2e-300: "2e-300",
	}
	for f, w := range want {
		if got := string(AppendFloat(nil, f, 64)); got != w {
			t.Errorf("AppendFloat(%v) = %q, want %q", f, got, w)
		}
	}
	want32 := map[float32]string{
		0.1: "0.1", 1e-7: "1e-7", 3.4028235e38: "3.4028235e+38", 1e-45: "1e-45",
		16777216: "16777216", 1.5e-6: "0.0000015",
		// Exactly between 0.00024414062 and 0.00024414063: ties go to even.
		0x1p-12: "0.00024414062", -0x1p-12: "-0.00024414062",
	}
	for f, w := range want32 {
		if got := string(AppendFloat([]byte("x"), float64(f), 32)); got != "x"+w {
			t.Errorf("AppendFloat(%v, 32) = %q, want %q", f, got, "x"+w)
		}
	}
}

func TestAppendFloatAllocs(t *testing.T) {
	dst := make([]byte, 0, 64)
	vals := []float64{0, 1, 0.1, 1e-7, 1e300, -123.456, 5e-324}
	n := testing.AllocsPerRun(100, func() {
		for _, f := range vals {
			dst = AppendFloat(dst[:0], f, 64)
			dst = AppendFloat(dst[:0], f, 32)
		}
	})
	if n != 0 {
		t.Errorf("AppendFloat allocates %v times", n)
	}
}

func TestAppendFloatBadBits(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AppendFloat(1, 16) did not panic")
		}
	}()
	AppendFloat(nil, 1, 16)
}

// TestPow10Table checks every entry against 10^e computed exactly.
func TestPow10Table(t *testing.T) {
	one := big.NewInt(1)
	for i, g := range pow10Table {
		e := i + pow10MinExp
		want := new(big.Int)
		ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
		shift := 127 - flog2pow10(e)
		// want = floor(10^e·2^shift) + 1, the scale putting it in [2^127, 2^128).
		if e >= 0 {
			if shift >= 0 {
				want.Lsh(ten, uint(shift))
			} else {
				want.Rsh(ten, uint(-shift))
			}
		} else {
			want.Quo(new(big.Int).Lsh(one, uint(shift)), ten)
		}
		want.Add(want, one)
		if want.BitLen() != 128 {
			t.Fatalf("1e%d: significand has %d bits", e, want.BitLen())
		}
		got := new(big.Int).Lsh(new(big.Int).SetUint64(g[0]), 64)
		got.Or(got, new(big.Int).SetUint64(g[1]))
		if got.Cmp(want) != 0 {
			t.Errorf("1e%d: table %#x, want %#x", e, got, want)
		}
		if g[0] == math.MaxUint64 {
			t.Errorf("1e%d: high word cannot be rounded up for float32", e)
		}
	}
	if len(pow10Table) != 324-pow10MinExp+1 {
		t.Errorf("table has %d entries", len(pow10Table))
	}
}

func abs(e int) int {
	if e < 0 {
		return -e
	}
	return e
}

// TestFloatLogs checks the integer logarithms against exact arithmetic
// over the ranges the algorithm uses.
func TestFloatLogs(t *testing.T) {
	pow10 := func(m int) *big.Rat { // 10^m
		x := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(m))), nil)
		if m < 0 {
			return new(big.Rat).SetFrac(big.NewInt(1), x)
		}
		return new(big.Rat).SetInt(x)
	}
	pow2 := func(q int, num int64) *big.Rat { // num·2^q
		r := new(big.Rat).SetInt64(num)
		p := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(abs(q))))
		if q < 0 {
			return r.Quo(r, p)
		}
		return r.Mul(r, p)
	}
	// floor(log10(x)) = m iff 10^m <= x < 10^(m+1).
	isFloorLog10 := func(x *big.Rat, m int) bool {
		return pow10(m).Cmp(x) <= 0 && x.Cmp(pow10(m+1)) < 0
	}
	for q := -1100; q <= 1100; q++ {
		if k := flog10pow2(q); !isFloorLog10(pow2(q, 1), k) {
			t.Errorf("flog10pow2(%d) = %d", q, k)
		}
		if k := flog10ThreeQuartersPow2(q); !isFloorLog10(pow2(q-2, 3), k) {
			t.Errorf("flog10ThreeQuartersPow2(%d) = %d", q, k)
		}
	}
	for e := -330; e <= 330; e++ {
		f := flog2pow10(e)
		x := pow10(e)
		if pow2(f, 1).Cmp(x) > 0 || x.Cmp(pow2(f+1, 1)) >= 0 {
			t.Errorf("flog2pow10(%d) = %d", e, f)
		}
	}
}

func TestDecimalLen(t *testing.T) {
	for i, p := range pow10Uint64 {
		if got := decimalLen(p); got != i+1 {
			t.Errorf("decimalLen(%d) = %d", p, got)
		}
		if p > 1 {
			if got := decimalLen(p - 1); got != i {
				t.Errorf("decimalLen(%d) = %d", p-1, got)
			}
		}
	}
	if got := decimalLen(math.MaxUint64); got != 20 {
		t.Errorf("decimalLen(MaxUint64) = %d", got)
	}
}

func FuzzAppendFloat(f *testing.F) {
	for _, u := range []uint64{
		0, 1, 2, 1 << 52, 1<<63 | 1, math.Float64bits(0.1), math.Float64bits(1e21),
		math.Float64bits(1e-7), math.Float64bits(math.MaxFloat64), 0x7FF0000000000000,
		uint64(math.Float32bits(0.1)), uint64(math.Float32bits(1e-7)), 0x007FFFFF, 0x00800000,
	} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u uint64) {
		c := newFloatChecker(t)
		c.check(math.Float64frombits(u), 64)
		c.check(math.Float64frombits(u), 32)
		c.check(float64(math.Float32frombits(uint32(u))), 32)
		c.check(float64(math.Float32frombits(uint32(u>>32))), 32)
	})
}

func BenchmarkAppendFloat(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	vals := make([]float64, 1<<16)
	for i := range vals {
		switch i % 4 {
		case 0:
			vals[i] = r.NormFloat64() * 100
		case 1:
			vals[i] = r.ExpFloat64() * 10
		case 2:
			vals[i] = float64(r.IntN(100000)) / 100
		default:
			for {
				f := math.Float64frombits(r.Uint64())
				if !math.IsNaN(f) && !math.IsInf(f, 0) {
					vals[i] = f
					break
				}
			}
		}
	}
	for _, impl := range []struct {
		name string
		fn   func([]byte, float64, int) []byte
	}{{"jsontext", AppendFloat}, {"strconv", refAppendFloat}} {
		for _, bits := range []int{64, 32} {
			b.Run(impl.name+"/"+strconv.Itoa(bits), func(b *testing.B) {
				dst := make([]byte, 0, 64)
				i := 0
				for b.Loop() {
					dst = impl.fn(dst[:0], vals[i&(len(vals)-1)], bits)
					i++
				}
			})
		}
	}
}
