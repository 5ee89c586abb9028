package wire

import "math"

// ItemsPerByte is the least number of zero-size items that a stream's
// budget gains per byte read; a stream gains maxItems/16384 a byte when
// that is more (so raising DecodeOptions.MaxZeroSizeItems raises both).
const ItemsPerByte = 64

// ZeroItemsRate is what a byte read earns the budget of zero-size items of
// a stream whose per-datum limit is perDatum.
func ZeroItemsRate(perDatum int64) int64 { return max(int64(ItemsPerByte), perDatum>>14) }

// Credit is a budget that the datums of a stream share, for what the input
// cannot bound: zero-size items (null, empty records, fixed(0): items that
// take no bytes), and the reader defaults that a resolved schema fills in
// for fields the writer lacks. One datum may use at most the per-datum
// limit, and the whole stream at most that limit plus a rate per byte
// read, so that a stream of tiny datums that each declare a million nulls,
// or a million empty records that each take a large default, costs time
// and memory in proportion to its length. The zero value is a full
// budget.
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

// Spend records that a datum used n.
func (c *Credit) Spend(n int64) { c.left -= n }

// Earn adds the budget of n bytes read from the stream, at rate a byte.
func (c *Credit) Earn(perDatum, n, rate int64) {
	if !c.init {
		c.left, c.init = perDatum, true
	}
	if n <= 0 {
		return
	}
	if n > (math.MaxInt64/2-max(c.left, 0))/rate {
		c.left = math.MaxInt64 / 2
		return
	}
	c.left += n * rate
}

// Budgets are what one datum of a stream may use of the stream's budgets,
// or what it used: zero-size items, and bytes of reader defaults.
type Budgets struct {
	Zero, Defaults int64
}
