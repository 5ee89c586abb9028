package avrojson_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// The values of TestLogicalReadingAgreesWithMarshal, type by type, with
// their texts in the Avro and plain flavours.

// unitsTime is the time of n units since 1970 (n may be past int64).
func unitsTime(n *big.Int, unit time.Duration) time.Time {
	per := big.NewInt(int64(time.Second / unit))
	sec, sub := new(big.Int).DivMod(n, per, new(big.Int))
	return time.Unix(sec.Int64(), sub.Int64()*int64(unit)).UTC()
}

func inYears(tm time.Time) bool { return tm.Year() >= 0 && tm.Year() <= 9999 }

// longBounds returns the longs of interest around [lo, hi] with random
// ones, as big integers: the bounds, one past each, zero and one below.
func longBounds(r *rand.Rand, lo, hi int64) []*big.Int {
	out := []*big.Int{
		big.NewInt(lo), big.NewInt(hi), big.NewInt(0), big.NewInt(-1),
		new(big.Int).Sub(big.NewInt(lo), big.NewInt(1)),
		new(big.Int).Add(big.NewInt(hi), big.NewInt(1)),
	}
	for range 4 {
		out = append(out, big.NewInt(lo+int64(r.Uint64N(uint64(hi-lo)))))
	}
	return out
}

func timestampCases(r *rand.Rand) []logicalCase {
	var out []logicalCase
	for _, l := range []struct {
		name  string
		unit  time.Duration
		local bool
	}{
		{"timestamp-millis", time.Millisecond, false}, {"timestamp-micros", time.Microsecond, false}, {"timestamp-nanos", time.Nanosecond, false},
		{"local-timestamp-millis", time.Millisecond, true}, {"local-timestamp-micros", time.Microsecond, true}, {"local-timestamp-nanos", time.Nanosecond, true},
	} {
		s := schema.MustParse(`{"type":"long","logicalType":"` + l.name + `"}`)
		layout := "2006-01-02T15:04:05.999999999Z07:00"
		if l.local {
			layout = "2006-01-02T15:04:05.999999999"
		}
		ns := longBounds(r, math.MinInt64, math.MaxInt64)
		// The years readable text holds, and random times in them.
		perSec := int64(time.Second / l.unit)
		for _, tm := range []time.Time{
			time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
			time.Unix(r.Int64N(253402300800+62167219200)-62167219200, r.Int64N(1e9)),
		} {
			sec := new(big.Int).Mul(big.NewInt(tm.Unix()), big.NewInt(perSec))
			ns = append(ns, sec.Add(sec, big.NewInt(int64(tm.Nanosecond())/int64(l.unit))))
		}
		for _, n := range ns {
			tm := unitsTime(n, l.unit)
			c := logicalCase{s: s, g: tm, exact: true, avro: []string{n.String()}, plain: []string{n.String()},
				typed: func() any { return new(time.Time) }}
			if inYears(tm) {
				c.plain = append(c.plain, strconv.Quote(tm.Format(layout)))
				if zone := time.FixedZone("", (r.IntN(48)-24)*1800); !l.local && inYears(tm.In(zone)) {
					c.plain = append(c.plain, strconv.Quote(tm.In(zone).Format(layout)))
				}
			}
			out = append(out, c)
			if l.unit != time.Nanosecond && inYears(tm) {
				// A digit below the unit: avro.Marshal drops it, reading
				// refuses it.
				fine := tm.Add(l.unit / 10)
				out = append(out, logicalCase{s: s, g: fine, exact: false, plain: []string{strconv.Quote(fine.Format(layout))}})
			}
		}
	}
	return out
}

func dateCases(r *rand.Rand) []logicalCase {
	s := schema.MustParse(`{"type":"int","logicalType":"date"}`)
	var out []logicalCase
	ns := longBounds(r, math.MinInt32, math.MaxInt32)
	ns = append(ns, big.NewInt(-719528), big.NewInt(2932896), big.NewInt(r.Int64N(2932896+719528)-719528))
	for _, n := range ns {
		tm := time.Unix(n.Int64()*86400, 0).UTC()
		c := logicalCase{s: s, g: tm, exact: true, avro: []string{n.String()}, plain: []string{n.String()},
			typed: func() any { return new(time.Time) }}
		if inYears(tm) {
			c.plain = append(c.plain, strconv.Quote(tm.Format(time.DateOnly)))
		}
		out = append(out, c)
	}
	return out
}

func timeOfDayCases(r *rand.Rand) []logicalCase {
	var out []logicalCase
	for _, l := range []struct {
		s      *schema.Schema
		unit   time.Duration
		lo, hi int64
		layout string
	}{
		{schema.MustParse(`{"type":"int","logicalType":"time-millis"}`), time.Millisecond, math.MinInt32, math.MaxInt32, "15:04:05.000"},
		{schema.MustParse(`{"type":"long","logicalType":"time-micros"}`), time.Microsecond, math.MinInt64, math.MaxInt64, "15:04:05.000000"},
	} {
		day := int64(24 * time.Hour / l.unit)
		ns := longBounds(r, l.lo, l.hi)
		ns = append(ns, big.NewInt(day-1), big.NewInt(day), big.NewInt(r.Int64N(day)))
		for _, n := range ns {
			c := logicalCase{s: l.s, exact: true, avro: []string{n.String()}, plain: []string{n.String()}}
			if n.IsInt64() && n.Int64() <= math.MaxInt64/int64(l.unit) && n.Int64() >= math.MinInt64/int64(l.unit) {
				d := time.Duration(n.Int64()) * l.unit
				c.g, c.typed = d, func() any { return new(time.Duration) }
				if 0 <= d && d < 24*time.Hour {
					c.plain = append(c.plain, strconv.Quote(time.Time{}.Add(d).Format(l.layout)))
					fine := time.Time{}.Add(d + l.unit/10).Format("15:04:05.000000000")
					out = append(out, logicalCase{s: l.s, g: d, exact: false, plain: []string{strconv.Quote(fine)}})
				}
			} else if n.IsInt64() {
				c.g = n.Int64() // beyond time.Duration, held by an int64
			}
			c.ok = c.g != nil
			out = append(out, c)
		}
	}
	return out
}

// codePoints is b as a JSON string of the code points U+0000 to U+00FF.
func codePoints(b []byte) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range b {
		fmt.Fprintf(&sb, `\u%04x`, c)
	}
	sb.WriteByte('"')
	return sb.String()
}

func b64(b []byte) string { return `"` + base64.StdEncoding.EncodeToString(b) + `"` }

func uuidText(b [16]byte) string {
	h := fmt.Sprintf("%x", b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func uuidCases(r *rand.Rand) []logicalCase {
	str := schema.MustParse(`{"type":"string","logicalType":"uuid"}`)
	fix := schema.MustParse(`{"type":"fixed","name":"U","size":16,"logicalType":"uuid"}`)
	var out []logicalCase
	var u [16]byte
	for i := range u {
		u[i] = byte(r.Uint32())
	}
	valid := uuidText(u)
	texts := []string{
		valid, strings.ToUpper(valid), "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
		"not-a-uuid", "", valid[:35], valid + "0", strings.ReplaceAll(valid, "-", ""), "{" + valid + "}",
		valid[:35] + "g", valid[:8] + "_" + valid[9:], " " + valid[1:],
	}
	for _, text := range texts {
		q := strconv.Quote(text)
		out = append(out, logicalCase{s: str, g: text, exact: true, avro: []string{q}, plain: []string{q},
			typed: func() any { return new(string) }})
		if text == strings.ToLower(text) {
			// A [16]byte keeps the uuid, not the case of its text.
			out = append(out, logicalCase{s: str, g: text, exact: true, avro: []string{q}, plain: []string{q},
				typed: func() any { return new([16]byte) }})
		}
		if len(text) != 16 {
			_, valid := uuidBytes(text)
			out = append(out, logicalCase{s: fix, g: text, exact: true, malformed: !valid, plain: []string{q}, typed: func() any { return new(string) }})
		}
	}
	out = append(out, logicalCase{s: fix, g: u, exact: true, avro: []string{codePoints(u[:])}, plain: []string{strconv.Quote(valid), b64(u[:])},
		typed: func() any { return new([16]byte) }})
	for _, n := range []int{15, 17} {
		b := make([]byte, n)
		out = append(out, logicalCase{s: fix, ok: false, exact: true, avro: []string{codePoints(b)}, plain: []string{b64(b)}})
	}
	return out
}

func durationCases(r *rand.Rand) []logicalCase {
	s := schema.MustParse(`{"type":"fixed","name":"D","size":12,"logicalType":"duration"}`)
	var out []logicalCase
	parts := []uint32{0, 1, math.MaxUint32, r.Uint32()}
	for range 8 {
		d := avro.Duration{Months: parts[r.IntN(4)], Days: parts[r.IntN(4)], Milliseconds: parts[r.IntN(4)]}
		raw := make([]byte, 0, 12)
		for _, p := range []uint32{d.Months, d.Days, d.Milliseconds} {
			raw = append(raw, byte(p), byte(p>>8), byte(p>>16), byte(p>>24))
		}
		iso := fmt.Sprintf(`"P%dM%dDT%d.%03dS"`, d.Months, d.Days, d.Milliseconds/1000, d.Milliseconds%1000)
		out = append(out, logicalCase{s: s, g: d, exact: true, avro: []string{codePoints(raw)}, plain: []string{iso, b64(raw)},
			typed: func() any { return new(avro.Duration) }})
	}
	for _, text := range []string{"P357913941Y3M", "P613566756W3D", "PT1193H2M47.295S", "PT4294967.295S"} {
		out = append(out, logicalCase{s: s, ok: true, exact: true, plain: []string{strconv.Quote(text)}})
	}
	// One past a count's bound.
	for _, text := range []string{"P4294967296M", "P4294967296D", "PT4294967.296S", "PT1193H2M47.296S", "P357913942Y", "P357913941Y4M", "P613566757W", "P613566756W4D", "PT71582789M"} {
		out = append(out, logicalCase{s: s, ok: false, exact: true, plain: []string{strconv.Quote(text)}})
	}
	for _, n := range []int{11, 13} {
		b := make([]byte, n)
		out = append(out, logicalCase{s: s, ok: false, exact: true, avro: []string{codePoints(b)}, plain: []string{b64(b)}})
	}
	return out
}

func decimalCases(r *rand.Rand) []logicalCase {
	var out []logicalCase
	for i := range 42 {
		first := len(out)
		p := 1 + r.IntN(40)
		if i >= 40 {
			// A scale at and past MaxDecimalScale.
			p = 2100
		}
		size := -1
		if i < 40 && r.IntN(2) == 0 {
			size = 1 + r.IntN(20)
			if r.IntN(2) == 0 {
				p = schema.MaxDecimalPrecision(size) // the most digits the size holds
			}
			p = min(p, schema.MaxDecimalPrecision(size))
		}
		sc := []int{0, p, r.IntN(p + 1)}[r.IntN(3)]
		if i >= 40 {
			sc = avro.DefaultMaxDecimalScale + i - 40
		}
		typ := `"type":"bytes"`
		if size > 0 {
			typ = fmt.Sprintf(`"type":"fixed","name":"F","size":%d`, size)
		}
		s := schema.MustParse(fmt.Sprintf(`{%s,"logicalType":"decimal","precision":%d,"scale":%d}`, typ, p, sc))
		if s.Logical() != schema.Decimal {
			panic(fmt.Sprintf("schema %s lost its logical type", s))
		}
		bound := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		one := big.NewInt(1)
		for _, u := range []*big.Int{
			new(big.Int).Sub(bound, one), bound, new(big.Int).Add(bound, one),
			new(big.Int).Neg(new(big.Int).Sub(bound, one)), new(big.Int).Neg(bound),
			big.NewInt(0), new(big.Int).Rand(r2(r), bound),
		} {
			// u / 10^scale, and the same digits with one more after the
			// point (past the scale).
			for _, extra := range []int{0, 1} {
				v := new(big.Rat).SetFrac(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(sc+extra)), nil))
				text := v.FloatString(sc + extra)
				c := logicalCase{s: s, g: v, exact: true, plain: []string{text, strconv.Quote(text)},
					typed: func() any { return new(big.Rat) }}
				if extra == 0 {
					// The unscaled value as its bytes, where it fits.
					if raw, ok := twos(u, size); ok {
						c.avro = []string{codePoints(raw)}
						if size < 0 {
							// The bytes alone, checked as avro.Marshal
							// checks a []byte.
							out = append(out, logicalCase{s: s, g: raw, exact: true, avro: c.avro,
								typed: func() any { return new([]byte) }})
						}
					}
				}
				out = append(out, c)
				// The text as a json.Number, which avro.Marshal takes
				// for a decimal.
				out = append(out, logicalCase{s: s, g: json.Number(text), exact: true, plain: []string{text},
					typed: func() any { return new(json.Number) }})
			}
		}
		for j := first; j < len(out); j++ {
			out[j].big = i >= 40
		}
	}
	return out
}

// r2 is a math/rand source for big.Int.Rand drawn from r.
func r2(r *rand.Rand) *mathRand { return newMathRand(r.Int64()) }

// twos is u in big-endian two's complement: the shortest form for bytes
// (size < 0), sign-extended to size for a fixed; false when it does not
// fit.
func twos(u *big.Int, size int) ([]byte, bool) {
	n := (u.BitLen() + 8) / 8
	if u.Sign() < 0 {
		m := new(big.Int).Add(u, big.NewInt(1))
		n = (m.BitLen() + 8) / 8
	}
	if size >= 0 {
		if n > size {
			return nil, false
		}
		n = size
	}
	mod := new(big.Int).Lsh(big.NewInt(1), uint(8*n))
	x := new(big.Int).Set(u)
	if x.Sign() < 0 {
		x.Add(x, mod)
	}
	return x.FillBytes(make([]byte, n)), true
}

type mathRand = mrand.Rand

func newMathRand(seed int64) *mathRand { return mrand.New(mrand.NewSource(seed)) }

// uuidBytes parses the 8-4-4-4-12 text of a uuid.
func uuidBytes(text string) (u [16]byte, ok bool) {
	if len(text) != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-' {
		return u, false
	}
	h := text[:8] + text[9:13] + text[14:18] + text[19:23] + text[24:]
	for i := range u {
		v, err := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
		if err != nil || h[2*i] == '+' || h[2*i] == '-' {
			return u, false
		}
		u[i] = byte(v)
	}
	return u, true
}
