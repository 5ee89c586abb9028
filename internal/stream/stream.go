// Package stream holds what the streaming readers of the module (the
// Decoder of package avro and the container Reader of package ocf) share
// and cannot export: the budget of zero-size items over a whole stream,
// and the hook through which package ocf decodes its records with it.
package stream

import (
	"math"

	"github.com/avrogo/avro/schema"
)

// ItemsPerByte is the least number of zero-size items that a stream's
// budget gains per byte read; a stream gains maxItems/16384 a byte when
// that is more (so raising DecodeOptions.MaxZeroSizeItems raises both).
const ItemsPerByte = 64

// Credit is the budget of zero-size items (null, empty records, fixed(0):
// items that take no bytes, so that the input cannot bound them) of a
// stream of datums. One datum may use at most the per-datum limit
// (DecodeOptions.MaxZeroSizeItems), and the whole stream at most that
// limit plus ItemsPerByte per byte read, so that a stream of tiny datums
// that each declare a million nulls costs time and memory in proportion
// to its length. The zero value is a full budget.
type Credit struct {
	left int64
	init bool
}

// Budget returns what the next datum may use: the per-datum limit, or
// what is left of the stream's budget when that is less.
func (c *Credit) Budget(perDatum int64) int64 {
	if !c.init {
		c.left, c.init = perDatum, true
	}
	return max(min(perDatum, c.left), 0)
}

// Spend records that a datum used n items.
func (c *Credit) Spend(n int64) { c.left -= n }

// Earn adds the budget of n bytes read from the stream.
func (c *Credit) Earn(perDatum, n int64) {
	if !c.init {
		c.left, c.init = perDatum, true
	}
	rate := max(int64(ItemsPerByte), perDatum>>14)
	if n <= 0 {
		return
	}
	if n > (math.MaxInt64/2-max(c.left, 0))/rate {
		c.left = math.MaxInt64 / 2
		return
	}
	c.left += n * rate
}

// DatumReader decodes the records of one container file, one after the
// other, as DecodeOptions.UnmarshalNext does: Next decodes the datum at
// the start of data into the value v points at, with at most budget
// zero-size items, and returns the rest of data and the zero-size items
// used (on error rest is data). It keeps its decode state from one record
// to the next.
type DatumReader interface {
	Next(data []byte, v any, budget int64) (rest []byte, used int64, err error)
}

// NewDatumReader is set by package avro: it returns a DatumReader of
// schema s with the options opts (a *avro.DecodeOptions, which must not
// change while the reader is in use).
var NewDatumReader func(opts any, s *schema.Schema) DatumReader
