package codec

import (
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// The value.Value codecs of the primitive types, enums and fixeds.

func valueMismatch(e *encodeState, v value.Value, avroType string) {
	e.Failf(ErrRange, "cannot encode a %s value as Avro %s", v.Kind(), avroType)
}

type valueNull struct{}

func (valueNull) read(*decodeState) value.Value { return value.Null() }
func (valueNull) accepts(v value.Value) bool    { return v.Kind() == value.KindNull }
func (n valueNull) write(v value.Value, e *encodeState) {
	if !n.accepts(v) {
		valueMismatch(e, v, "null")
	}
}

type valueBool struct{}

func (valueBool) read(d *decodeState) value.Value { return value.Bool(d.ReadBool()) }
func (valueBool) accepts(v value.Value) bool      { return v.Kind() == value.KindBoolean }
func (n valueBool) write(v value.Value, e *encodeState) {
	if !n.accepts(v) {
		valueMismatch(e, v, "boolean")
		return
	}
	e.WriteBool(v.Bool())
}

// valueInteger reads an int or long value as int64.
func valueInteger(v value.Value) (int64, bool) {
	switch v.Kind() {
	case value.KindInt:
		return int64(v.Int()), true
	case value.KindLong:
		return v.Long(), true
	}
	return 0, false
}

type valueInt struct{}

func (valueInt) read(d *decodeState) value.Value { return value.Int(d.ReadInt()) }
func (valueInt) accepts(v value.Value) bool {
	x, ok := valueInteger(v)
	return ok && x == int64(int32(x))
}
func (n valueInt) write(v value.Value, e *encodeState) {
	x, ok := valueInteger(v)
	if !ok {
		valueMismatch(e, v, "int")
		return
	}
	if x != int64(int32(x)) {
		e.Failf(ErrRange, "%d does not fit an Avro int", x)
		return
	}
	e.WriteLong(x)
}

type valueLong struct{}

func (valueLong) read(d *decodeState) value.Value { return value.Long(d.ReadLong()) }
func (valueLong) accepts(v value.Value) bool {
	_, ok := valueInteger(v)
	return ok
}
func (n valueLong) write(v value.Value, e *encodeState) {
	x, ok := valueInteger(v)
	if !ok {
		valueMismatch(e, v, "long")
		return
	}
	e.WriteLong(x)
}

type valueFloat struct{}

func (valueFloat) read(d *decodeState) value.Value { return value.Float(d.ReadFloat()) }
func (valueFloat) accepts(v value.Value) bool      { return v.Kind() == value.KindFloat }
func (n valueFloat) write(v value.Value, e *encodeState) {
	if !n.accepts(v) {
		valueMismatch(e, v, "float")
		return
	}
	e.WriteFloat(v.Float())
}

type valueDouble struct{}

func (valueDouble) read(d *decodeState) value.Value { return value.Double(d.ReadDouble()) }
func (valueDouble) accepts(v value.Value) bool {
	k := v.Kind()
	return k == value.KindDouble || k == value.KindFloat
}
func (n valueDouble) write(v value.Value, e *encodeState) {
	switch v.Kind() {
	case value.KindDouble:
		e.WriteDouble(v.Double())
	case value.KindFloat:
		e.WriteDouble(float64(v.Float()))
	default:
		valueMismatch(e, v, "double")
	}
}

type valueString struct{}

func (valueString) read(d *decodeState) value.Value { return value.String(d.ReadString()) }
func (valueString) accepts(v value.Value) bool      { return v.Kind() == value.KindString }
func (n valueString) write(v value.Value, e *encodeState) {
	switch v.Kind() {
	case value.KindString:
		e.WriteString(v.Str())
	case value.KindBytes:
		e.WriteBytes(v.Bytes())
	default:
		valueMismatch(e, v, "string")
	}
}

type valueBytes struct{}

func (valueBytes) read(d *decodeState) value.Value {
	src := d.ReadStringBytes()
	if d.Err != nil || d.ZeroCopy {
		return value.Bytes(src)
	}
	if !d.Reserve(int64(len(src))) {
		return value.Null()
	}
	return value.Bytes(d.MakeBytes(src))
}
func (valueBytes) accepts(v value.Value) bool { return v.Kind() == value.KindBytes }
func (n valueBytes) write(v value.Value, e *encodeState) {
	switch v.Kind() {
	case value.KindBytes:
		e.WriteBytes(v.Bytes())
	case value.KindString:
		e.WriteString(v.Str())
	default:
		valueMismatch(e, v, "bytes")
	}
}

type valueEnum struct{ s *schema.Schema }

func (n valueEnum) read(d *decodeState) value.Value {
	i := readEnumIndex(n.s, d)
	if d.Err != nil {
		// i is 0, which is no symbol of an enum without symbols.
		return value.Value{}
	}
	return value.EnumOf(n.s, i)
}
func (n valueEnum) accepts(v value.Value) bool {
	if v.Kind() != value.KindEnum {
		return false
	}
	if es := v.Schema(); es != nil && es.FullName() != n.s.FullName() {
		return false
	}
	return v.EnumIndex() < len(n.s.Symbols())
}
func (n valueEnum) write(v value.Value, e *encodeState) {
	if v.Kind() == value.KindString {
		i := n.s.SymbolIndex(v.Str())
		if i < 0 {
			e.Failf(ErrRange, "%q is not a symbol of enum %s", v.Str(), n.s.FullName())
			return
		}
		e.WriteLong(int64(i))
		return
	}
	if v.Kind() != value.KindEnum {
		valueMismatch(e, v, "enum "+n.s.FullName())
		return
	}
	i := v.EnumIndex()
	if i < 0 || i >= len(n.s.Symbols()) {
		e.Failf(ErrRange, "enum index %d out of range for %s", i, n.s.FullName())
		return
	}
	e.WriteLong(int64(i))
}

type valueFixed struct{ size int }

func (n valueFixed) read(d *decodeState) value.Value {
	src := d.ReadRaw(n.size)
	if d.Err != nil || !d.Reserve(int64(n.size)) {
		return value.Null()
	}
	if d.ZeroCopy {
		return value.Fixed(src)
	}
	return value.Fixed(append([]byte(nil), src...))
}

// valueNamedFixed reads a fixed Value that knows its schema.
type valueNamedFixed struct{ s *schema.Schema }

func (n valueNamedFixed) read(d *decodeState) value.Value {
	v := valueFixed{n.s.Size()}.read(d)
	if d.Err != nil {
		return v
	}
	return value.FixedOf(n.s, v.Bytes())
}
func (n valueNamedFixed) accepts(v value.Value) bool {
	return valueFixed{n.s.Size()}.accepts(v)
}
func (n valueNamedFixed) write(v value.Value, e *encodeState) { valueFixed{n.s.Size()}.write(v, e) }

func (n valueFixed) accepts(v value.Value) bool {
	k := v.Kind()
	return (k == value.KindFixed || k == value.KindBytes) && len(v.Bytes()) == n.size
}
func (n valueFixed) write(v value.Value, e *encodeState) {
	k := v.Kind()
	if k != value.KindFixed && k != value.KindBytes {
		valueMismatch(e, v, "fixed")
		return
	}
	b := v.Bytes()
	if len(b) != n.size {
		e.Failf(ErrRange, "%d bytes for a fixed of size %d", len(b), n.size)
		return
	}
	e.Buf = append(e.Buf, b...)
}
