package bench

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"testing"

	gogencompiler "github.com/actgardner/gogen-avro/v10/compiler"
	gogencanonical "github.com/actgardner/gogen-avro/v10/schema/canonical"
	"github.com/avrogo/avro/schema"
	hamba "github.com/hamba/avro/v2"
	goavro "github.com/linkedin/goavro/v2"
	twmb "github.com/twmb/avro"
)

// Schema rows: parse the text (op=parse), and parse then compute the
// CRC-64-AVRO fingerprint of the Parsing Canonical Form (op=fingerprint),
// for the 10-field record (schema=small) and Apache's
// lang/c++/jsonschemas/large_schema.avsc (schema=large, 377 KB).
//
// hamba parses with a fresh SchemaCache each op (its package-level Parse
// keeps every named type in a global cache). goavro has no separate parse:
// NewCodec parses and builds its codec, and computes the fingerprint as
// part of it, so its two rows do the same work.

type schemaCase struct{ name, text string }

func schemaCases(tb testing.TB) []schemaCase {
	large, err := os.ReadFile("testdata/large_schema.avsc")
	if err != nil {
		tb.Fatal(err)
	}
	return []schemaCase{{"small", rec10Schema}, {"large", string(large)}}
}

// The fingerprint functions of each library, used by benchmarks and parity.
func fpOurs(text string) (uint64, error) {
	s, err := schema.Parse(text)
	if err != nil {
		return 0, err
	}
	return s.Fingerprint(), nil
}

func fpHamba(text string) (uint64, error) {
	s, err := hamba.ParseWithCache(text, "", &hamba.SchemaCache{})
	if err != nil {
		return 0, err
	}
	fp, err := s.FingerprintUsing(hamba.CRC64Avro)
	if err != nil {
		return 0, err
	}
	return beUint64(fp), nil
}

func fpTwmb(text string) (uint64, error) {
	s, err := twmb.Parse(text)
	if err != nil {
		return 0, err
	}
	h := twmb.NewRabin()
	h.Write(s.Canonical())
	return h.Sum64(), nil
}

func fpGoavro(text string) (uint64, error) {
	c, err := goavro.NewCodec(text)
	if err != nil {
		return 0, err
	}
	return uint64(c.SchemaCRC64Avro()), nil
}

// fpGogen parses with gogen-avro's runtime parser (the one its generic
// codec and its VM's compiler use) and fingerprints the canonical form it
// builds, as its generator does for the fingerprints it writes into the
// generated code.
func fpGogen(text string) (uint64, error) {
	t, err := gogencompiler.ParseSchema([]byte(text))
	if err != nil {
		return 0, err
	}
	form, err := json.Marshal(gogencanonical.CanonicalForm(t))
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(gogencanonical.AvroCRC64Fingerprint(form)), nil
}

func beUint64(b []byte) uint64 {
	var u uint64
	for _, c := range b {
		u = u<<8 | uint64(c)
	}
	return u
}

var sinkU64 uint64

func BenchmarkSchema(b *testing.B) {
	for _, c := range schemaCases(b) {
		run := func(op, lib string, f func(b *testing.B)) {
			b.Run("schema="+c.name+"/op="+op+"/lib="+lib, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(c.text)))
				f(b)
			})
		}
		run("parse", libOurs, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, err := schema.Parse(c.text)
				if err != nil {
					b.Fatal(err)
				}
				sinkAny = s
			}
		})
		run("parse", libHamba, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, err := hamba.ParseWithCache(c.text, "", &hamba.SchemaCache{})
				if err != nil {
					b.Fatal(err)
				}
				sinkAny = s
			}
		})
		run("parse", libTwmb, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, err := twmb.Parse(c.text)
				if err != nil {
					b.Fatal(err)
				}
				sinkAny = s
			}
		})
		run("parse", libGogen, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				t, err := gogencompiler.ParseSchema([]byte(c.text))
				if err != nil {
					b.Fatal(err)
				}
				sinkAny = t
			}
		})
		run("parse", libGoavro, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, err := goavro.NewCodec(c.text)
				if err != nil {
					b.Fatal(err)
				}
				sinkAny = s
			}
		})
		for _, l := range []struct {
			lib string
			fp  func(string) (uint64, error)
		}{{libOurs, fpOurs}, {libHamba, fpHamba}, {libTwmb, fpTwmb}, {libGoavro, fpGoavro}, {libGogen, fpGogen}} {
			run("fingerprint", l.lib, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					fp, err := l.fp(c.text)
					if err != nil {
						b.Fatal(err)
					}
					sinkU64 += fp
				}
			})
		}
	}
}
