package bench

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/avrogo/avro/varint"
	hamba "github.com/hamba/avro/v2"
)

// Varints, one value at a time, through a realistic caller: a non-inlined
// decoder (encoder) of a record of 8 long fields, called 8,192 times per op
// over 65,536 random values of one length pattern. ns/value is the figure
// to read; ns/op covers all 65,536 values.
//
// Libraries: our varint.Long / varint.AppendLong, encoding/binary's Varint
// / AppendVarint (the reference row, lib=stdlib: Avro's zigzag varint is
// exactly binary's signed varint) and hamba's Reader.ReadLong /
// Writer.WriteLong. twmb/avro and goavro do not export their varint
// readers or writers, so they have no varint rows.

const (
	varintValues = 1 << 16
	recFields    = 8
)

type rec8 [recFields]int64

type varintCase struct {
	name   string
	length func(r *rand.Rand) int // the encoded length of the next value
}

var varintCases = []varintCase{
	{"1", func(*rand.Rand) int { return 1 }},
	{"2", func(*rand.Rand) int { return 2 }},
	{"3", func(*rand.Rand) int { return 3 }},
	{"4", func(*rand.Rand) int { return 4 }},
	{"5", func(*rand.Rand) int { return 5 }},
	{"8", func(*rand.Rand) int { return 8 }},
	{"10", func(*rand.Rand) int { return 10 }},
	{"mixed1-2", func(r *rand.Rand) int { return 1 + r.IntN(2) }},
	{"mixed1-10", func(r *rand.Rand) int { return 1 + r.IntN(10) }},
}

type varintData struct {
	recs []rec8  // varintValues/recFields records
	enc  []byte  // their encoding, back to back
	vals []int64 // the same values, flat
}

func newVarintData(c varintCase, seed uint64) *varintData {
	r := newRand(seed)
	d := &varintData{recs: make([]rec8, varintValues/recFields)}
	for i := range d.recs {
		for j := range d.recs[i] {
			v := longOfLen(r, c.length(r))
			d.recs[i][j] = v
			d.vals = append(d.vals, v)
			d.enc = varint.AppendLong(d.enc, v)
		}
	}
	return d
}

var varintDataCache = map[string]*varintData{}

func getVarintData(c varintCase, i int) *varintData {
	if d := varintDataCache[c.name]; d != nil {
		return d
	}
	d := newVarintData(c, uint64(2000+i))
	varintDataCache[c.name] = d
	return d
}

// decRec8Avrogo decodes one record of 8 longs from b and returns the bytes
// used, or -1 on bad input.
//
//go:noinline
func decRec8Avrogo(b []byte, r *rec8) int {
	pos := 0
	v, n := varint.Long(b[pos:])
	if n <= 0 {
		return -1
	}
	r[0] = v
	pos += n
	v, n = varint.Long(b[pos:])
	if n <= 0 {
		return -1
	}
	r[1] = v
	pos += n
	v, n = varint.Long(b[pos:])
	if n <= 0 {
		return -1
	}
	r[2] = v
	pos += n
	v, n = varint.Long(b[pos:])
	if n <= 0 {
		return -1
	}
	r[3] = v
	pos += n
	v, n = varint.Long(b[pos:])
	if n <= 0 {
		return -1
	}
	r[4] = v
	pos += n
	v, n = varint.Long(b[pos:])
	if n <= 0 {
		return -1
	}
	r[5] = v
	pos += n
	v, n = varint.Long(b[pos:])
	if n <= 0 {
		return -1
	}
	r[6] = v
	pos += n
	v, n = varint.Long(b[pos:])
	if n <= 0 {
		return -1
	}
	r[7] = v
	return pos + n
}

//go:noinline
func decRec8Std(b []byte, r *rec8) int {
	pos := 0
	v, n := binary.Varint(b[pos:])
	if n <= 0 {
		return -1
	}
	r[0] = v
	pos += n
	v, n = binary.Varint(b[pos:])
	if n <= 0 {
		return -1
	}
	r[1] = v
	pos += n
	v, n = binary.Varint(b[pos:])
	if n <= 0 {
		return -1
	}
	r[2] = v
	pos += n
	v, n = binary.Varint(b[pos:])
	if n <= 0 {
		return -1
	}
	r[3] = v
	pos += n
	v, n = binary.Varint(b[pos:])
	if n <= 0 {
		return -1
	}
	r[4] = v
	pos += n
	v, n = binary.Varint(b[pos:])
	if n <= 0 {
		return -1
	}
	r[5] = v
	pos += n
	v, n = binary.Varint(b[pos:])
	if n <= 0 {
		return -1
	}
	r[6] = v
	pos += n
	v, n = binary.Varint(b[pos:])
	if n <= 0 {
		return -1
	}
	r[7] = v
	return pos + n
}

// decRec8Hamba decodes one record through hamba's Reader, as its generated
// or hand-written decoders do; errors are checked once per pass.
//
//go:noinline
func decRec8Hamba(hr *hamba.Reader, r *rec8) {
	r[0] = hr.ReadLong()
	r[1] = hr.ReadLong()
	r[2] = hr.ReadLong()
	r[3] = hr.ReadLong()
	r[4] = hr.ReadLong()
	r[5] = hr.ReadLong()
	r[6] = hr.ReadLong()
	r[7] = hr.ReadLong()
}

//go:noinline
func encRec8Avrogo(dst []byte, r *rec8) []byte {
	dst = varint.AppendLong(dst, r[0])
	dst = varint.AppendLong(dst, r[1])
	dst = varint.AppendLong(dst, r[2])
	dst = varint.AppendLong(dst, r[3])
	dst = varint.AppendLong(dst, r[4])
	dst = varint.AppendLong(dst, r[5])
	dst = varint.AppendLong(dst, r[6])
	return varint.AppendLong(dst, r[7])
}

//go:noinline
func encRec8Std(dst []byte, r *rec8) []byte {
	dst = binary.AppendVarint(dst, r[0])
	dst = binary.AppendVarint(dst, r[1])
	dst = binary.AppendVarint(dst, r[2])
	dst = binary.AppendVarint(dst, r[3])
	dst = binary.AppendVarint(dst, r[4])
	dst = binary.AppendVarint(dst, r[5])
	dst = binary.AppendVarint(dst, r[6])
	return binary.AppendVarint(dst, r[7])
}

//go:noinline
func encRec8Hamba(w *hamba.Writer, r *rec8) {
	w.WriteLong(r[0])
	w.WriteLong(r[1])
	w.WriteLong(r[2])
	w.WriteLong(r[3])
	w.WriteLong(r[4])
	w.WriteLong(r[5])
	w.WriteLong(r[6])
	w.WriteLong(r[7])
}

// decodeAllAvrogo and the others below are one benchmark op: all 65,536
// values. They return a checksum so that the work cannot be dropped.
func decodeAllAvrogo(b []byte) (int64, bool) {
	var r rec8
	var sum int64
	for len(b) > 0 {
		n := decRec8Avrogo(b, &r)
		if n < 0 {
			return 0, false
		}
		sum += r[0] ^ r[7]
		b = b[n:]
	}
	return sum, true
}

func decodeAllStd(b []byte) (int64, bool) {
	var r rec8
	var sum int64
	for len(b) > 0 {
		n := decRec8Std(b, &r)
		if n < 0 {
			return 0, false
		}
		sum += r[0] ^ r[7]
		b = b[n:]
	}
	return sum, true
}

func decodeAllHamba(hr *hamba.Reader, b []byte, nrec int) (int64, bool) {
	hr.Reset(b)
	var r rec8
	var sum int64
	for range nrec {
		decRec8Hamba(hr, &r)
		sum += r[0] ^ r[7]
	}
	return sum, hr.Error == nil
}

func BenchmarkVarint(b *testing.B) {
	for ci, c := range varintCases {
		releaseWorkloads()
		d := getVarintData(c, ci)
		run := func(op, lib string, f func(b *testing.B)) {
			b.Run("len="+c.name+"/op="+op+"/lib="+lib, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(d.enc)))
				f(b)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/varintValues, "ns/value")
			})
		}
		run("decode", libOurs, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, ok := decodeAllAvrogo(d.enc)
				if !ok {
					b.Fatal("decode failed")
				}
				sinkInt += s
			}
		})
		run("decode", libStd, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, ok := decodeAllStd(d.enc)
				if !ok {
					b.Fatal("decode failed")
				}
				sinkInt += s
			}
		})
		run("decode", libHamba, func(b *testing.B) {
			hr := hamba.NewReader(nil, 0)
			for i := 0; i < b.N; i++ {
				s, ok := decodeAllHamba(hr, d.enc, len(d.recs))
				if !ok {
					b.Fatal(hr.Error)
				}
				sinkInt += s
			}
		})
		run("encode", libOurs, func(b *testing.B) {
			buf := make([]byte, 0, len(d.enc))
			for i := 0; i < b.N; i++ {
				buf = buf[:0]
				for j := range d.recs {
					buf = encRec8Avrogo(buf, &d.recs[j])
				}
			}
			sinkBytes = buf
		})
		run("encode", libStd, func(b *testing.B) {
			buf := make([]byte, 0, len(d.enc))
			for i := 0; i < b.N; i++ {
				buf = buf[:0]
				for j := range d.recs {
					buf = encRec8Std(buf, &d.recs[j])
				}
			}
			sinkBytes = buf
		})
		run("encode", libHamba, func(b *testing.B) {
			hw := hamba.NewWriter(nil, len(d.enc))
			for i := 0; i < b.N; i++ {
				hw.Reset(nil)
				for j := range d.recs {
					encRec8Hamba(hw, &d.recs[j])
				}
			}
			sinkBytes = hw.Buffer()
		})
	}
}
