package ocf

import (
	"sync"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// A batchDecoder decodes the records of a block on a worker, for Records
// of one Go type, so that decoding runs in parallel as well as
// decompression.
type batchDecoder interface {
	decode(b *block)
}

// A batch is the records of a block that a worker decoded, in order, up
// to the first that did not decode: each record's value, the bytes of the
// block after it, and what it used of the budgets of one datum.
type batch[T any] struct {
	vals []T
	left []int
	used []wire.Budgets
}

// batchOf decodes blocks into batches of T. It refers to nothing of the
// Reader, so that a Reader dropped without Close can still be collected.
type batchOf[T any] struct {
	opts   codec.DecodeOptions
	schema *schema.Schema
	per    wire.Budgets
	pool   sync.Pool // of codec.DatumReader: one per worker at a time
}

func newBatchOf[T any](r *Reader) *batchOf[T] {
	d := &batchOf[T]{opts: r.engineOpts, schema: r.decodeSchema, per: r.perDatum()}
	d.pool.New = func() any {
		dr := codec.NewDatumReader(&d.opts, d.schema)
		return &dr
	}
	return d
}

// decode decodes the records of b, which is unpacked, each within the
// budgets of one datum; the Reader checks them against the file's
// budgets as it takes each record, and decodes a record itself where a
// worker's result may not be what it would get.
func (d *batchOf[T]) decode(b *block) {
	if b.err != nil || b.unpackErr != nil || !b.loaded {
		return
	}
	bt, _ := b.spare.(*batch[T])
	if bt == nil {
		bt = new(batch[T])
	}
	b.batch, b.spare = bt, nil
	bt.vals, bt.left, bt.used = bt.vals[:0], bt.left[:0], bt.used[:0]
	dr := d.pool.Get().(*codec.DatumReader)
	defer d.pool.Put(dr)
	rest := b.data
	var zero T
	for range b.info.Count {
		// Decoding in place keeps the value off the heap: a value of its
		// own would escape through the decoder's any.
		k := len(bt.vals)
		bt.vals = append(bt.vals, zero)
		next, used, err := dr.Next(rest, &bt.vals[k], d.per)
		if err != nil {
			bt.vals[k] = zero
			bt.vals = bt.vals[:k]
			return
		}
		rest = next
		bt.left = append(bt.left, len(rest))
		bt.used = append(bt.used, used)
	}
}

// decodeAhead makes the workers of a parallel Reader decode the records
// of the blocks they unpack with d, or stop decoding when d is nil.
func (r *Reader) decodeAhead(d batchDecoder) {
	r.batcher = d
	if r.pipe != nil {
		r.pipe.setDecoder(d)
	}
}

// batched returns the next record from the batch a worker decoded for
// the current block, and consumes it as Decode would; ok is false when
// the Reader must decode the record itself: no batch of T, the record did
// not decode there, or its budgets are more than the file has left.
func batched[T any](r *Reader) (v T, ok bool) {
	b := r.cur
	if b == nil || !r.inBlock || r.left <= 0 {
		return v, false
	}
	bt, _ := b.batch.(*batch[T])
	k := int(b.info.Count - r.left)
	if bt == nil || k >= len(bt.vals) {
		return v, false
	}
	// The worker decoded record k from where the Reader is now.
	if start := len(b.data); k > 0 && len(r.rest) != bt.left[k-1] || k == 0 && len(r.rest) != start {
		return v, false
	}
	per, used := r.perDatum(), bt.used[k]
	if used.Zero > r.zero.Budget(per.Zero) || used.Defaults > r.defaults.Budget(per.Defaults) {
		return v, false
	}
	r.zero.Spend(used.Zero)
	r.defaults.Spend(used.Defaults)
	v = bt.vals[k]
	var zero T
	bt.vals[k] = zero // the caller owns the value now
	r.rest, r.left = r.rest[len(r.rest)-bt.left[k]:], r.left-1
	r.records++
	return v, true
}
