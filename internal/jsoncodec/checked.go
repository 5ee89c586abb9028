package jsoncodec

import (
	"math/big"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/decimal"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// Reading JSON writes a datum, so it refuses what the encoders of Go
// values refuse: a decimal given as its bytes whose unscaled value has
// more digits than the precision, and a uuid's string that is not its
// RFC 4122 text. Writing JSON from a datum keeps what
// the datum holds.

// checkedNode reads with its node, then checks the datum it wrote.
type checkedNode struct {
	node
	precision int
	fixed     bool
	uuid      bool
}

// checkedUnderlying returns node n of the underlying type of s, checked
// as s's logical type needs, or n when it needs no check.
func checkedUnderlying(s *schema.Schema, n node) node {
	if s.Logical() == schema.Decimal {
		return checkedNode{node: n, precision: s.Precision(), fixed: s.Kind() == schema.Fixed}
	}
	if s.Logical() == schema.UUID && s.Kind() == schema.String {
		return checkedNode{node: n, uuid: true}
	}
	return n
}

func (n checkedNode) fromJSON(f *fromState) {
	start, at := len(f.out), f.Pos
	n.node.fromJSON(f)
	if f.failed() {
		return
	}
	raw := f.out[start:]
	if !n.fixed {
		_, k := readVarint(raw)
		raw = raw[k:]
	}
	if n.uuid {
		if _, ok := codec.ParseUUID(raw); !ok {
			f.fail(wire.ErrRange, at, "%q is not a uuid (8-4-4-4-12 hexadecimal digits)", raw)
		}
		return
	}
	if exceedsPrecision(raw, n.precision) {
		f.fail(wire.ErrRange, at, "unscaled value of %d bytes has more than %d digits (the decimal's precision)", len(raw), n.precision)
	}
}

// readVarint returns the zigzag varint at the start of b and its length.
func readVarint(b []byte) (int64, int) {
	var u uint64
	for i, c := range b {
		u |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1), i + 1
		}
	}
	return 0, len(b)
}

// exceedsPrecision reports whether the two's-complement integer raw has
// more than precision digits; a byte holds at most 2.41 digits, so short
// values are not converted.
func exceedsPrecision(raw []byte, precision int) bool {
	if precision <= 0 || len(raw)*241 < (precision-1)*100 {
		return false
	}
	u := new(big.Int)
	decimal.SetTwos(u, raw)
	return decimal.ExceedsPrecision(u, precision)
}
