package codec

import (
	"errors"
	"github.com/avrogo/avro/internal/wire"
	"reflect"

	"github.com/modern-go/reflect2"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/varint"
)

// The typed fast paths for arrays of primitives: the whole block is
// decoded or encoded by one loop over the typed slice, with no per-element
// dispatch. []int64 and []int32 use the bulk varint kernels, []float64 and
// []float32 are one copy on little-endian hosts, []bool is one validated
// copy.

// fastSliceDecoder returns a typed decoder for an array of items into the
// slice type t, or nil when there is none.
func fastSliceDecoder(items *schema.Schema, t reflect.Type) decoder {
	c := fastSliceCodec(items, t)
	if c == nil {
		return nil
	}
	return c
}

func fastSliceEncoder(items *schema.Schema, t reflect.Type) encoder {
	c := fastSliceCodec(items, t)
	if c == nil {
		return nil
	}
	return c
}

type fastSlice interface {
	decoder
	encoder
}

func fastSliceCodec(items *schema.Schema, t reflect.Type) fastSlice {
	if isLogicalGoType(t.Elem()) {
		// A time.Duration is an int64 that the element codec converts
		// (time-micros on the wire, nanoseconds in Go); copied as raw
		// longs it was read and written a thousand times off.
		return nil
	}
	ek := t.Elem().Kind()
	st := reflect2.Type2(t).(reflect2.SliceType)
	switch {
	case items.Kind() == schema.Long && ek == reflect.Int64:
		return &primSliceCodec[int64]{typ: st, minSize: 1, dec: decodeLongsBlock, enc: appendLongsBlock, chunk: chunkData[int64]}
	case items.Kind() == schema.Int && ek == reflect.Int32:
		return &primSliceCodec[int32]{typ: st, minSize: 1, dec: decodeIntsBlock, enc: appendIntsBlock, chunk: chunkData[int32]}
	case items.Kind() == schema.Double && ek == reflect.Float64:
		return &primSliceCodec[float64]{typ: st, minSize: 8, dec: decodeFloat64sBlock, enc: wire.AppendFloat64s, chunk: chunkData[float64]}
	case items.Kind() == schema.Float && ek == reflect.Float32:
		return &primSliceCodec[float32]{typ: st, minSize: 4, dec: decodeFloat32sBlock, enc: wire.AppendFloat32s, chunk: chunkData[float32]}
	case items.Kind() == schema.Boolean && ek == reflect.Bool:
		return &primSliceCodec[bool]{typ: st, minSize: 1, dec: decodeBoolsBlock, enc: appendBools, chunk: chunkData[bool]}
	case items.Kind() == schema.String && items.Logical() == schema.NoLogical && ek == reflect.String:
		return &primSliceCodec[string]{typ: st, minSize: 1, dec: decodeStringsBlock, enc: appendStrings}
	case items.Kind() == schema.Bytes && items.Logical() == schema.NoLogical &&
		ek == reflect.Slice && t.Elem().Elem().Kind() == reflect.Uint8:
		return &primSliceCodec[[]byte]{typ: st, minSize: 1, dec: decodeBytesBlock, enc: appendByteSlices}
	}
	return nil
}

// primSliceCodec decodes and encodes a slice of T a block at a time.
type primSliceCodec[T any] struct {
	typ     reflect2.SliceType
	minSize int
	// dec fills dst from the input; enc appends src.
	dec func(dst []T, d *decodeState)
	enc func(dst []byte, src []T) []byte
	// chunk, for pointer-free T, carves a short new slice from the
	// decode's chunk of short strings (wire.ChunkSlice): one allocation fewer
	// per array in a decode into a new struct.
	chunk func(d *decodeState, n int) (pointer, bool)
}

func (c *primSliceCodec[T]) decode(p pointer, d *decodeState) {
	sh := as[sliceHeader](p)
	n := 0
	for {
		count, blk := d.ReadBlock(int64(n), c.minSize)
		if count == 0 {
			break
		}
		newLen := n + int(count)
		if data, ok := c.carve(sh, count, d); ok {
			if !d.ReserveItems(count, int64(sizeOf[T]())) {
				d.EndBlock(blk)
				return
			}
			sh.data, sh.len, sh.cap = data, newLen, newLen
		} else if !growSlice(c.typ, sizeOf[T](), p, n, newLen, d) {
			d.EndBlock(blk)
			return
		}
		c.dec(sliceOf[T](sh.data, newLen)[n:], d)
		if !d.EndBlock(blk) {
			return
		}
		n = newLen
	}
	if d.Err == nil {
		finishSlice(p, n)
	}
}

// Carve returns chunk storage for the first block of a slice that has
// none (a decode into a new struct), when T allows it and the block is
// short.
func (c *primSliceCodec[T]) carve(sh *sliceHeader, count int64, d *decodeState) (pointer, bool) {
	if c.chunk == nil || !sh.data.isNil() || count > wire.StringShareMax {
		return pointer{}, false
	}
	return c.chunk(d, int(count))
}

func (c *primSliceCodec[T]) encode(p pointer, e *encodeState) {
	s := *as[[]T](p)
	if len(s) > 0 {
		e.WriteLong(int64(len(s)))
		e.Buf = c.enc(e.Buf, s)
	}
	e.Buf = append(e.Buf, 0)
}

func decodeLongsBlock(dst []int64, d *decodeState) {
	n, err := varint.DecodeLongs(dst, d.Buf[d.Pos:])
	d.Pos += n
	if err != nil {
		d.failBulkVarint(err, len(dst))
	}
}

func decodeIntsBlock(dst []int32, d *decodeState) {
	n, err := varint.DecodeInts(dst, d.Buf[d.Pos:])
	d.Pos += n
	if err != nil {
		d.failBulkVarint(err, len(dst))
	}
}

// failBulkVarint records a bulk varint error; for truncation, the values
// not yet decoded take at least a byte each, which tells a streaming
// Decoder how much more to read.
func (d *decodeState) failBulkVarint(err error, total int) {
	if errors.Is(err, varint.ErrTruncated) {
		left := int64(1)
		var de *varint.DecodeError
		if errors.As(err, &de) {
			left = int64(total - de.Index)
		}
		d.Truncated(left)
		return
	}
	d.Failf(ErrInvalid, "malformed varint in array: %v", err)
}

func appendLongsBlock(dst []byte, src []int64) []byte { return varint.AppendLongs(dst, src) }
func appendIntsBlock(dst []byte, src []int32) []byte  { return varint.AppendInts(dst, src) }

func decodeFloat64sBlock(dst []float64, d *decodeState) {
	src := d.ReadRaw(len(dst) * 8)
	if d.Err == nil {
		wire.CopyFloat64s(dst, src)
	}
}

func decodeFloat32sBlock(dst []float32, d *decodeState) {
	src := d.ReadRaw(len(dst) * 4)
	if d.Err == nil {
		wire.CopyFloat32s(dst, src)
	}
}

func decodeBoolsBlock(dst []bool, d *decodeState) {
	src := d.ReadRaw(len(dst))
	if d.Err != nil {
		return
	}
	for i, b := range src {
		if b > 1 {
			d.Pos -= len(src) - i
			d.Failf(ErrInvalid, "boolean byte 0x%02x", b)
			return
		}
	}
	wire.CopyBools(dst, src)
}

func appendBools(dst []byte, src []bool) []byte {
	for _, b := range src {
		var x byte
		if b {
			x = 1
		}
		dst = append(dst, x)
	}
	return dst
}

func decodeStringsBlock(dst []string, d *decodeState) {
	if wire.DecodeStringsSpan(dst, &d.Decoder) {
		return
	}
	decodeStringsEach(dst, d)
}

// decodeStringsEach reads the strings of a block one by one.
func decodeStringsEach(dst []string, d *decodeState) {
	for i := range dst {
		dst[i] = d.ReadString()
		if d.Err != nil {
			d.MoreItems(int64(i), int64(len(dst)), 1)
			d.AddIndex(int64(i))
			return
		}
	}
}

func decodeBytesBlock(dst [][]byte, d *decodeState) {
	for i := range dst {
		dst[i] = d.ReadBytes()
		if d.Err != nil {
			d.MoreItems(int64(i), int64(len(dst)), 1)
			d.AddIndex(int64(i))
			return
		}
	}
}

func appendByteSlices(dst []byte, src [][]byte) []byte {
	for _, b := range src {
		dst = varint.AppendLong(dst, int64(len(b)))
		dst = append(dst, b...)
	}
	return dst
}

func appendStrings(dst []byte, src []string) []byte {
	for _, s := range src {
		dst = varint.AppendLong(dst, int64(len(s)))
		dst = append(dst, s...)
	}
	return dst
}
