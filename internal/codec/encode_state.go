package codec

import (
	"sync"

	"github.com/avrogo/avro/internal/wire"
)

// encodeState is the output of one encode (wire.Encoder) and what Marshal
// keeps beside it.
type encodeState struct {
	wire.Encoder
	// scratch is the buffer Marshal encodes into; it stays with the
	// pooled state.
	scratch []byte
	// top holds the data word of a pointer-shaped value being encoded
	// (a map, a nil pointer), whose address the encoder takes.
	top pointer
	// touched keeps the bytes that structs load ahead (see touch).
	touched byte
}

var encodeStatePool = sync.Pool{New: func() any { return new(encodeState) }}

func newEncodeState(o *EncodeOptions, dst []byte) *encodeState {
	e := encodeStatePool.Get().(*encodeState)
	e.Buf = dst
	e.Err = nil
	e.Path = e.Path[:0]
	e.DepthLeft = o.maxDepth()
	e.MaxDecimalScale = o.maxDecimalScale()
	return e
}

func (e *encodeState) release() {
	e.Buf = nil
	e.Err = nil
	if !e.top.isNil() {
		e.top = pointer{}
	}
	if cap(e.Path) > 64 {
		e.Path = nil
	}
	encodeStatePool.Put(e)
}

func (e *encodeState) toError() error { return marshalError(&e.Encoder) }

// marshalError is the error of an encode, or nil.
func marshalError(e *wire.Encoder) error {
	if e.Err == nil {
		return nil
	}
	return &Error{Op: "marshal", Path: formatPath(e.Path), Offset: -1, Err: e.Err}
}
