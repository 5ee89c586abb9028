package codec

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"sync"
	"unsafe"

	"github.com/avrogo/avro/varint"
)

// encodeState is the output of one encode: the buffer being appended to,
// the first error, the error path and the depth left.
type encodeState struct {
	buf       []byte
	err       error
	path      []string
	depthLeft int
	// maxDecimalScale bounds decimal scales (EncodeOptions.MaxDecimalScale).
	maxDecimalScale int
	// scratch is the buffer Marshal encodes into; it stays with the
	// pooled state.
	scratch []byte
	// top holds the data word of a pointer-shaped value being encoded
	// (a map, a nil pointer), whose address the encoder takes.
	top unsafe.Pointer
}

var encodeStatePool = sync.Pool{New: func() any { return new(encodeState) }}

func newEncodeState(o *EncodeOptions, dst []byte) *encodeState {
	e := encodeStatePool.Get().(*encodeState)
	e.buf = dst
	e.err = nil
	e.path = e.path[:0]
	e.depthLeft = o.maxDepth()
	e.maxDecimalScale = o.maxDecimalScale()
	return e
}

func (e *encodeState) release() {
	e.buf = nil
	e.err = nil
	if e.top != nil {
		e.top = nil
	}
	if cap(e.path) > 64 {
		e.path = nil
	}
	encodeStatePool.Put(e)
}

func (e *encodeState) toError() error {
	if e.err == nil {
		return nil
	}
	return &Error{Op: "marshal", Path: formatPath(e.path), Offset: -1, Err: e.err}
}

func (e *encodeState) failf(sentinel error, format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
	}
}

func (e *encodeState) addField(name string) { e.path = append(e.path, name) }
func (e *encodeState) addIndex(i int)       { e.path = append(e.path, "["+strconv.Itoa(i)+"]") }
func (e *encodeState) addKey(k string)      { e.path = append(e.path, "["+strconv.Quote(k)+"]") }

func (e *encodeState) enter() bool {
	e.depthLeft--
	if e.depthLeft < 0 {
		e.failf(ErrLimit, "value nested deeper than the maximum depth (a value that contains itself?)")
		return false
	}
	return true
}

func (e *encodeState) leave() { e.depthLeft++ }

func (e *encodeState) writeLong(v int64) {
	if uint64(v+64) < 128 {
		e.buf = append(e.buf, byte(v<<1)^byte(v>>63))
		return
	}
	e.buf = varint.AppendLong(e.buf, v)
}

func (e *encodeState) writeBool(v bool) {
	var b byte
	if v {
		b = 1
	}
	e.buf = append(e.buf, b)
}

func (e *encodeState) writeFloat(v float32) {
	e.buf = binary.LittleEndian.AppendUint32(e.buf, math.Float32bits(v))
}

func (e *encodeState) writeDouble(v float64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
}

func (e *encodeState) writeString(s string) {
	e.writeLong(int64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *encodeState) writeBytes(b []byte) {
	e.writeLong(int64(len(b)))
	e.buf = append(e.buf, b...)
}
