package codec

import (
	"encoding/binary"
	"math/big"
	"reflect"

	"github.com/avrogo/avro/internal/decimal"
	"github.com/avrogo/avro/schema"
)

// A decimal or uuid held in a Go type of its underlying Avro type ([]byte
// for a decimal, a string for a uuid) is written as it is, but only when
// it is a value of the logical type: a decimal's unscaled value has at
// most precision digits, a uuid's text is the RFC 4122 form. So every
// encoder, whatever the Go type, refuses what the logical type cannot
// hold, as the readers of Avro JSON do, while decoders keep what a writer
// sent.

// checkedEncoder encodes with enc, then checks the datum it wrote.
type checkedEncoder struct {
	enc   encoder
	check datumCheck
}

// datumCheck checks the datum of a logical type that an encoder of its
// underlying type wrote; size is the fixed's, or 0 for a bytes or string.
type datumCheck struct {
	logical   schema.Logical
	size      int
	precision int
}

func newDatumCheck(s *schema.Schema) datumCheck {
	c := datumCheck{logical: s.Logical(), precision: s.Precision()}
	if s.Kind() == schema.Fixed {
		c.size = s.Size()
	}
	return c
}

func (c checkedEncoder) encode(p pointer, e *encodeState) {
	start := len(e.Buf)
	c.enc.encode(p, e)
	c.check.after(start, e)
}

// after checks the datum written to e.Buf from start.
func (c datumCheck) after(start int, e *encodeState) {
	if e.Err != nil {
		return
	}
	raw := e.Buf[start:]
	if c.size == 0 {
		n, k := binary.Varint(raw)
		if k <= 0 || n != int64(len(raw)-k) {
			return
		}
		raw = raw[k:]
	}
	switch c.logical {
	case schema.UUID:
		if _, ok := parseUUID(raw); !ok {
			e.Failf(ErrRange, "%q is not a UUID (8-4-4-4-12 hexadecimal digits)", truncateText(raw))
		}
	case schema.Decimal:
		if unscaledExceeds(raw, c.precision) {
			e.Failf(ErrRange, "unscaled value of %d bytes has more than %d digits (the decimal's precision)", len(raw), c.precision)
		}
	}
}

// unscaledExceeds reports whether the two's-complement integer raw has
// more than precision digits. A byte holds at most 2.41 digits, so short
// values are not converted.
func unscaledExceeds(raw []byte, precision int) bool {
	if precision <= 0 || len(raw)*241 < (precision-1)*100 {
		return false
	}
	u := new(big.Int)
	decimal.SetTwos(u, raw)
	return decimal.ExceedsPrecision(u, precision)
}

// checkedRawEncoder returns the encoder of a decimal or uuid s from a Go
// type t of its underlying type, or nil when t has no such mapping.
func checkedRawEncoder(s *schema.Schema, t reflect.Type) encoder {
	base := scalarCodec(s, t)
	if base == nil {
		return nil
	}
	return checkedEncoder{enc: base, check: newDatumCheck(s)}
}
