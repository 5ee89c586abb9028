package codec

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Randomized round-trip property tests, one group per row of the type
// mapping table in doc.go. The random source has a fixed seed, printed
// when a test fails; AVRO_PROP_SEED=n reruns with another seed.

const propDefaultSeed = 0x5eed_a7e0

// propRand returns the random source of one test and arranges for its
// seed to be logged if the test fails.
func propRand(t *testing.T) *rand.Rand {
	t.Helper()
	seed := uint64(propDefaultSeed)
	if s := os.Getenv("AVRO_PROP_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("AVRO_PROP_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random seed %d (rerun with AVRO_PROP_SEED=%d)", seed, seed)
		}
	})
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

func propParse(t testing.TB, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse(text)
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	return s
}

// propLong is the Avro encoding of a long (zig-zag varint), written here
// independently of the varint package.
func propLong(v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	var out []byte
	for u >= 0x80 {
		out = append(out, byte(u)|0x80)
		u >>= 7
	}
	return append(out, byte(u))
}

// propStr is the Avro encoding of a string or bytes value.
func propStr(s string) []byte { return append(propLong(int64(len(s))), s...) }

func propCat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// propRoundTrip marshals in, checks the bytes against want when want is
// not nil, unmarshals into a fresh T and returns it.
func propRoundTrip[T any](t *testing.T, s *schema.Schema, in T, want []byte) T {
	t.Helper()
	data, err := Marshal(s, &in)
	if err != nil {
		t.Fatalf("Marshal(%T %v): %v", in, propShort(in), err)
	}
	if want != nil && !bytes.Equal(data, want) {
		t.Fatalf("Marshal(%T %v) = % x, want % x", in, propShort(in), data, want)
	}
	var out T
	if err := Unmarshal(s, data, &out); err != nil {
		t.Fatalf("Unmarshal(% x) into %T: %v", propShortBytes(data), out, err)
	}
	return out
}

func propShort(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func propShortBytes(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}

// propWantErr checks that err is an *Error wrapping sentinel.
func propWantErr(t *testing.T, err, sentinel error, context string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want %v", context, sentinel)
	}
	if !errors.Is(err, sentinel) {
		t.Fatalf("%s: error %v does not match %v", context, err, sentinel)
	}
	var ae *Error
	if !errors.As(err, &ae) {
		t.Fatalf("%s: error %T %v is not an *avro.Error", context, err, err)
	}
}

// --- integers ---

// propIntBounds returns the range of the integer type t.
func propIntBounds(t reflect.Type) (lo, hi *big.Int) {
	bits := uint(t.Bits())
	one := big.NewInt(1)
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
		lo = new(big.Int).Neg(new(big.Int).Lsh(one, bits-1))
	default:
		lo = big.NewInt(0)
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits), one)
	}
	return lo, hi
}

func propBig[T integer](x T) *big.Int {
	v := reflect.ValueOf(x)
	if v.CanInt() {
		return big.NewInt(v.Int())
	}
	return new(big.Int).SetUint64(v.Uint())
}

func propIn(x, lo, hi *big.Int) bool { return x.Cmp(lo) >= 0 && x.Cmp(hi) <= 0 }

// propIntCandidates returns values of T: its bounds, values around the
// Avro int and long bounds, small values and random bit patterns.
func propIntCandidates[T integer](r *rand.Rand) []T {
	lo, hi := propIntBounds(reflect.TypeFor[T]())
	var out []T
	add := func(b *big.Int) {
		if propIn(b, lo, hi) {
			if b.Sign() < 0 {
				out = append(out, T(b.Int64()))
			} else {
				out = append(out, T(b.Uint64()))
			}
		}
	}
	one := big.NewInt(1)
	for _, b := range []*big.Int{lo, hi, new(big.Int).Add(lo, one), new(big.Int).Sub(hi, one)} {
		add(b)
	}
	for _, v := range []int64{0, 1, -1, 63, 64, -64, -65, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769,
		65535, 65536, math.MaxInt32, math.MaxInt32 + 1, math.MinInt32, math.MinInt32 - 1, math.MaxUint32, math.MaxUint32 + 1,
		math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1} {
		add(big.NewInt(v))
	}
	add(new(big.Int).SetUint64(math.MaxUint64))
	add(new(big.Int).SetUint64(1 << 63))
	for range 200 {
		// Random bit patterns of random width, so every varint length
		// occurs.
		w := 1 + r.IntN(64)
		u := r.Uint64() >> (64 - w)
		out = append(out, T(u), T(^u))
	}
	return out
}

// propWireCandidates returns the longs the decoder is fed.
func propWireCandidates(r *rand.Rand) []int64 {
	out := []int64{0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
		math.MaxInt32, math.MaxInt32 + 1, math.MinInt32, math.MinInt32 - 1, math.MaxUint32, math.MaxUint32 + 1,
		math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	for range 200 {
		w := 1 + r.IntN(64)
		u := r.Uint64() >> (64 - w)
		out = append(out, int64(u), int64(^u))
	}
	return out
}

// propIntKind checks one integer kind against Avro int and long in both
// directions: values in range round-trip to the exact encoding, values
// out of range are ErrRange, never a silent wrap.
func propIntKind[T integer](t *testing.T, r *rand.Rand) {
	lo, hi := propIntBounds(reflect.TypeFor[T]())
	for _, sk := range []string{"int", "long"} {
		s := propParse(t, `"`+sk+`"`)
		wlo, whi := big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
		if sk == "long" {
			wlo, whi = big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
		}
		// Encode direction.
		for _, x := range propIntCandidates[T](r) {
			bx := propBig(x)
			data, err := Marshal(s, x)
			if !propIn(bx, wlo, whi) {
				propWantErr(t, err, ErrRange, fmt.Sprintf("Marshal(%s, %T(%v))", sk, x, x))
				if _, err := Marshal(s, &x); !errors.Is(err, ErrRange) {
					t.Fatalf("Marshal(%s, &%T(%v)) = %v, want ErrRange", sk, x, x, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Marshal(%s, %T(%v)): %v", sk, x, x, err)
			}
			if want := propLong(bx.Int64()); !bytes.Equal(data, want) {
				t.Fatalf("Marshal(%s, %T(%v)) = % x, want % x", sk, x, x, data, want)
			}
			var got T
			if err := Unmarshal(s, data, &got); err != nil || got != x {
				t.Fatalf("Unmarshal(%s, % x) into %T = %v, %v; want %v", sk, data, got, got, err, x)
			}
		}
		// Decode direction.
		for _, w := range propWireCandidates(r) {
			bw := big.NewInt(w)
			if !propIn(bw, wlo, whi) {
				continue // not an Avro int: see TestPropIntVarintTooLong
			}
			data := propLong(w)
			got := T(42)
			err := Unmarshal(s, data, &got)
			if !propIn(bw, lo, hi) {
				propWantErr(t, err, ErrRange, fmt.Sprintf("Unmarshal(%s, %d) into %T", sk, w, got))
				continue
			}
			if err != nil {
				t.Fatalf("Unmarshal(%s, %d) into %T: %v", sk, w, got, err)
			}
			if propBig(got).Cmp(bw) != 0 {
				t.Fatalf("Unmarshal(%s, %d) into %T = %v", sk, w, got, got)
			}
		}
	}
}

type propMyInt16 int16
type propMyUint uint

func TestPropIntegers(t *testing.T) {
	r := propRand(t)
	t.Run("int", func(t *testing.T) { propIntKind[int](t, r) })
	t.Run("int8", func(t *testing.T) { propIntKind[int8](t, r) })
	t.Run("int16", func(t *testing.T) { propIntKind[int16](t, r) })
	t.Run("int32", func(t *testing.T) { propIntKind[int32](t, r) })
	t.Run("int64", func(t *testing.T) { propIntKind[int64](t, r) })
	t.Run("uint", func(t *testing.T) { propIntKind[uint](t, r) })
	t.Run("uint8", func(t *testing.T) { propIntKind[uint8](t, r) })
	t.Run("uint16", func(t *testing.T) { propIntKind[uint16](t, r) })
	t.Run("uint32", func(t *testing.T) { propIntKind[uint32](t, r) })
	t.Run("uint64", func(t *testing.T) { propIntKind[uint64](t, r) })
	t.Run("uintptr", func(t *testing.T) { propIntKind[uintptr](t, r) })
	t.Run("named int16", func(t *testing.T) { propIntKind[propMyInt16](t, r) })
	t.Run("named uint", func(t *testing.T) { propIntKind[propMyUint](t, r) })
}

// TestPropIntVarintTooLong: a long-sized varint where the schema says int
// is invalid data, not a truncated int32.
func TestPropIntVarintTooLong(t *testing.T) {
	s := propParse(t, `"int"`)
	for _, w := range []int64{math.MaxInt32 + 1, math.MinInt32 - 1, math.MaxInt64, math.MinInt64} {
		var got int64
		err := Unmarshal(s, propLong(w), &got)
		propWantErr(t, err, ErrInvalid, fmt.Sprintf("Unmarshal(int, long %d)", w))
	}
}

// TestPropIntegersInRecord checks the range checks inside a record, with
// the field path in the error.
func TestPropIntegersInRecord(t *testing.T) {
	s := propParse(t, `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"long"}]}`)
	type R struct {
		A uint8  `avro:"a"`
		B uint64 `avro:"b"`
	}
	_, err := Marshal(s, &R{A: 1, B: math.MaxUint64})
	propWantErr(t, err, ErrRange, "Marshal uint64 max as long")
	var ae *Error
	if errors.As(err, &ae); ae.Path != "b" {
		t.Errorf("path %q, want b", ae.Path)
	}
	var got R
	err = Unmarshal(s, propCat(propLong(256), propLong(1)), &got)
	propWantErr(t, err, ErrRange, "Unmarshal 256 into uint8")
	if errors.As(err, &ae); ae.Path != "a" || ae.Offset < 0 {
		t.Errorf("path %q offset %d, want a and a real offset", ae.Path, ae.Offset)
	}
	err = Unmarshal(s, propCat(propLong(1), propLong(-1)), &got)
	propWantErr(t, err, ErrRange, "Unmarshal -1 into uint64")
}

// --- floats ---

// TestPropLargeArraysAtEveryOffset decodes arrays of doubles and floats and
// bytes values long enough for the vector copy (package memcopy), from
// input starting at every offset within 8 bytes, into fresh and into
// reused memory, and checks every bit.
func TestPropLargeArraysAtEveryOffset(t *testing.T) {
	r := propRand(t)
	sDoubles := propParse(t, `{"type":"array","items":"double"}`)
	sFloats := propParse(t, `{"type":"array","items":"float"}`)
	sBytes := propParse(t, `"bytes"`)
	// at returns a copy of enc starting off bytes into a fresh buffer.
	at := func(enc []byte, off int) []byte {
		buf := make([]byte, off+len(enc))
		copy(buf[off:], enc)
		return buf[off:]
	}
	for _, n := range []int{255, 256, 257, 1000, 4099} {
		f64 := make([]float64, n)
		f32 := make([]float32, 2*n)
		raw := make([]byte, 8*n+r.IntN(8))
		for i := range f64 {
			f64[i] = math.Float64frombits(r.Uint64())
		}
		for i := range f32 {
			f32[i] = math.Float32frombits(r.Uint32())
		}
		for i := range raw {
			raw[i] = byte(r.Uint32())
		}
		enc64, err := Marshal(sDoubles, f64)
		if err != nil {
			t.Fatal(err)
		}
		enc32, err := Marshal(sFloats, f32)
		if err != nil {
			t.Fatal(err)
		}
		encRaw, err := Marshal(sBytes, raw)
		if err != nil {
			t.Fatal(err)
		}
		var reuse64 []float64
		var reuse32 []float32
		var reuseRaw []byte
		for off := range 8 {
			checkFloatArrayAt(t, off, sDoubles, at(enc64, off), f64, &reuse64, func(x float64) uint64 { return math.Float64bits(x) })
			checkFloatArrayAt(t, off, sFloats, at(enc32, off), f32, &reuse32, func(x float32) uint64 { return uint64(math.Float32bits(x)) })
			for round, outRaw := range []*[]byte{new([]byte), &reuseRaw} {
				if err := Unmarshal(sBytes, at(encRaw, off), outRaw); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(*outRaw, raw) {
					t.Fatalf("n=%d offset %d round %d: bytes differ", n, off, round)
				}
			}
		}
	}
}

// checkFloatArrayAt decodes data (starting off bytes into its buffer)
// into a new slice and into reuse, and checks every value's bits.
func checkFloatArrayAt[F float32 | float64](t *testing.T, off int, s *schema.Schema, data []byte, want []F, reuse *[]F, bits func(F) uint64) {
	t.Helper()
	for round, out := range []*[]F{new([]F), reuse} {
		if err := Unmarshal(s, data, out); err != nil {
			t.Fatal(err)
		}
		if len(*out) != len(want) {
			t.Fatalf("offset %d round %d: %d values, want %d", off, round, len(*out), len(want))
		}
		for i, x := range *out {
			if bits(x) != bits(want[i]) {
				t.Fatalf("offset %d round %d: value %d of %d is %x, want %x", off, round, i, len(want), bits(x), bits(want[i]))
			}
		}
	}
}

func TestPropFloats(t *testing.T) {
	r := propRand(t)
	sFloat := propParse(t, `"float"`)
	sDouble := propParse(t, `"double"`)

	f64 := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000abcdef)}
	for range 500 {
		f64 = append(f64, math.Float64frombits(r.Uint64()))
	}
	for _, x := range f64 {
		want := binaryLE64(math.Float64bits(x))
		got := propRoundTrip(t, sDouble, x, want)
		if math.Float64bits(got) != math.Float64bits(x) {
			t.Fatalf("double %x round-trips to %x", math.Float64bits(x), math.Float64bits(got))
		}
		// A double decoded into a float32 is rounded.
		var f32 float32
		if err := Unmarshal(sDouble, want, &f32); err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(x) != math.IsNaN(float64(f32)) || (!math.IsNaN(x) && f32 != float32(x)) {
			t.Fatalf("double %v into float32 = %v", x, f32)
		}
	}

	f32 := []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32,
		math.SmallestNonzeroFloat32, math.Float32frombits(0x7fc00001), math.Float32frombits(0xff812345)}
	for range 500 {
		f32 = append(f32, math.Float32frombits(r.Uint32()))
	}
	for _, x := range f32 {
		want := binaryLE32(math.Float32bits(x))
		got := propRoundTrip(t, sFloat, x, want)
		if math.Float32bits(got) != math.Float32bits(x) {
			t.Fatalf("float %x round-trips to %x", math.Float32bits(x), math.Float32bits(got))
		}
		// A float decoded into a float64 is exact, and encoded back the
		// same (NaN payloads included, as Go's conversion keeps them
		// quiet-bit aside).
		var d float64
		if err := Unmarshal(sFloat, want, &d); err != nil {
			t.Fatal(err)
		}
		if !math.IsNaN(d) && d != float64(x) {
			t.Fatalf("float %v into float64 = %v", x, d)
		}
		if !math.IsNaN(d) {
			back, err := Marshal(sFloat, d)
			if err != nil || !bytes.Equal(back, want) {
				t.Fatalf("float64 %v as float = % x, %v; want % x", d, back, err, want)
			}
		}
		// A float32 encoded as a double is exact.
		data, err := Marshal(sDouble, x)
		if err != nil {
			t.Fatal(err)
		}
		var back float32
		if err := Unmarshal(sDouble, data, &back); err != nil || (!math.IsNaN(float64(x)) && back != x) {
			t.Fatalf("float32 %v through double = %v, %v", x, back, err)
		}
	}

	// A finite float64 that overflows float32 is ErrRange; infinities and
	// NaN are not overflow.
	for _, x := range []float64{1e39, -1e39, math.MaxFloat64} {
		_, err := Marshal(sFloat, x)
		propWantErr(t, err, ErrRange, fmt.Sprintf("Marshal(float, %v)", x))
	}
	for _, x := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1)} {
		data, err := Marshal(sFloat, x)
		if err != nil {
			t.Fatalf("Marshal(float, %v): %v", x, err)
		}
		var got float64
		if err := Unmarshal(sFloat, data, &got); err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(x) != math.IsNaN(got) || (!math.IsNaN(x) && math.Float64bits(got) != math.Float64bits(x)) {
			t.Fatalf("float64 %v through float = %v", x, got)
		}
	}

	// NaN bit patterns survive any and value.Value too.
	nan := math.Float64frombits(0x7ff8dead0000beef)
	data, _ := Marshal(sDouble, nan)
	var a any
	if err := Unmarshal(sDouble, data, &a); err != nil || math.Float64bits(a.(float64)) != 0x7ff8dead0000beef {
		t.Fatalf("NaN into any = %v, %v", a, err)
	}
	var v value.Value
	if err := Unmarshal(sDouble, data, &v); err != nil || math.Float64bits(v.Double()) != 0x7ff8dead0000beef {
		t.Fatalf("NaN into value.Value = %v, %v", v, err)
	}
	if back, err := Marshal(sDouble, v); err != nil || !bytes.Equal(back, data) {
		t.Fatalf("NaN value.Value re-encodes to % x, %v", back, err)
	}
}

func binaryLE64(u uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	return b
}

func binaryLE32(u uint32) []byte {
	b := make([]byte, 4)
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	return b
}

// --- strings and bytes ---

// propUpper is a TextMarshaler/TextUnmarshaler held in a string schema.
type propUpper struct{ S string }

func (u propUpper) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(u.S)), nil }
func (u *propUpper) UnmarshalText(b []byte) error {
	u.S = strings.ToLower(string(b))
	return nil
}

func propRandString(r *rand.Rand, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-é世🎉"
	runes := []rune(alphabet)
	var b strings.Builder
	for b.Len() < n {
		b.WriteRune(runes[r.IntN(len(runes))])
	}
	return b.String()
}

func TestPropStrings(t *testing.T) {
	r := propRand(t)
	sString := propParse(t, `"string"`)
	sBytes := propParse(t, `"bytes"`)
	large := propRandString(r, 1<<20)
	cases := []string{"", "a", "héllo, 世界 🎉", "\x00\x01\x7f", large, "\xff\xfe\xc0\x80 invalid", "\xed\xa0\x80"}
	for range 200 {
		cases = append(cases, propRandString(r, r.IntN(300)))
	}
	for _, c := range cases {
		want := propStr(c)
		for _, s := range []*schema.Schema{sString, sBytes} {
			if got := propRoundTrip(t, s, c, want); got != c {
				t.Fatalf("%s: string %q round-trips to %q", s, propShort(c), propShort(got))
			}
			got := propRoundTrip(t, s, []byte(c), want)
			if !bytes.Equal(got, []byte(c)) {
				t.Fatalf("%s: []byte %q round-trips to %q", s, propShort(c), propShort(got))
			}
			var a any
			if err := Unmarshal(s, want, &a); err != nil {
				t.Fatal(err)
			}
			if s == sString && a != c {
				t.Fatalf("string into any = %#v", propShort(a))
			}
			if s == sBytes && !bytes.Equal(a.([]byte), []byte(c)) {
				t.Fatalf("bytes into any = %#v", propShort(a))
			}
		}
	}
	// A TextMarshaler type in a string schema.
	got := propRoundTrip(t, sString, propUpper{"shout"}, propStr("SHOUT"))
	if got.S != "shout" {
		t.Fatalf("TextUnmarshaler got %q", got.S)
	}
}

// TestPropValidateUTF8 checks that invalid UTF-8 in an Avro string passes
// through by default and is ErrInvalid with ValidateUTF8, whatever Go type
// it is decoded into. Avro bytes are never validated.
func TestPropValidateUTF8(t *testing.T) {
	bad := "ok\xffno"
	strict := DecodeOptions{ValidateUTF8: true}
	sString := propParse(t, `"string"`)
	sBytes := propParse(t, `"bytes"`)
	sRec := propParse(t, `{"type":"record","name":"U","fields":[{"name":"s","type":"string"}]}`)
	sArr := propParse(t, `{"type":"array","items":"string"}`)
	sMap := propParse(t, `{"type":"map","values":"int"}`)
	sUnion := propParse(t, `["null","string"]`)

	type U struct {
		S string `avro:"s"`
	}
	targets := []struct {
		name string
		s    *schema.Schema
		data []byte
		new  func() any
	}{
		{"string", sString, propStr(bad), func() any { return new(string) }},
		{"[]byte", sString, propStr(bad), func() any { return new([]byte) }},
		{"any", sString, propStr(bad), func() any { return new(any) }},
		{"value.Value", sString, propStr(bad), func() any { return new(value.Value) }},
		{"TextUnmarshaler", sString, propStr(bad), func() any { return new(propUpper) }},
		{"record field", sRec, propStr(bad), func() any { return new(U) }},
		{"record into map", sRec, propStr(bad), func() any { return new(map[string]any) }},
		{"[]string", sArr, propCat(propLong(1), propStr(bad), propLong(0)), func() any { return new([]string) }},
		{"[]any", sArr, propCat(propLong(1), propStr(bad), propLong(0)), func() any { return new([]any) }},
		{"map key", sMap, propCat(propLong(1), propStr(bad), propLong(1), propLong(0)), func() any { return new(map[string]int) }},
		{"map key into any", sMap, propCat(propLong(1), propStr(bad), propLong(1), propLong(0)), func() any { return new(any) }},
		{"*string in union", sUnion, propCat(propLong(1), propStr(bad)), func() any { return new(*string) }},
	}
	for _, tc := range targets {
		t.Run(tc.name, func(t *testing.T) {
			if err := Unmarshal(tc.s, tc.data, tc.new()); err != nil {
				t.Fatalf("default options: %v (invalid UTF-8 must pass through)", err)
			}
			err := strict.Unmarshal(tc.s, tc.data, tc.new())
			propWantErr(t, err, ErrInvalid, "ValidateUTF8")
		})
	}
	// Bytes are not text: never validated.
	var b []byte
	if err := strict.Unmarshal(sBytes, propStr(bad), &b); err != nil || string(b) != bad {
		t.Fatalf("bytes with ValidateUTF8: %q, %v", b, err)
	}
	var s string
	if err := strict.Unmarshal(sBytes, propStr(bad), &s); err != nil || s != bad || utf8.ValidString(s) {
		t.Fatalf("bytes into string with ValidateUTF8: %q, %v", s, err)
	}
}

// --- enums ---

// propColor maps an enum through its text methods.
type propColor struct{ Name string }

func (c propColor) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(c.Name)), nil }
func (c *propColor) UnmarshalText(b []byte) error {
	c.Name = strings.ToLower(string(b))
	return nil
}

func TestPropEnums(t *testing.T) {
	s := propParse(t, `{"type":"enum","name":"Color","symbols":["RED","GREEN","BLUE","CYAN"]}`)
	for i, sym := range s.Symbols() {
		want := propLong(int64(i))
		if got := propRoundTrip(t, s, sym, want); got != sym {
			t.Fatalf("symbol %s round-trips to %s", sym, got)
		}
		if got := propRoundTrip(t, s, i, want); got != i {
			t.Fatalf("index %d round-trips to %d", i, got)
		}
		if got := propRoundTrip(t, s, uint8(i), want); got != uint8(i) {
			t.Fatalf("uint8 index %d round-trips to %d", i, got)
		}
		c := propColor{strings.ToLower(sym)}
		if got := propRoundTrip(t, s, c, want); got != c {
			t.Fatalf("TextMarshaler %v round-trips to %v", c, got)
		}
		var a any
		if err := Unmarshal(s, want, &a); err != nil || a != sym {
			t.Fatalf("enum into any = %v, %v", a, err)
		}
	}
	for _, bad := range []any{"PURPLE", "", "red", -1, 4, int64(math.MaxInt64), propColor{"purple"}} {
		_, err := Marshal(s, bad)
		propWantErr(t, err, ErrRange, fmt.Sprintf("Marshal(enum, %#v)", bad))
	}
	for _, idx := range []int64{4, -1, 1 << 20} {
		for _, target := range []any{new(string), new(int), new(propColor), new(any), new(value.Value)} {
			err := Unmarshal(s, propLong(idx), target)
			propWantErr(t, err, ErrInvalid, fmt.Sprintf("Unmarshal(enum index %d) into %T", idx, target))
		}
	}
}

// --- fixed ---

func TestPropFixed(t *testing.T) {
	r := propRand(t)
	s := propParse(t, `{"type":"fixed","name":"F8","size":8}`)
	for range 100 {
		var a [8]byte
		for i := range a {
			a[i] = byte(r.Uint32())
		}
		if got := propRoundTrip(t, s, a, a[:]); got != a {
			t.Fatalf("[8]byte %x round-trips to %x", a, got)
		}
		got := propRoundTrip(t, s, a[:], a[:])
		if !bytes.Equal(got, a[:]) {
			t.Fatalf("[]byte %x round-trips to %x", a, got)
		}
	}
	for _, n := range []int{0, 7, 9, 100} {
		_, err := Marshal(s, make([]byte, n))
		propWantErr(t, err, ErrRange, fmt.Sprintf("Marshal(fixed 8, %d bytes)", n))
	}
	var te *TypeError
	if _, err := Marshal(s, [7]byte{}); !errors.As(err, &te) {
		t.Fatalf("Marshal(fixed 8, [7]byte) = %v, want *TypeError", err)
	}
	var a7 [7]byte
	if err := Unmarshal(s, make([]byte, 8), &a7); !errors.As(err, &te) {
		t.Fatalf("Unmarshal(fixed 8) into [7]byte = %v, want *TypeError", err)
	}
	err := Unmarshal(s, make([]byte, 7), new([8]byte))
	propWantErr(t, err, ErrTruncated, "Unmarshal 7 bytes of fixed 8")
}

// --- arrays ---

type propPoint struct {
	X int32  `avro:"x"`
	Y string `avro:"y"`
}

const propPointSchema = `{"type":"record","name":"Point","fields":[{"name":"x","type":"int"},{"name":"y","type":"string"}]}`

// propMixedLongs returns n longs of mixed encoded lengths (1 to 10 bytes).
func propMixedLongs(r *rand.Rand, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		w := 1 + r.IntN(64)
		u := r.Uint64() >> (64 - w)
		if r.IntN(2) == 0 {
			out[i] = int64(u)
		} else {
			out[i] = -int64(u)
		}
	}
	return out
}

func TestPropArrays(t *testing.T) {
	r := propRand(t)
	sLongs := propParse(t, `{"type":"array","items":"long"}`)
	sInts := propParse(t, `{"type":"array","items":"int"}`)
	sDoubles := propParse(t, `{"type":"array","items":"double"}`)
	sFloats := propParse(t, `{"type":"array","items":"float"}`)
	sBools := propParse(t, `{"type":"array","items":"boolean"}`)
	sStrings := propParse(t, `{"type":"array","items":"string"}`)
	sPoints := propParse(t, `{"type":"array","items":`+propPointSchema+`}`)
	sNested := propParse(t, `{"type":"array","items":{"type":"array","items":"long"}}`)

	opts := cmp.Options{cmpopts.EquateNaNs()}
	for iter := range 50 {
		n := r.IntN(300)
		if iter == 0 {
			n = 0
		}
		longs := propMixedLongs(r, n)
		ints := make([]int32, n)
		doubles := make([]float64, n)
		floats := make([]float32, n)
		bools := make([]bool, n)
		strs := make([]string, n)
		points := make([]propPoint, n)
		nested := make([][]int64, n%17)
		for i := range n {
			ints[i] = int32(r.Uint32())
			doubles[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
			floats[i] = float32(r.NormFloat64())
			bools[i] = r.IntN(2) == 1
			strs[i] = propRandString(r, r.IntN(20))
			points[i] = propPoint{int32(r.Uint32()), propRandString(r, r.IntN(10))}
		}
		for i := range nested {
			nested[i] = propMixedLongs(r, r.IntN(5))
		}
		check := func(name string, got, want any) {
			t.Helper()
			if d := cmp.Diff(want, got, opts); d != "" {
				t.Fatalf("%s (n=%d) round trip (-want +got):\n%s", name, n, d)
			}
		}
		check("[]int64", propRoundTrip(t, sLongs, longs, nil), longs)
		check("[]int32", propRoundTrip(t, sInts, ints, nil), ints)
		check("[]float64", propRoundTrip(t, sDoubles, doubles, nil), doubles)
		check("[]float32", propRoundTrip(t, sFloats, floats, nil), floats)
		check("[]bool", propRoundTrip(t, sBools, bools, nil), bools)
		check("[]string", propRoundTrip(t, sStrings, strs, nil), strs)
		check("[]propPoint", propRoundTrip(t, sPoints, points, nil), points)
		check("[][]int64", propRoundTrip(t, sNested, nested, nil), nested)

		// The generic slice codec (a named element type avoids the typed
		// fast path) agrees with the fast path byte for byte.
		type myLong int64
		mine := make([]myLong, n)
		for i, v := range longs {
			mine[i] = myLong(v)
		}
		fast, _ := Marshal(sLongs, longs)
		slow, err := Marshal(sLongs, mine)
		if err != nil || !bytes.Equal(fast, slow) {
			t.Fatalf("[]myLong encodes to % x, %v; []int64 to % x", propShortBytes(slow), err, propShortBytes(fast))
		}
		check("[]myLong", propRoundTrip(t, sLongs, mine, nil), mine)
	}

	// Go arrays: exactly N round-trips; fewer items zero the rest; more
	// is ErrRange.
	arr := [5]int32{1, -2, 3, math.MaxInt32, math.MinInt32}
	if got := propRoundTrip(t, sInts, arr, nil); got != arr {
		t.Fatalf("[5]int32 round-trips to %v", got)
	}
	three := propCat(propLong(3), propLong(7), propLong(8), propLong(9), propLong(0))
	got := [5]int32{-1, -1, -1, -1, -1}
	if err := Unmarshal(sInts, three, &got); err != nil || got != [5]int32{7, 8, 9, 0, 0} {
		t.Fatalf("3 items into [5]int32 = %v, %v", got, err)
	}
	six := propCat(propLong(6), bytes.Repeat(propLong(1), 6), propLong(0))
	propWantErr(t, Unmarshal(sInts, six, &got), ErrRange, "6 items into [5]int32")
	pts := [2]propPoint{{1, "a"}, {2, "b"}}
	if got := propRoundTrip(t, sPoints, pts, nil); got != pts {
		t.Fatalf("[2]propPoint round-trips to %v", got)
	}

	// Several blocks, one with a negative count and a byte size, decode
	// as one array.
	blocks := propCat(propLong(2), propLong(1), propLong(2), propLong(-3), propLong(3), propLong(3), propLong(4), propLong(5), propLong(0))
	for _, target := range []any{new([]int64), new([]myLongT)} {
		if err := Unmarshal(sLongs, blocks, target); err != nil {
			t.Fatalf("blocks into %T: %v", target, err)
		}
		if d := cmp.Diff("[1 2 3 4 5]", fmt.Sprint(reflect.ValueOf(target).Elem().Interface())); d != "" {
			t.Fatalf("blocks into %T: %s", target, d)
		}
	}
	var pv []any
	if err := Unmarshal(sLongs, blocks, &pv); err != nil || len(pv) != 5 {
		t.Fatalf("blocks into []any = %v, %v", pv, err)
	}
}

type myLongT int64

// --- maps ---

type propKey string

func TestPropMaps(t *testing.T) {
	r := propRand(t)
	sLong := propParse(t, `{"type":"map","values":"long"}`)
	sPoint := propParse(t, `{"type":"map","values":`+propPointSchema+`}`)
	sStrs := propParse(t, `{"type":"map","values":{"type":"array","items":"string"}}`)
	sOpt := propParse(t, `{"type":"map","values":["null","long"]}`)
	sNested := propParse(t, `{"type":"map","values":{"type":"map","values":"double"}}`)
	sBytes := propParse(t, `{"type":"map","values":"bytes"}`)

	for iter := range 40 {
		n := r.IntN(50)
		if iter == 0 {
			n = 0
		}
		m1 := map[string]int64{}
		m2 := map[propKey]propPoint{}
		m3 := map[string][]string{}
		m4 := map[propKey]*int64{}
		m5 := map[string]map[string]float64{}
		m6 := map[string][]byte{}
		m7 := map[propKey]int{}
		for range n {
			k := propRandString(r, r.IntN(12))
			v := propMixedLongs(r, 1)[0]
			m1[k] = v
			m2[propKey(k)] = propPoint{int32(v), k}
			m3[k] = []string{k, k + "!"}
			if r.IntN(3) == 0 {
				m4[propKey(k)] = nil
			} else {
				m4[propKey(k)] = &v
			}
			m5[k] = map[string]float64{"x": float64(v), k: 0.5}
			m6[k] = []byte(k)
			m7[propKey(k)] = int(v)
		}
		check := func(name string, got, want any) {
			t.Helper()
			if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("%s (n=%d) round trip (-want +got):\n%s", name, n, d)
			}
			if reflect.ValueOf(got).IsNil() {
				t.Fatalf("%s: decoded map is nil", name)
			}
		}
		check("map[string]int64", propRoundTrip(t, sLong, m1, nil), m1)
		check("map[propKey]propPoint", propRoundTrip(t, sPoint, m2, nil), m2)
		check("map[string][]string", propRoundTrip(t, sStrs, m3, nil), m3)
		check("map[propKey]*int64", propRoundTrip(t, sOpt, m4, nil), m4)
		check("map[string]map[string]float64", propRoundTrip(t, sNested, m5, nil), m5)
		check("map[string][]byte", propRoundTrip(t, sBytes, m6, nil), m6)
		check("map[propKey]int", propRoundTrip(t, sLong, m7, nil), m7)

		// Into any: map[string]any with int64 values.
		data, _ := Marshal(sLong, m1)
		var a any
		if err := Unmarshal(sLong, data, &a); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{}
		for k, v := range m1 {
			want[k] = v
		}
		if d := cmp.Diff(want, a); d != "" {
			t.Fatalf("map into any (-want +got):\n%s", d)
		}
	}
	// A nil map encodes as an empty map.
	data, err := Marshal(sLong, map[string]int64(nil))
	if err != nil || !bytes.Equal(data, []byte{0}) {
		t.Fatalf("nil map = % x, %v", data, err)
	}
	// Non-string keys do not compile.
	var te *TypeError
	if _, err := Marshal(sLong, map[int]int64{1: 1}); !errors.As(err, &te) {
		t.Fatalf("map[int]int64: %v, want *TypeError", err)
	}
}

// --- records and structs ---

type propAddress struct {
	Street string `avro:"street"`
	Zip    int32  `avro:"zip"`
}

type propBase struct {
	ID      int64 `avro:"id"`
	Created int64 // matched by name, case-insensitively ("created")
}

type propExtra struct {
	Note string `avro:"note"`
}

type propPerson struct {
	propBase
	*propExtra
	Name     string `avro:"name"`
	NICKNAME string // matches "nickname" ignoring case
	Secret   string `avro:"-"`
	Address  propAddress
	Ignored  int // not in the schema
	private  int //nolint:unused // unexported fields are never touched
}

const propPersonSchema = `{"type":"record","name":"Person","namespace":"prop","fields":[
	{"name":"id","type":"long"},
	{"name":"created","type":"long"},
	{"name":"note","type":"string","default":"none"},
	{"name":"name","type":"string"},
	{"name":"nickname","type":"string"},
	{"name":"Secret","type":"string","default":"hidden"},
	{"name":"address","type":{"type":"record","name":"Address","fields":[
		{"name":"street","type":"string"},{"name":"zip","type":"int"}]}},
	{"name":"country","type":"string","default":"NL"}
]}`

func propPersonBytes(p propPerson, note string) []byte {
	return propCat(propLong(p.ID), propLong(p.Created), propStr(note), propStr(p.Name), propStr(p.NICKNAME),
		propStr("hidden"), propStr(p.Address.Street), propLong(int64(p.Address.Zip)), propStr("NL"))
}

func TestPropStructs(t *testing.T) {
	r := propRand(t)
	s := propParse(t, propPersonSchema)
	for range 100 {
		p := propPerson{
			propBase:  propBase{ID: propMixedLongs(r, 1)[0], Created: r.Int64()},
			propExtra: &propExtra{Note: propRandString(r, r.IntN(10))},
			Name:      propRandString(r, r.IntN(20)),
			NICKNAME:  propRandString(r, r.IntN(5)),
			Secret:    "not written",
			Address:   propAddress{Street: propRandString(r, 8), Zip: int32(r.Uint32())},
			Ignored:   7,
		}
		want := propPersonBytes(p, p.Note)
		data, err := Marshal(s, &p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, want) {
			t.Fatalf("Marshal(%+v) =\n% x, want\n% x", p, data, want)
		}
		// Decode over a value whose hidden and ignored fields must stay.
		got := propPerson{Secret: "keep", Ignored: 9}
		if err := Unmarshal(s, data, &got); err != nil {
			t.Fatal(err)
		}
		p.Secret, p.Ignored = "keep", 9
		if d := cmp.Diff(p, got, cmpopts.IgnoreUnexported(propPerson{})); d != "" {
			t.Fatalf("round trip (-want +got):\n%s", d)
		}

		// The same record into map[string]any, and back.
		var m map[string]any
		if err := Unmarshal(s, data, &m); err != nil {
			t.Fatal(err)
		}
		wantMap := map[string]any{
			"id": p.ID, "created": p.Created, "note": p.Note, "name": p.Name, "nickname": p.NICKNAME,
			"Secret": "hidden", "country": "NL",
			"address": map[string]any{"street": p.Address.Street, "zip": p.Address.Zip},
		}
		if d := cmp.Diff(wantMap, m); d != "" {
			t.Fatalf("record into map[string]any (-want +got):\n%s", d)
		}
		back, err := Marshal(s, m)
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("map[string]any re-encodes to % x, %v; want % x", back, err, data)
		}
		var a any
		if err := Unmarshal(s, data, &a); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(any(wantMap), a); d != "" {
			t.Fatalf("record into any (-want +got):\n%s", d)
		}
	}

	// A nil embedded pointer is allocated when decoding, and writes the
	// field's default when encoding.
	p := propPerson{Name: "n", Address: propAddress{Zip: 1}}
	data, err := Marshal(s, &p)
	if err != nil {
		t.Fatal(err)
	}
	if want := propPersonBytes(p, "none"); !bytes.Equal(data, want) {
		t.Fatalf("nil embedded pointer: % x, want % x", data, want)
	}
	var got propPerson
	if err := Unmarshal(s, propPersonBytes(p, "hello"), &got); err != nil || got.propExtra == nil || got.Note != "hello" {
		t.Fatalf("decode into nil embedded pointer: %+v, %v", got.propExtra, err)
	}
	sNoDefault := propParse(t, `{"type":"record","name":"P","fields":[{"name":"note","type":"string"}]}`)
	type withPtr struct{ *propExtra }
	_, err = Marshal(sNoDefault, &withPtr{})
	propWantErr(t, err, ErrRange, "nil embedded pointer without default")

	// A schema field that the struct lacks and that has no default: a
	// compile error when encoding, skipped when decoding.
	sMissing := propParse(t, `{"type":"record","name":"M","fields":[{"name":"x","type":"int"},{"name":"extra","type":{"type":"array","items":"string"}}]}`)
	type onlyX struct {
		X int `avro:"x"`
	}
	var te *TypeError
	if _, err := Marshal(sMissing, &onlyX{1}); !errors.As(err, &te) || te.Path != "extra" {
		t.Fatalf("Marshal with a missing field without default = %v, want *TypeError at extra", err)
	}
	var ox onlyX
	if err := Unmarshal(sMissing, propCat(propLong(5), propLong(2), propStr("a"), propStr("b"), propLong(0)), &ox); err != nil || ox.X != 5 {
		t.Fatalf("skip missing field: %+v, %v", ox, err)
	}

	// The exact name wins over a case-insensitive match, and a tagged
	// field is matched only by its tag.
	type caseFold struct {
		Lower int `avro:"Value"`
		Value int `avro:"other"`
		VALUE int
	}
	sCase := propParse(t, `{"type":"record","name":"C","fields":[{"name":"Value","type":"int"},{"name":"value","type":"int"}]}`)
	cf := propRoundTrip(t, sCase, caseFold{Lower: 1, Value: 2, VALUE: 3}, propCat(propLong(1), propLong(3)))
	if cf != (caseFold{Lower: 1, VALUE: 3}) {
		t.Fatalf("case-insensitive match: %+v", cf)
	}
}

// TestPropTypeErrorPath checks that a Go type that cannot hold the schema
// is a *TypeError with the path of the field, from Marshal and Unmarshal.
func TestPropTypeErrorPath(t *testing.T) {
	s := propParse(t, `{"type":"record","name":"Customer","fields":[
		{"name":"name","type":"string"},
		{"name":"address","type":{"type":"record","name":"Addr","fields":[{"name":"zip","type":"int"}]}},
		{"name":"others","type":{"type":"array","items":"Addr"}},
		{"name":"tags","type":{"type":"map","values":"long"}}]}`)
	type badAddr struct {
		Zip string `avro:"zip"`
	}
	type goodAddr struct {
		Zip int `avro:"zip"`
	}
	type c1 struct {
		Name    string
		Address badAddr
		Others  []goodAddr
		Tags    map[string]int64
	}
	type c2 struct {
		Name    string
		Address goodAddr
		Others  []badAddr
		Tags    map[string]int64
	}
	type c3 struct {
		Name    string
		Address goodAddr
		Others  []goodAddr
		Tags    map[string]string
	}
	for _, tc := range []struct {
		v    any
		path string
	}{
		{&c1{}, "address.zip"},
		{&c2{}, "others[].zip"},
		{&c3{}, "tags[]"},
	} {
		var te *TypeError
		_, err := Marshal(s, tc.v)
		if !errors.As(err, &te) || te.Path != tc.path {
			t.Errorf("Marshal(%T) = %v, want *TypeError at %s", tc.v, err, tc.path)
		}
		err = Unmarshal(s, []byte{0}, tc.v)
		if !errors.As(err, &te) || te.Path != tc.path {
			t.Errorf("Unmarshal into %T = %v, want *TypeError at %s", tc.v, err, tc.path)
		}
		if te != nil && !strings.Contains(te.Error(), tc.path) {
			t.Errorf("TypeError text %q lacks the path", te.Error())
		}
	}
}

// --- unions ---

// propShape is an interface whose implementations are registered for a
// union of named records.
type propShape interface{ Area() float64 }

type propCircle struct {
	R float64 `avro:"r"`
}

func (c propCircle) Area() float64 { return math.Pi * c.R * c.R }

type propSquare struct {
	S float64 `avro:"s"`
}

func (s *propSquare) Area() float64 { return s.S * s.S }

// propTriangle implements propShape but is not registered.
type propTriangle struct{}

func (propTriangle) Area() float64 { return 0 }

func init() {
	Register("prop.Circle", propCircle{})
	Register("prop.Square", (*propSquare)(nil))
}

func TestPropUnionsNullable(t *testing.T) {
	r := propRand(t)
	for _, text := range []string{`["null","string"]`, `["string","null"]`} {
		s := propParse(t, text)
		nullIdx, strIdx := int64(0), int64(1)
		if text[2] == 's' {
			nullIdx, strIdx = 1, 0
		}
		if got := propRoundTrip[*string](t, s, nil, propLong(nullIdx)); got != nil {
			t.Fatalf("%s: nil round-trips to %q", text, *got)
		}
		for range 50 {
			str := propRandString(r, r.IntN(30))
			got := propRoundTrip(t, s, &str, propCat(propLong(strIdx), propStr(str)))
			if got == nil || *got != str {
				t.Fatalf("%s: %q round-trips to %v", text, str, got)
			}
			// Non-pointer string: the string branch; null decodes to "".
			if got := propRoundTrip(t, s, str, propCat(propLong(strIdx), propStr(str))); got != str {
				t.Fatalf("%s: string %q round-trips to %q", text, str, got)
			}
		}
		// Decoding null over a non-nil pointer sets it to nil; decoding a
		// string over a nil pointer allocates.
		p := new(string)
		if err := Unmarshal(s, propLong(nullIdx), &p); err != nil || p != nil {
			t.Fatalf("%s: null over a pointer: %v, %v", text, p, err)
		}
		nonPtr := "was here"
		if err := Unmarshal(s, propLong(nullIdx), &nonPtr); err != nil || nonPtr != "" {
			t.Fatalf("%s: null into string = %q, %v (want the zero value)", text, nonPtr, err)
		}
	}

	// Slices and maps: nil is null, an empty one is the other branch.
	sArr := propParse(t, `["null",{"type":"array","items":"long"}]`)
	if got := propRoundTrip[[]int64](t, sArr, nil, []byte{0}); got != nil {
		t.Fatalf("nil slice round-trips to %#v", got)
	}
	if got := propRoundTrip(t, sArr, []int64{}, []byte{2, 0}); got == nil || len(got) != 0 {
		t.Fatalf("empty slice round-trips to %#v", got)
	}
	if got := propRoundTrip(t, sArr, []int64{1, -1}, []byte{2, 4, 2, 1, 0}); !slices64Equal(got, []int64{1, -1}) {
		t.Fatalf("slice round-trips to %#v", got)
	}
	sMap := propParse(t, `[{"type":"map","values":"string"},"null"]`)
	if got := propRoundTrip[map[string]string](t, sMap, nil, []byte{2}); got != nil {
		t.Fatalf("nil map round-trips to %#v", got)
	}
	if got := propRoundTrip(t, sMap, map[string]string{}, []byte{0, 0}); got == nil || len(got) != 0 {
		t.Fatalf("empty map round-trips to %#v", got)
	}

	// A non-pointer T with a null branch: the value takes T's branch;
	// null decodes to the zero value.
	sLong := propParse(t, `["null","long"]`)
	if got := propRoundTrip(t, sLong, int64(-3), []byte{2, 5}); got != -3 {
		t.Fatalf("int64 in [null,long] = %d", got)
	}
	n := int64(77)
	if err := Unmarshal(sLong, []byte{0}, &n); err != nil || n != 0 {
		t.Fatalf("null into int64 = %d, %v", n, err)
	}
	type rec struct {
		A *int64 `avro:"a"`
		B int32  `avro:"b"`
	}
	sRec := propParse(t, `["null",{"type":"record","name":"RR","fields":[{"name":"a","type":["long","null"]},{"name":"b","type":"int"}]}]`)
	v := int64(9)
	if got := propRoundTrip(t, sRec, &rec{A: &v, B: 2}, []byte{2, 0, 18, 4}); got == nil || got.A == nil || *got.A != 9 || got.B != 2 {
		t.Fatalf("*rec round trip: %+v", got)
	}
	if got := propRoundTrip(t, sRec, rec{B: 2}, []byte{2, 2, 4}); got.A != nil || got.B != 2 {
		t.Fatalf("rec round trip: %+v", got)
	}

	// A nil pointer where the schema has no null is ErrRange.
	_, err := Marshal(propParse(t, `"long"`), (*int64)(nil))
	propWantErr(t, err, ErrRange, "nil *int64 for long")
	_, err = Marshal(propParse(t, `["int","string"]`), (*string)(nil))
	propWantErr(t, err, ErrRange, "nil *string for a union without null")
}

func slices64Equal(a, b []int64) bool { return cmp.Equal(a, b) }

const propMultiUnion = `["null","int","long","string",
	{"type":"record","name":"A","namespace":"prop","fields":[{"name":"x","type":"int"}]},
	{"type":"record","name":"B","namespace":"prop","fields":[{"name":"x","type":"int"}]},
	{"type":"enum","name":"E","namespace":"prop","symbols":["P","Q"]},
	{"type":"array","items":"double"},
	{"type":"map","values":"boolean"},
	{"type":"fixed","name":"F2","namespace":"prop","size":2},
	"bytes","double","boolean"]`

func TestPropUnionsMultiBranch(t *testing.T) {
	s := propParse(t, propMultiUnion)
	datums := []struct {
		branch int
		data   []byte
		any    any
	}{
		{0, nil, nil},
		{1, propLong(-5), int32(-5)},
		{2, propLong(1 << 40), int64(1 << 40)},
		{3, propStr("hi"), "hi"},
		{4, propLong(1), map[string]any{"x": int32(1)}},
		{5, propLong(2), map[string]any{"x": int32(2)}},
		{6, propLong(1), "Q"},
		{7, propCat(propLong(1), binaryLE64(math.Float64bits(1.5)), propLong(0)), []any{1.5}},
		{8, propCat(propLong(1), propStr("k"), []byte{1}, propLong(0)), map[string]any{"k": true}},
		{9, []byte{0xab, 0xcd}, []byte{0xab, 0xcd}},
		{10, propStr("\x00\x01"), []byte{0, 1}},
		{11, binaryLE64(math.Float64bits(-2.25)), -2.25},
		{12, []byte{1}, true},
	}
	for _, dt := range datums {
		data := propCat(propLong(int64(dt.branch)), dt.data)
		// value.Value keeps the branch, and re-encodes the same bytes,
		// including for records of the same shape (A and B).
		var v value.Value
		if err := Unmarshal(s, data, &v); err != nil {
			t.Fatalf("branch %d into value.Value: %v", dt.branch, err)
		}
		if v.Branch() != dt.branch {
			t.Fatalf("branch %d: value.Value has branch %d (%v)", dt.branch, v.Branch(), v)
		}
		back, err := Marshal(s, v)
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("branch %d: value.Value re-encodes to % x, %v; want % x", dt.branch, back, err, data)
		}
		// any holds the branch's natural Go value.
		var a any
		if err := Unmarshal(s, data, &a); err != nil {
			t.Fatalf("branch %d into any: %v", dt.branch, err)
		}
		if d := cmp.Diff(dt.any, a); d != "" {
			t.Fatalf("branch %d into any (-want +got):\n%s", dt.branch, d)
		}
		// Re-encoding from any picks the same branch wherever the Go
		// value identifies it (B has A's shape and the enum is a
		// string, so those go to the first branch that accepts them).
		back, err = Marshal(s, &a) // &a: the any codec, not the codec of a's dynamic type
		if err != nil {
			t.Fatalf("branch %d: any %#v does not re-encode: %v", dt.branch, a, err)
		}
		switch dt.branch {
		case 5:
			if !bytes.Equal(back, propCat(propLong(4), dt.data)) {
				t.Fatalf("branch 5 from any = % x", back)
			}
		case 6:
			if !bytes.Equal(back, propCat(propLong(3), propStr("Q"))) {
				t.Fatalf("branch 6 from any = % x", back)
			}
		case 10:
			// []byte prefers bytes over fixed of its length.
			if !bytes.Equal(back, data) {
				t.Fatalf("branch 10 from any = % x, want % x", back, data)
			}
		case 9:
			// A 2-byte []byte goes to bytes, the first branch preferred
			// for []byte (see codec_any.go).
			if !bytes.Equal(back, propCat(propLong(10), propStr("\xab\xcd"))) {
				t.Fatalf("branch 9 from any = % x", back)
			}
		default:
			if !bytes.Equal(back, data) {
				t.Fatalf("branch %d from any %#v = % x, want % x", dt.branch, a, back, data)
			}
		}
	}
	// The goavro wrapper form selects a branch by name.
	var wrapped any = map[string]any{"prop.B": map[string]any{"x": int32(2)}}
	back, err := Marshal(s, &wrapped)
	if err != nil || !bytes.Equal(back, propCat(propLong(5), propLong(2))) {
		t.Fatalf("wrapped prop.B = % x, %v", back, err)
	}
	// A value that fits no branch.
	sNarrow := propParse(t, `["int","string"]`)
	for _, bad := range []any{true, 1.5, []any{1}, map[string]any{"a": 1}, int64(1) << 40} {
		_, err := Marshal(sNarrow, &bad)
		propWantErr(t, err, ErrRange, fmt.Sprintf("Marshal([int,string], %#v)", bad))
	}
	_, err = Marshal(sNarrow, value.Bool(true))
	propWantErr(t, err, ErrRange, "Marshal([int,string], value.Bool)")
	var te *TypeError
	if _, err := Marshal(sNarrow, true); !errors.As(err, &te) {
		t.Fatalf("Marshal([int,string], bool) = %v, want *TypeError", err)
	}
}

func TestPropUnionsInterface(t *testing.T) {
	s := propParse(t, `{"type":"record","name":"Drawing","namespace":"prop","fields":[
		{"name":"shape","type":["null",
			{"type":"record","name":"Circle","fields":[{"name":"r","type":"double"}]},
			{"type":"record","name":"Square","fields":[{"name":"s","type":"double"}]}]},
		{"name":"shapes","type":{"type":"array","items":["Circle","Square"]}}]}`)
	type drawing struct {
		Shape  propShape   `avro:"shape"`
		Shapes []propShape `avro:"shapes"`
	}
	r := propRand(t)
	for range 50 {
		d := drawing{}
		switch r.IntN(3) {
		case 1:
			d.Shape = propCircle{R: r.Float64()}
		case 2:
			d.Shape = &propSquare{S: r.Float64()}
		}
		for range r.IntN(5) {
			if r.IntN(2) == 0 {
				d.Shapes = append(d.Shapes, propCircle{R: r.Float64()})
			} else {
				d.Shapes = append(d.Shapes, &propSquare{S: r.Float64()})
			}
		}
		got := propRoundTrip(t, s, d, nil)
		if diff := cmp.Diff(d, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("interface union round trip (-want +got):\n%s", diff)
		}
	}
	// A value of a type registered for no branch is ErrRange naming the
	// Path; so is a non-pointer square (registered as *propSquare) when
	// it implements the interface... it does not, so only the triangle.
	_, err := Marshal(s, &drawing{Shape: propTriangle{}})
	propWantErr(t, err, ErrRange, "unregistered implementation")
	var ae *Error
	if errors.As(err, &ae); ae.Path != "shape" {
		t.Fatalf("path %q, want shape", ae.Path)
	}
	_, err = Marshal(s, &drawing{Shapes: []propShape{propCircle{}, propTriangle{}}})
	propWantErr(t, err, ErrRange, "unregistered implementation in an array")
	if errors.As(err, &ae); ae.Path != "shapes[1]" {
		t.Fatalf("path %q, want shapes[1]", ae.Path)
	}
	// A nil where the union has no null.
	_, err = Marshal(s, &drawing{Shapes: []propShape{nil}})
	propWantErr(t, err, ErrRange, "nil interface in a union without null")
	// A union with no registered branch for the interface does not
	// compile.
	type other interface{ Other() }
	var te *TypeError
	if _, err := Marshal(propParse(t, `["null",{"type":"record","name":"Unreg","namespace":"prop","fields":[]}]`), new(other)); !errors.As(err, &te) {
		t.Fatalf("interface without registered branches = %v, want *TypeError", err)
	}
}

// --- recursion ---

// propNode is a recursive Go type for a recursive schema.
type propNode struct {
	Value    int64
	Children []propNode
	Next     *propNode
}

const propNodeSchema = `{"type":"record","name":"Node","namespace":"prop","fields":[
	{"name":"value","type":"long"},
	{"name":"children","type":{"type":"array","items":"Node"}},
	{"name":"next","type":["null","Node"]}]}`

// propChain returns a list of n nodes linked by Next, each with up to two
// leaf children.
func propChain(r *rand.Rand, n int) *propNode {
	var head *propNode
	for i := range n {
		nd := &propNode{Value: int64(i), Children: []propNode{}, Next: head}
		for range r.IntN(3) {
			nd.Children = append(nd.Children, propNode{Value: r.Int64(), Children: []propNode{}})
		}
		head = nd
	}
	return head
}

// propNested returns n nodes nested through Children.
func propNested(n int) propNode {
	nd := propNode{Value: 0, Children: []propNode{}}
	for i := 1; i < n; i++ {
		nd = propNode{Value: int64(i), Children: []propNode{nd}}
	}
	return nd
}

func TestPropRecursion(t *testing.T) {
	r := propRand(t)
	s := propParse(t, propNodeSchema)
	head := propChain(r, 100)
	// reflect.DeepEqual, not cmp: cmp's slice diff compares every level
	// twice, which is exponential in the depth.
	got := propRoundTrip(t, s, head, nil)
	if !reflect.DeepEqual(head, got) {
		t.Fatalf("100-deep list does not round-trip")
	}
	data, _ := Marshal(s, head)
	var v value.Value
	if err := Unmarshal(s, data, &v); err != nil {
		t.Fatal(err)
	}
	if back, err := Marshal(s, v); err != nil || !bytes.Equal(back, data) {
		t.Fatalf("value.Value re-encodes to %d bytes, %v; want %d", len(back), err, len(data))
	}
	var a any
	if err := Unmarshal(s, data, &a); err != nil {
		t.Fatal(err)
	}
	if back, err := Marshal(s, a); err != nil || !bytes.Equal(back, data) {
		t.Fatalf("any re-encodes to %d bytes, %v; want %d", len(back), err, len(data))
	}

	// 100 levels through Children: a record and an array per level, so
	// the default depth of 128 is too small (see errors_test.go) and the
	// options raise it on both sides.
	deep := propNested(100)
	enc := EncodeOptions{MaxDepth: 1000}
	dec := DecodeOptions{MaxDepth: 1000}
	data, err := enc.Marshal(s, &deep)
	if err != nil {
		t.Fatal(err)
	}
	var back propNode
	if err := dec.Unmarshal(s, data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(deep, back) {
		t.Fatalf("100-deep tree does not round-trip")
	}
	for _, target := range []any{new(value.Value), new(any), new(map[string]any)} {
		if err := dec.Unmarshal(s, data, target); err != nil {
			t.Fatalf("100-deep tree into %T: %v", target, err)
		}
		out, err := enc.Marshal(s, reflect.ValueOf(target).Elem().Interface())
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("100-deep tree from %T re-encodes: %v", target, err)
		}
	}
}

// --- decoded memory ---

func TestPropEmptyCollectionsNonNil(t *testing.T) {
	s := propParse(t, `{"type":"record","name":"Empty","fields":[
		{"name":"longs","type":{"type":"array","items":"long"}},
		{"name":"strs","type":{"type":"array","items":"string"}},
		{"name":"points","type":{"type":"array","items":`+propPointSchema+`}},
		{"name":"nested","type":{"type":"array","items":{"type":"array","items":"int"}}},
		{"name":"m","type":{"type":"map","values":"long"}},
		{"name":"km","type":{"type":"map","values":"int"}},
		{"name":"pm","type":{"type":"map","values":"Point"}},
		{"name":"opt","type":["null",{"type":"array","items":"double"}]}]}`)
	type empty struct {
		Longs  []int64
		Strs   []string
		Points []propPoint
		Nested [][]int32
		M      map[string]int64
		Km     map[propKey]int
		Pm     map[string]propPoint
		Opt    []float64
	}
	data := []byte{0, 0, 0, 0, 0, 0, 0, 2, 0}
	check := func(got empty) {
		t.Helper()
		v := reflect.ValueOf(got)
		for i := range v.NumField() {
			if v.Field(i).IsNil() || v.Field(i).Len() != 0 {
				t.Errorf("field %s = %#v, want non-nil and empty", v.Type().Field(i).Name, v.Field(i).Interface())
			}
		}
	}
	var got empty
	if err := Unmarshal(s, data, &got); err != nil {
		t.Fatal(err)
	}
	check(got)
	// Decoding over full collections empties them (maps are merged into,
	// as encoding/json does, so only slices are checked here).
	full := empty{Longs: []int64{1}, Strs: []string{"a"}, Points: []propPoint{{}}, Nested: [][]int32{{1}}, Opt: []float64{1}}
	if err := Unmarshal(s, data, &full); err != nil {
		t.Fatal(err)
	}
	if len(full.Longs)+len(full.Strs)+len(full.Points)+len(full.Nested)+len(full.Opt) != 0 {
		t.Fatalf("decoding empty arrays over full slices: %+v", full)
	}
	var a any
	if err := Unmarshal(s, data, &a); err != nil {
		t.Fatal(err)
	}
	for k, v := range a.(map[string]any) {
		rv := reflect.ValueOf(v)
		if !rv.IsValid() || rv.IsNil() || rv.Len() != 0 {
			t.Errorf("any: field %s = %#v, want non-nil and empty", k, v)
		}
	}
}

func TestPropDecodeReusesSlices(t *testing.T) {
	r := propRand(t)
	type holder struct {
		Longs  []int64     `avro:"longs"`
		Points []propPoint `avro:"points"`
		Strs   []string    `avro:"strs"`
	}
	s := propParse(t, `{"type":"record","name":"H","fields":[
		{"name":"longs","type":{"type":"array","items":"long"}},
		{"name":"points","type":{"type":"array","items":`+propPointSchema+`}},
		{"name":"strs","type":{"type":"array","items":"string"}}]}`)
	h := holder{Longs: make([]int64, 3, 64), Points: make([]propPoint, 0, 64), Strs: make([]string, 10, 64)}
	p0, p1, p2 := unsafe.SliceData(h.Longs), unsafe.SliceData(h.Points), unsafe.SliceData(h.Strs)
	for range 20 {
		in := holder{Longs: propMixedLongs(r, r.IntN(64)), Points: make([]propPoint, r.IntN(64)), Strs: make([]string, r.IntN(64))}
		for i := range in.Points {
			in.Points[i] = propPoint{int32(r.Uint32()), propRandString(r, 3)}
		}
		for i := range in.Strs {
			in.Strs[i] = propRandString(r, 4)
		}
		data, err := Marshal(s, &in)
		if err != nil {
			t.Fatal(err)
		}
		if err := Unmarshal(s, data, &h); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(in, h, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("decode over reused slices (-want +got):\n%s", d)
		}
		if unsafe.SliceData(h.Longs) != p0 || unsafe.SliceData(h.Points) != p1 || unsafe.SliceData(h.Strs) != p2 {
			t.Fatalf("decoding did not reuse the slices' storage (lens %d %d %d)", len(h.Longs), len(h.Points), len(h.Strs))
		}
	}
}

// TestPropBytesNeverAlias checks that decoded []byte values share memory
// with neither the input nor each other: appending to one or writing the
// input leaves the others as they were.
func TestPropBytesNeverAlias(t *testing.T) {
	s := propParse(t, `{"type":"record","name":"Blobs","fields":[
		{"name":"a","type":"bytes"},
		{"name":"b","type":"bytes"},
		{"name":"list","type":{"type":"array","items":"bytes"}},
		{"name":"m","type":{"type":"map","values":"bytes"}},
		{"name":"f","type":{"type":"fixed","name":"F4","size":4}},
		{"name":"s","type":"string"},
		{"name":"opt","type":["null","bytes"]}]}`)
	type blobs struct {
		A    []byte            `avro:"a"`
		B    []byte            `avro:"b"`
		List [][]byte          `avro:"list"`
		M    map[string][]byte `avro:"m"`
		F    []byte            `avro:"f"`
		S    []byte            `avro:"s"`
		Opt  *[]byte           `avro:"opt"`
	}
	opt := []byte("opt1")
	in := blobs{A: []byte("aaaa"), B: []byte("bbbb"), List: [][]byte{[]byte("l0l0"), []byte("l1l1"), []byte("l2l2")},
		M: map[string][]byte{"k": []byte("mmmm")}, F: []byte("ffff"), S: []byte("ssss"), Opt: &opt}
	data, err := Marshal(s, &in)
	if err != nil {
		t.Fatal(err)
	}
	orig := bytes.Clone(data)

	all := func(b *blobs) []*[]byte {
		return []*[]byte{&b.A, &b.B, &b.List[0], &b.List[1], &b.List[2], &b.F, &b.S, b.Opt}
	}
	for _, zeroCopy := range []bool{false, true} {
		work := bytes.Clone(orig)
		var out blobs
		if err := (DecodeOptions{ZeroCopy: zeroCopy}).Unmarshal(s, work, &out); err != nil {
			t.Fatal(err)
		}
		mv := out.M["k"]
		ptrs := append(all(&out), &mv)
		snap := make([]string, len(ptrs))
		for i, p := range ptrs {
			snap[i] = string(*p)
		}
		for i, p := range ptrs {
			*p = append(*p, "XXXXXXXXXXXX"...)
			for j, q := range ptrs {
				if j != i && string(*q) != snap[j] {
					t.Fatalf("zeroCopy=%v: appending to value %d changed value %d to %q", zeroCopy, i, j, *q)
				}
			}
			*p = (*p)[:len(snap[i])]
		}
		if !bytes.Equal(work, orig) {
			t.Fatalf("zeroCopy=%v: appending to decoded values changed the input", zeroCopy)
		}
		if zeroCopy {
			continue
		}
		for i := range work {
			work[i] = 0xee
		}
		for i, p := range ptrs {
			if string(*p) != snap[i] {
				t.Fatalf("writing the input changed decoded value %d to %q", i, *p)
			}
		}
	}

	// The same through any and value.Value.
	sList := propParse(t, `{"type":"array","items":"bytes"}`)
	listData, _ := Marshal(sList, [][]byte{[]byte("one1"), []byte("two2")})
	var a any
	if err := Unmarshal(sList, listData, &a); err != nil {
		t.Fatal(err)
	}
	x := a.([]any)
	b0 := x[0].([]byte)
	_ = append(b0, "ZZZZ"...)
	if string(x[1].([]byte)) != "two2" {
		t.Fatalf("any: appending to one []byte changed the next to %q", x[1])
	}
	var v value.Value
	if err := Unmarshal(sList, listData, &v); err != nil {
		t.Fatal(err)
	}
	vb := v.Index(0).Bytes()
	_ = append(vb, "ZZZZ"...)
	if string(v.Index(1).Bytes()) != "two2" {
		t.Fatalf("value.Value: appending to one Bytes changed the next to %q", v.Index(1).Bytes())
	}
}

// TestPropUnionTypedIntegerFitsLongBranch: a Go int64 whose value does
// not fit an Avro int, in a union with both int and long branches, fits
// the long branch; doc.go says a value is ErrRange only when it "fits no
// branch". The struct codec picks the first branch the Go type compiles
// for (int), so Marshal fails with "does not fit an Avro int", while the
// any codec skips to long (see codec_any.go).
func TestPropUnionTypedIntegerFitsLongBranch(t *testing.T) {
	s := propParse(t, `["null","int","long"]`)
	for _, x := range []int64{1 << 40, math.MinInt64, math.MaxInt32 + 1} {
		data, err := Marshal(s, x)
		if err != nil {
			t.Errorf("Marshal([null,int,long], int64(%d)) = %v; the long branch fits it", x, err)
			continue
		}
		var got int64
		if err := Unmarshal(s, data, &got); err != nil || got != x {
			t.Errorf("int64(%d) round-trips to %d, %v", x, got, err)
		}
	}
	type rec struct {
		N int64 `avro:"n"`
	}
	sRec := propParse(t, `{"type":"record","name":"N","fields":[{"name":"n","type":["int","long"]}]}`)
	if _, err := Marshal(sRec, &rec{N: 1 << 40}); err != nil {
		t.Errorf("record field int64(1<<40) in [int,long]: %v", err)
	}
}
