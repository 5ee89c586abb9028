package codec

import (
	"sync"
	"time"

	"github.com/avrogo/avro/internal/resolve"
	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// decodeState is the cursor of one decode (wire.Decoder) and what the any
// and value.Value decoders keep beside it.
type decodeState struct {
	wire.Decoder
	// arena holds the records, maps and value arrays of a value.Value
	// decode; unlike Chunk it is never shared with another decode.
	arena value.Arena
	// boxes holds the string headers of an any decode (anyBoxes), and
	// is cleared after each decode; timeBoxes holds its times and, like
	// Chunk, stays with the state.
	boxes     anyBoxes
	timeBoxes []time.Time
}

var decodeStatePool = sync.Pool{New: func() any { return new(decodeState) }}

func newDecodeState(o *DecodeOptions, data []byte) *decodeState {
	d := decodeStatePool.Get().(*decodeState)
	d.reset(o, data)
	return d
}

// reset readies a state from the pool, which release left with no error,
// arena or boxes; strChunk and timeBoxes carry over.
func (d *decodeState) reset(o *DecodeOptions, data []byte) {
	d.Rewind(data)
	o.setLimits(&d.Limits, len(data))
}

// setLimits sets l to the limits of a decode of inputLen bytes with these
// options. It stores field by field into l: a decodeLimits returned by
// value was built on the stack with 8- and 1-byte stores and copied with
// 16-byte loads, which the CPU cannot forward from those stores; the stall
// took about 20 ns of every Unmarshal.
func (o *DecodeOptions) setLimits(l *wire.Limits, inputLen int) {
	l.DepthLeft = o.maxDepth()
	l.ZeroLeft = o.maxZeroSizeItems()
	l.AllocLeft = o.maxAlloc(inputLen)
	l.DefaultsLeft = l.AllocLeft
	l.MaxLength = o.maxLength()
	l.MaxItems = o.maxItems()
	l.MaxDecimalScale = o.maxDecimalScale()
	l.ZeroCopy = o.ZeroCopy
	l.ValidateUTF = o.ValidateUTF8
}

// release clears the state and returns it to the pool.
func (d *decodeState) release() {
	d.clear()
	decodeStatePool.Put(d)
}

// clear drops what a decode left in the state: the input, the error, the
// arena and the boxes. strChunk and timeBoxes carry over to the next
// decode.
func (d *decodeState) clear() {
	d.Buf = nil
	if d.Err != nil {
		d.Err = nil
		if cap(d.Path) > 64 {
			d.Path = nil
		}
	}
	d.arena = value.Arena{}
	if d.boxes.d != nil {
		d.boxes = anyBoxes{}
	}
}

// toError builds the error returned to the caller, or nil.
func (d *decodeState) toError() error {
	if d.Err == nil {
		return nil
	}
	return &Error{Op: "unmarshal", Path: formatPath(d.Path), Offset: int64(d.ErrPos), Err: d.Err}
}

// SetLimits sets l to the limits of a decode of inputLen bytes with these
// options, for the engines beside this one that read with a wire.Decoder.
func (o *DecodeOptions) SetLimits(l *wire.Limits, inputLen int) { o.setLimits(l, inputLen) }

// Transcoder returns the program that rewrites the writer's datum of the
// resolved schema s in the reader's encoding, or nil when the writer's
// bytes are the reader's.
func Transcoder(s *schema.Schema) *resolve.Program { return transcoderOf(s) }

// ParseUUID parses the RFC 4122 text form of a uuid, in either case.
func ParseUUID(s []byte) ([16]byte, bool) { return parseUUID(s) }

// FormatPath joins the path steps an error collected as it unwound,
// innermost first.
func FormatPath(steps []string) string { return formatPath(steps) }

// PerDatum returns what one datum of a stream may use of the budgets that
// the stream's datums share: MaxZeroSizeItems, and MaxAlloc for an input
// of no bytes.
func (o *DecodeOptions) PerDatum() wire.Budgets {
	return wire.Budgets{Zero: o.maxZeroSizeItems(), Defaults: o.maxAlloc(0)}
}
