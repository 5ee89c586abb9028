package bench

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// TelemetrySchema is the schema of the telemetry records of the
// benchmarks: timestamps, doubles and a few strings, about 80 bytes
// encoded.
const TelemetrySchema = telemetrySchema

// GenTelemetry returns the next telemetry record of r, the generator of
// the benchmarks' telemetry rows, for programs that write files of them.
func GenTelemetry(r *rand.Rand) Sample { return genSample(r) }

// NewRand returns the deterministic generator of one data set, as the
// benchmarks make them.
func NewRand(seed uint64) *rand.Rand { return newRand(seed) }

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

const telemetrySchema = `{"type":"record","name":"Sample","namespace":"bench","fields":[
 {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"}},
 {"name":"ingested","type":{"type":"long","logicalType":"timestamp-millis"}},
 {"name":"host","type":"string"},
 {"name":"service","type":"string"},
 {"name":"metric","type":"string"},
 {"name":"value","type":"double"},
 {"name":"min","type":"double"},
 {"name":"max","type":"double"},
 {"name":"mean","type":"double"},
 {"name":"p99","type":"double"},
 {"name":"count","type":"long"},
 {"name":"ok","type":"boolean"}
]}`

// Sample is a telemetry record.
type Sample struct {
	TS       time.Time `avro:"ts"`
	Ingested time.Time `avro:"ingested"`
	Host     string    `avro:"host"`
	Service  string    `avro:"service"`
	Metric   string    `avro:"metric"`
	Value    float64   `avro:"value"`
	Min      float64   `avro:"min"`
	Max      float64   `avro:"max"`
	Mean     float64   `avro:"mean"`
	P99      float64   `avro:"p99"`
	Count    int64     `avro:"count"`
	OK       bool      `avro:"ok"`
}

var (
	services = []string{"api", "auth", "billing", "search", "ingest", "frontend", "scheduler"}
	metrics  = []string{"http.request.duration", "cpu.user", "mem.rss", "gc.pause", "queue.depth", "disk.io.wait"}
)

func genSample(r *rand.Rand) Sample {
	ts := time.UnixMicro(genTimestampMicros(r)).UTC()
	v := r.ExpFloat64() * 10
	return Sample{
		TS:       ts,
		Ingested: ts.Add(time.Duration(r.IntN(5000)) * time.Millisecond).Truncate(time.Millisecond),
		Host:     fmt.Sprintf("host-%s-%03d", asciiString(r, 4), r.IntN(1000)),
		Service:  services[r.IntN(len(services))],
		Metric:   metrics[r.IntN(len(metrics))],
		Value:    v,
		Min:      v * r.Float64(),
		Max:      v * (1 + r.Float64()),
		Mean:     v * (0.5 + r.Float64()),
		P99:      v * (1 + 3*r.Float64()),
		Count:    r.Int64N(100000),
		OK:       r.IntN(20) != 0,
	}
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func asciiString(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	return string(b)
}

// genTimestampMicros returns a microsecond timestamp within a year of
// 2025-06-01 (an 8-byte varint).
func genTimestampMicros(r *rand.Rand) int64 {
	const base = 1748736000_000000
	return base + r.Int64N(365*24*3600*1_000_000)
}
