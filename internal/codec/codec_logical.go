package codec

import (
	"encoding/binary"
	"math/big"
	"reflect"
	"time"

	"github.com/avrogo/avro/schema"
)

// Logical types map to Go types as follows. A schema node whose logical
// type has no mapping for the Go type at hand is coded as its underlying
// Avro type (int64 for timestamps, int32 for date, []byte for decimal, ...),
// so the raw values stay reachable.
//
//	timestamp-millis, -micros, -nanos        long       time.Time: the instant; decodes in UTC
//	local-timestamp-millis, -micros, -nanos  long       time.Time: the wall clock, see below
//	date                                     int        time.Time: the calendar date, see below
//	time-millis                              int        time.Duration since midnight
//	time-micros                              long       time.Duration since midnight
//	decimal                                  bytes, fixed  big.Rat, *big.Rat
//	big-decimal                              bytes      big.Rat, *big.Rat
//	uuid                                     string     [16]byte-kinded arrays (RFC 4122 text on the wire), string
//	uuid                                     fixed(16)  [16]byte-kinded arrays (raw bytes), string (RFC 4122 text in Go)
//	duration                                 fixed(12)  Duration
//
// time.Time here also means any Go type defined as time.Time (type T
// time.Time), and Duration any struct type convertible to it. A Go type
// from this list that cannot hold the schema (time.Time for a decimal,
// time.Duration for a timestamp, ...) is a *TypeError when the codec is
// compiled: in particular time.Duration is not a timestamp mapping, since
// the nanoseconds it would hold are not the schema's unit.

var (
	timeType         = reflect.TypeFor[time.Time]()
	timeDurationType = reflect.TypeFor[time.Duration]()
	ratType          = reflect.TypeFor[big.Rat]()
	durationType     = reflect.TypeFor[Duration]()
)

// Duration is the layout of the Go value of the Avro duration logical
// type (a fixed of 12 bytes: three little-endian unsigned 32-bit
// integers). Users see it as the type UseDurationType names.
type Duration struct {
	Months       uint32
	Days         uint32
	Milliseconds uint32
}

// boxDuration makes the value that decoding a duration into an any gives,
// and unboxDuration reads one to encode: a Duration until UseDurationType
// names the exported type.
var (
	boxDuration   = func(d Duration) any { return d }
	unboxDuration = func(v any) (Duration, bool) { d, ok := v.(Duration); return d, ok }
)

// UseDurationType makes T the Go type of durations: what a duration
// decoded into an any is, what an any holding one encodes, and what
// SchemaOf maps to duration. Package avro calls it when it is initialized,
// with its exported Duration, so that no value of this package's type
// reaches users.
func UseDurationType[T ~struct{ Months, Days, Milliseconds uint32 }]() {
	durationType = reflect.TypeFor[T]()
	boxDuration = func(d Duration) any { return T(d) }
	unboxDuration = func(v any) (Duration, bool) { t, ok := v.(T); return Duration(t), ok }
}

// isTimeType reports whether t is time.Time or a type defined from it,
// which has the same layout.
func isTimeType(t reflect.Type) bool {
	return t == timeType || (t.Kind() == reflect.Struct && t.ConvertibleTo(timeType))
}

// isDurationType reports whether t is Duration or a struct type with the
// same fields, which has the same layout.
func isDurationType(t reflect.Type) bool {
	return t == durationType || (t.Kind() == reflect.Struct && t.ConvertibleTo(durationType))
}

// isUUIDArray reports whether t is an array of 16 bytes (such as [16]byte
// or a user's type UUID [16]byte).
func isUUIDArray(t reflect.Type) bool {
	return t.Kind() == reflect.Array && t.Len() == 16 && t.Elem().Kind() == reflect.Uint8
}

// isLogicalGoType reports whether t is one of the Go types that exist only
// to hold logical types: for those a schema without a matching mapping is
// a compile-time error rather than a fall back to the underlying type.
// (*big.Rat is not listed: pointers are compiled through their element.)
func isLogicalGoType(t reflect.Type) bool {
	return isTimeType(t) || t == timeDurationType || t == ratType || isDurationType(t)
}

// logicalDecoder returns the decoder of s (s.Logical() != schema.NoLogical)
// into Go type t when t is one of the logical mappings listed above; (nil,
// nil) when t is not, so the caller falls back to the mapping of the
// underlying type; a *TypeError when t is a logical Go type that cannot
// hold s.
func logicalDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	dec, _, err := logicalCodecFor(s, t, path)
	return dec, err
}

// logicalEncoder is the encoding counterpart of logicalDecoder.
func logicalEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	_, enc, err := logicalCodecFor(s, t, path)
	return enc, err
}

// logicalCodecFor returns both directions of the mapping of s to t: the
// rules are the same, so decoding and encoding cannot disagree on which Go
// types a logical type accepts.
func logicalCodecFor(s *schema.Schema, t reflect.Type, path string) (decoder, encoder, error) {
	both := func(c interface {
		decoder
		encoder
	}) (decoder, encoder, error) {
		return c, c, nil
	}
	detail := ""
	switch l := s.Logical(); l {
	case schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
		schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
		if isTimeType(t) {
			return both(timestampCodec{l})
		}
		detail = l.String() + " maps to time.Time or an integer"
	case schema.Date:
		if isTimeType(t) {
			return both(dateCodec{})
		}
		detail = "date maps to time.Time or an integer"
	case schema.TimeMillis, schema.TimeMicros:
		if t == timeDurationType {
			return both(timeOfDayCodec{micros: l == schema.TimeMicros})
		}
		detail = l.String() + " maps to time.Duration or an integer"
	case schema.Decimal:
		if t == ratType {
			return both(newDecimalCodec(s))
		}
		if enc := checkedRawEncoder(s, t); enc != nil {
			return nil, enc, nil
		}
		detail = "decimal maps to big.Rat, *big.Rat or []byte"
	case schema.BigDecimal:
		if t == ratType {
			return both(bigDecimalCodec{})
		}
		detail = "big-decimal maps to big.Rat, *big.Rat or []byte"
	case schema.UUID:
		switch {
		case s.Kind() == schema.String && isUUIDArray(t):
			return both(uuidTextCodec{})
		case s.Kind() == schema.Fixed && s.Size() == 16 && t.Kind() == reflect.String:
			return both(uuidFixedStringCodec{})
		case s.Kind() == schema.String && (t.Kind() == reflect.String || t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8):
			if enc := checkedRawEncoder(s, t); enc != nil {
				return nil, enc, nil
			}
		case s.Kind() == schema.String && t.Kind() != reflect.String:
			// A UUID type of its own (a struct, say) with text methods:
			// the text codecs apply them to the string, as they
			// do for plain strings (the generic dispatch leaves logical
			// nodes to this function).
			var dec decoder
			var enc encoder
			if reflect.PointerTo(t).Implements(textUnmarshaler) {
				dec = textDecoder{s: s, t: t}
			}
			if t.Implements(textMarshaler) {
				enc = checkedEncoder{enc: textEncoder{s: s, t: t}, check: newDatumCheck(s)}
			}
			if dec != nil || enc != nil {
				return dec, enc, nil
			}
		}
		detail = "uuid maps to a string or a [16]byte array"
	case schema.Duration:
		if isDurationType(t) {
			return both(durationCodec{})
		}
		detail = "duration maps to avro.Duration or a [12]byte array"
	}
	if isLogicalGoType(t) {
		return nil, nil, typeErr(path, t, s, detail)
	}
	return nil, nil, nil
}

// durationCodec maps duration (fixed 12) to Duration.
type durationCodec struct{}

func (durationCodec) decode(p pointer, d *decodeState) {
	if b := d.ReadRaw(12); d.Err == nil {
		*as[Duration](p) = durationFromBytes(b)
	}
}

func (durationCodec) encode(p pointer, e *encodeState) {
	e.Buf = appendDuration(e.Buf, *as[Duration](p))
}

func durationFromBytes(b []byte) Duration {
	return Duration{
		Months:       binary.LittleEndian.Uint32(b[0:]),
		Days:         binary.LittleEndian.Uint32(b[4:]),
		Milliseconds: binary.LittleEndian.Uint32(b[8:]),
	}
}

func appendDuration(dst []byte, v Duration) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, v.Months)
	dst = binary.LittleEndian.AppendUint32(dst, v.Days)
	return binary.LittleEndian.AppendUint32(dst, v.Milliseconds)
}
