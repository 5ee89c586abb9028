package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/avrogo/avro/varint"
)

// FuzzVarint checks the varint decoders against encoding/binary (whose Varint
// is Avro's long encoding), the re-encoding of canonical input, and the bulk
// decoders against the single-value ones.
//
//	go test ./fuzz/ -run '^$' -fuzz '^FuzzVarint$' -fuzztime 30s
func FuzzVarint(f *testing.F) {
	seeds := [][]byte{
		{}, {0x00}, {0x01}, {0x02}, {0x03}, {0x7f}, {0x80, 0x01}, {0x80, 0x80, 0x01}, {0x81, 0x80, 0x01},
		{0xfe, 0xff, 0xff, 0xff, 0x0f}, {0xff, 0xff, 0xff, 0xff, 0x0f}, // max, min int32
		{0x80, 0x80, 0x80, 0x80, 0x10},                               // int32 overflow
		{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, // max int64
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, // min int64
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, // 10th byte > 1
		bytes.Repeat([]byte{0x80}, 11),                               // overlong
		append(bytes.Repeat([]byte{0x80}, 10), 0x00),                 // overlong
		{0x80, 0x00},               // non-minimal zero
		{0x80}, {0xff, 0xff, 0xff}, // truncated
		bytes.Repeat([]byte{0xff}, 64), // 0xff run
		bytes.Repeat([]byte{0x02}, 40), // one-byte run
		append(bytes.Repeat([]byte{0x04}, 9), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
	}
	for _, s := range seeds {
		f.Add(s)
	}
	hostileDatums, _ := hostileCorpus(f, 64)
	for _, s := range hostileDatums {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// Long against binary.Varint.
		v, n := varint.Long(b)
		bv, bn := binary.Varint(b)
		switch {
		case n > 0:
			if bn != n || bv != v {
				t.Fatalf("Long(% x) = %d, %d; binary.Varint = %d, %d", b, v, n, bv, bn)
			}
			if enc := varint.AppendLong(nil, v); len(enc) == n {
				// Canonical (minimal) input re-encodes to the same bytes.
				if !bytes.Equal(enc, b[:n]) {
					t.Fatalf("AppendLong(%d) = % x; input % x", v, enc, b[:n])
				}
			} else if len(enc) > n || b[n-1] != 0 {
				t.Fatalf("Long(% x) = %d, %d, but it encodes to % x", b, v, n, enc)
			}
		case n == 0:
			if bn != 0 {
				t.Fatalf("Long(% x) truncated; binary.Varint = %d, %d", b, bv, bn)
			}
		default:
			if bn > 0 {
				t.Fatalf("Long(% x) invalid; binary.Varint = %d, %d", b, bv, bn)
			}
		}

		// Int: agrees with Long where the value fits in 5 bytes and 32 bits.
		iv, in := varint.Int(b)
		switch {
		case in > 0:
			if n != in || int64(iv) != v {
				t.Fatalf("Int(% x) = %d, %d; Long = %d, %d", b, iv, in, v, n)
			}
		case in == 0:
			if n != 0 {
				t.Fatalf("Int(% x) truncated; Long = %d, %d", b, v, n)
			}
		default:
			if n > 0 && n <= 5 && int64(int32(v)) == v {
				t.Fatalf("Int(% x) invalid; Long = %d, %d", b, v, n)
			}
		}

		// Bulk against single, for as many values as the input could hold.
		count := len(b) + 1
		longs := make([]int64, count)
		consumed, err := varint.DecodeLongs(longs, b)
		p := 0
		for i := 0; i < count; i++ {
			sv, sn := varint.Long(b[p:])
			if sn <= 0 {
				want := varint.ErrTruncated
				if sn < 0 {
					want = varint.ErrOverflow
				}
				var de *varint.DecodeError
				if !errors.Is(err, want) || !errors.As(err, &de) || de.Index != i || consumed != p {
					t.Fatalf("DecodeLongs(% x) = %d, %v; single: value %d at %d fails with n=%d", b, consumed, err, i, p, sn)
				}
				break
			}
			if longs[i] != sv {
				t.Fatalf("DecodeLongs(% x)[%d] = %d; single %d", b, i, longs[i], sv)
			}
			p += sn
		}
		if k := countValid(b); k >= 0 {
			// Exactly as many values as decode one by one: success.
			c, err := varint.DecodeLongs(longs[:k], b)
			if err != nil || c != p {
				t.Fatalf("DecodeLongs(% x) of %d values = %d, %v; want %d, nil", b, k, c, err, p)
			}
		}
		ints := make([]int32, count)
		consumed, err = varint.DecodeInts(ints, b)
		p = 0
		for i := 0; i < count; i++ {
			sv, sn := varint.Int(b[p:])
			if sn <= 0 {
				want := varint.ErrTruncated
				if sn < 0 {
					want = varint.ErrOverflow
				}
				if !errors.Is(err, want) || consumed != p {
					t.Fatalf("DecodeInts(% x) = %d, %v; single: value %d at %d fails with n=%d", b, consumed, err, i, p, sn)
				}
				break
			}
			if ints[i] != sv {
				t.Fatalf("DecodeInts(% x)[%d] = %d; single %d", b, i, ints[i], sv)
			}
			p += sn
		}

		// Whatever decoded re-encodes, in bulk, to its canonical bytes.
		var want []byte
		for _, x := range longs[:min(count, 8)] {
			want = binary.AppendVarint(want, x)
		}
		if got := varint.AppendLongs(nil, longs[:min(count, 8)]); !bytes.Equal(got, want) {
			t.Fatalf("AppendLongs = % x; want % x", got, want)
		}
	})
}

// countValid returns how many longs decode one by one from the start of b.
func countValid(b []byte) int {
	k := 0
	for {
		_, n := varint.Long(b)
		if n <= 0 {
			return k
		}
		b = b[n:]
		k++
	}
}
