package schema

import (
	"strings"
	"testing"
)

// smallSchema is the 10-field record of the project's benchmark suite.
const smallSchema = `{
  "type": "record", "name": "Small", "namespace": "bench",
  "fields": [
    {"name": "i", "type": "int"},
    {"name": "l", "type": "long"},
    {"name": "s", "type": "string"},
    {"name": "d", "type": "double"},
    {"name": "b", "type": "boolean"},
    {"name": "al", "type": {"type": "array", "items": "long"}},
    {"name": "ms", "type": {"type": "map", "values": "string"}},
    {"name": "os", "type": ["null", "string"], "default": null},
    {"name": "by", "type": "bytes"},
    {"name": "n", "type": {"type": "record", "name": "Nested", "fields": [
      {"name": "x", "type": "int"},
      {"name": "y", "type": "string", "default": ""}
    ]}}
  ]
}`

func benchParse(b *testing.B, text string, fingerprint bool) {
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s, err := Parse(text)
		if err != nil {
			b.Fatal(err)
		}
		if fingerprint {
			s.FingerprintSHA256()
			_ = s.Fingerprint()
		}
	}
}

func BenchmarkParseSmall(b *testing.B)            { benchParse(b, smallSchema, false) }
func BenchmarkParseSmallFingerprint(b *testing.B) { benchParse(b, smallSchema, true) }

func BenchmarkParseBigRecord(b *testing.B) {
	benchParse(b, readFile(b, "lang/c++/jsonschemas/bigrecord"), false)
}

func BenchmarkParseBigRecordFingerprint(b *testing.B) {
	benchParse(b, readFile(b, "lang/c++/jsonschemas/bigrecord"), true)
}

func BenchmarkParseLarge(b *testing.B) {
	benchParse(b, readFile(b, "lang/c++/jsonschemas/large_schema.avsc"), false)
}

func BenchmarkParseLargeFingerprint(b *testing.B) {
	benchParse(b, readFile(b, "lang/c++/jsonschemas/large_schema.avsc"), true)
}

// BenchmarkString measures writing the full JSON back.
func BenchmarkStringLarge(b *testing.B) {
	s := MustParse(readFile(b, "lang/c++/jsonschemas/large_schema.avsc"))
	b.ReportAllocs()
	for b.Loop() {
		_ = s.String()
	}
}

// BenchmarkParseCostlyShapes measures the shapes that allocate the most
// for their length (see TestParseAllocatesInProportionToText).
func BenchmarkParseCostlyShapes(b *testing.B) {
	for name, text := range costlyShapes(256 << 10) {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) { benchParse(b, text, false) })
	}
}
