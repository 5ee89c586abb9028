package codec

import (
	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/internal/wire"

	"github.com/avrogo/avro/schema"
)

// datumReader decodes the datums of one stream (a Decoder's, or the
// records of a container file) with a decode state of its own, kept from
// one datum to the next, and the decoder of the last Go type it was given.
// Per datum that saves the pool's Get and Put, the codec cache lookup and
// working out the options' defaults: 9% of reading small records from a
// raw stream into a reused struct (BenchmarkDecoderReused), 3% of reading
// a container file into new structs, where allocation dominates.
type datumReader struct {
	opts   *DecodeOptions
	schema *schema.Schema
	// limits are the options with their defaults filled in; allocLeft,
	// which depends on the input's length, is set per datum.
	limits wire.Limits
	d      decodeState
	// typ is the pointer type of the last datum decoded, and dec its
	// decoder (only successes are kept).
	typ typeWord
	dec decoder
	// skipper reads past a datum of the writer's schema, made on first
	// use.
	skipper *skip.Skipper
}

func newDatumReader(o *DecodeOptions, s *schema.Schema) *datumReader {
	r := &datumReader{opts: o, schema: s}
	o.setLimits(&r.limits, 0)
	return r
}

// decoderFor returns the decoder for the value v points at and the
// address it decodes into, as topDecoder does.
func (r *datumReader) decoderFor(v *any) (decoder, pointer, error) {
	ef := efaceOf(v)
	if !ef.typ.isNil() && ef.typ == r.typ && !ef.data.isNil() {
		return r.dec, ef.data, nil
	}
	dec, p, err := topDecoder(r.schema, v)
	if err == nil {
		r.typ, r.dec = ef.typ, dec
	}
	return dec, p, err
}

// start readies the state for the datum at the start of data, which may
// use at most what b gives of the stream's budgets.
func (r *datumReader) start(data []byte, b wire.Budgets) *decodeState {
	d := &r.d
	d.Rewind(data)
	d.Limits = r.limits
	d.AllocLeft = r.opts.maxAlloc(len(data))
	d.ZeroLeft = min(d.ZeroLeft, b.Zero)
	d.DefaultsLeft = min(d.AllocLeft, b.Defaults)
	return d
}

// used returns what the datum decoded since start used of b.
func (d *decodeState) used(b wire.Budgets) wire.Budgets {
	return wire.Budgets{Zero: b.Zero - d.ZeroLeft, Defaults: b.Defaults - d.DefaultsLeft}
}

// streamBudgets are the budgets the datums of one stream share (see
// DecodeOptions.MaxZeroSizeItems and MaxAlloc).
type streamBudgets struct {
	zero, defaults wire.Credit
	// perDatum is what one datum may use of each: MaxZeroSizeItems, and
	// MaxAlloc for an input of no bytes.
	perDatum wire.Budgets
}

func newStreamBudgets(o *DecodeOptions) streamBudgets {
	return streamBudgets{perDatum: wire.Budgets{Zero: o.maxZeroSizeItems(), Defaults: o.maxAlloc(0)}}
}

// next returns what the next datum may use.
func (s *streamBudgets) next() wire.Budgets {
	return wire.Budgets{Zero: s.zero.Budget(s.perDatum.Zero), Defaults: s.defaults.Budget(s.perDatum.Defaults)}
}

// spend records what a datum used.
func (s *streamBudgets) spend(used wire.Budgets) {
	s.zero.Spend(used.Zero)
	s.defaults.Spend(used.Defaults)
}

// earn adds what n bytes read from the stream earn.
func (s *streamBudgets) earn(n int64) {
	s.zero.Earn(s.perDatum.Zero, n, wire.ZeroItemsRate(s.perDatum.Zero))
	s.defaults.Earn(s.perDatum.Defaults, n, DefaultAllocPerByte)
}

// Next decodes the datum at the start of data into the value v points at
// and returns the bytes after it and what it used of b; on error rest is
// data.
func (r *datumReader) Next(data []byte, v any, b wire.Budgets) (rest []byte, used wire.Budgets, err error) {
	dec, p, err := r.decoderFor(&v)
	if err != nil {
		return data, wire.Budgets{}, err
	}
	d := r.start(data, b)
	b.Zero, b.Defaults = d.ZeroLeft, d.DefaultsLeft
	dec.decode(p, d)
	n, used := d.Pos, d.used(b)
	err = d.toError()
	d.clear()
	if err != nil {
		return data, used, err
	}
	return data[n:], used, nil
}

// DatumReader decodes the records of one container file, one after the
// other, for package ocf.
type DatumReader struct{ r *datumReader }

// NewDatumReader returns a DatumReader of schema s with the options o,
// which must not change while the reader is in use.
func NewDatumReader(o *DecodeOptions, s *schema.Schema) DatumReader {
	return DatumReader{newDatumReader(o, s)}
}

// Next decodes the datum at the start of data into the value v points at,
// within the budgets b, and returns the rest of data and what it used of
// them (on error rest is data).
func (r DatumReader) Next(data []byte, v any, b wire.Budgets) (rest []byte, used wire.Budgets, err error) {
	return r.r.Next(data, v, b)
}

// Skip reads past the datum at the start of data, a datum of the writer's
// schema (of s itself, or the writer of a resolved s), without decoding
// it, within the budgets b, and returns the rest of data and what it used
// of them; on error rest is data. It checks what framing needs: lengths,
// counts, union indexes and enum symbols, under the decode limits.
func (r DatumReader) Skip(data []byte, b wire.Budgets) (rest []byte, used wire.Budgets, err error) {
	sk := r.r.skipper
	if sk == nil {
		sk = skip.New(writerOf(r.r.schema))
		r.r.skipper = sk
	}
	d := r.r.start(data, b)
	b.Zero, b.Defaults = d.ZeroLeft, d.DefaultsLeft
	sk.Skip(&d.Decoder)
	n, used := d.Pos, d.used(b)
	err = d.toError()
	d.clear()
	if err != nil {
		return data, used, err
	}
	return data[n:], used, nil
}
