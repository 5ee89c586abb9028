package codec

import (
	"reflect"

	"github.com/avrogo/avro/schema"
)

// fixedArrayCodec maps a fixed to a Go byte array of the same size: one
// copy each way.
type fixedArrayCodec struct{ size int }

func (c fixedArrayCodec) decode(p pointer, d *decodeState) {
	src := d.ReadRaw(c.size)
	if d.Err == nil {
		copy(sliceOf[byte](p, c.size), src)
	}
}

func (c fixedArrayCodec) encode(p pointer, e *encodeState) {
	e.Buf = append(e.Buf, sliceOf[byte](p, c.size)...)
}

// fixedSliceCodec maps a fixed to a Go []byte, which must have the fixed's
// length when encoding.
type fixedSliceCodec struct{ size int }

func (c fixedSliceCodec) decode(p pointer, d *decodeState) {
	if int64(c.size) > d.MaxLength {
		d.Failf(ErrLimit, "fixed of %d bytes exceeds the maximum length", c.size)
		return
	}
	src := d.ReadRaw(c.size)
	if d.Err != nil {
		return
	}
	if d.ZeroCopy {
		*as[[]byte](p) = src
		return
	}
	if !d.Reserve(int64(c.size)) {
		return
	}
	b := make([]byte, c.size)
	copy(b, src)
	*as[[]byte](p) = b
}

func (c fixedSliceCodec) encode(p pointer, e *encodeState) {
	b := *as[[]byte](p)
	if len(b) != c.size {
		e.Failf(ErrRange, "%d bytes for a fixed of size %d", len(b), c.size)
		return
	}
	e.Buf = append(e.Buf, b...)
}

func fixedCodecFor(s *schema.Schema, t reflect.Type) codec {
	switch {
	case t.Kind() == reflect.Array && t.Elem().Kind() == reflect.Uint8 && t.Len() == s.Size():
		return fixedArrayCodec{s.Size()}
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return fixedSliceCodec{s.Size()}
	}
	return nil
}
