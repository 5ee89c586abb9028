package codec

import (
	"reflect"
	"unsafe"

	"github.com/avrogo/avro/schema"
)

// fixedArrayCodec maps a fixed to a Go byte array of the same size: one
// copy each way.
type fixedArrayCodec struct{ size int }

func (c fixedArrayCodec) decode(p unsafe.Pointer, d *decodeState) {
	src := d.ReadRaw(c.size)
	if d.Err == nil {
		copy(unsafe.Slice((*byte)(p), c.size), src)
	}
}

func (c fixedArrayCodec) encode(p unsafe.Pointer, e *encodeState) {
	e.Buf = append(e.Buf, unsafe.Slice((*byte)(p), c.size)...)
}

// fixedSliceCodec maps a fixed to a Go []byte, which must have the fixed's
// length when encoding.
type fixedSliceCodec struct{ size int }

func (c fixedSliceCodec) decode(p unsafe.Pointer, d *decodeState) {
	if int64(c.size) > d.MaxLength {
		d.Failf(ErrLimit, "fixed of %d bytes exceeds the maximum length", c.size)
		return
	}
	src := d.ReadRaw(c.size)
	if d.Err != nil {
		return
	}
	if d.ZeroCopy {
		*(*[]byte)(p) = src
		return
	}
	if !d.Reserve(int64(c.size)) {
		return
	}
	b := make([]byte, c.size)
	copy(b, src)
	*(*[]byte)(p) = b
}

func (c fixedSliceCodec) encode(p unsafe.Pointer, e *encodeState) {
	b := *(*[]byte)(p)
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
