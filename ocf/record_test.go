package ocf

import (
	"math/rand/v2"
	"strconv"

	"github.com/avrogo/avro/schema"
)

// benchSchemaText is the benchmarks' record of 10 fields: int, long, string,
// double, boolean, array<long> of 6, map<string> of 3, ["null","string"],
// bytes of 16 and a nested record.
const benchSchemaText = `{"type":"record","name":"Bench","namespace":"org.avrogo.test","fields":[
 {"name":"id","type":"int"},
 {"name":"ts","type":"long"},
 {"name":"name","type":"string"},
 {"name":"score","type":"double"},
 {"name":"active","type":"boolean"},
 {"name":"values","type":{"type":"array","items":"long"}},
 {"name":"tags","type":{"type":"map","values":"string"}},
 {"name":"note","type":["null","string"]},
 {"name":"raw","type":"bytes"},
 {"name":"inner","type":{"type":"record","name":"Inner","fields":[
   {"name":"x","type":"int"},{"name":"label","type":"string"}]}}]}`

var benchSchema = schema.MustParse(benchSchemaText)

type Inner struct {
	X     int32  `avro:"x"`
	Label string `avro:"label"`
}

type Bench struct {
	ID     int32             `avro:"id"`
	TS     int64             `avro:"ts"`
	Name   string            `avro:"name"`
	Score  float64           `avro:"score"`
	Active bool              `avro:"active"`
	Values []int64           `avro:"values"`
	Tags   map[string]string `avro:"tags"`
	Note   *string           `avro:"note"`
	Raw    []byte            `avro:"raw"`
	Inner  Inner             `avro:"inner"`
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func randString(rng *rand.Rand, min, max int) string {
	b := make([]byte, min+rng.IntN(max-min+1))
	for i := range b {
		b[i] = letters[rng.IntN(len(letters))]
	}
	return string(b)
}

// makeRecord returns a pseudo-random record of about 130 bytes encoded.
func makeRecord(rng *rand.Rand, i int) Bench {
	r := Bench{
		ID:     int32(i),
		TS:     1_700_000_000_000 + rng.Int64N(1<<40),
		Name:   randString(rng, 8, 24),
		Score:  rng.NormFloat64() * 1000,
		Active: rng.IntN(2) == 0,
		Values: make([]int64, 6),
		Tags:   map[string]string{"env": randString(rng, 3, 6), "zone": "z" + strconv.Itoa(rng.IntN(10)), "ver": randString(rng, 1, 4)},
		Raw:    make([]byte, 16),
		Inner:  Inner{X: rng.Int32N(100000), Label: randString(rng, 4, 12)},
	}
	for j := range r.Values {
		r.Values[j] = rng.Int64N(1 << (7 * (1 + rng.IntN(5))))
	}
	for j := range r.Raw {
		r.Raw[j] = byte(rng.Uint32())
	}
	if rng.IntN(3) > 0 {
		s := randString(rng, 0, 16)
		r.Note = &s
	}
	return r
}

func makeRecords(n int, seed uint64) []Bench {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]Bench, n)
	for i := range out {
		out[i] = makeRecord(rng, i)
	}
	return out
}

// writableCodecs are the codecs the Writer supports.
var writableCodecs = []string{CodecNull, CodecDeflate, CodecSnappy, CodecZstandard}
