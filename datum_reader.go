package avro

import (
	"unsafe"

	"github.com/avrogo/avro/internal/stream"
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
	limits decodeLimits
	d      decodeState
	// typ is the pointer type of the last datum decoded, and dec its
	// decoder (only successes are kept).
	typ unsafe.Pointer
	dec decoder
}

func newDatumReader(o *DecodeOptions, s *schema.Schema) *datumReader {
	r := &datumReader{opts: o, schema: s}
	o.setLimits(&r.limits, 0)
	return r
}

// decoderFor returns the decoder for the value v points at and the
// address it decodes into, as topDecoder does.
func (r *datumReader) decoderFor(v *any) (decoder, unsafe.Pointer, error) {
	ef := efaceOf(v)
	if ef.typ != nil && ef.typ == r.typ && ef.data != nil {
		return r.dec, ef.data, nil
	}
	dec, p, err := topDecoder(r.schema, v)
	if err == nil {
		r.typ, r.dec = ef.typ, dec
	}
	return dec, p, err
}

// start readies the state for the datum at the start of data, which may
// use at most budget zero-size items.
func (r *datumReader) start(data []byte, budget int64) *decodeState {
	d := &r.d
	d.rewind(data)
	d.decodeLimits = r.limits
	d.allocLeft = r.opts.maxAlloc(len(data))
	d.zeroLeft = min(d.zeroLeft, budget)
	return d
}

// Next decodes the datum at the start of data into the value v points at
// and returns the bytes after it and the zero-size items it used; on
// error rest is data. It implements stream.DatumReader for the container
// Reader.
func (r *datumReader) Next(data []byte, v any, budget int64) (rest []byte, used int64, err error) {
	dec, p, err := r.decoderFor(&v)
	if err != nil {
		return data, 0, err
	}
	d := r.start(data, budget)
	first := d.zeroLeft
	dec.decode(p, d)
	n, used := d.pos, first-d.zeroLeft
	err = d.toError()
	d.clear()
	if err != nil {
		return data, used, err
	}
	return data[n:], used, nil
}

func init() {
	stream.NewDatumReader = func(o any, s *schema.Schema) stream.DatumReader {
		return newDatumReader(o.(*DecodeOptions), s)
	}
}
