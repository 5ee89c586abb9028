package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/avrogo/avro/internal/memcopy"
	"github.com/avrogo/avro/value"
	"github.com/avrogo/avro/varint"
)

// decodeState is the cursor of one decode: the input, the position, the
// first error, and what is left of the limits. Codecs record an error with
// fail and return; loops stop at the first error, and the path to the value
// is collected as the error unwinds through record and collection codecs.
type decodeState struct {
	buf  []byte
	pos  int
	err  error
	path []string
	// errPos is the input offset where err was recorded.
	errPos int
	// need is, after ErrTruncated, the input length the failed read would
	// have needed, when it knew (0 otherwise). The streaming Decoder reads
	// that much before it decodes again, so a large datum is not decoded
	// again for every chunk that arrives.
	need int64

	decodeLimits
	// strChunk is what is left of the chunk short strings and bytes are
	// copied into (see carve); it stays with the state from one decode to
	// the next.
	strChunk []byte
	// arena holds the records, maps and value arrays of a value.Value
	// decode; unlike strChunk it is never shared with another decode.
	arena value.Arena
	// boxes holds the string headers of an any decode (anyBoxes), and
	// is cleared after each decode; timeBoxes holds its times and, like
	// strChunk, stays with the state.
	boxes     anyBoxes
	timeBoxes []time.Time
}

// decodeLimits are the options of a decode and what is left of its
// budgets. They hold no pointers, so that reset assigns them with a plain
// copy: assigning the whole state would pass every pointer word of it
// through the write barrier while the collector runs.
type decodeLimits struct {
	depthLeft int
	zeroLeft  int64
	allocLeft int64
	// defaultsLeft is what is left of the bytes of reader defaults that a
	// resolved read may fill in (see spendDefaults).
	defaultsLeft int64
	maxLength    int64
	maxItems     int64
	// maxDecimalScale bounds decimal scales (DecodeOptions.MaxDecimalScale).
	maxDecimalScale int
	zeroCopy        bool
	validateUTF     bool
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
	d.rewind(data)
	o.setLimits(&d.decodeLimits, len(data))
}

// rewind points the state at the start of data.
func (d *decodeState) rewind(data []byte) {
	d.buf, d.pos, d.errPos, d.need = data, 0, 0, 0
	if len(d.path) != 0 {
		d.path = d.path[:0]
	}
}

// setLimits sets l to the limits of a decode of inputLen bytes with these
// options. It stores field by field into l: a decodeLimits returned by
// value was built on the stack with 8- and 1-byte stores and copied with
// 16-byte loads, which the CPU cannot forward from those stores; the stall
// took about 20 ns of every Unmarshal.
func (o *DecodeOptions) setLimits(l *decodeLimits, inputLen int) {
	l.depthLeft = o.maxDepth()
	l.zeroLeft = o.maxZeroSizeItems()
	l.allocLeft = o.maxAlloc(inputLen)
	l.defaultsLeft = l.allocLeft
	l.maxLength = o.maxLength()
	l.maxItems = o.maxItems()
	l.maxDecimalScale = o.maxDecimalScale()
	l.zeroCopy = o.ZeroCopy
	l.validateUTF = o.ValidateUTF8
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
	d.buf = nil
	if d.err != nil {
		d.err = nil
		if cap(d.path) > 64 {
			d.path = nil
		}
	}
	d.arena = value.Arena{}
	if d.boxes.d != nil {
		d.boxes = anyBoxes{}
	}
}

// toError builds the error returned to the caller, or nil.
func (d *decodeState) toError() error {
	if d.err == nil {
		return nil
	}
	return &Error{Op: "unmarshal", Path: formatPath(d.path), Offset: int64(d.errPos), Err: d.err}
}

// fail records err unless an error is already recorded.
func (d *decodeState) fail(err error) {
	if d.err == nil {
		d.err = err
		d.errPos = d.pos
	}
}

// truncated records ErrTruncated for a read of n more bytes.
func (d *decodeState) truncated(n int64) {
	if d.err == nil {
		d.fail(ErrTruncated)
		if n > 0 && n <= math.MaxInt64-int64(d.pos) {
			d.need = int64(d.pos) + n
		}
	}
}

// moreItems is called when item i of a collection block of n items fails:
// after ErrTruncated it adds to need the least bytes that the items after
// it take, so that a streaming Decoder reads them all before it retries.
func (d *decodeState) moreItems(i, n int64, minSize int) {
	if d.err != ErrTruncated || minSize <= 0 {
		return
	}
	if d.need == 0 {
		d.need = int64(len(d.buf)) + 1
	}
	left := n - i - 1
	if left > 0 && left <= (math.MaxInt64-d.need)/int64(minSize) {
		d.need += left * int64(minSize)
	}
}

func (d *decodeState) failf(sentinel error, format string, args ...any) {
	if d.err == nil {
		d.fail(fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...))
	}
}

// addField, addIndex and addKey record one path step while an error
// unwinds; they are called only on the error path.
func (d *decodeState) addField(name string) { d.path = append(d.path, name) }
func (d *decodeState) addIndex(i int64)     { d.path = append(d.path, "["+strconv.FormatInt(i, 10)+"]") }
func (d *decodeState) addKey(k string)      { d.path = append(d.path, "["+strconv.Quote(k)+"]") }

// enter counts one level of nesting; it fails with ErrLimit past MaxDepth.
func (d *decodeState) enter() bool {
	d.depthLeft--
	if d.depthLeft < 0 {
		d.failf(ErrLimit, "nesting deeper than the maximum depth")
		return false
	}
	return true
}

func (d *decodeState) leave() { d.depthLeft++ }

// reserve accounts n bytes about to be allocated.
func (d *decodeState) reserve(n int64) bool {
	d.allocLeft -= n
	if d.allocLeft < 0 || n < 0 {
		d.failf(ErrLimit, "decode would allocate more than the allocation limit")
		return false
	}
	return true
}

// spendDefaults accounts n bytes of reader defaults filled in for fields
// the writer lacks. The input cannot bound them (a record of no bytes may
// take a default of any size), so they have a budget of their own: the
// allocation limit for one datum, and over a stream (a Decoder, a
// container file) a share of it that grows with the bytes read.
func (d *decodeState) spendDefaults(n int) bool {
	d.defaultsLeft -= int64(n)
	if d.defaultsLeft < 0 {
		d.failf(ErrLimit, "reader defaults filled in exceed their budget (see DecodeOptions.MaxAlloc)")
		return false
	}
	return true
}

// reserveNew accounts one Go allocation of size bytes made for a decoded
// item: a pointee, a record decoded into a map, an interface's value. An
// item can take no input bytes at all (an empty record, null), so without
// the charge a few bytes that declare a million of them would allocate a
// million Go values of any size.
func (d *decodeState) reserveNew(size uintptr) bool { return d.reserve(int64(size)) }

// reserveItems accounts count items of size bytes each. The product is
// checked for overflow: with MaxItems and MaxZeroSizeItems raised to
// MaxInt64, a count of zero-size Avro items times a large Go element
// could otherwise wrap to a small number.
func (d *decodeState) reserveItems(count, size int64) bool {
	if count < 0 || size < 0 || (size > 0 && count > math.MaxInt64/size) {
		d.failf(ErrLimit, "decode would allocate more than the allocation limit")
		return false
	}
	return d.reserve(count * size)
}

func (d *decodeState) readLong() int64 {
	if d.pos < len(d.buf) {
		if b := d.buf[d.pos]; b < 0x80 {
			d.pos++
			return int64(b>>1) ^ -int64(b&1)
		}
	}
	return d.readLongSlow()
}

func (d *decodeState) readLongSlow() int64 {
	v, n := varint.Long(d.buf[d.pos:])
	if n <= 0 {
		d.failVarint(n, "long")
		return 0
	}
	d.pos += n
	return v
}

func (d *decodeState) readInt() int32 {
	if d.pos < len(d.buf) {
		if b := d.buf[d.pos]; b < 0x80 {
			d.pos++
			return int32(b>>1) ^ -int32(b&1)
		}
	}
	v, n := varint.Int(d.buf[d.pos:])
	if n <= 0 {
		d.failVarint(n, "int")
		return 0
	}
	d.pos += n
	return v
}

func (d *decodeState) failVarint(n int, what string) {
	if n == 0 {
		d.fail(ErrTruncated)
		return
	}
	d.failf(ErrInvalid, "malformed varint for %s", what)
}

func (d *decodeState) readBool() bool {
	if d.pos >= len(d.buf) {
		d.fail(ErrTruncated)
		return false
	}
	b := d.buf[d.pos]
	if b > 1 {
		d.failf(ErrInvalid, "boolean byte 0x%02x", b)
		return false
	}
	d.pos++
	return b == 1
}

func (d *decodeState) readFloat() float32 {
	if len(d.buf)-d.pos < 4 {
		d.fail(ErrTruncated)
		return 0
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(d.buf[d.pos:]))
	d.pos += 4
	return v
}

func (d *decodeState) readDouble() float64 {
	if len(d.buf)-d.pos < 8 {
		d.fail(ErrTruncated)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.buf[d.pos:]))
	d.pos += 8
	return v
}

// readLength reads the length of a string or bytes value and checks it
// against the input left and MaxLength. It returns -1 on error.
func (d *decodeState) readLength() int {
	n := d.readLong()
	if d.err != nil {
		return -1
	}
	if n < 0 {
		d.failf(ErrInvalid, "negative length %d", n)
		return -1
	}
	if n > d.maxLength {
		d.failf(ErrLimit, "length %d exceeds the maximum %d", n, d.maxLength)
		return -1
	}
	if n > int64(len(d.buf)-d.pos) {
		d.truncated(n)
		return -1
	}
	return int(n)
}

// readRaw returns the next n bytes of the input, aliasing it.
func (d *decodeState) readRaw(n int) []byte {
	if n > len(d.buf)-d.pos {
		d.truncated(int64(n))
		return nil
	}
	b := d.buf[d.pos : d.pos+n : d.pos+n]
	d.pos += n
	return b
}

// readString reads a string; it is always a copy of the input.
func (d *decodeState) readString() string {
	if !d.validateUTF {
		if raw, ok := d.readShort(); ok {
			if len(raw) == 0 {
				return ""
			}
			return d.makeString(raw)
		}
	}
	return d.readStringChecked()
}

// readShort reads a string or bytes value of fewer than 64 bytes (most
// values are): its length is one varint byte, checked against the input
// and the limits at once, and its bytes are charged to the allocation
// budget. It returns the value's bytes, aliasing the input. For any other
// value, or one that fails a check, it reads nothing and reports false:
// the caller then takes its general path, which reports the error.
func (d *decodeState) readShort() ([]byte, bool) {
	if p := d.pos; p < len(d.buf) {
		b := d.buf[p]
		n := int(b >> 1)
		// b&0x81 == 0: one varint byte (no continuation bit) holding a
		// length that is not negative (zigzag's low bit clear).
		if b&0x81 == 0 && n < len(d.buf)-p && int64(n) <= min(d.maxLength, d.allocLeft) {
			d.pos = p + 1 + n
			d.allocLeft -= int64(n)
			return d.buf[p+1 : d.pos], true
		}
	}
	return nil, false
}

// readStringChecked is readString for the values readShort does not take,
// and with ValidateUTF8.
func (d *decodeState) readStringChecked() string {
	n := d.readLength()
	if n <= 0 {
		return ""
	}
	raw := d.buf[d.pos : d.pos+n]
	if d.validateUTF && !utf8.Valid(raw) {
		d.failf(ErrInvalid, "string is not valid UTF-8")
		return ""
	}
	if !d.reserve(int64(n)) {
		return ""
	}
	d.pos += n
	return d.makeString(raw)
}

// Short strings (and the bytes and short typed arrays of value.Value
// decodes) are copied into shared chunks, one allocation for many of them:
// the strings of several records, since the chunk stays with the pooled
// decode state from one decode to the next. A chunk is 1 KiB, or as much
// as the rest of the input could fill with strings, up to 16 KiB (an
// array of a thousand short strings takes one or two chunks). A region
// handed out is never written again, so sharing is invisible but for
// memory: a kept string keeps its chunk alive. Longer strings get their
// own copy.
const (
	stringShareMax = 256
	stringChunk    = 1024
	stringChunkMax = 16 << 10
)

// newChunkSize sizes the next chunk.
func (d *decodeState) newChunkSize() int {
	return min(max(len(d.buf)-d.pos, stringChunk), stringChunkMax)
}

// carve copies raw (at most stringShareMax bytes) into the chunk and
// returns the copy, with no spare capacity so that an append to it
// reallocates rather than writing over its neighbour.
func (d *decodeState) carve(raw []byte) []byte {
	n := len(raw)
	if cap(d.strChunk)-len(d.strChunk) < n {
		d.strChunk = make([]byte, 0, d.newChunkSize())
	}
	start := len(d.strChunk)
	d.strChunk = append(d.strChunk, raw...)
	return d.strChunk[start : start+n : start+n]
}

// makeBytes copies raw into a slice with no spare capacity, sharing a
// chunk with short strings.
func (d *decodeState) makeBytes(raw []byte) []byte {
	if len(raw) > stringShareMax {
		return append([]byte(nil), raw...)
	}
	return d.carve(raw)
}

// readStringBytes reads a string or bytes value without copying; the
// result aliases the input and must not be kept.
func (d *decodeState) readStringBytes() []byte {
	n := d.readLength()
	if n < 0 {
		return nil
	}
	b := d.buf[d.pos : d.pos+n : d.pos+n]
	d.pos += n
	return b
}

// readBytes reads a bytes value into a new slice with no spare capacity:
// a short one carved from the string chunk, a longer one of its own.
func (d *decodeState) readBytes() []byte {
	var src []byte
	ok := false
	if !d.zeroCopy {
		src, ok = d.readShort() // read and charged to the budget
	}
	if !ok {
		n := d.readLength()
		if n < 0 {
			return nil
		}
		src = d.buf[d.pos : d.pos+n : d.pos+n]
		d.pos += n
		if d.zeroCopy {
			return src
		}
		if !d.reserve(int64(n)) {
			return nil
		}
	}
	switch {
	case len(src) == 0:
		return []byte{} // not nil, which would read as null in ["null","bytes"]
	case len(src) <= stringShareMax:
		return d.carve(src) // short values share the string chunk
	}
	dst := make([]byte, len(src))
	memcopy.Copy(dst, src)
	return dst
}

// readBlock reads the header of the next block of an array or map and
// returns its item count, 0 at the end of the collection or on error, and
// what endBlock needs to close the block. itemsSoFar counts the items of
// earlier blocks; minItemSize is the least bytes one item takes, and bounds
// the count by the input left (by the block, when it gave its size). Items
// of size zero draw from the per-decode budget instead.
//
// A block that gives its byte size must hold exactly its items: skipping
// readers jump by the size, decoding ones read the items, and a block
// where the two end in different places would mean one thing to one and
// another to the other. So its items are read with the input cut at the
// block's end, and endBlock checks that they end there. The caller calls
// endBlock after the block's last item, and also when an item fails.
func (d *decodeState) readBlock(itemsSoFar int64, minItemSize int) (int64, blockEnd) {
	n, size := d.readBlockHeader(itemsSoFar)
	if n == 0 {
		return 0, noBlockSize
	}
	b := noBlockSize
	if size >= 0 {
		if hi, lo := bits.Mul64(uint64(n), uint64(minItemSize)); hi != 0 || lo > uint64(size) {
			d.failf(ErrInvalid, "a block of %d items of at least %d bytes each cannot fit in its %d bytes", n, minItemSize, size)
			return 0, noBlockSize
		}
		b = d.openBlock(size)
	}
	// Decoders count items in ints: on 32-bit platforms a count past 2^31
	// would wrap where it is converted (a block of 2^62 empty records
	// read as none). Counts the input cannot hold fail first, as
	// truncated.
	if !d.boundItems(n, minItemSize) {
		d.endBlock(b)
		return 0, noBlockSize
	}
	if n > int64(math.MaxInt)-itemsSoFar {
		d.endBlock(b)
		d.failf(ErrLimit, "more than %d items in one collection on this platform", int64(math.MaxInt))
		return 0, noBlockSize
	}
	return n, b
}

// blockEnd is what endBlock needs to close a block: where it starts (after
// its header), its byte size (-1 for a block that did not give one), and
// the length of the input outside it. When the block ends within the
// input, the input is cut at its end while its items are read.
type blockEnd struct {
	start, outer int
	size         int64
}

var noBlockSize = blockEnd{size: -1}

// openBlock cuts the input at the end of a block of size bytes that starts
// at the position.
func (d *decodeState) openBlock(size int64) blockEnd {
	b := blockEnd{start: d.pos, outer: len(d.buf), size: size}
	if size <= int64(b.outer-d.pos) {
		d.buf = d.buf[:d.pos+int(size)]
	}
	return b
}

// endBlock closes the block b once its items are read or one failed, and
// reports whether the decode goes on: for a block that gave its size, the
// input is restored, and items that do not end exactly at its end are
// ErrInvalid.
func (d *decodeState) endBlock(b blockEnd) bool {
	if b.size < 0 {
		return d.err == nil
	}
	return d.closeSizedBlock(b)
}

func (d *decodeState) closeSizedBlock(b blockEnd) bool {
	d.buf = d.buf[:b.outer]
	inInput := b.size <= int64(b.outer-b.start)
	switch {
	case d.err == nil:
		if took := int64(d.pos - b.start); took != b.size {
			// The items end before the block does (had they run past it,
			// the cut would have stopped them): the size is wrong,
			// whatever bytes follow.
			d.failf(ErrInvalid, "the items of a block take %d bytes, its header says %d", took, b.size)
		}
	case errors.Is(d.err, ErrTruncated):
		if inInput {
			// The block is all in the input: an item that ran out of it
			// ran past the block's end, which more input cannot mend (a
			// streaming Decoder must not wait for more).
			d.err = fmt.Errorf("%w: the items of a block run past its %d bytes", ErrInvalid, b.size)
			d.need = 0
		} else if end := int64(b.start) + min(b.size, math.MaxInt64-int64(b.start)); end > d.need {
			// A valid datum holds the whole block: a streaming Decoder
			// reads that much before it decodes again.
			d.need = end
		}
	}
	return d.err == nil
}

// readBlockHeader reads the header of a block: its item count, and the
// block's byte size when the writer gave one (a negative count), else -1.
// A count of 0 ends the collection; 0 is also returned on error.
func (d *decodeState) readBlockHeader(itemsSoFar int64) (count, size int64) {
	n := d.readLong()
	if d.err != nil || n == 0 {
		return 0, -1
	}
	size = -1
	if n < 0 {
		if n == math.MinInt64 {
			d.failf(ErrInvalid, "block count %d", n)
			return 0, -1
		}
		n = -n
		size = d.readLong()
		if d.err != nil {
			return 0, -1
		}
		if size < 0 {
			d.failf(ErrInvalid, "negative block size %d", size)
			return 0, -1
		}
	}
	if n > d.maxItems-itemsSoFar {
		d.failf(ErrLimit, "more than %d items in one collection", d.maxItems)
		return 0, -1
	}
	return n, size
}

// boundItems checks that n items of at least minItemSize bytes each fit in
// the input left; items of size zero draw from the per-decode budget.
// n is positive (a block's count).
func (d *decodeState) boundItems(n int64, minItemSize int) bool {
	if minItemSize > 0 {
		// The product in 128 bits rather than the bytes left divided by
		// the item size: a 64-bit division for every collection of every
		// record costs more than a multiply.
		if hi, lo := bits.Mul64(uint64(n), uint64(minItemSize)); hi != 0 || lo > uint64(len(d.buf)-d.pos) {
			if n <= math.MaxInt64/int64(minItemSize) {
				d.truncated(n * int64(minItemSize))
			} else {
				d.fail(ErrTruncated)
			}
			return false
		}
		return true
	}
	d.zeroLeft -= n
	if d.zeroLeft < 0 {
		d.failf(ErrLimit, "more zero-size items than the budget allows")
		return false
	}
	return true
}
