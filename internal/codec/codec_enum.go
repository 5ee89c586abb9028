package codec

import (
	"reflect"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

// readEnumIndex reads an enum index and checks it against the symbols.
func readEnumIndex(s *schema.Schema, d *decodeState) int {
	return d.ReadSymbol(len(s.Symbols()), s.FullName())
}

// enumStringCodec maps an enum to its symbol in a Go string. Decoding
// shares the schema's symbol strings, so it does not allocate.
type enumStringCodec struct{ s *schema.Schema }

func (c enumStringCodec) decode(p pointer, d *decodeState) {
	i := readEnumIndex(c.s, d)
	if d.Err == nil {
		*as[string](p) = c.s.Symbols()[i]
	}
}

func (c enumStringCodec) encode(p pointer, e *encodeState) {
	sym := *as[string](p)
	i := c.s.SymbolIndex(sym)
	if i < 0 {
		e.Failf(ErrRange, "%q is not a symbol of enum %s", sym, c.s.FullName())
		return
	}
	e.WriteLong(int64(i))
}

// enumIndexCodec maps an enum to its index in a Go integer.
type enumIndexCodec struct {
	s     *schema.Schema
	inner interface {
		decoder
		encoder
	}
}

func (c enumIndexCodec) decode(p pointer, d *decodeState) {
	start := d.Pos
	readEnumIndex(c.s, d)
	if d.Err == nil {
		d.Pos = start
		c.inner.decode(p, d)
	}
}

func (c enumIndexCodec) encode(p pointer, e *encodeState) {
	n := len(e.Buf)
	c.inner.encode(p, e)
	if e.Err != nil {
		return
	}
	// The index was written as an int; check it against the symbols by
	// decoding what was just written.
	v, _ := varint.Int(e.Buf[n:])
	if v < 0 || int(v) >= len(c.s.Symbols()) {
		e.Buf = e.Buf[:n]
		e.Failf(ErrRange, "enum index %d out of range for %s", v, c.s.FullName())
	}
}

func enumCodecFor(s *schema.Schema, t reflect.Type) codec {
	if t.Kind() == reflect.String {
		return enumStringCodec{s}
	}
	if inner := intKindCodec(schema.Int, t); inner != nil {
		return enumIndexCodec{s: s, inner: inner}
	}
	return nil
}
