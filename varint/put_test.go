package varint

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// PutLong writes what AppendLong appends, and changes nothing of b past
// its first 8 bytes and the encoding.
func TestPutLong(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	vals := []int64{0, -1, 1, -64, 63, 64, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32}
	for s := 0; s < 64; s++ {
		vals = append(vals, int64(1)<<s-1, int64(1)<<s, -int64(1)<<s)
	}
	for range 100_000 {
		vals = append(vals, randValue(r))
	}
	for _, v := range vals {
		buf := bytes.Repeat([]byte{0xee}, MaxLenLong+6)
		n := PutLong(buf, v)
		want := binary.AppendVarint(nil, v)
		if n != len(want) || !bytes.Equal(buf[:n], want) {
			t.Fatalf("PutLong(%d) = % x (n %d), want % x", v, buf[:n], n, want)
		}
		for i := max(n, 8); i < len(buf); i++ {
			if buf[i] != 0xee {
				t.Fatalf("PutLong(%d) changed byte %d of b (encoding %d bytes)", v, i, n)
			}
		}
	}
}

func TestPutLongShortBuffer(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("PutLong into 9 bytes did not panic")
		}
	}()
	PutLong(make([]byte, MaxLenLong-1), 0)
}
