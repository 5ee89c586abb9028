package codec

import (
	"math"
	"time"

	"github.com/avrogo/avro/schema"
)

// Time logical types.
//
// timestamp-millis, -micros and -nanos hold an instant as a count of units
// since 1970-01-01T00:00:00Z. Encoding uses the instant of the time.Time
// whatever its location; decoding gives a time.Time in UTC. Sub-unit
// digits are dropped towards the past (floor), as Java's Instant does, so
// 1969-12-31T23:59:59.9995Z is -1 in millis, not 0.
//
// local-timestamp-millis, -micros and -nanos hold a wall-clock reading
// with no zone. Encoding takes the wall clock of the time.Time in its own
// location (what t.Format prints) and counts it as if it were UTC;
// decoding gives that wall clock with location UTC. So 2000-01-01 12:00 in
// Helsinki (+02:00) is 946720800000 as timestamp-millis and 946728000000 as
// local-timestamp-millis.
//
// Every int64 is an instant, as the specification defines it and the other
// implementations read it: no value is set aside for the zero time.Time or
// for "no time", and every long decodes to a time. Encoding fails with
// ErrRange for a time whose count of units does not fit an int64, and
// nothing is wrapped or clamped. Millis and micros cover hundreds of
// thousands of years either side of 1970, the zero time
// (0001-01-01T00:00:00Z) included; nanos cover only
// 1677-09-21T00:12:43.145224192Z (math.MinInt64) to
// 2262-04-11T23:47:16.854775807Z (math.MaxInt64), so the zero time is
// ErrRange for the -nanos types. The way to write "no time" is a union with
// null.
//
// date holds the days since 1970-01-01 of the calendar date of the
// time.Time in its own location; decoding gives midnight UTC of that date.
//
// time-millis (int) and time-micros (long) hold the time since midnight,
// mapped to time.Duration. Encoding drops sub-unit digits (towards zero)
// and fails with ErrRange only when the value does not fit the Avro type
// (a time-millis beyond about ±24.8 days); decoding fails only when the
// value does not fit a time.Duration (a time-micros beyond about ±292
// years). Values outside [0, 24h) pass through both ways, so that anything
// read can be written back unchanged; they are not valid times of day, and
// Java's and Python's readers reject them, so a program that makes them up
// should check its values first.

// timeUnit is the resolution of a timestamp.
type timeUnit uint8

const (
	unitMillis timeUnit = iota
	unitMicros
	unitNanos
)

// unitBound describes how seconds and nanoseconds convert to one unit, and
// the span of instants whose count of units fits an int64: a time with
// seconds sec and units-within-the-second frac fits when (sec, frac) lies
// between (minSec, minFrac) and (maxSec, maxFrac) inclusive.
type unitBound struct {
	perSec, nsPer   int64
	minSec, minFrac int64
	maxSec, maxFrac int64
}

var unitBounds = func() [3]unitBound {
	var b [3]unitBound
	for u, per := range [3]int64{1e3, 1e6, 1e9} {
		x := &b[u]
		x.perSec, x.nsPer = per, 1e9/per
		x.minSec, x.minFrac = floorDivMod(math.MinInt64, per)
		x.maxSec, x.maxFrac = floorDivMod(math.MaxInt64, per)
	}
	return b
}()

// floorDivMod returns floor(a/b) and a - b*floor(a/b) for b > 0.
func floorDivMod(a, b int64) (q, r int64) {
	q, r = a/b, a%b
	if r < 0 {
		q--
		r += b
	}
	return q, r
}

// timeUnitOf returns the unit of a timestamp logical type and whether it
// is a local timestamp.
func timeUnitOf(l schema.Logical) (timeUnit, bool) {
	switch l {
	case schema.TimestampMillis:
		return unitMillis, false
	case schema.TimestampMicros:
		return unitMicros, false
	case schema.TimestampNanos:
		return unitNanos, false
	case schema.LocalTimestampMillis:
		return unitMillis, true
	case schema.LocalTimestampMicros:
		return unitMicros, true
	}
	return unitNanos, true
}

// unitsToTime converts a timestamp value to a time.Time in UTC. Every
// int64 is a valid time.Time, so decoding never fails.
func unitsToTime(v int64, u timeUnit) time.Time {
	switch u {
	case unitMillis:
		return time.UnixMilli(v).UTC()
	case unitMicros:
		return time.UnixMicro(v).UTC()
	}
	return time.Unix(0, v).UTC()
}

// timeToUnits converts t to a timestamp value; ok is false when it does
// not fit an int64.
func timeToUnits(t time.Time, u timeUnit, local bool) (v int64, ok bool) {
	sec, ok := wallSeconds(t, local)
	if !ok {
		return 0, false
	}
	b := &unitBounds[u]
	frac := int64(t.Nanosecond()) / b.nsPer
	if sec <= b.minSec && (sec < b.minSec || frac < b.minFrac) {
		return 0, false
	}
	if sec >= b.maxSec && (sec > b.maxSec || frac > b.maxFrac) {
		return 0, false
	}
	// At the bounds the product may wrap, but the sum is in range, and
	// Go's wrapping arithmetic then gives the right value.
	return sec*b.perSec + frac, true
}

// wallSeconds returns the Unix seconds of t, or with local those of its
// wall clock read as UTC.
func wallSeconds(t time.Time, local bool) (int64, bool) {
	sec := t.Unix()
	if local {
		_, off := t.Zone()
		o := int64(off)
		if (o > 0 && sec > math.MaxInt64-o) || (o < 0 && sec < math.MinInt64-o) {
			return 0, false
		}
		sec += o
	}
	return sec, true
}

// timestampCodec maps the six timestamp types to time.Time.
type timestampCodec struct{ l schema.Logical }

func (c timestampCodec) decode(p pointer, d *decodeState) {
	v := d.ReadLong()
	if d.Err == nil {
		u, _ := timeUnitOf(c.l)
		*as[time.Time](p) = unitsToTime(v, u)
	}
}

func (c timestampCodec) encode(p pointer, e *encodeState) {
	encodeTimestamp(*as[time.Time](p), c.l, e)
}

func encodeTimestamp(t time.Time, l schema.Logical, e *encodeState) {
	u, local := timeUnitOf(l)
	v, ok := timeToUnits(t, u, local)
	if !ok {
		e.Failf(ErrRange, "time %s is outside the range of %s", t.Format(time.RFC3339Nano), l)
		return
	}
	e.WriteLong(v)
}

// dateCodec maps date to time.Time.
type dateCodec struct{}

const secondsPerDay = 86400

func (dateCodec) decode(p pointer, d *decodeState) {
	v := d.ReadInt()
	if d.Err == nil {
		*as[time.Time](p) = daysToTime(v)
	}
}

func (dateCodec) encode(p pointer, e *encodeState) { encodeDate(*as[time.Time](p), e) }

func daysToTime(v int32) time.Time { return time.Unix(int64(v)*secondsPerDay, 0).UTC() }

func encodeDate(t time.Time, e *encodeState) {
	sec, ok := wallSeconds(t, true)
	days, _ := floorDivMod(sec, secondsPerDay)
	if !ok || days != int64(int32(days)) {
		e.Failf(ErrRange, "date %s is outside the range of date", t.Format(time.RFC3339))
		return
	}
	e.WriteLong(days)
}

// timeOfDayCodec maps time-millis and time-micros to time.Duration.
type timeOfDayCodec struct{ micros bool }

func (c timeOfDayCodec) decode(p pointer, d *decodeState) {
	if v, ok := decodeTimeOfDay(c.micros, d); ok {
		*as[time.Duration](p) = v
	}
}

func decodeTimeOfDay(micros bool, d *decodeState) (time.Duration, bool) {
	if !micros {
		v := d.ReadInt()
		return time.Duration(v) * time.Millisecond, d.Err == nil
	}
	v := d.ReadLong()
	if d.Err != nil {
		return 0, false
	}
	if v > math.MaxInt64/int64(time.Microsecond) || v < math.MinInt64/int64(time.Microsecond) {
		d.Failf(ErrRange, "time-micros %d overflows time.Duration", v)
		return 0, false
	}
	return time.Duration(v) * time.Microsecond, true
}

func (c timeOfDayCodec) encode(p pointer, e *encodeState) {
	encodeTimeOfDay(*as[time.Duration](p), c.micros, e)
}

func encodeTimeOfDay(v time.Duration, micros bool, e *encodeState) {
	if micros {
		e.WriteLong(int64(v / time.Microsecond))
		return
	}
	ms := int64(v / time.Millisecond)
	if ms != int64(int32(ms)) {
		e.Failf(ErrRange, "%s overflows time-millis", v)
		return
	}
	e.WriteLong(ms)
}
