package varint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

// refLong is an independent byte-at-a-time reference decoder with the
// package's conventions (n == 0 truncated, n < 0 invalid).
func refLong(b []byte) (int64, int) {
	var u uint64
	for i := 0; i < MaxLenLong; i++ {
		if i == len(b) {
			return 0, 0
		}
		c := b[i]
		if i == MaxLenLong-1 && c > 1 {
			return 0, -1
		}
		u |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1), i + 1
		}
	}
	panic("unreachable")
}

// refInt is refLong for ints: 5 bytes at most, the 5th at most 0x0f.
func refInt(b []byte) (int32, int) {
	var u uint32
	for i := 0; i < MaxLenInt; i++ {
		if i == len(b) {
			return 0, 0
		}
		c := b[i]
		if i == MaxLenInt-1 && c > 0x0f {
			return 0, -1
		}
		u |= uint32(c&0x7f) << (7 * i)
		if c < 0x80 {
			return int32(u>>1) ^ -int32(u&1), i + 1
		}
	}
	panic("unreachable")
}

// checkLong decodes enc (exactly one varint) with Long, bare and followed by
// padding (the two code paths: short buffer and word load), and compares
// with want.
func checkLong(t *testing.T, enc []byte, want int64) {
	t.Helper()
	for _, pad := range [][]byte{nil, {0xff}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}} {
		b := append(enc[:len(enc):len(enc)], pad...)
		if v, n := Long(b); v != want || n != len(enc) {
			t.Fatalf("Long(% x) = %d, %d; want %d, %d", b, v, n, want, len(enc))
		}
	}
}

func checkInt(t *testing.T, enc []byte, want int32) {
	t.Helper()
	for _, pad := range [][]byte{nil, {0xff}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}} {
		b := append(enc[:len(enc):len(enc)], pad...)
		if v, n := Int(b); v != want || n != len(enc) {
			t.Fatalf("Int(% x) = %d, %d; want %d, %d", b, v, n, want, len(enc))
		}
	}
}

var specVectors = []struct {
	v   int64
	enc []byte
}{
	{0, []byte{0x00}},
	{-1, []byte{0x01}},
	{1, []byte{0x02}},
	{-2, []byte{0x03}},
	{2, []byte{0x04}},
	{63, []byte{0x7e}},
	{-64, []byte{0x7f}},
	{64, []byte{0x80, 0x01}},
	{-65, []byte{0x81, 0x01}},
	{8191, []byte{0xfe, 0x7f}},
	{-8192, []byte{0xff, 0x7f}},
	{8192, []byte{0x80, 0x80, 0x01}},
	{-8193, []byte{0x81, 0x80, 0x01}},
	{math.MaxInt32, []byte{0xfe, 0xff, 0xff, 0xff, 0x0f}},
	{math.MinInt32, []byte{0xff, 0xff, 0xff, 0xff, 0x0f}},
	{math.MaxInt32 + 1, []byte{0x80, 0x80, 0x80, 0x80, 0x10}},
	{math.MinInt32 - 1, []byte{0x81, 0x80, 0x80, 0x80, 0x10}},
	{1 << 55, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
	{math.MaxInt64, []byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	{math.MinInt64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
}

func TestSpecVectors(t *testing.T) {
	for _, tc := range specVectors {
		if got := AppendLong(nil, tc.v); !bytes.Equal(got, tc.enc) {
			t.Errorf("AppendLong(%d) = % x; want % x", tc.v, got, tc.enc)
		}
		if got := AppendLongs([]byte{0xaa}, []int64{tc.v}); !bytes.Equal(got[1:], tc.enc) || got[0] != 0xaa {
			t.Errorf("AppendLongs(%d) = % x; want aa % x", tc.v, got, tc.enc)
		}
		if got := SizeLong(tc.v); got != len(tc.enc) {
			t.Errorf("SizeLong(%d) = %d; want %d", tc.v, got, len(tc.enc))
		}
		if got := Zigzag64(tc.v); Unzigzag64(got) != tc.v {
			t.Errorf("Unzigzag64(Zigzag64(%d)) = %d", tc.v, Unzigzag64(got))
		}
		checkLong(t, tc.enc, tc.v)
		var dst [1]int64
		if c, err := DecodeLongs(dst[:], tc.enc); err != nil || c != len(tc.enc) || dst[0] != tc.v {
			t.Errorf("DecodeLongs(% x) = %d, %d, %v", tc.enc, dst[0], c, err)
		}

		if tc.v < math.MinInt32 || tc.v > math.MaxInt32 {
			if v, n := Int(tc.enc); n >= 0 {
				t.Errorf("Int(% x) = %d, %d; want n < 0 (outside int32)", tc.enc, v, n)
			}
			var d [1]int32
			if _, err := DecodeInts(d[:], tc.enc); !errors.Is(err, ErrOverflow) {
				t.Errorf("DecodeInts(% x): err = %v; want ErrOverflow", tc.enc, err)
			}
			continue
		}
		v32 := int32(tc.v)
		if got := AppendInt(nil, v32); !bytes.Equal(got, tc.enc) {
			t.Errorf("AppendInt(%d) = % x; want % x", v32, got, tc.enc)
		}
		if got := AppendInts(nil, []int32{v32}); !bytes.Equal(got, tc.enc) {
			t.Errorf("AppendInts(%d) = % x; want % x", v32, got, tc.enc)
		}
		if got := SizeInt(v32); got != len(tc.enc) {
			t.Errorf("SizeInt(%d) = %d; want %d", v32, got, len(tc.enc))
		}
		if got := Zigzag32(v32); Unzigzag32(got) != v32 || uint64(got) != Zigzag64(tc.v) {
			t.Errorf("Zigzag32(%d) = %d", v32, got)
		}
		checkInt(t, tc.enc, v32)
	}
}

// roundTrip checks one value against encoding/binary, whose Varint is the
// same zigzag base-128 encoding.
func roundTrip(t *testing.T, v int64) {
	t.Helper()
	want := binary.AppendVarint(nil, v)
	got := AppendLong(nil, v)
	if !bytes.Equal(got, want) {
		t.Fatalf("AppendLong(%d) = % x; want % x", v, got, want)
	}
	if s := SizeLong(v); s != len(want) {
		t.Fatalf("SizeLong(%d) = %d; want %d", v, s, len(want))
	}
	checkLong(t, want, v)
	if v >= math.MinInt32 && v <= math.MaxInt32 {
		if got := AppendInt(nil, int32(v)); !bytes.Equal(got, want) {
			t.Fatalf("AppendInt(%d) = % x; want % x", v, got, want)
		}
		if s := SizeInt(int32(v)); s != len(want) {
			t.Fatalf("SizeInt(%d) = %d; want %d", v, s, len(want))
		}
		checkInt(t, want, int32(v))
	} else if x, n := Int(want); n >= 0 {
		t.Fatalf("Int(% x) = %d, %d; want n < 0", want, x, n)
	}
}

func TestRoundTripRange(t *testing.T) {
	const lim = 1 << 20
	if testing.Short() {
		t.Skip("short")
	}
	for v := int64(-lim); v <= lim; v++ {
		roundTrip(t, v)
	}
}

func TestRoundTripPowers(t *testing.T) {
	for s := 0; s < 64; s++ {
		p := int64(1) << s // negative for s == 63
		for d := int64(-2); d <= 2; d++ {
			roundTrip(t, p+d)
			roundTrip(t, -p+d)
			roundTrip(t, -(p + d))
		}
	}
	for _, v := range []int64{math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1, math.MaxInt32, math.MinInt32} {
		roundTrip(t, v)
	}
}

// randValue returns a random value whose zigzag code has a random bit length,
// so that every encoded length is equally likely.
func randValue(r *rand.Rand) int64 {
	bitsLen := r.IntN(65)
	if bitsLen == 0 {
		return 0
	}
	u := r.Uint64()>>(64-bitsLen) | 1<<(bitsLen-1)
	return Unzigzag64(u)
}

func TestRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3_000_000
	if testing.Short() || raceEnabled {
		n = 500_000
	}
	for i := 0; i < n; i++ {
		var v int64
		if i&1 == 0 {
			v = int64(r.Uint64())
		} else {
			v = randValue(r)
		}
		roundTrip(t, v)
	}
}

func TestTruncated(t *testing.T) {
	for _, tc := range specVectors {
		for cut := 0; cut < len(tc.enc); cut++ {
			b := tc.enc[:cut:cut]
			if v, n := Long(b); n != 0 {
				t.Errorf("Long(% x) = %d, %d; want n == 0", b, v, n)
			}
			if len(tc.enc) <= MaxLenInt {
				if v, n := Int(b); n != 0 {
					t.Errorf("Int(% x) = %d, %d; want n == 0", b, v, n)
				}
			}
			var d [1]int64
			if c, err := DecodeLongs(d[:], b); !errors.Is(err, ErrTruncated) || c != 0 {
				t.Errorf("DecodeLongs(% x) = %d, %v; want ErrTruncated", b, c, err)
			}
		}
	}
	// Continuation bytes only, of every length that is not yet invalid.
	for l := 0; l < MaxLenLong; l++ {
		b := bytes.Repeat([]byte{0x80}, l)
		if v, n := Long(b); n != 0 {
			t.Errorf("Long(% x) = %d, %d; want 0", b, v, n)
		}
		if l < MaxLenInt {
			if v, n := Int(b); n != 0 {
				t.Errorf("Int(% x) = %d, %d; want 0", b, v, n)
			}
		}
	}
}

func TestInvalid(t *testing.T) {
	long := [][]byte{
		bytes.Repeat([]byte{0x80}, 10),                    // overlong: 10th byte has a continuation bit
		append(bytes.Repeat([]byte{0x80}, 10), 0x00),      // 11 bytes
		append(bytes.Repeat([]byte{0xff}, 10), 0x01),      // 11 bytes
		append(bytes.Repeat([]byte{0xff}, 9), 0x02),       // 10th byte > 1
		append(bytes.Repeat([]byte{0x80}, 9), 0x7f),       // 10th byte > 1
		append(bytes.Repeat([]byte{0xff}, 16), 0x00),      // long run
		append(bytes.Repeat([]byte{0xff}, 9), 0x03, 0x00), // 10th byte > 1, with padding
	}
	for _, b := range long {
		for _, pad := range []int{0, 8} {
			bb := append(b[:len(b):len(b)], make([]byte, pad)...)
			if v, n := Long(bb); n >= 0 {
				t.Errorf("Long(% x) = %d, %d; want n < 0", bb, v, n)
			}
			var d [1]int64
			if c, err := DecodeLongs(d[:], bb); !errors.Is(err, ErrOverflow) || c != 0 {
				t.Errorf("DecodeLongs(% x) = %d, %v; want ErrOverflow", bb, c, err)
			}
		}
	}
	// A 10th byte of 0 or 1 is valid (0 is non-minimal), as in binary.Varint.
	for _, last := range []byte{0, 1} {
		b := append(bytes.Repeat([]byte{0x80}, 9), last)
		want, wn := binary.Varint(b)
		if v, n := Long(b); n != 10 || v != want || wn != 10 {
			t.Errorf("Long(% x) = %d, %d; want %d, 10", b, v, n, want)
		}
	}
	ints := [][]byte{
		{0x80, 0x80, 0x80, 0x80, 0x80},       // overlong
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, // 6 bytes
		{0xff, 0xff, 0xff, 0xff, 0x10},       // 5th byte beyond 32 bits
		{0x80, 0x80, 0x80, 0x80, 0x7f},
		{0xff, 0xff, 0xff, 0xff, 0x1f},
		{0xfe, 0xff, 0xff, 0xff, 0x1f},
	}
	for _, b := range ints {
		for _, pad := range []int{0, 8} {
			bb := append(b[:len(b):len(b)], make([]byte, pad)...)
			if v, n := Int(bb); n >= 0 {
				t.Errorf("Int(% x) = %d, %d; want n < 0", bb, v, n)
			}
			var d [1]int32
			if c, err := DecodeInts(d[:], bb); !errors.Is(err, ErrOverflow) || c != 0 {
				t.Errorf("DecodeInts(% x) = %d, %v; want ErrOverflow", bb, c, err)
			}
		}
	}
	// Non-minimal but fitting encodings are accepted.
	checkInt(t, []byte{0x80, 0x80, 0x80, 0x80, 0x00}, 0)
	checkInt(t, []byte{0x81, 0x00}, -1)
	checkLong(t, []byte{0x80, 0x80, 0x00}, 0)
}

// TestIntOutsideRange: every long outside int32 is rejected by Int, bulk or single.
func TestIntOutsideRange(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100_000; i++ {
		v := randValue(r)
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			continue
		}
		b := AppendLong(nil, v)
		for _, pad := range []int{0, 9} {
			bb := append(b, make([]byte, pad)...)
			if x, n := Int(bb); n >= 0 {
				t.Fatalf("Int(% x) = %d, %d; want n < 0", bb, x, n)
			}
			var d [1]int32
			if _, err := DecodeInts(d[:], bb); !errors.Is(err, ErrOverflow) {
				t.Fatalf("DecodeInts(% x): %v; want ErrOverflow", bb, err)
			}
		}
	}
}

// randomStream returns count values of mixed lengths and their encoding.
func randomStream(r *rand.Rand, count, maxBits int) ([]int64, []byte) {
	vals := make([]int64, count)
	for i := range vals {
		b := r.IntN(maxBits + 1)
		if b == 0 {
			continue
		}
		vals[i] = Unzigzag64(r.Uint64()>>(64-b) | 1<<(b-1))
	}
	var enc []byte
	for _, v := range vals {
		enc = binary.AppendVarint(enc, v)
	}
	return vals, enc
}

// refDecodeLongs is the single-value reference for the bulk decoders.
func refDecodeLongs(dst []int64, src []byte) (int, int, int) {
	p := 0
	for i := range dst {
		v, n := refLong(src[p:])
		if n <= 0 {
			return p, i, n
		}
		dst[i] = v
		p += n
	}
	return p, len(dst), 1
}

func refDecodeInts(dst []int32, src []byte) (int, int, int) {
	p := 0
	for i := range dst {
		v, n := refInt(src[p:])
		if n <= 0 {
			return p, i, n
		}
		dst[i] = v
		p += n
	}
	return p, len(dst), 1
}

// checkBulk compares DecodeLongs and DecodeInts with the reference on src.
func checkBulk(t *testing.T, count int, src []byte) {
	t.Helper()
	want := make([]int64, count)
	got := make([]int64, count)
	wc, wi, wn := refDecodeLongs(want, src)
	c, err := DecodeLongs(got, src)
	checkBulkResult(t, "DecodeLongs", src, c, err, wc, wi, wn)
	for i := 0; i < wi; i++ {
		if got[i] != want[i] {
			t.Fatalf("DecodeLongs(% x)[%d] = %d; want %d", src, i, got[i], want[i])
		}
	}
	want32 := make([]int32, count)
	got32 := make([]int32, count)
	wc, wi, wn = refDecodeInts(want32, src)
	c, err = DecodeInts(got32, src)
	checkBulkResult(t, "DecodeInts", src, c, err, wc, wi, wn)
	for i := 0; i < wi; i++ {
		if got32[i] != want32[i] {
			t.Fatalf("DecodeInts(% x)[%d] = %d; want %d", src, i, got32[i], want32[i])
		}
	}
}

func checkBulkResult(t *testing.T, name string, src []byte, c int, err error, wc, wi, wn int) {
	t.Helper()
	if c != wc {
		t.Fatalf("%s(% x): consumed %d; want %d (err %v)", name, src, c, wc, err)
	}
	switch {
	case wn > 0:
		if err != nil {
			t.Fatalf("%s(% x): %v", name, src, err)
		}
		return
	case wn == 0:
		if !errors.Is(err, ErrTruncated) {
			t.Fatalf("%s(% x): err %v; want ErrTruncated", name, src, err)
		}
	default:
		if !errors.Is(err, ErrOverflow) {
			t.Fatalf("%s(% x): err %v; want ErrOverflow", name, src, err)
		}
	}
	var de *DecodeError
	if !errors.As(err, &de) || de.Index != wi || de.Offset != wc {
		t.Fatalf("%s(% x): err %#v; want index %d offset %d", name, src, err, wi, wc)
	}
	if de.Error() == "" {
		t.Fatal("empty error text")
	}
}

func TestBulkRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 300; iter++ {
		maxBits := []int{7, 14, 64, 32, 21, 70}[iter%6]
		if maxBits == 70 {
			maxBits = 64
		}
		count := r.IntN(300)
		vals, enc := randomStream(r, count, maxBits)
		got := make([]int64, count)
		c, err := DecodeLongs(got, enc)
		if err != nil || c != len(enc) {
			t.Fatalf("DecodeLongs: %d, %v; want %d", c, err, len(enc))
		}
		for i := range vals {
			if got[i] != vals[i] {
				t.Fatalf("DecodeLongs[%d] = %d; want %d", i, got[i], vals[i])
			}
		}
		if e := AppendLongs(nil, vals); !bytes.Equal(e, enc) {
			t.Fatalf("AppendLongs mismatch")
		}
		checkBulk(t, count, enc)
		// Fewer values than encoded, and trailing bytes.
		if count > 0 {
			checkBulk(t, count/2, enc)
		}
		checkBulk(t, count, append(enc, 0xff, 0xff, 0xff))
		// Ints: encode the values that fit.
		var v32 []int32
		for _, v := range vals {
			if v == int64(int32(v)) {
				v32 = append(v32, int32(v))
			}
		}
		var want []byte
		for _, v := range v32 {
			want = binary.AppendVarint(want, int64(v))
		}
		if e := AppendInts([]byte{}, v32); !bytes.Equal(e, want) {
			t.Fatalf("AppendInts mismatch")
		}
		checkBulk(t, len(v32), want)
	}
}

// TestBulkAdversarial: an error or a truncation at every position.
func TestBulkAdversarial(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	bad := [][]byte{
		bytes.Repeat([]byte{0xff}, 11),
		append(bytes.Repeat([]byte{0x80}, 9), 0x02),
		{0x80, 0x80, 0x80, 0x80, 0x10},       // long, but not int
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, // long, but overlong int
	}
	for _, maxBits := range []int{7, 14, 35, 64} {
		const count = 60
		vals, enc := randomStream(r, count, maxBits)
		// Truncated at every byte.
		for cut := 0; cut <= len(enc); cut++ {
			checkBulk(t, count, enc[:cut:cut])
		}
		// An invalid varint in place of every value.
		var offs []int
		p := 0
		for _, v := range vals {
			offs = append(offs, p)
			p += SizeLong(v)
		}
		offs = append(offs, p)
		for k := 0; k < count; k++ {
			for _, b := range bad {
				src := append(append(append([]byte{}, enc[:offs[k]]...), b...), enc[offs[k+1]:]...)
				checkBulk(t, count, src)
				checkBulk(t, count, src[:len(src)-(len(enc)-offs[k+1])]) // nothing after it
			}
		}
	}
	// Runs of one-byte values with the error right after a run of 8.
	for k := 0; k < 40; k++ {
		for _, b := range bad {
			src := append(bytes.Repeat([]byte{0x02}, k), b...)
			src = append(src, bytes.Repeat([]byte{0x04}, 20)...)
			checkBulk(t, k+21, src)
			checkBulk(t, k+1, src)
		}
	}
}

// TestAppendLongsNoOverwrite: the bulk encoders write no byte outside their
// result, even when dst has spare capacity.
func TestAppendLongsNoOverwrite(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for iter := 0; iter < 200; iter++ {
		vals, enc := randomStream(r, r.IntN(600), []int{7, 14, 64}[iter%3])
		// Spare capacity: just enough (value-by-value path), and the worst
		// case (word-store path).
		for _, spare := range []int{len(enc), len(vals) * MaxLenLong} {
			buf := bytes.Repeat([]byte{0xee}, 3+spare+32)
			out := AppendLongs(buf[:3], vals)
			if !bytes.Equal(out[3:], enc) || &out[0] != &buf[0] {
				t.Fatalf("AppendLongs result differs or reallocated")
			}
			for i := 3 + len(enc); i < len(buf); i++ {
				if buf[i] != 0xee {
					t.Fatalf("AppendLongs wrote byte %d beyond its result (len %d)", i, 3+len(enc))
				}
			}
		}
		var v32 []int32
		var enc32 []byte
		for _, v := range vals {
			v32 = append(v32, int32(v))
			enc32 = binary.AppendVarint(enc32, int64(int32(v)))
		}
		for _, spare := range []int{len(enc32), len(v32)*MaxLenInt + MaxLenInt} {
			buf := bytes.Repeat([]byte{0xee}, spare+16)
			out := AppendInts(buf[:0], v32)
			if !bytes.Equal(out, enc32) || (len(out) > 0 && &out[0] != &buf[0]) {
				t.Fatalf("AppendInts result differs or reallocated")
			}
			for i := len(enc32); i < len(buf); i++ {
				if buf[i] != 0xee {
					t.Fatalf("AppendInts wrote byte %d beyond its result (len %d)", i, len(enc32))
				}
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("race detector")
	}
	vals, enc := randomStream(rand.New(rand.NewPCG(1, 1)), 1000, 64)
	dst := make([]int64, len(vals))
	buf := make([]byte, 0, len(enc))
	if a := testing.AllocsPerRun(10, func() {
		if _, err := DecodeLongs(dst, enc); err != nil {
			t.Fatal(err)
		}
		buf = AppendLongs(buf[:0], vals)
		for _, v := range vals {
			buf = AppendLong(buf[:0], v)
		}
	}); a != 0 {
		t.Errorf("%v allocations; want 0", a)
	}
}

// TestInlining checks that the single-value functions stay inlinable (the
// inliner's budget is 80; Long, Int, AppendLong and AppendInt cost 80 with
// Go 1.26). Evidence, go build -gcflags=-m ./varint/ with go1.26.8:
//
//	varint/varint.go:128:6: can inline Long
//	varint/varint.go:144:6: can inline Int
//	varint/varint.go:274:6: can inline AppendLong
//	varint/varint.go:283:6: can inline AppendInt
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, which reports what it inlines: %v", err)
	}
	out, err := exec.Command(gotool, "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, name := range []string{"Long", "Int", "AppendLong", "AppendInt"} {
		if !strings.Contains(string(out), "can inline "+name+"\n") {
			t.Errorf("%s is not inlinable:\n%s", name, out)
		}
	}
}

// TestAppendLongsShort: arrays of up to 8 values (the short path) of every
// length mix agree with AppendLong value by value, append after what dst
// holds, and write nothing past the result in spare capacity.
func TestAppendLongsShort(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for iter := 0; iter < 2000; iter++ {
		vals := make([]int64, iter%(shortLongs+1))
		for i := range vals {
			vals[i] = int64(r.Uint64()) >> r.IntN(64)
		}
		var want []byte
		for _, v := range vals {
			want = AppendLong(want, v)
		}
		buf := bytes.Repeat([]byte{0xee}, 2+len(vals)*MaxLenLong+16)
		out := AppendLongs(buf[:2], vals)
		if !bytes.Equal(out[2:], want) || &out[0] != &buf[0] {
			t.Fatalf("AppendLongs(%d) = % x; want % x (in place)", vals, out[2:], want)
		}
		for i := 2 + len(want); i < len(buf); i++ {
			if buf[i] != 0xee {
				t.Fatalf("AppendLongs(%d) wrote byte %d beyond its result (len %d)", vals, i, 2+len(want))
			}
		}
		// No spare capacity: it grows.
		if got := AppendLongs([]byte{1}, vals); !bytes.Equal(got[1:], want) || got[0] != 1 {
			t.Fatalf("AppendLongs(%d) into a full slice = % x", vals, got)
		}
	}
}

// kernelCalls records the calls of the CPU kernels (when the build has
// them) during a test, and fails it when one is given more than
// kernelValues values.
type kernelCalls struct {
	largest int // the most values a call was given
}

func watchKernels(t *testing.T) *kernelCalls {
	t.Helper()
	k := &kernelCalls{}
	note := func(n int) {
		if n > kernelValues {
			t.Errorf("a kernel call was given %d values, over kernelValues (%d)", n, kernelValues)
		}
		k.largest = max(k.largest, n)
	}
	runs, mixed, runsInts := oneByteRuns, mixedLongs, oneByteRunsInts
	t.Cleanup(func() { oneByteRuns, mixedLongs, oneByteRunsInts = runs, mixed, runsInts })
	if runs != nil {
		oneByteRuns = func(dst []int64, src []byte) int { note(len(dst)); return runs(dst, src) }
	}
	if mixed != nil {
		mixedLongs = func(dst []int64, src []byte) (int, int) { note(len(dst)); return mixed(dst, src) }
	}
	if runsInts != nil {
		oneByteRunsInts = func(dst []int32, src []byte) int { note(len(dst)); return runsInts(dst, src) }
	}
	return k
}

// TestDecodeLongsPastKernelBound decodes more values than one kernel call
// may take (kernelValues), so that the calls are cut and resumed: long
// runs of one-byte values (the run kernel) and values of every length (the
// mixed kernel), each crossing the bound. No call may be given more.
func TestDecodeLongsPastKernelBound(t *testing.T) {
	calls := watchKernels(t)
	r := rand.New(rand.NewPCG(27, 28))
	for _, small := range []bool{true, false} {
		vals := make([]int64, 3*kernelValues+17)
		for i := range vals {
			if small {
				vals[i] = int64(r.IntN(128)) - 64
			} else {
				vals[i] = int64(r.Uint64()) >> r.IntN(64)
			}
		}
		enc := AppendLongs(nil, vals)
		got := make([]int64, len(vals))
		n, err := DecodeLongs(got, enc)
		if err != nil || n != len(enc) {
			t.Fatalf("small %v: DecodeLongs = %d, %v; want %d, nil", small, n, err, len(enc))
		}
		for i := range vals {
			if got[i] != vals[i] {
				t.Fatalf("small %v: value %d = %d, want %d", small, i, got[i], vals[i])
			}
		}
	}
	if oneByteRuns != nil && calls.largest != kernelValues {
		t.Errorf("the largest kernel call was given %d values, want kernelValues (%d): the bound was not reached", calls.largest, kernelValues)
	}
}

// TestDecodeIntsPastKernelBound decodes runs of one-byte ints longer than
// one kernel call may take (kernelValues), as DecodeLongs does above.
func TestDecodeIntsPastKernelBound(t *testing.T) {
	calls := watchKernels(t)
	r := rand.New(rand.NewPCG(29, 30))
	vals := make([]int32, 3*kernelValues+17)
	for i := range vals {
		vals[i] = int32(r.IntN(128)) - 64
	}
	var enc []byte
	for _, v := range vals {
		enc = AppendLong(enc, int64(v))
	}
	got := make([]int32, len(vals))
	n, err := DecodeInts(got, enc)
	if err != nil || n != len(enc) {
		t.Fatalf("DecodeInts = %d, %v; want %d, nil", n, err, len(enc))
	}
	for i := range vals {
		if got[i] != vals[i] {
			t.Fatalf("value %d = %d, want %d", i, got[i], vals[i])
		}
	}
	if oneByteRunsInts != nil && calls.largest != kernelValues {
		t.Errorf("the largest kernel call was given %d values, want kernelValues (%d): the bound was not reached", calls.largest, kernelValues)
	}
}
