package codec

import (
	"math"
	"reflect"

	"github.com/avrogo/avro/schema"
)

// nullCodec reads and writes nothing: null takes no bytes.
type nullCodec struct{}

func (nullCodec) decode(pointer, *decodeState) {}
func (nullCodec) encode(pointer, *encodeState) {}

type boolCodec struct{}

func (boolCodec) decode(p pointer, d *decodeState) { *as[bool](p) = d.ReadBool() }
func (boolCodec) encode(p pointer, e *encodeState) { e.WriteBool(*as[bool](p)) }

// integer is every Go integer kind an Avro int or long maps to.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// fitsInt64 reports whether x converts to int64 and back unchanged and with
// its sign, so a uint64 above MaxInt64 does not pass for a negative long.
func fitsInt64[T integer](x T) bool {
	return T(int64(x)) == x && (x < 0) == (int64(x) < 0)
}

// fitsT reports whether the long v converts to T unchanged.
func fitsT[T integer](v int64) bool {
	t := T(v)
	return int64(t) == v && (t < 0) == (v < 0)
}

// intCodec maps an Avro int (32 bits on the wire) to the Go integer T.
type intCodec[T integer] struct{}

func (intCodec[T]) decode(p pointer, d *decodeState) {
	v := d.ReadInt()
	if !fitsT[T](int64(v)) {
		d.Failf(ErrRange, "int %d overflows %T", v, T(0))
		return
	}
	*as[T](p) = T(v)
}

func (intCodec[T]) encode(p pointer, e *encodeState) {
	x := *as[T](p)
	if !fitsInt64(x) || int64(x) != int64(int32(int64(x))) {
		e.Failf(ErrRange, "%v does not fit an Avro int", x)
		return
	}
	e.WriteLong(int64(x))
}

// longCodec maps an Avro long to the Go integer T.
type longCodec[T integer] struct{}

func (longCodec[T]) decode(p pointer, d *decodeState) {
	v := d.ReadLong()
	if !fitsT[T](v) {
		d.Failf(ErrRange, "long %d overflows %T", v, T(0))
		return
	}
	*as[T](p) = T(v)
}

func (longCodec[T]) encode(p pointer, e *encodeState) {
	x := *as[T](p)
	if !fitsInt64(x) {
		e.Failf(ErrRange, "%v does not fit an Avro long", x)
		return
	}
	e.WriteLong(int64(x))
}

// int64Codec and int32Codec are the common cases without range checks.
type int64Codec struct{}

func (int64Codec) decode(p pointer, d *decodeState) { *as[int64](p) = d.ReadLong() }
func (int64Codec) encode(p pointer, e *encodeState) { e.WriteLong(*as[int64](p)) }

type int32Codec struct{}

func (int32Codec) decode(p pointer, d *decodeState) { *as[int32](p) = d.ReadInt() }
func (int32Codec) encode(p pointer, e *encodeState) { e.WriteLong(int64(*as[int32](p))) }

// intKindCodec returns the codec of Avro int or long for an integer kind.
// Go types of one kind share a layout, so the codec works on named types
// too.
func intKindCodec(k schema.Kind, t reflect.Type) codec {
	long := k == schema.Long
	switch t.Kind() {
	case reflect.Int64:
		if long {
			return int64Codec{}
		}
		return intCodec[int64]{}
	case reflect.Int32:
		if long {
			return longCodec[int32]{}
		}
		return int32Codec{}
	case reflect.Int:
		if long {
			return longCodec[int]{}
		}
		return intCodec[int]{}
	case reflect.Int8:
		if long {
			return longCodec[int8]{}
		}
		return intCodec[int8]{}
	case reflect.Int16:
		if long {
			return longCodec[int16]{}
		}
		return intCodec[int16]{}
	case reflect.Uint:
		if long {
			return longCodec[uint]{}
		}
		return intCodec[uint]{}
	case reflect.Uint8:
		if long {
			return longCodec[uint8]{}
		}
		return intCodec[uint8]{}
	case reflect.Uint16:
		if long {
			return longCodec[uint16]{}
		}
		return intCodec[uint16]{}
	case reflect.Uint32:
		if long {
			return longCodec[uint32]{}
		}
		return intCodec[uint32]{}
	case reflect.Uint64:
		if long {
			return longCodec[uint64]{}
		}
		return intCodec[uint64]{}
	case reflect.Uintptr:
		if long {
			return longCodec[uintptr]{}
		}
		return intCodec[uintptr]{}
	}
	return nil
}

type floatCodec struct{}

func (floatCodec) decode(p pointer, d *decodeState) { *as[float32](p) = d.ReadFloat() }
func (floatCodec) encode(p pointer, e *encodeState) { e.WriteFloat(*as[float32](p)) }

type doubleCodec struct{}

func (doubleCodec) decode(p pointer, d *decodeState) { *as[float64](p) = d.ReadDouble() }
func (doubleCodec) encode(p pointer, e *encodeState) { e.WriteDouble(*as[float64](p)) }

// floatAsDoubleCodec holds an Avro float in a float64 (exact).
type floatAsDoubleCodec struct{}

func (floatAsDoubleCodec) decode(p pointer, d *decodeState) {
	*as[float64](p) = float64(d.ReadFloat())
}

func (floatAsDoubleCodec) encode(p pointer, e *encodeState) {
	x := *as[float64](p)
	f := float32(x)
	// Rounding to float32 is the documented conversion; only a finite
	// value that overflows to infinity is out of range.
	if math.IsInf(float64(f), 0) && !math.IsInf(x, 0) {
		e.Failf(ErrRange, "%v overflows an Avro float", x)
		return
	}
	e.WriteFloat(f)
}

// doubleAsFloatCodec holds an Avro double in a float32 (rounded).
type doubleAsFloatCodec struct{}

func (doubleAsFloatCodec) decode(p pointer, d *decodeState) {
	*as[float32](p) = float32(d.ReadDouble())
}

func (doubleAsFloatCodec) encode(p pointer, e *encodeState) {
	e.WriteDouble(float64(*as[float32](p)))
}

func floatKindCodec(k schema.Kind, t reflect.Type) codec {
	switch {
	case k == schema.Float && t.Kind() == reflect.Float32:
		return floatCodec{}
	case k == schema.Float && t.Kind() == reflect.Float64:
		return floatAsDoubleCodec{}
	case k == schema.Double && t.Kind() == reflect.Float64:
		return doubleCodec{}
	case k == schema.Double && t.Kind() == reflect.Float32:
		return doubleAsFloatCodec{}
	}
	return nil
}
