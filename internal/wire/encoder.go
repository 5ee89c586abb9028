package wire

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/avrogo/avro/varint"
)

// Encoder is the output of one encode: the buffer being appended to, the
// first error, the error path and the depth left.
type Encoder struct {
	Buf       []byte
	Err       error
	Path      []string
	DepthLeft int
	// MaxDecimalScale bounds decimal scales (EncodeOptions.MaxDecimalScale).
	MaxDecimalScale int
}

// Failf records an error wrapping sentinel unless one is recorded.
func (e *Encoder) Failf(sentinel error, format string, args ...any) {
	if e.Err == nil {
		e.Err = fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
	}
}

// AddField, AddIndex and AddKey record one path step while an error
// unwinds.
func (e *Encoder) AddField(name string) { e.Path = append(e.Path, name) }
func (e *Encoder) AddIndex(i int)       { e.Path = append(e.Path, "["+strconv.Itoa(i)+"]") }
func (e *Encoder) AddKey(k string)      { e.Path = append(e.Path, "["+strconv.Quote(k)+"]") }

// Enter counts one level of nesting; it fails with ErrLimit past the
// maximum depth.
func (e *Encoder) Enter() bool {
	e.DepthLeft--
	if e.DepthLeft < 0 {
		e.Failf(ErrLimit, "value nested deeper than the maximum depth (a value that contains itself?)")
		return false
	}
	return true
}

// Leave ends a level that Enter counted.
func (e *Encoder) Leave() { e.DepthLeft++ }

// WriteLong appends an int or long: zigzag, then a varint.
func (e *Encoder) WriteLong(v int64) {
	if uint64(v+64) < 128 {
		e.Buf = append(e.Buf, byte(v<<1)^byte(v>>63))
		return
	}
	e.Buf = varint.AppendLong(e.Buf, v)
}

// WriteBool appends a boolean.
func (e *Encoder) WriteBool(v bool) {
	var b byte
	if v {
		b = 1
	}
	e.Buf = append(e.Buf, b)
}

// WriteFloat and WriteDouble append IEEE 754 numbers, little-endian.
func (e *Encoder) WriteFloat(v float32) {
	e.Buf = binary.LittleEndian.AppendUint32(e.Buf, math.Float32bits(v))
}

func (e *Encoder) WriteDouble(v float64) {
	e.Buf = binary.LittleEndian.AppendUint64(e.Buf, math.Float64bits(v))
}

// WriteString and WriteBytes append a length and the bytes.
func (e *Encoder) WriteString(s string) {
	e.WriteLong(int64(len(s)))
	e.Buf = append(e.Buf, s...)
}

func (e *Encoder) WriteBytes(b []byte) {
	e.WriteLong(int64(len(b)))
	e.Buf = append(e.Buf, b...)
}
