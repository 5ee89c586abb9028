package jsoncodec

import (
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/decimal"
	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// The Readable flavour writes logical types as text for people, and reads
// that text or the underlying value (a timestamp as RFC 3339 or as its
// count of units). Values that the text cannot hold are written as the
// underlying value: timestamps and dates outside the years 0 to 9999,
// times of day outside [00:00, 24:00).

// readableAsString reports whether the Readable flavour writes values of
// b as JSON strings.
func readableAsString(b *schema.Schema, fl Flavor) bool {
	switch b.Logical() {
	case schema.Date, schema.TimeMillis, schema.TimeMicros,
		schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
		schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos,
		schema.Duration:
		return true
	case schema.UUID:
		return true
	case schema.Decimal, schema.BigDecimal:
		return fl.DecimalStrings
	}
	return false
}

// readableNode returns the node of a logical type in the Readable
// flavour, or nil when it is written as its underlying type.
func readableNode(s *schema.Schema, fl Flavor) node {
	switch l := s.Logical(); l {
	case schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos:
		return timestampNode{unit: unitOf(l), local: false}
	case schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
		return timestampNode{unit: unitOf(l), local: true}
	case schema.Date:
		return dateNode{}
	case schema.TimeMillis:
		return timeOfDayNode{unit: time.Millisecond}
	case schema.TimeMicros:
		return timeOfDayNode{unit: time.Microsecond}
	case schema.Decimal:
		size := -1
		if s.Kind() == schema.Fixed {
			size = s.Size()
		}
		return decimalNode{size: size, scale: s.Scale(), precision: s.Precision(), asString: fl.DecimalStrings}
	case schema.BigDecimal:
		return bigDecimalNode{asString: fl.DecimalStrings}
	case schema.UUID:
		if s.Kind() == schema.Fixed {
			return uuidNode{base64: fl.Base64}
		}
	case schema.Duration:
		return durationNode{base64: fl.Base64}
	}
	return nil
}

func unitOf(l schema.Logical) time.Duration {
	switch l {
	case schema.TimestampMillis, schema.LocalTimestampMillis:
		return time.Millisecond
	case schema.TimestampMicros, schema.LocalTimestampMicros:
		return time.Microsecond
	}
	return time.Nanosecond
}

// timestampNode is a timestamp in RFC 3339 (with Z) or a local timestamp
// (the same text without a zone).
type timestampNode struct {
	unit  time.Duration
	local bool
}

const (
	layoutInstant = "2006-01-02T15:04:05.999999999Z07:00"
	layoutLocal   = "2006-01-02T15:04:05.999999999"
)

func (n timestampNode) toJSON(t *toState) {
	v := t.ReadLong()
	if t.Err != nil {
		return
	}
	tm, ok := n.time(v)
	if !ok {
		t.out = strconv.AppendInt(t.out, v, 10)
		return
	}
	layout := layoutInstant
	if n.local {
		layout = layoutLocal
	}
	t.out = append(t.out, '"')
	t.out = tm.AppendFormat(t.out, layout)
	t.out = append(t.out, '"')
}

// time returns the instant of v, and false when its text cannot hold it.
func (n timestampNode) time(v int64) (time.Time, bool) {
	per := int64(time.Second / n.unit)
	sec, frac := v/per, v%per
	if frac < 0 {
		sec, frac = sec-1, frac+per
	}
	tm := time.Unix(sec, frac*int64(n.unit)).UTC()
	return tm, inYears(tm)
}

// writesNumber reports whether v, the timestamp's long, is written as a
// number.
func (n timestampNode) writesNumber(v int64) bool {
	_, ok := n.time(v)
	return !ok
}

// inYears reports whether tm is in the years 0 to 9999, which RFC 3339
// text holds.
func inYears(tm time.Time) bool { y := tm.Year(); return 0 <= y && y <= 9999 }

func (n timestampNode) fromJSON(f *fromState) {
	if f.Peek() != '"' {
		intNode{long: true}.fromJSON(f)
		return
	}
	text, start := f.readString()
	if f.failed() {
		return
	}
	layout := time.RFC3339
	if n.local {
		layout = "2006-01-02T15:04:05"
	}
	tm, err := time.Parse(layout, upperTZ(text))
	if err == nil {
		err = checkTimestampText(text, tm)
	}
	if err == wire.ErrRange {
		f.fail(wire.ErrRange, start, "%q has digits below the unit of the timestamp", text)
		return
	}
	if err != nil {
		f.fail(wire.ErrInvalid, start, "%q is not a timestamp: want %s", text, layout)
		return
	}
	if n.local {
		// Only the wall clock counts.
		tm = time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
	}
	per := int64(time.Second / n.unit)
	if int64(tm.Nanosecond())%int64(n.unit) != 0 {
		f.fail(wire.ErrRange, start, "%q has digits below the unit of the timestamp", text)
		return
	}
	v, ok := unitsOf(tm.Unix(), int64(tm.Nanosecond())/int64(n.unit), per)
	if !ok {
		f.fail(wire.ErrRange, start, "%q is out of the range of the timestamp", text)
		return
	}
	f.out = appendVarint(f.out, v)
}

// upperTZ returns text with the date's separator t and the zone's z, which
// RFC 3339 allows in lower case, in upper case as time.Parse wants them.
func upperTZ(text []byte) string {
	const sep = len("2006-01-02")
	s := string(text)
	if len(s) > sep && s[sep] == 't' {
		s = s[:sep] + "T" + s[sep+1:]
	}
	if n := len(s); n > sep && s[n-1] == 'z' {
		s = s[:n-1] + "Z"
	}
	return s
}

// checkTimestampText returns what time.Parse takes in text, parsed as tm,
// that RFC 3339 does not: a comma before the fraction and an offset of 24
// hours (ErrInvalid), and nonzero digits past the ninth of the fraction,
// which it drops (ErrRange).
func checkTimestampText(text []byte, tm time.Time) error {
	const secondsEnd = len("2006-01-02T15:04:05")
	if len(text) > secondsEnd && text[secondsEnd] == ',' {
		return wire.ErrInvalid
	}
	if _, off := tm.Zone(); off <= -24*3600 || off >= 24*3600 {
		return wire.ErrInvalid
	}
	if len(text) > secondsEnd && text[secondsEnd] == '.' {
		for i := secondsEnd + 1; i < len(text) && text[i] >= '0' && text[i] <= '9'; i++ {
			if i > secondsEnd+9 && text[i] != '0' {
				return wire.ErrRange
			}
		}
	}
	return nil
}

// unitsOf returns sec*per + sub, for sub in [0, per), or false when it
// does not fit an int64.
func unitsOf(sec, sub, per int64) (int64, bool) {
	if sec >= 0 {
		if sec > (math.MaxInt64-sub)/per {
			return 0, false
		}
		return sec*per + sub, true
	}
	// sec*per + sub = (sec+1)*per - (per-sub), which stays in range when
	// the result does.
	s1 := sec + 1
	if s1 < math.MinInt64/per {
		return 0, false
	}
	v, d := s1*per, per-sub
	if v < math.MinInt64+d {
		return 0, false
	}
	return v - d, true
}

// dateNode is a date as 2026-12-01.
type dateNode struct{}

func (dateNode) toJSON(t *toState) {
	v := t.ReadInt()
	if t.Err != nil {
		return
	}
	tm := dateOf(int64(v))
	if !inYears(tm) {
		t.out = strconv.AppendInt(t.out, int64(v), 10)
		return
	}
	t.out = append(t.out, '"')
	t.out = tm.AppendFormat(t.out, time.DateOnly)
	t.out = append(t.out, '"')
}

func dateOf(days int64) time.Time { return time.Unix(days*86400, 0).UTC() }

// writesNumber reports whether v, a date's int, is written as a number.
func (dateNode) writesNumber(v int64) bool {
	return fitsInt(v) && !inYears(dateOf(v))
}

func fitsInt(v int64) bool { return math.MinInt32 <= v && v <= math.MaxInt32 }

func (dateNode) fromJSON(f *fromState) {
	if f.Peek() != '"' {
		intNode{}.fromJSON(f)
		return
	}
	text, start := f.readString()
	if f.failed() {
		return
	}
	tm, err := time.Parse(time.DateOnly, string(text))
	if err != nil {
		f.fail(wire.ErrInvalid, start, "%q is not a date: want 2006-01-02", text)
		return
	}
	f.out = appendVarint(f.out, tm.Unix()/86400)
}

// timeOfDayNode is a time-millis or time-micros as 15:04:05.678.
type timeOfDayNode struct{ unit time.Duration }

func (n timeOfDayNode) toJSON(t *toState) {
	var v int64
	if n.unit == time.Millisecond {
		v = int64(t.ReadInt())
	} else {
		v = t.ReadLong()
	}
	if t.Err != nil {
		return
	}
	if n.writesNumber(v) {
		t.out = strconv.AppendInt(t.out, v, 10)
		return
	}
	per := int64(time.Second / n.unit)
	sec, frac := v/per, v%per
	t.out = append(t.out, '"')
	t.out = append2(t.out, sec/3600)
	t.out = append(t.out, ':')
	t.out = append2(t.out, sec/60%60)
	t.out = append(t.out, ':')
	t.out = append2(t.out, sec%60)
	if frac != 0 {
		digits := 3
		if n.unit == time.Microsecond {
			digits = 6
		}
		t.out = append(t.out, '.')
		t.out = appendPadded(t.out, frac, digits)
	}
	t.out = append(t.out, '"')
}

// writesNumber reports whether v, the time's int or long, is written as
// a number.
func (n timeOfDayNode) writesNumber(v int64) bool {
	if n.unit == time.Millisecond && !fitsInt(v) {
		return false
	}
	return v < 0 || v >= 86400*int64(time.Second/n.unit)
}

func append2(b []byte, v int64) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

func appendPadded(b []byte, v int64, digits int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], v, 10)
	for range digits - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}

func (n timeOfDayNode) fromJSON(f *fromState) {
	long := n.unit == time.Microsecond
	if f.Peek() != '"' {
		intNode{long: long}.fromJSON(f)
		return
	}
	text, start := f.readString()
	if f.failed() {
		return
	}
	d, ok := parseTimeOfDay(text)
	if !ok {
		f.fail(wire.ErrInvalid, start, "%q is not a time of day: want 15:04:05.000", text)
		return
	}
	if d%n.unit != 0 {
		f.fail(wire.ErrRange, start, "%q has digits below the unit of the time", text)
		return
	}
	f.out = appendVarint(f.out, int64(d/n.unit))
}

// parseTimeOfDay parses hh:mm:ss with an optional fraction of up to nine
// digits.
func parseTimeOfDay(b []byte) (time.Duration, bool) {
	if len(b) < 8 || b[2] != ':' || b[5] != ':' {
		return 0, false
	}
	num := func(s []byte) (int64, bool) {
		var v int64
		for _, c := range s {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int64(c-'0')
		}
		return v, true
	}
	h, ok1 := num(b[0:2])
	m, ok2 := num(b[3:5])
	s, ok3 := num(b[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || s > 59 {
		return 0, false
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second
	if len(b) == 8 {
		return d, true
	}
	frac := b[9:]
	if b[8] != '.' || len(frac) == 0 || len(frac) > 9 {
		return 0, false
	}
	v, ok := num(frac)
	if !ok {
		return 0, false
	}
	for range 9 - len(frac) {
		v *= 10
	}
	return d + time.Duration(v), true
}

// decimalNode is a decimal as its exact decimal text, a number or a
// string.
type decimalNode struct {
	size, scale, precision int
	asString               bool
}

func (n decimalNode) toJSON(t *toState) {
	b := t.ReadSized(n.size)
	if t.Err != nil {
		return
	}
	if n.scale > t.MaxDecimalScale {
		t.Failf(wire.ErrLimit, "decimal scale %d beyond %d", n.scale, t.MaxDecimalScale)
		return
	}
	b, ok := decimalText(t, b)
	if !ok {
		return
	}
	t.out = appendDecimalText(t.out, b, n.scale, n.asString)
}

// decimalText returns the unscaled value unscaled without the sign bytes
// that repeat its sign, and whether it has at most the digits of the
// decoding's MaxDecimalScale, failing t if not: the time to write a
// number in decimal grows faster than its length, while a value padded
// with sign bytes writes no more digits. The precision does not raise the
// limit, as a schema may declare any precision up to 2^31-1.
func decimalText(t *toState, unscaled []byte) ([]byte, bool) {
	for len(unscaled) > 1 && (unscaled[0] == 0 && unscaled[1] < 0x80 || unscaled[0] == 0xff && unscaled[1] >= 0x80) {
		unscaled = unscaled[1:]
	}
	limit := t.MaxDecimalScale
	// A byte holds at most 2.41 digits.
	if len(unscaled) > limit*100/241+1 {
		t.Failf(wire.ErrLimit, "decimal of %d bytes, more digits than the limit of %d", len(unscaled), limit)
		return nil, false
	}
	return unscaled, true
}

// appendDecimalText appends the decimal unscaled * 10^-scale, its
// unscaled value big-endian two's complement: every digit of the scale
// is written (1.50 stays 1.50), and a negative scale is an exponent.
func appendDecimalText(dst, unscaled []byte, scale int, quoted bool) []byte {
	var tmp [24]byte
	var digits []byte
	neg := false
	if len(unscaled) <= 8 {
		var v int64
		if len(unscaled) > 0 && unscaled[0]&0x80 != 0 {
			v = -1
		}
		for _, c := range unscaled {
			v = v<<8 | int64(c)
		}
		neg = v < 0
		u := uint64(v)
		if neg {
			u = -u
		}
		digits = strconv.AppendUint(tmp[:0], u, 10)
	} else {
		z := new(big.Int)
		decimal.SetTwos(z, unscaled)
		neg = z.Sign() < 0
		digits = z.Abs(z).Append(tmp[:0], 10)
	}
	if quoted {
		dst = append(dst, '"')
	}
	if neg {
		dst = append(dst, '-')
	}
	switch {
	case scale <= 0:
		dst = append(dst, digits...)
		if scale < 0 {
			dst = append(dst, 'e')
			dst = strconv.AppendInt(dst, int64(-scale), 10)
		}
	case len(digits) <= scale:
		dst = append(dst, '0', '.')
		for range scale - len(digits) {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[:len(digits)-scale]...)
		dst = append(dst, '.')
		dst = append(dst, digits[len(digits)-scale:]...)
	}
	if quoted {
		dst = append(dst, '"')
	}
	return dst
}

func (n decimalNode) fromJSON(f *fromState) {
	if n.scale > f.maxDecimalScale {
		f.fail(wire.ErrLimit, f.Pos, "decimal scale %d beyond %d", n.scale, f.maxDecimalScale)
		return
	}
	neg, digits, exp, start, ok := f.readDecimal()
	if !ok {
		return
	}
	digits = trimLeadingZeros(digits)
	// The exponent of the value, less trailing zeros.
	exp10 := int64(exp) + int64(len(digits)-len(trimTrailingZeros(digits)))
	// unscaled = digits * 10^(exp+scale)
	shift := int64(exp) + int64(n.scale)
	if shift < 0 {
		drop := -shift
		if drop > int64(len(digits)) {
			if !allZeros(digits) {
				f.fail(wire.ErrRange, start, "decimal has more than %d digits after the decimal point (the decimal's scale)", n.scale)
				return
			}
			digits = nil
		} else if !allZeros(digits[int64(len(digits))-drop:]) {
			f.fail(wire.ErrRange, start, "decimal has more than %d digits after the decimal point (the decimal's scale)", n.scale)
			return
		} else {
			digits = digits[:int64(len(digits))-drop]
		}
		shift = 0
	}
	// Reading writes a datum, so it refuses more digits than the
	// precision, as the encoders do. The digits are counted before the
	// value is computed.
	total := int64(len(digits)) + shift
	if len(digits) > 0 && n.precision > 0 && total > int64(n.precision) {
		f.fail(wire.ErrRange, start, "decimal has more than %d digits (the decimal's precision)", n.precision)
		return
	}
	// The power of ten the text asks for costs time and memory of its
	// size, which a short text and a large precision would leave
	// unbounded: its exponent, less trailing zeros, is bounded as a
	// json.Number's is when it is encoded (after the precision, which
	// costs nothing to check).
	if len(digits) > 0 && exp10 > int64(f.maxDecimalScale) {
		f.fail(wire.ErrLimit, start, "decimal exponent beyond the maximum decimal scale %d", f.maxDecimalScale)
		return
	}
	limit := int64(max(n.precision, f.maxNumber))
	if n.size >= 0 {
		limit = min(limit, int64(n.size)*241/100+1)
	}
	if len(digits) > 0 && total > limit {
		if n.size >= 0 {
			f.fail(wire.ErrRange, start, "decimal does not fit a fixed of %d bytes", n.size)
		} else {
			f.fail(wire.ErrLimit, start, "decimal of %d digits beyond the limit of %d", total, limit)
		}
		return
	}
	u := new(big.Int)
	if len(digits) > 0 {
		u.SetString(string(digits), 10)
		if shift > 0 {
			u.Mul(u, decimal.Pow10(int(shift)))
		}
	}
	if neg {
		u.Neg(u)
	}
	l := decimal.TwosLen(u)
	if n.size >= 0 {
		if l > n.size {
			f.fail(wire.ErrRange, start, "decimal does not fit a fixed of %d bytes", n.size)
			return
		}
		f.out = decimal.AppendTwos(f.out, u, n.size)
		return
	}
	f.out = appendVarint(f.out, int64(l))
	f.out = decimal.AppendTwos(f.out, u, l)
}

// readDecimal reads a decimal number, bare or in a string, as its sign,
// its digits (integer and fraction parts together) and the power of ten
// they are multiplied by.
func (f *fromState) readDecimal() (neg bool, digits []byte, exp int, start int, ok bool) {
	var lit []byte
	if f.Peek() == '"' {
		var raw []byte
		raw, start = f.readString()
		if f.failed() {
			return
		}
		r := jsontext.Reader{Buf: raw}
		lit, _ = r.ReadNumber(f.maxNumber)
		// The number is the whole string, white space around it too.
		if r.Failed() || len(lit) != len(raw) {
			f.fail(wire.ErrInvalid, start, "%q is not a decimal number", raw)
			return
		}
	} else {
		lit, _ = f.ReadNumber(f.maxNumber)
		if f.failed() {
			return
		}
		start = f.Pos - len(lit)
	}
	if lit[0] == '-' {
		neg, lit = true, lit[1:]
	}
	var fracLen int
	var e int64
	f.tmp, fracLen, e = splitNumber(lit, f.tmp[:0])
	if e != 0 {
		total := e - int64(fracLen)
		if e > math.MaxInt32 || e < math.MinInt32 || total > math.MaxInt32 || total < math.MinInt32 {
			f.fail(wire.ErrRange, start, "decimal exponent out of range")
			return
		}
	}
	exp = int(e) - fracLen
	return neg, f.tmp, exp, start, true
}

func trimLeadingZeros(b []byte) []byte {
	for len(b) > 0 && b[0] == '0' {
		b = b[1:]
	}
	return b
}

func trimTrailingZeros(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	return b
}

func allZeros(b []byte) bool {
	for _, c := range b {
		if c != '0' {
			return false
		}
	}
	return true
}

// bigDecimalNode is a big-decimal, which carries its scale: its text has
// exactly the digits of that scale.
type bigDecimalNode struct{ asString bool }

func (n bigDecimalNode) toJSON(t *toState) {
	raw, scale, ok := t.ReadBigDecimal()
	if ok {
		raw, ok = decimalText(t, raw)
	}
	if !ok {
		return
	}
	t.out = appendDecimalText(t.out, raw, int(scale), n.asString)
}

func (n bigDecimalNode) fromJSON(f *fromState) {
	neg, digits, exp, start, ok := f.readDecimal()
	if !ok {
		return
	}
	scale := -exp
	if scale > f.maxDecimalScale || scale < -f.maxDecimalScale {
		f.fail(wire.ErrLimit, start, "big-decimal scale %d beyond ±%d", scale, f.maxDecimalScale)
		return
	}
	u := new(big.Int)
	if d := trimLeadingZeros(digits); len(d) > 0 {
		u.SetString(string(d), 10)
	}
	if neg {
		u.Neg(u)
	}
	l := decimal.TwosLen(u)
	var tmp [10]byte
	sc := appendVarint(tmp[:0], int64(scale))
	ln := appendVarint(nil, int64(l))
	f.out = appendVarint(f.out, int64(len(ln)+l+len(sc)))
	f.out = append(f.out, ln...)
	f.out = decimal.AppendTwos(f.out, u, l)
	f.out = append(f.out, sc...)
}

// uuidNode is a uuid on a fixed of 16 bytes, as its text.
type uuidNode struct{ base64 bool }

func (uuidNode) toJSON(t *toState) {
	b := t.ReadRaw(16)
	if t.Err != nil {
		return
	}
	t.out = append(t.out, '"')
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			t.out = append(t.out, '-')
		}
		t.out = append(t.out, hexDigits[c>>4], hexDigits[c&0xF])
	}
	t.out = append(t.out, '"')
}

const hexDigits = "0123456789abcdef"

func (n uuidNode) fromJSON(f *fromState) {
	pos := f.Pos
	text, start := f.readString()
	if f.failed() {
		return
	}
	u, ok := codec.ParseUUID(text)
	if !ok {
		if f.underlying(pos, 16, n.base64) {
			return
		}
		f.fail(wire.ErrInvalid, start, "%q is not a uuid", text)
		return
	}
	f.out = append(f.out, u[:]...)
}

// underlying reads the string at pos again as the bytes of a fixed of
// size, as the underlying type is written, and reports whether it is one;
// if not, it leaves f as it found it.
func (f *fromState) underlying(pos, size int, b64 bool) bool {
	end := f.Pos
	f.Pos = pos
	b, _ := f.readBytes(b64)
	if f.failed() || len(b) != size {
		f.clearFault()
		f.Pos = end
		return false
	}
	f.out = append(f.out, b...)
	return true
}

// durationNode is a duration (months, days and milliseconds) in ISO 8601,
// such as P1M2DT3H4M5.006S.
type durationNode struct{ base64 bool }

func (durationNode) toJSON(t *toState) {
	b := t.ReadRaw(12)
	if t.Err != nil {
		return
	}
	months := binary.LittleEndian.Uint32(b)
	days := binary.LittleEndian.Uint32(b[4:])
	ms := int64(binary.LittleEndian.Uint32(b[8:]))
	o := append(t.out, '"', 'P')
	if months != 0 {
		o = strconv.AppendUint(o, uint64(months), 10)
		o = append(o, 'M')
	}
	if days != 0 {
		o = strconv.AppendUint(o, uint64(days), 10)
		o = append(o, 'D')
	}
	if ms != 0 || months == 0 && days == 0 {
		o = append(o, 'T')
		h, m, s, frac := ms/3600000, ms/60000%60, ms/1000%60, ms%1000
		if h != 0 {
			o = strconv.AppendInt(o, h, 10)
			o = append(o, 'H')
		}
		if m != 0 {
			o = strconv.AppendInt(o, m, 10)
			o = append(o, 'M')
		}
		if s != 0 || frac != 0 || h == 0 && m == 0 {
			o = strconv.AppendInt(o, s, 10)
			if frac != 0 {
				o = append(o, '.')
				o = appendPadded(o, frac, 3)
			}
			o = append(o, 'S')
		}
	}
	t.out = append(o, '"')
}

func (n durationNode) fromJSON(f *fromState) {
	pos := f.Pos
	text, start := f.readString()
	if f.failed() {
		return
	}
	months, days, ms, err := parseDuration(text)
	// Text that is a duration out of range is that error, though its
	// characters may also spell twelve bytes.
	if err == wire.ErrInvalid && f.underlying(pos, 12, n.base64) {
		return
	}
	if err != nil {
		f.fail(err, start, "%q is not an Avro duration: want ISO 8601 such as P1M2DT3H4M5.006S", text)
		return
	}
	f.out = binary.LittleEndian.AppendUint32(f.out, months)
	f.out = binary.LittleEndian.AppendUint32(f.out, days)
	f.out = binary.LittleEndian.AppendUint32(f.out, ms)
}

// parseDuration parses P[nY][nM][nW][nD][T[nH][nM][n[.fff]S]]: years are
// twelve months and weeks seven days, as the three counts of an Avro
// duration hold them. Each designator comes at most once and in that
// order, as ISO 8601 has it. A count that does not fit is ErrRange.
func parseDuration(s []byte) (months, days, ms uint32, err error) {
	if len(s) < 3 || s[0] != 'P' {
		return 0, 0, 0, wire.ErrInvalid
	}
	var m, d, t uint64
	// next is the rank the next designator must reach: Y M W D, then
	// after T the ranks H M S.
	next, inTime := 0, false
	for i := 1; i < len(s); {
		if s[i] == 'T' && !inTime {
			next, inTime = durationTime, true
			i++
			if i == len(s) {
				return 0, 0, 0, wire.ErrInvalid
			}
			continue
		}
		j := i
		var v uint64
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			// A count saturates at 10^12, past every unit's range, which
			// keeps the sums far from overflow.
			v = min(v*10+uint64(s[j]-'0'), 1e12)
			j++
		}
		if j == i || j >= len(s) {
			return 0, 0, 0, wire.ErrInvalid
		}
		var frac uint64
		if s[j] == '.' && inTime {
			k := j + 1
			digits := 0
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				if digits < 3 {
					frac = frac*10 + uint64(s[k]-'0')
				} else if s[k] != '0' {
					return 0, 0, 0, wire.ErrRange
				}
				digits++
				k++
			}
			if digits == 0 || k >= len(s) || s[k] != 'S' {
				return 0, 0, 0, wire.ErrInvalid
			}
			for ; digits < 3; digits++ {
				frac *= 10
			}
			j = k
		}
		rank := durationRank(s[j], inTime)
		if rank < next {
			return 0, 0, 0, wire.ErrInvalid
		}
		switch rank {
		case 0:
			m += v * 12
		case 1:
			m += v
		case 2:
			d += v * 7
		case 3:
			d += v
		case durationTime:
			t += v * 3600000
		case durationTime + 1:
			t += v * 60000
		default:
			t += v*1000 + frac
		}
		next = rank + 1
		i = j + 1
	}
	if next == 0 {
		return 0, 0, 0, wire.ErrInvalid
	}
	if m > math.MaxUint32 || d > math.MaxUint32 || t > math.MaxUint32 {
		return 0, 0, 0, wire.ErrRange
	}
	return uint32(m), uint32(d), uint32(t), nil
}

// durationTime is the rank of the first designator after T.
const durationTime = 4

// durationRank is the place of a duration's designator in the order
// ISO 8601 writes them, or -1 for a letter that is none.
func durationRank(unit byte, inTime bool) int {
	designators := "YMWD"
	base := 0
	if inTime {
		designators, base = "HMS", durationTime
	}
	if i := strings.IndexByte(designators, unit); i >= 0 {
		return base + i
	}
	return -1
}
