package varint

// Every op decodes or encodes 64K random values, because a branch predictor
// learns a set of 1,000 even when they are random (random 1-8 byte varints
// then decode in about a third of the time they take over 200,000). The
// values have uniform lengths of 1, 2, 3, 4, 5, 8 and 10 bytes, mixed 1-2 and
// 1-10 byte lengths, or are uniformly random 64-bit values (mostly 9 and 10
// bytes). Single values go through a non-inlined caller loop; encoding/binary is the
// reference in the same run. Each benchmark reports ns/value.
//
//	go test ./varint/ -run '^$' -bench . -count 6 | tee new.txt
//	benchstat new.txt

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

const benchValues = 64 << 10

type benchSet struct {
	name string
	vals []int64
	enc  []byte
}

var benchSets = sync.OnceValue(func() []benchSet {
	r := rand.New(rand.NewPCG(42, 43))
	// A value whose encoding is exactly l bytes.
	ofLen := func(l int) int64 {
		lo := uint(7 * (l - 1))
		hi := uint(7 * l)
		if hi > 64 {
			hi = 64
		}
		u := r.Uint64() >> (64 - hi)
		if l > 1 {
			u |= 1 << lo
		}
		return Unzigzag64(u)
	}
	mk := func(name string, value func() int64) benchSet {
		s := benchSet{name: name, vals: make([]int64, benchValues)}
		for i := range s.vals {
			s.vals[i] = value()
			s.enc = binary.AppendVarint(s.enc, s.vals[i])
		}
		return s
	}
	var sets []benchSet
	for _, l := range []int{1, 2, 3, 4, 5, 8, 10} {
		sets = append(sets, mk(fmt.Sprintf("len=%d", l), func() int64 { return ofLen(l) }))
	}
	sets = append(sets, mk("mix=1-2", func() int64 { return ofLen(1 + r.IntN(2)) }))
	sets = append(sets, mk("mix=1-10", func() int64 { return ofLen(1 + r.IntN(10)) }))
	// Uniformly random 64-bit values (hashes, random ids): half of them
	// take 10 bytes, a quarter 9, an eighth 8, ...
	sets = append(sets, mk("rand64", func() int64 { return int64(r.Uint64()) }))
	return sets
})

// fitsInt reports whether the values of s are ints (the sets of 1 to 4 bytes
// and mixed 1-2).
func fitsInt(s benchSet) bool {
	for _, v := range s.vals {
		if v != int64(int32(v)) {
			return false
		}
	}
	return true
}

func perValue(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchValues, "ns/value")
}

//go:noinline
func sumLongs(b []byte, count int) int64 {
	var sum int64
	for i := 0; i < count; i++ {
		v, n := Long(b)
		if n <= 0 {
			panic("bad varint")
		}
		sum += v
		b = b[n:]
	}
	return sum
}

//go:noinline
func sumBinaryVarints(b []byte, count int) int64 {
	var sum int64
	for i := 0; i < count; i++ {
		v, n := binary.Varint(b)
		if n <= 0 {
			panic("bad varint")
		}
		sum += v
		b = b[n:]
	}
	return sum
}

//go:noinline
func sumInts(b []byte, count int) int64 {
	var sum int64
	for i := 0; i < count; i++ {
		v, n := Int(b)
		if n <= 0 {
			panic("bad varint")
		}
		sum += int64(v)
		b = b[n:]
	}
	return sum
}

//go:noinline
func appendLongsOneByOne(dst []byte, vals []int64) []byte {
	for _, v := range vals {
		dst = AppendLong(dst, v)
	}
	return dst
}

//go:noinline
func appendBinaryVarints(dst []byte, vals []int64) []byte {
	for _, v := range vals {
		dst = binary.AppendVarint(dst, v)
	}
	return dst
}

var sink int64

// BenchmarkLong: Long, inlined into a non-inlined caller loop that sums.
func BenchmarkLong(b *testing.B) {
	for _, s := range benchSets() {
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += sumLongs(s.enc, benchValues)
			}
			perValue(b)
		})
	}
}

// BenchmarkBinaryVarint: the same loop with encoding/binary.Varint.
func BenchmarkBinaryVarint(b *testing.B) {
	for _, s := range benchSets() {
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += sumBinaryVarints(s.enc, benchValues)
			}
			perValue(b)
		})
	}
}

// BenchmarkInt: Int on the sets whose values fit in an int.
func BenchmarkInt(b *testing.B) {
	for _, s := range benchSets() {
		if !fitsInt(s) {
			continue
		}
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += sumInts(s.enc, benchValues)
			}
			perValue(b)
		})
	}
}

// BenchmarkDecodeLongs: the bulk decoder.
func BenchmarkDecodeLongs(b *testing.B) {
	dst := make([]int64, benchValues)
	for _, s := range benchSets() {
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := DecodeLongs(dst, s.enc); err != nil {
					b.Fatal(err)
				}
			}
			perValue(b)
		})
	}
}

// BenchmarkDecodeInts: the bulk int decoder on the sets that fit.
func BenchmarkDecodeInts(b *testing.B) {
	dst := make([]int32, benchValues)
	for _, s := range benchSets() {
		if !fitsInt(s) {
			continue
		}
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := DecodeInts(dst, s.enc); err != nil {
					b.Fatal(err)
				}
			}
			perValue(b)
		})
	}
}

// BenchmarkAppendLong: AppendLong value by value into a reused buffer.
func BenchmarkAppendLong(b *testing.B) {
	buf := make([]byte, 0, benchValues*MaxLenLong)
	for _, s := range benchSets() {
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				buf = appendLongsOneByOne(buf[:0], s.vals)
			}
			perValue(b)
		})
	}
}

// BenchmarkBinaryAppendVarint: the same loop with binary.AppendVarint.
func BenchmarkBinaryAppendVarint(b *testing.B) {
	buf := make([]byte, 0, benchValues*MaxLenLong)
	for _, s := range benchSets() {
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				buf = appendBinaryVarints(buf[:0], s.vals)
			}
			perValue(b)
		})
	}
}

// BenchmarkAppendLongs: the bulk encoder into a reused buffer.
func BenchmarkAppendLongs(b *testing.B) {
	buf := make([]byte, 0, benchValues*MaxLenLong)
	for _, s := range benchSets() {
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				buf = AppendLongs(buf[:0], s.vals)
			}
			perValue(b)
		})
	}
}
