package jsontext

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkInt compares AppendInt with strconv, both with room in the buffer
// (written in place) and without (through the stack), after a prefix.
func checkInt(t *testing.T, i int64) {
	t.Helper()
	want := strconv.AppendInt([]byte("x"), i, 10)
	if got := AppendInt([]byte("x"), i); string(got) != string(want) {
		t.Fatalf("AppendInt(%d) without room = %q, want %q", i, got, want)
	}
	roomy := append(make([]byte, 0, 64), 'x')
	if got := AppendInt(roomy, i); string(got) != string(want) {
		t.Fatalf("AppendInt(%d) in place = %q, want %q", i, got, want)
	}
}

func TestAppendIntEdges(t *testing.T) {
	edges := []int64{0, 1, 9, 10, 99, 100, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for p := int64(1); p <= 1e18; p *= 10 {
		edges = append(edges, p-1, p, p+1, -p+1, -p, -p-1)
	}
	for _, i := range edges {
		checkInt(t, i)
	}
}

func TestAppendIntRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		// Every length alike: a random value shifted to a random width.
		checkInt(t, int64(r.Uint64()>>r.UintN(64)))
	}
}

func FuzzAppendInt(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(math.MinInt64))
	f.Add(int64(12345678901234))
	f.Fuzz(checkInt)
}

func BenchmarkAppendInt(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	vals := make([]int64, 1<<16)
	for i := range vals {
		vals[i] = int64(r.Uint64() >> r.UintN(64))
	}
	buf := make([]byte, 0, 64)
	b.Run("ours", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf = AppendInt(buf[:0], vals[i&(len(vals)-1)])
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf = strconv.AppendInt(buf[:0], vals[i&(len(vals)-1)], 10)
		}
	})
}
