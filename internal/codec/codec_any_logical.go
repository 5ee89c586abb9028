package codec

import (
	"encoding/json"
	"math/big"
	"reflect"
	"time"

	"github.com/avrogo/avro/internal/decimal"
	"github.com/avrogo/avro/schema"
)

// The codecs of the logical types for values held in an any.

// anyLogical wraps the node of a logical type's underlying type: decoding
// gives the logical Go value, encoding takes it or the underlying value.
func anyLogical(s *schema.Schema, base anyNode) anyNode {
	switch l := s.Logical(); l {
	case schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
		schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
		return anyTimestamp{l: l, base: base}
	case schema.Date:
		return anyDate{base: base}
	case schema.TimeMillis, schema.TimeMicros:
		return anyTimeOfDay{micros: l == schema.TimeMicros, base: base}
	case schema.Decimal:
		return anyDecimal{c: newDecimalCodec(s), base: base}
	case schema.BigDecimal:
		return anyBigDecimal{base: base}
	case schema.UUID:
		if s.Kind() == schema.String {
			return anyUUIDString{}
		}
		return anyUUIDFixed{base: base}
	case schema.Duration:
		return anyDuration{base: base}
	}
	return base
}

type anyTimestamp struct {
	l    schema.Logical
	base anyNode
}

func (n anyTimestamp) decodeAny(d *decodeState, b *anyBoxes) any {
	v := d.ReadLong()
	if d.Err != nil {
		return nil
	}
	u, _ := timeUnitOf(n.l)
	return b.time(unitsToTime(v, u))
}

func (n anyTimestamp) encodeAny(v any, e *encodeState) {
	if t, ok := v.(time.Time); ok {
		encodeTimestamp(t, n.l, e)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyTimestamp) accepts(v any) bool {
	if t, ok := v.(time.Time); ok {
		u, local := timeUnitOf(n.l)
		_, ok := timeToUnits(t, u, local)
		return ok
	}
	return n.base.accepts(v)
}

type anyDate struct{ base anyNode }

func (n anyDate) decodeAny(d *decodeState, b *anyBoxes) any {
	v := d.ReadInt()
	if d.Err != nil {
		return nil
	}
	return b.time(daysToTime(v))
}

func (n anyDate) encodeAny(v any, e *encodeState) {
	if t, ok := v.(time.Time); ok {
		encodeDate(t, e)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyDate) accepts(v any) bool {
	if t, ok := v.(time.Time); ok {
		sec, ok := wallSeconds(t, true)
		days, _ := floorDivMod(sec, secondsPerDay)
		return ok && days == int64(int32(days))
	}
	return n.base.accepts(v)
}

type anyTimeOfDay struct {
	micros bool
	base   anyNode
}

func (n anyTimeOfDay) decodeAny(d *decodeState, b *anyBoxes) any {
	if v, ok := decodeTimeOfDay(n.micros, d); ok {
		return b.duration(v)
	}
	return nil
}

func (n anyTimeOfDay) encodeAny(v any, e *encodeState) {
	if t, ok := v.(time.Duration); ok {
		encodeTimeOfDay(t, n.micros, e)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyTimeOfDay) accepts(v any) bool {
	if t, ok := v.(time.Duration); ok {
		ms := int64(t / time.Millisecond)
		return n.micros || ms == int64(int32(ms))
	}
	return n.base.accepts(v)
}

// anyRat returns the *big.Rat in v (a *big.Rat or a big.Rat).
func anyRat(v any) (*big.Rat, bool) {
	switch r := v.(type) {
	case *big.Rat:
		return r, r != nil
	case big.Rat:
		return &r, true
	}
	return nil, false
}

type anyDecimal struct {
	c    *decimalCodec
	base anyNode
}

func (n anyDecimal) decodeAny(d *decodeState, b *anyBoxes) any {
	r := new(big.Rat)
	if !n.c.decodeRat(r, d) {
		return nil
	}
	return r
}

func (n anyDecimal) encodeAny(v any, e *encodeState) {
	if r, ok := anyRat(v); ok {
		n.c.encodeRat(r, e)
		return
	}
	if num, ok := v.(json.Number); ok {
		encodeNumberDecimal(e, num, n.c)
		return
	}
	if _, isPtr := v.(*big.Rat); isPtr {
		e.Failf(ErrRange, "nil *big.Rat for a decimal")
		return
	}
	start := len(e.Buf)
	n.base.encodeAny(v, e)
	datumCheck{logical: schema.Decimal, size: n.c.size, precision: n.c.precision}.after(start, e)
}

func (n anyDecimal) accepts(v any) bool {
	if _, ok := anyRat(v); ok || isNumber(v) {
		return true // a scale or precision error is reported, not skipped
	}
	return n.base.accepts(v)
}

type anyBigDecimal struct{ base anyNode }

func (n anyBigDecimal) decodeAny(d *decodeState, b *anyBoxes) any {
	r := new(big.Rat)
	if !decodeBigDecimal(r, d) {
		return nil
	}
	return r
}

func (n anyBigDecimal) encodeAny(v any, e *encodeState) {
	if r, ok := anyRat(v); ok {
		encodeBigDecimal(r, e)
		return
	}
	if num, ok := v.(json.Number); ok {
		encodeNumberDecimal(e, num, nil)
		return
	}
	if _, isPtr := v.(*big.Rat); isPtr {
		e.Failf(ErrRange, "nil *big.Rat for a big-decimal")
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyBigDecimal) accepts(v any) bool {
	if _, ok := anyRat(v); ok || isNumber(v) {
		return true
	}
	return n.base.accepts(v)
}

// isNumber reports whether v is a json.Number that holds a JSON number:
// the decimals take one whatever its size, and report what does not fit.
func isNumber(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	_, ok = decimal.ScanNumber(string(n))
	return ok
}

// uuidArray returns the 16 bytes of v when it is a 16-byte array.
func uuidArray(v any) ([16]byte, bool) {
	if u, ok := v.([16]byte); ok {
		return u, true
	}
	var u [16]byte
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Array || !isUUIDArray(rv.Type()) {
		return u, false
	}
	for i := range u {
		u[i] = byte(rv.Index(i).Uint())
	}
	return u, true
}

// anyUUIDString is uuid on string: a string is written as it is when it
// is a uuid's text (as with a typed string), a 16-byte array as text.
type anyUUIDString struct{}

func (anyUUIDString) decodeAny(d *decodeState, b *anyBoxes) any { return b.string(d.ReadString()) }

func (anyUUIDString) encodeAny(v any, e *encodeState) {
	if u, ok := uuidArray(v); ok {
		e.WriteLong(uuidLen)
		e.Buf = appendUUID(e.Buf, &u)
		return
	}
	start := len(e.Buf)
	anyString{}.encodeAny(v, e)
	datumCheck{logical: schema.UUID}.after(start, e)
}

func (anyUUIDString) accepts(v any) bool {
	_, ok := uuidArray(v)
	return ok || anyString{}.accepts(v)
}

// anyUUIDFixed is uuid on fixed(16): decoded as text, encoded from text or
// from 16 raw bytes.
type anyUUIDFixed struct{ base anyNode }

func (anyUUIDFixed) decodeAny(d *decodeState, b *anyBoxes) any {
	if s, ok := decodeUUIDFixedText(d); ok {
		return b.string(s)
	}
	return nil
}

func (n anyUUIDFixed) encodeAny(v any, e *encodeState) {
	if s, ok := v.(string); ok {
		encodeUUIDFixedText(s, e)
		return
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		encodeUUIDFixedText(rv.String(), e)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyUUIDFixed) accepts(v any) bool {
	if s, ok := v.(string); ok {
		_, ok := parseUUID(s)
		return ok
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		_, ok := parseUUID(rv.String())
		return ok
	}
	return n.base.accepts(v)
}

type anyDuration struct{ base anyNode }

func (anyDuration) decodeAny(d *decodeState, b *anyBoxes) any {
	if b := d.ReadRaw(12); d.Err == nil {
		return boxDuration(durationFromBytes(b))
	}
	return nil
}

func (n anyDuration) encodeAny(v any, e *encodeState) {
	if x, ok := unboxDuration(v); ok {
		e.Buf = appendDuration(e.Buf, x)
		return
	}
	n.base.encodeAny(v, e)
}

func (n anyDuration) accepts(v any) bool {
	if _, ok := unboxDuration(v); ok {
		return true
	}
	return n.base.accepts(v)
}
