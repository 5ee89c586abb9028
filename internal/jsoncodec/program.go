package jsoncodec

import (
	"sync"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
)

// Program is the compiled JSON encoding of one schema node in one
// flavour. It is safe for concurrent use.
type Program struct{ root node }

// ReadOptions are the options of reading JSON text.
type ReadOptions = codec.JSONReadOptions

var (
	toPool   = sync.Pool{New: func() any { return new(toState) }}
	fromPool = sync.Pool{New: func() any { return new(fromState) }}
)

// ToJSON appends the JSON text of the binary datum at the start of data
// to dst, and returns it with the length of the datum. Errors are
// *codec.Error with op as their Op and the offset in data; for op
// "marshal", data is the encoding of a Go value and errors carry no offset.
func (p *Program) ToJSON(dst, data []byte, o *codec.DecodeOptions, op string) ([]byte, int, error) {
	t := toPool.Get().(*toState)
	t.Rewind(data)
	t.encoding = op == "marshal"
	o.SetLimits(&t.Limits, len(data))
	t.out = dst
	t.outMax = len(dst) + int(min(t.AllocLeft, int64(^uint(0)>>1)-int64(len(dst))))
	p.root.toJSON(t)
	out, n := t.out, t.Pos
	var err error
	if t.Err != nil {
		off := int64(t.ErrPos)
		if t.encoding {
			off = -1
		}
		err = &codec.Error{Op: op, Path: codec.FormatPath(t.Path), Offset: off, Err: t.Err}
	}
	t.out = nil
	t.Rewind(nil)
	t.Path = t.Path[:0]
	t.Err = nil
	toPool.Put(t)
	return out, n, err
}

// FromJSON reads one JSON value from text, starting at offset start, and
// appends its binary datum to dst. It returns the offset after the value
// (white space after it is not read). Errors are *codec.Error with the
// offset in text.
func (p *Program) FromJSON(dst, text []byte, start int, o *ReadOptions) ([]byte, int, error) {
	f := fromPool.Get().(*fromState)
	f.Reader = jsontext.Reader{Buf: text, Pos: start}
	f.out = dst
	var l wire.Limits
	o.Decode.SetLimits(&l, len(text)-start)
	f.depthLeft = l.DepthLeft - o.DepthUsed
	f.maxLength = l.MaxLength
	f.maxItems = l.MaxItems
	f.defaultsLeft = l.DefaultsLeft
	if o.Budgets != nil {
		f.defaultsLeft = o.Budgets.Defaults
	}
	budget := f.defaultsLeft
	f.maxDecimalScale = l.MaxDecimalScale
	f.validateUTF8 = l.ValidateUTF
	f.maxNumber = o.MaxNumberLength
	f.allowUnknown = o.AllowUnknownFields
	p.root.fromJSON(f)
	if o.Budgets != nil {
		*o.Budgets = wire.Budgets{Defaults: budget - max(f.defaultsLeft, 0)}
	}
	out, n := f.out, f.Pos
	var err error
	if path, off, e := f.error(); e != nil {
		err = &codec.Error{Op: "unmarshal", Path: path, Offset: int64(off), Err: e}
	}
	f.out, f.err, f.path = nil, nil, f.path[:0]
	f.Reader = jsontext.Reader{}
	f.order, f.keys = f.order[:0], f.keys[:0]
	if cap(f.scratch) > 1<<16 {
		f.scratch = nil
	}
	if cap(f.tmp) > 1<<16 {
		f.tmp = nil
	}
	fromPool.Put(f)
	return out, n, err
}
