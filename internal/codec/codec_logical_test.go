package codec

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/avrogo/avro/internal/decimal"
	"github.com/avrogo/avro/internal/wire"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// zz returns the Avro encoding of a long, written independently of the
// package's varint code so that the tests check it too.
func zz(v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	var out []byte
	for u >= 0x80 {
		out = append(out, byte(u)|0x80)
		u >>= 7
	}
	return append(out, byte(u))
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func mustParseLogical(t *testing.T, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse(text)
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	return s
}

// helsinki is 2000-01-01 12:00 at +02:00, the spec's example.
func helsinki(t *testing.T) time.Time {
	loc, err := time.LoadLocation("Europe/Helsinki")
	if err != nil {
		loc = time.FixedZone("EET", 2*3600)
	}
	return time.Date(2000, 1, 1, 12, 0, 0, 0, loc)
}

var ratComparer = cmp.Comparer(func(a, b *big.Rat) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Cmp(b) == 0
})

// roundTrip encodes v, checks the bytes, decodes them into a new value of
// v's type and returns it.
func roundTrip[T any](t *testing.T, s *schema.Schema, v T, want []byte) T {
	t.Helper()
	got, err := Marshal(s, v)
	if err != nil {
		t.Fatalf("Marshal(%v): %v", v, err)
	}
	if want != nil && !bytes.Equal(got, want) {
		t.Fatalf("Marshal(%v) = % x, want % x", v, got, want)
	}
	var back T
	if err := Unmarshal(s, got, &back); err != nil {
		t.Fatalf("Unmarshal(% x): %v", got, err)
	}
	return back
}

func TestLogicalTimestampSpecExamples(t *testing.T) {
	h := helsinki(t)
	const instantMillis = 946720800000 // 10:00 UTC
	const wallMillis = 946728000000    // 12:00 read as UTC
	for _, tc := range []struct {
		logical string
		want    int64
		decoded time.Time
	}{
		{"timestamp-millis", instantMillis, time.Date(2000, 1, 1, 10, 0, 0, 0, time.UTC)},
		{"timestamp-micros", instantMillis * 1000, time.Date(2000, 1, 1, 10, 0, 0, 0, time.UTC)},
		{"timestamp-nanos", instantMillis * 1000000, time.Date(2000, 1, 1, 10, 0, 0, 0, time.UTC)},
		{"local-timestamp-millis", wallMillis, time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC)},
		{"local-timestamp-micros", wallMillis * 1000, time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC)},
		{"local-timestamp-nanos", wallMillis * 1000000, time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC)},
	} {
		t.Run(tc.logical, func(t *testing.T) {
			s := mustParseLogical(t, `{"type":"long","logicalType":"`+tc.logical+`"}`)
			back := roundTrip(t, s, h, zz(tc.want))
			// Decoding gives UTC: compare the struct, not just the instant.
			if back != tc.decoded {
				t.Errorf("decoded %v (%#v), want %v", back, back, tc.decoded)
			}
			if back.Location() != time.UTC {
				t.Errorf("decoded location %v, want UTC", back.Location())
			}
			// The raw value stays reachable through int64.
			var raw int64
			if err := Unmarshal(s, zz(tc.want), &raw); err != nil || raw != tc.want {
				t.Errorf("Unmarshal into int64 = %d, %v; want %d", raw, err, tc.want)
			}
		})
	}
}

// TestLogicalTimestampZeroTime guards the zero time.Time: a plain count of
// units for millis and micros, and ErrRange for the -nanos types, whose
// longs are all taken by instants (no sentinel of -2^63).
func TestLogicalTimestampZeroTime(t *testing.T) {
	type rec struct {
		T time.Time `avro:"t"`
	}
	for _, tc := range []struct {
		logical string
		want    int64 // the encoding of the zero time, 0001-01-01T00:00:00Z
	}{
		{"timestamp-millis", -62135596800000},
		{"timestamp-micros", -62135596800000000},
		{"local-timestamp-millis", -62135596800000},
		{"local-timestamp-micros", -62135596800000000},
	} {
		t.Run(tc.logical, func(t *testing.T) {
			s := mustParseLogical(t, `{"type":"long","logicalType":"`+tc.logical+`"}`)
			if back := roundTrip(t, s, time.Time{}, zz(tc.want)); back != (time.Time{}) {
				t.Errorf("zero time decoded as %#v", back)
			}
			// Also inside a struct, where the zero value is the common case.
			rs := mustParseLogical(t, `{"type":"record","name":"R","fields":[{"name":"t","type":`+s.String()+`}]}`)
			if r := roundTrip(t, rs, rec{}, zz(tc.want)); r.T != (time.Time{}) {
				t.Errorf("zero time in a struct decoded as %#v", r.T)
			}
		})
	}
	if got := time.UnixMilli(-62135596800000).UTC(); got != (time.Time{}) {
		t.Errorf("time.UnixMilli of year 1 = %#v, not the zero time", got)
	}
	for _, logical := range []string{"timestamp-nanos", "local-timestamp-nanos"} {
		t.Run(logical, func(t *testing.T) {
			s := mustParseLogical(t, `{"type":"long","logicalType":"`+logical+`"}`)
			rs := mustParseLogical(t, `{"type":"record","name":"R","fields":[{"name":"t","type":`+s.String()+`}]}`)
			zero := time.Time{}
			for _, src := range []struct {
				what   string
				schema *schema.Schema
				v      any
			}{
				{"time.Time", s, zero},
				{"*time.Time", s, &zero},
				{"any", s, any(zero)},
				{"struct", rs, rec{}},
				{"map[string]any", rs, map[string]any{"t": zero}},
			} {
				if b, err := Marshal(src.schema, src.v); !errors.Is(err, ErrRange) {
					t.Errorf("Marshal(zero %s) = % x, %v; want ErrRange", src.what, b, err)
				}
			}
		})
	}
}

func TestLogicalTimestampRange(t *testing.T) {
	nanos := mustParseLogical(t, `{"type":"long","logicalType":"timestamp-nanos"}`)
	localNanos := mustParseLogical(t, `{"type":"long","logicalType":"local-timestamp-nanos"}`)
	millis := mustParseLogical(t, `{"type":"long","logicalType":"timestamp-millis"}`)
	micros := mustParseLogical(t, `{"type":"long","logicalType":"timestamp-micros"}`)

	// In range at the edges: exact round trips.
	for _, tc := range []struct {
		s *schema.Schema
		v time.Time
		w int64
	}{
		{nanos, time.Unix(0, math.MaxInt64), math.MaxInt64},
		{nanos, time.Unix(0, math.MinInt64), math.MinInt64},
		{nanos, time.Unix(0, math.MinInt64+1), math.MinInt64 + 1},
		{localNanos, time.Unix(0, math.MaxInt64), math.MaxInt64},
		{localNanos, time.Unix(0, math.MinInt64), math.MinInt64},
		{millis, time.UnixMilli(math.MaxInt64), math.MaxInt64},
		{millis, time.UnixMilli(math.MinInt64), math.MinInt64},
		{micros, time.UnixMicro(math.MaxInt64), math.MaxInt64},
		{micros, time.UnixMicro(math.MinInt64), math.MinInt64},
		// Sub-unit digits go towards the past.
		{millis, time.Unix(0, -1), -1},
		{micros, time.Unix(0, 1999), 1},
	} {
		back := roundTrip(t, tc.s, tc.v, zz(tc.w))
		if want := tc.v.UTC().Truncate(0); tc.w != -1 && tc.w != 1 && back != want {
			t.Errorf("%s: %v decoded as %v", tc.s.Logical(), tc.v, back)
		}
	}

	// Out of range: ErrRange, never a wrapped value.
	for _, tc := range []struct {
		s *schema.Schema
		v time.Time
	}{
		{nanos, time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)},
		{nanos, time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC)},
		{nanos, time.Unix(0, math.MaxInt64).Add(1)},
		{nanos, time.Unix(0, math.MinInt64).Add(-1)},
		{localNanos, time.Unix(0, math.MinInt64).Add(-1)},
		{localNanos, time.Date(2262, 4, 11, 23, 47, 16, 854775807, time.UTC).In(time.FixedZone("", 3600))},
		{localNanos, time.Date(1677, 9, 21, 0, 12, 43, 145224192, time.UTC).In(time.FixedZone("", -3600))},
		{millis, time.UnixMilli(math.MaxInt64).Add(time.Millisecond)},
		{millis, time.UnixMilli(math.MinInt64).Add(-time.Millisecond)},
		{micros, time.UnixMicro(math.MaxInt64).Add(time.Microsecond)},
		{micros, time.UnixMicro(math.MinInt64).Add(-time.Nanosecond)},
		{millis, time.Unix(math.MaxInt64/1000+1, 0)},
		{millis, time.Unix(math.MinInt64/1000-2, 0)},
	} {
		_, err := Marshal(tc.s, tc.v)
		if !errors.Is(err, ErrRange) {
			t.Errorf("%s: Marshal(%v) error = %v, want ErrRange", tc.s.Logical(), tc.v, err)
		}
	}
}

// nanosFirst is the instant of the long -2^63 as timestamp-nanos, as Java's
// Instant.ofEpochSecond(0, Long.MIN_VALUE) prints it.
var nanosFirst = time.Date(1677, 9, 21, 0, 12, 43, 145224192, time.UTC)

// TestLogicalTimestampNanosFirstInstant guards the long -2^63 of the
// -nanos types: it is 1677-09-21T00:12:43.145224192Z on every decode
// target, and that instant encodes back to it, not the zero time.Time.
func TestLogicalTimestampNanosFirstInstant(t *testing.T) {
	if got := time.Unix(0, math.MinInt64).UTC(); got != nanosFirst {
		t.Fatalf("time.Unix(0, MinInt64) = %v, want %v", got, nanosFirst)
	}
	for _, logical := range []string{"timestamp-nanos", "local-timestamp-nanos"} {
		t.Run(logical, func(t *testing.T) {
			ts := `{"type":"long","logicalType":"` + logical + `"}`
			s := mustParseLogical(t, ts)
			first := zz(math.MinInt64)

			// The bare schema: time.Time, *time.Time, any.
			if back := roundTrip(t, s, nanosFirst, first); back != nanosFirst {
				t.Errorf("time.Time: decoded %v", back)
			}
			if back := roundTrip(t, s, &nanosFirst, first); back == nil || *back != nanosFirst {
				t.Errorf("*time.Time: decoded %v", back)
			}
			var x any
			if err := Unmarshal(s, first, &x); err != nil || x != any(nanosFirst) {
				t.Errorf("any: decoded %#v, %v", x, err)
			}
			if b, err := Marshal(s, &x); err != nil || !bytes.Equal(b, first) {
				t.Errorf("any: Marshal = % x, %v; want % x", b, err, first)
			}
			var v value.Value
			if err := Unmarshal(s, first, &v); err != nil || v.Kind() != value.KindLong || v.Long() != math.MinInt64 {
				t.Errorf("value.Value: decoded %v, %v", v, err)
			}

			// A record of the plain field and the optional one.
			rs := mustParseLogical(t, `{"type":"record","name":"R","fields":[
				{"name":"t","type":`+ts+`},{"name":"o","type":["null",`+ts+`]}]}`)
			data := cat(first, zz(1), first)
			type rec struct {
				T time.Time  `avro:"t"`
				O *time.Time `avro:"o"`
			}
			if r := roundTrip(t, rs, rec{T: nanosFirst, O: &nanosFirst}, data); r.T != nanosFirst || r.O == nil || *r.O != nanosFirst {
				t.Errorf("struct: decoded %v, %v", r.T, r.O)
			}
			want := map[string]any{"t": nanosFirst, "o": nanosFirst}
			var m map[string]any
			if err := Unmarshal(rs, data, &m); err != nil {
				t.Errorf("map[string]any: %v", err)
			} else if diff := cmp.Diff(want, m); diff != "" {
				t.Errorf("map[string]any (-want +got):\n%s", diff)
			}
			// The union branch takes the instant from an any.
			if b, err := Marshal(rs, want); err != nil || !bytes.Equal(b, data) {
				t.Errorf("map[string]any: Marshal = % x, %v; want % x", b, err, data)
			}

			// Through resolution: a writer's plain long, read as the
			// logical type, with a writer-only field to skip.
			w := `{"type":"record","name":"R","fields":[{"name":"x","type":"int"},
				{"name":"t","type":"long"},{"name":"o","type":["null","long"]}]}`
			_, res := mustResolve(t, w, rs.String())
			wdata := cat(zz(7), first, zz(1), first)
			var r rec
			if err := Unmarshal(res, wdata, &r); err != nil || r.T != nanosFirst || r.O == nil || *r.O != nanosFirst {
				t.Errorf("resolved struct: decoded %v, %v, %v", r.T, r.O, err)
			}
			m = nil
			if err := Unmarshal(res, wdata, &m); err != nil {
				t.Errorf("resolved map[string]any: %v", err)
			} else if diff := cmp.Diff(want, m); diff != "" {
				t.Errorf("resolved map[string]any (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLogicalTimestampNanosNoTime guards the documented way to write "no
// time": a nil *time.Time in a union with null is null, and a non-nil one
// the instant.
func TestLogicalTimestampNanosNoTime(t *testing.T) {
	s := mustParseLogical(t, `{"type":"record","name":"Visit","fields":[
		{"name":"seen","type":["null",{"type":"long","logicalType":"timestamp-nanos"}]}]}`)
	type visit struct {
		Seen *time.Time `avro:"seen"`
	}
	if back := roundTrip(t, s, visit{}, []byte{0}); back.Seen != nil {
		t.Errorf("nil *time.Time decoded as %v", *back.Seen)
	}
	at := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	if back := roundTrip(t, s, visit{Seen: &at}, cat(zz(1), zz(at.UnixNano()))); back.Seen == nil || *back.Seen != at {
		t.Errorf("*time.Time %v decoded as %v", at, back.Seen)
	}
	// A plain time.Time reads null as the zero time, which it cannot
	// write back to the nanos branch.
	type plain struct {
		Seen time.Time `avro:"seen"`
	}
	var p plain
	if err := Unmarshal(s, []byte{0}, &p); err != nil || p.Seen != (time.Time{}) {
		t.Errorf("null into time.Time = %v, %v", p.Seen, err)
	}
	if _, err := Marshal(s, p); !errors.Is(err, ErrRange) {
		t.Errorf("Marshal of the zero time.Time: error %v, want ErrRange", err)
	}
}

func TestLogicalLocalTimestampUsesWallClock(t *testing.T) {
	s := mustParseLogical(t, `{"type":"long","logicalType":"local-timestamp-micros"}`)
	ny := time.FixedZone("EST", -5*3600)
	v := time.Date(2024, 2, 29, 23, 30, 0, 123456000, ny)
	back := roundTrip(t, s, v, zz(time.Date(2024, 2, 29, 23, 30, 0, 123456000, time.UTC).UnixMicro()))
	if want := time.Date(2024, 2, 29, 23, 30, 0, 123456000, time.UTC); back != want {
		t.Errorf("decoded %v, want %v", back, want)
	}
}

func TestLogicalDate(t *testing.T) {
	s := mustParseLogical(t, `{"type":"int","logicalType":"date"}`)
	// 2000-01-01 → 10957 (spec example).
	back := roundTrip(t, s, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), zz(10957))
	if want := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC); back != want {
		t.Errorf("decoded %v, want %v", back, want)
	}
	// The calendar date in the value's own location, whatever the time of
	// day: 2000-01-01 01:00 at +02:00 is still 1999-12-31 in UTC.
	roundTrip(t, s, time.Date(2000, 1, 1, 1, 0, 0, 0, time.FixedZone("", 2*3600)), zz(10957))
	roundTrip(t, s, time.Date(2000, 1, 1, 23, 59, 59, 999999999, time.FixedZone("", -10*3600)), zz(10957))
	roundTrip(t, s, time.Date(1969, 12, 31, 12, 0, 0, 0, time.UTC), zz(-1))
	// The zero time round-trips.
	if back := roundTrip(t, s, time.Time{}, zz(-719162)); back != (time.Time{}) {
		t.Errorf("zero time decoded as %#v", back)
	}
	// int32 falls back to the raw day count.
	var days int32
	if err := Unmarshal(s, zz(10957), &days); err != nil || days != 10957 {
		t.Errorf("Unmarshal into int32 = %d, %v", days, err)
	}
	if _, err := Marshal(s, time.Date(6000000, 1, 1, 0, 0, 0, 0, time.UTC)); !errors.Is(err, ErrRange) {
		t.Errorf("date beyond int32 days: error %v, want ErrRange", err)
	}
}

func TestLogicalTimeOfDay(t *testing.T) {
	ms := mustParseLogical(t, `{"type":"int","logicalType":"time-millis"}`)
	us := mustParseLogical(t, `{"type":"long","logicalType":"time-micros"}`)
	d := 12*time.Hour + 34*time.Minute + 56*time.Second + 789*time.Millisecond
	if back := roundTrip(t, ms, d, zz(45296789)); back != d {
		t.Errorf("time-millis decoded %v", back)
	}
	if back := roundTrip(t, us, d+12*time.Microsecond, zz(45296789012)); back != d+12*time.Microsecond {
		t.Errorf("time-micros decoded %v", back)
	}
	// Sub-unit digits are dropped.
	roundTrip(t, ms, time.Millisecond+999*time.Microsecond, zz(1))
	roundTrip(t, us, -1500*time.Nanosecond, zz(-1))
	// Values outside one day pass through both ways, so what was read can
	// be written back.
	for _, v := range []time.Duration{-5 * time.Millisecond, 24 * time.Hour, 500 * time.Hour} {
		for _, s := range []*schema.Schema{ms, us} {
			if back := roundTrip(t, s, v, nil); back != v {
				t.Errorf("%s of %v decoded as %v", s.Logical(), v, back)
			}
		}
	}
	// Only values that do not fit are errors.
	if _, err := Marshal(ms, time.Duration(math.MaxInt32+1)*time.Millisecond); !errors.Is(err, ErrRange) {
		t.Errorf("time-millis beyond int32: error %v, want ErrRange", err)
	}
	if back := roundTrip(t, ms, time.Duration(math.MinInt32)*time.Millisecond, zz(math.MinInt32)); back != time.Duration(math.MinInt32)*time.Millisecond {
		t.Errorf("time-millis MinInt32 decoded as %v", back)
	}
	var got time.Duration
	if err := Unmarshal(us, zz(math.MaxInt64), &got); !errors.Is(err, ErrRange) {
		t.Errorf("time-micros overflowing time.Duration: error %v, want ErrRange", err)
	}
	if err := Unmarshal(us, zz(math.MinInt64/1000-1), &got); !errors.Is(err, ErrRange) {
		t.Errorf("time-micros overflowing time.Duration: error %v, want ErrRange", err)
	}
}

func TestLogicalTypeErrors(t *testing.T) {
	for _, tc := range []struct {
		schema string
		goType reflect.Type
	}{
		{`{"type":"long","logicalType":"timestamp-millis"}`, reflect.TypeFor[time.Duration]()},
		{`{"type":"long","logicalType":"timestamp-nanos"}`, reflect.TypeFor[big.Rat]()},
		{`{"type":"int","logicalType":"date"}`, reflect.TypeFor[time.Duration]()},
		{`{"type":"int","logicalType":"time-millis"}`, reflect.TypeFor[time.Time]()},
		{`{"type":"bytes","logicalType":"decimal","precision":4}`, reflect.TypeFor[time.Time]()},
		{`{"type":"fixed","name":"D","size":12,"logicalType":"duration"}`, reflect.TypeFor[time.Duration]()},
		{`{"type":"string","logicalType":"uuid"}`, reflect.TypeFor[Duration]()},
	} {
		s := mustParseLogical(t, tc.schema)
		v := reflect.New(tc.goType)
		var te *TypeError
		if err := Unmarshal(s, []byte{0}, v.Interface()); !errors.As(err, &te) {
			t.Errorf("Unmarshal %s into %s: error %v, want *TypeError", tc.schema, tc.goType, err)
		}
		if _, err := Marshal(s, v.Elem().Interface()); !errors.As(err, &te) {
			t.Errorf("Marshal %s from %s: error %v, want *TypeError", tc.schema, tc.goType, err)
		}
	}
}

func TestLogicalDecimalBytes(t *testing.T) {
	s := mustParseLogical(t, `{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}`)
	for _, tc := range []struct {
		v    string
		want []byte
	}{
		{"123.45", []byte{0x04, 0x30, 0x39}},
		{"-123.45", []byte{0x04, 0xcf, 0xc7}},
		{"0", []byte{0x02, 0x00}},
		{"1.27", []byte{0x02, 0x7f}},
		{"1.28", []byte{0x04, 0x00, 0x80}},
		{"-1.28", []byte{0x02, 0x80}},
		{"-1.29", []byte{0x04, 0xff, 0x7f}},
		{"-0.01", []byte{0x02, 0xff}},
		{"1/4", []byte{0x02, 0x19}},
		{"99999999.99", []byte{0x0a, 0x02, 0x54, 0x0b, 0xe3, 0xff}},
	} {
		r, _ := new(big.Rat).SetString(tc.v)
		back := roundTrip(t, s, *r, tc.want)
		if back.Cmp(r) != 0 {
			t.Errorf("%s decoded as %s", tc.v, back.RatString())
		}
		// Through *big.Rat as well.
		bp := roundTrip(t, s, r, tc.want)
		if diff := cmp.Diff(r, bp, ratComparer); diff != "" {
			t.Errorf("*big.Rat %s: %s", tc.v, diff)
		}
	}
	for _, v := range []string{"1.234", "1/3", "123456789.01", "-100000000"} {
		r, _ := new(big.Rat).SetString(v)
		if _, err := Marshal(s, r); !errors.Is(err, ErrRange) {
			t.Errorf("Marshal decimal(10,2) %s: error %v, want ErrRange", v, err)
		}
	}
	// Empty bytes read as zero; a short value is truncated.
	var r big.Rat
	r.SetInt64(7)
	if err := Unmarshal(s, []byte{0x00}, &r); err != nil || r.Sign() != 0 {
		t.Errorf("empty decimal decoded as %s, %v", r.RatString(), err)
	}
	if err := Unmarshal(s, []byte{0x04, 0x30}, &r); !errors.Is(err, ErrTruncated) {
		t.Errorf("short decimal: error %v, want ErrTruncated", err)
	}
	// []byte falls back to the unscaled bytes.
	var raw []byte
	if err := Unmarshal(s, []byte{0x04, 0xcf, 0xc7}, &raw); err != nil || !bytes.Equal(raw, []byte{0xcf, 0xc7}) {
		t.Errorf("Unmarshal into []byte = % x, %v", raw, err)
	}
	// A large value decodes (the work is bounded by its size).
	big1 := append([]byte{0x7f}, bytes.Repeat([]byte{0xff}, 4095)...)
	if err := Unmarshal(s, cat(zz(4096), big1), &r); err != nil {
		t.Errorf("4 KiB decimal: %v", err)
	}
	want := new(big.Int).Lsh(big.NewInt(1), 8*4096-1)
	want.Sub(want, big.NewInt(1))
	if diff := cmp.Diff(new(big.Rat).SetFrac(want, big.NewInt(100)), &r, ratComparer); diff != "" {
		t.Errorf("4 KiB decimal: %s", diff)
	}
}

func TestLogicalDecimalFixed(t *testing.T) {
	s := mustParseLogical(t, `{"type":"fixed","name":"Money","size":8,"logicalType":"decimal","precision":18,"scale":2}`)
	for _, tc := range []struct {
		v    string
		want []byte
	}{
		{"-1", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x9c}},
		{"1", []byte{0, 0, 0, 0, 0, 0, 0, 0x64}},
		{"0", make([]byte, 8)},
		{"-9999999999999999.99", []byte{0xf2, 0x1f, 0x49, 0x4c, 0x58, 0x9c, 0x00, 0x01}},
	} {
		r, _ := new(big.Rat).SetString(tc.v)
		if back := roundTrip(t, s, *r, tc.want); back.Cmp(r) != 0 {
			t.Errorf("%s decoded as %s", tc.v, back.RatString())
		}
	}
	// A fixed too small for a value within the precision: precision 3
	// on 1 byte is invalid (max 2), so use the largest value that fits
	// precision 2 and check the overflow path with the raw codec.
	small := mustParseLogical(t, `{"type":"fixed","name":"S","size":1,"logicalType":"decimal","precision":2}`)
	roundTrip(t, small, *big.NewRat(-99, 1), []byte{0x9d})
	if _, err := Marshal(small, big.NewRat(100, 1)); !errors.Is(err, ErrRange) {
		t.Errorf("100 in decimal(2) fixed(1): error %v, want ErrRange", err)
	}
	c := &decimalCodec{size: 1}
	e := &encodeState{Encoder: wire.Encoder{MaxDecimalScale: DefaultMaxDecimalScale}}
	c.encodeRat(big.NewRat(128, 1), e)
	if !errors.Is(e.Err, ErrRange) {
		t.Errorf("128 in fixed(1) without precision: error %v, want ErrRange", e.Err)
	}
	// A nullable *big.Rat.
	u := mustParseLogical(t, `["null",{"type":"fixed","name":"Money","size":8,"logicalType":"decimal","precision":18,"scale":2}]`)
	var p *big.Rat
	if back := roundTrip(t, u, p, []byte{0}); back != nil {
		t.Errorf("nil *big.Rat decoded as %v", back)
	}
	p = big.NewRat(-1, 1)
	if back := roundTrip(t, u, p, []byte{0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x9c}); back == nil || back.Cmp(p) != 0 {
		t.Errorf("*big.Rat -1 decoded as %v", back)
	}
}

func TestLogicalBigDecimal(t *testing.T) {
	s := mustParseLogical(t, `{"type":"bytes","logicalType":"big-decimal"}`)
	for _, tc := range []struct {
		v    string
		want []byte
	}{
		{"123.45", []byte{0x08, 0x04, 0x30, 0x39, 0x04}},
		{"1000", []byte{0x08, 0x04, 0x03, 0xe8, 0x00}},
		{"0", []byte{0x06, 0x02, 0x00, 0x00}},
		{"1/8", []byte{0x06, 0x02, 0x7d, 0x06}},
		{"-1/2", []byte{0x06, 0x02, 0xfb, 0x02}},
	} {
		r, _ := new(big.Rat).SetString(tc.v)
		if back := roundTrip(t, s, *r, tc.want); back.Cmp(r) != 0 {
			t.Errorf("%s decoded as %s", tc.v, back.RatString())
		}
	}
	if _, err := Marshal(s, big.NewRat(1, 3)); !errors.Is(err, ErrRange) {
		t.Errorf("1/3: error %v, want ErrRange", err)
	}
	var r big.Rat
	// A negative scale (Java's 1E+3).
	if err := Unmarshal(s, []byte{0x06, 0x02, 0x01, 0x05}, &r); err != nil || r.Cmp(big.NewRat(1000, 1)) != 0 {
		t.Errorf("1E+3 decoded as %s, %v", r.RatString(), err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"byte after the scale", []byte{0x08, 0x02, 0x01, 0x00, 0x00}, ErrInvalid},
		// The payload is all there: a part that runs past its end is
		// invalid, not a datum cut short (a Decoder must not wait for
		// more of the stream).
		{"unscaled runs past the payload", []byte{0x04, 0x06, 0x01, 0x00, 0x00, 0x00}, ErrInvalid},
		{"no scale", []byte{0x04, 0x02, 0x01}, ErrInvalid},
		{"payload past the input", []byte{0x08, 0x02, 0x01}, ErrTruncated},
		{"huge scale", cat([]byte{0x0e, 0x02, 0x01}, zz(math.MaxInt32)), ErrLimit},
		{"huge negative scale", cat([]byte{0x0e, 0x02, 0x01}, zz(math.MinInt32)), ErrLimit},
	} {
		err := Unmarshal(s, tc.data, &r)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	// The largest scale allowed decodes.
	data := cat([]byte{0x02, 0x01}, zz(DefaultMaxDecimalScale))
	if err := Unmarshal(s, cat(zz(int64(len(data))), data), &r); err != nil || r.Cmp(new(big.Rat).SetFrac(big.NewInt(1), decimal.Pow10(DefaultMaxDecimalScale))) != 0 {
		t.Errorf("scale %d: %v", DefaultMaxDecimalScale, err)
	}
}

type testUUID [16]byte

// textUUID is a UUID type of its own with text methods.
type textUUID struct{ s string }

func (u textUUID) MarshalText() ([]byte, error) { return []byte(u.s), nil }
func (u *textUUID) UnmarshalText(b []byte) error {
	u.s = string(b)
	return nil
}

func TestLogicalUUID(t *testing.T) {
	const text = "123e4567-e89b-12d3-a456-426614174000"
	raw := [16]byte{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00}
	onString := mustParseLogical(t, `{"type":"string","logicalType":"uuid"}`)
	onFixed := mustParseLogical(t, `{"type":"fixed","name":"U","size":16,"logicalType":"uuid"}`)
	textBytes := cat(zz(36), []byte(text))

	if back := roundTrip(t, onString, raw, textBytes); back != raw {
		t.Errorf("[16]byte decoded as %x", back)
	}
	if back := roundTrip(t, onString, testUUID(raw), textBytes); back != testUUID(raw) {
		t.Errorf("testUUID decoded as %x", back)
	}
	// A string that is not a uuid's text is refused when encoded and
	// kept when decoded.
	if _, err := Marshal(onString, "not a uuid"); !errors.Is(err, ErrRange) {
		t.Errorf("Marshal(not a uuid): %v, want ErrRange", err)
	}
	var kept string
	if err := Unmarshal(onString, cat(zz(10), []byte("not a uuid")), &kept); err != nil || kept != "not a uuid" {
		t.Errorf("string decoded as %q, %v", kept, err)
	}
	// Upper case is accepted when decoding.
	var u [16]byte
	upper := cat(zz(36), []byte("123E4567-E89B-12D3-A456-426614174000"))
	if err := Unmarshal(onString, upper, &u); err != nil || u != raw {
		t.Errorf("upper-case uuid decoded as %x, %v", u, err)
	}
	for _, bad := range []string{
		"", "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
		"123e4567-e89b-12d3-a456-42661417400g", "123e4567-e89b-12d3-a456_426614174000",
		"urn:uuid:123e4567-e89b-12d3-a456-426614174000",
	} {
		if err := Unmarshal(onString, cat(zz(int64(len(bad))), []byte(bad)), &u); !errors.Is(err, ErrInvalid) {
			t.Errorf("uuid %q: error %v, want ErrInvalid", bad, err)
		}
	}
	if err := Unmarshal(onString, textBytes[:20], &u); !errors.Is(err, ErrTruncated) {
		t.Errorf("short uuid: error %v, want ErrTruncated", err)
	}
	// A type with text methods keeps them for uuid strings.
	if back := roundTrip(t, onString, textUUID{text}, textBytes); back.s != text {
		t.Errorf("textUUID decoded as %q", back.s)
	}

	// On fixed: raw bytes for arrays, text for strings.
	if back := roundTrip(t, onFixed, raw, raw[:]); back != raw {
		t.Errorf("fixed [16]byte decoded as %x", back)
	}
	if back := roundTrip(t, onFixed, text, raw[:]); back != text {
		t.Errorf("fixed string decoded as %q", back)
	}
	type myString string
	if back := roundTrip(t, onFixed, myString("123E4567-E89B-12D3-A456-426614174000"), raw[:]); back != myString(text) {
		t.Errorf("fixed myString decoded as %q", back)
	}
	if _, err := Marshal(onFixed, "123e4567"); !errors.Is(err, ErrRange) {
		t.Errorf("bad uuid string on fixed: error %v, want ErrRange", err)
	}
	var str string
	if err := Unmarshal(onFixed, raw[:15], &str); !errors.Is(err, ErrTruncated) {
		t.Errorf("short fixed uuid: error %v, want ErrTruncated", err)
	}
}

func TestLogicalDuration(t *testing.T) {
	s := mustParseLogical(t, `{"type":"fixed","name":"D","size":12,"logicalType":"duration"}`)
	v := Duration{Months: 1, Days: 2, Milliseconds: 3}
	want := []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}
	if back := roundTrip(t, s, v, want); back != v {
		t.Errorf("decoded %+v", back)
	}
	v = Duration{Months: math.MaxUint32, Days: 0x01020304, Milliseconds: 86400000}
	want = []byte{0xff, 0xff, 0xff, 0xff, 4, 3, 2, 1, 0x00, 0x5c, 0x26, 0x05}
	if back := roundTrip(t, s, v, want); back != v {
		t.Errorf("decoded %+v", back)
	}
	// The raw fixed stays reachable.
	var raw [12]byte
	if err := Unmarshal(s, want, &raw); err != nil || !bytes.Equal(raw[:], want) {
		t.Errorf("Unmarshal into [12]byte = % x, %v", raw, err)
	}
	var d Duration
	if err := Unmarshal(s, want[:11], &d); !errors.Is(err, ErrTruncated) {
		t.Errorf("short duration: error %v, want ErrTruncated", err)
	}
}

// TestLogicalStruct runs every logical mapping through the struct codec.
func TestLogicalStruct(t *testing.T) {
	type myTime time.Time
	type rec struct {
		TS    time.Time     `avro:"ts"`
		Local time.Time     `avro:"local"`
		Nanos myTime        `avro:"nanos"`
		Date  time.Time     `avro:"date"`
		TOD   time.Duration `avro:"tod"`
		Dec   *big.Rat      `avro:"dec"`
		BigD  big.Rat       `avro:"bigd"`
		ID    testUUID      `avro:"id"`
		FixID string        `avro:"fixid"`
		Dur   Duration      `avro:"dur"`
		Opt   *time.Time    `avro:"opt"`
	}
	s := mustParseLogical(t, `{"type":"record","name":"R","fields":[
		{"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"}},
		{"name":"local","type":{"type":"long","logicalType":"local-timestamp-millis"}},
		{"name":"nanos","type":{"type":"long","logicalType":"timestamp-nanos"}},
		{"name":"date","type":{"type":"int","logicalType":"date"}},
		{"name":"tod","type":{"type":"int","logicalType":"time-millis"}},
		{"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":3}},
		{"name":"bigd","type":{"type":"bytes","logicalType":"big-decimal"}},
		{"name":"id","type":{"type":"string","logicalType":"uuid"}},
		{"name":"fixid","type":{"type":"fixed","name":"U","size":16,"logicalType":"uuid"}},
		{"name":"dur","type":{"type":"fixed","name":"D","size":12,"logicalType":"duration"}},
		{"name":"opt","type":["null",{"type":"long","logicalType":"timestamp-millis"}]}]}`)
	ts := time.Date(2021, 3, 4, 5, 6, 7, 8000, time.UTC)
	in := rec{
		TS: ts, Local: time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC), Nanos: myTime(ts.Add(9)),
		Date: time.Date(2021, 3, 4, 0, 0, 0, 0, time.UTC), TOD: 90 * time.Minute,
		Dec: big.NewRat(-12345, 1000), ID: testUUID{1, 2, 3}, FixID: "00000000-0000-0000-0000-0000000000ff",
		Dur: Duration{1, 2, 3}, Opt: &ts,
	}
	in.BigD.SetFrac64(314159, 100000)
	out := roundTrip(t, s, in, nil)
	// Opt is millis: sub-millisecond digits are dropped.
	wantOpt := ts.Truncate(time.Millisecond)
	in.Opt = &wantOpt
	if diff := cmp.Diff(in, out, ratComparer, cmp.Comparer(func(a, b big.Rat) bool { return a.Cmp(&b) == 0 }),
		cmp.Comparer(func(a, b myTime) bool { return time.Time(a).Equal(time.Time(b)) })); diff != "" {
		t.Errorf("round trip (-in +out):\n%s", diff)
	}
}
