package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"

	"github.com/avrogo/avro/internal/memcopy"
	"github.com/avrogo/avro/varint"
)

// Decoder is the cursor of one decode: the input, the position, the
// first error, and what is left of the limits. Codecs record an error with
// Fail and return; loops stop at the first error, and the path to the value
// is collected as the error unwinds through record and collection codecs.
type Decoder struct {
	Buf  []byte
	Pos  int
	Err  error
	Path []string
	// ErrPos is the input offset where Err was recorded.
	ErrPos int
	// Need is, after ErrTruncated, the input length the failed read would
	// have needed, when it knew (0 otherwise). The streaming Decoder reads
	// that much before it decodes again, so a large datum is not decoded
	// again for every chunk that arrives.
	Need int64

	Limits
	// Chunk is what is left of the chunk short strings and bytes are
	// copied into (see Carve); it stays with the cursor from one decode to
	// the next.
	Chunk []byte
}

// Limits are the options of a decode and what is left of its
// budgets. They hold no pointers, so that reset assigns them with a plain
// copy: assigning the whole state would pass every pointer word of it
// through the write barrier while the collector runs.
type Limits struct {
	DepthLeft int
	ZeroLeft  int64
	AllocLeft int64
	// DefaultsLeft is what is left of the bytes of reader defaults that a
	// resolved read may fill in (see SpendDefaults).
	DefaultsLeft int64
	MaxLength    int64
	MaxItems     int64
	// MaxDecimalScale bounds decimal scales (DecodeOptions.MaxDecimalScale).
	MaxDecimalScale int
	ZeroCopy        bool
	ValidateUTF     bool
}

// Rewind points the state at the start of data.
func (d *Decoder) Rewind(data []byte) {
	d.Buf, d.Pos, d.ErrPos, d.Need = data, 0, 0, 0
	if len(d.Path) != 0 {
		d.Path = d.Path[:0]
	}
}

// Fail records err unless an error is already recorded.
func (d *Decoder) Fail(err error) {
	if d.Err == nil {
		d.Err = err
		d.ErrPos = d.Pos
	}
}

// Truncated records ErrTruncated for a read of n more bytes.
func (d *Decoder) Truncated(n int64) {
	if d.Err == nil {
		d.Fail(ErrTruncated)
		if n > 0 && n <= math.MaxInt64-int64(d.Pos) {
			d.Need = int64(d.Pos) + n
		}
	}
}

// MoreItems is called when item i of a collection block of n items fails:
// after ErrTruncated it adds to need the least bytes that the items after
// it take, so that a streaming Decoder reads them all before it retries.
func (d *Decoder) MoreItems(i, n int64, minSize int) {
	if d.Err != ErrTruncated || minSize <= 0 {
		return
	}
	if d.Need == 0 {
		d.Need = int64(len(d.Buf)) + 1
	}
	left := n - i - 1
	if left > 0 && left <= (math.MaxInt64-d.Need)/int64(minSize) {
		d.Need += left * int64(minSize)
	}
}

func (d *Decoder) Failf(sentinel error, format string, args ...any) {
	if d.Err == nil {
		d.Fail(fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...))
	}
}

// AddField, addIndex and addKey record one path step while an error
// unwinds; they are called only on the error path.
func (d *Decoder) AddField(name string) { d.Path = append(d.Path, name) }
func (d *Decoder) AddIndex(i int64)     { d.Path = append(d.Path, "["+strconv.FormatInt(i, 10)+"]") }
func (d *Decoder) AddKey(k string)      { d.Path = append(d.Path, "["+strconv.Quote(k)+"]") }

// Enter counts one level of nesting; it fails with ErrLimit past MaxDepth.
func (d *Decoder) Enter() bool {
	d.DepthLeft--
	if d.DepthLeft < 0 {
		d.Failf(ErrLimit, "nesting deeper than the maximum depth")
		return false
	}
	return true
}

func (d *Decoder) Leave() { d.DepthLeft++ }

// Reserve accounts n bytes about to be allocated.
func (d *Decoder) Reserve(n int64) bool {
	d.AllocLeft -= n
	if d.AllocLeft < 0 || n < 0 {
		d.Failf(ErrLimit, "decode would allocate more than the allocation limit")
		return false
	}
	return true
}

// SpendDefaults accounts n bytes of reader defaults filled in for fields
// the writer lacks. The input cannot bound them (a record of no bytes may
// take a default of any size), so they have a budget of their own: the
// allocation limit for one datum, and over a stream (a Decoder, a
// container file) a share of it that grows with the bytes read.
func (d *Decoder) SpendDefaults(n int) bool {
	d.DefaultsLeft -= int64(n)
	if d.DefaultsLeft < 0 {
		d.Failf(ErrLimit, "reader defaults filled in exceed their budget (see DecodeOptions.MaxAlloc)")
		return false
	}
	return true
}

// ReserveNew accounts one Go allocation of size bytes made for a decoded
// item: a pointee, a record decoded into a map, an interface's value. An
// item can take no input bytes at all (an empty record, null), so without
// the charge a few bytes that declare a million of them would allocate a
// million Go values of any size.
func (d *Decoder) ReserveNew(size uintptr) bool { return d.Reserve(int64(size)) }

// ReserveItems accounts count items of size bytes each. The product is
// checked for overflow: with MaxItems and MaxZeroSizeItems raised to
// MaxInt64, a count of zero-size Avro items times a large Go element
// could otherwise wrap to a small number.
func (d *Decoder) ReserveItems(count, size int64) bool {
	if count < 0 || size < 0 || (size > 0 && count > math.MaxInt64/size) {
		d.Failf(ErrLimit, "decode would allocate more than the allocation limit")
		return false
	}
	return d.Reserve(count * size)
}

func (d *Decoder) ReadLong() int64 {
	if d.Pos < len(d.Buf) {
		if b := d.Buf[d.Pos]; b < 0x80 {
			d.Pos++
			return int64(b>>1) ^ -int64(b&1)
		}
	}
	return d.ReadLongSlow()
}

func (d *Decoder) ReadLongSlow() int64 {
	v, n := varint.Long(d.Buf[d.Pos:])
	if n <= 0 {
		d.failVarint(n, "long")
		return 0
	}
	d.Pos += n
	return v
}

func (d *Decoder) ReadInt() int32 {
	if d.Pos < len(d.Buf) {
		if b := d.Buf[d.Pos]; b < 0x80 {
			d.Pos++
			return int32(b>>1) ^ -int32(b&1)
		}
	}
	v, n := varint.Int(d.Buf[d.Pos:])
	if n <= 0 {
		d.failVarint(n, "int")
		return 0
	}
	d.Pos += n
	return v
}

func (d *Decoder) failVarint(n int, what string) {
	if n == 0 {
		d.Fail(ErrTruncated)
		return
	}
	d.Failf(ErrInvalid, "malformed varint for %s", what)
}

func (d *Decoder) ReadBool() bool {
	if d.Pos >= len(d.Buf) {
		d.Fail(ErrTruncated)
		return false
	}
	b := d.Buf[d.Pos]
	if b > 1 {
		d.Failf(ErrInvalid, "boolean byte 0x%02x", b)
		return false
	}
	d.Pos++
	return b == 1
}

func (d *Decoder) ReadFloat() float32 {
	if len(d.Buf)-d.Pos < 4 {
		d.Fail(ErrTruncated)
		return 0
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(d.Buf[d.Pos:]))
	d.Pos += 4
	return v
}

func (d *Decoder) ReadDouble() float64 {
	if len(d.Buf)-d.Pos < 8 {
		d.Fail(ErrTruncated)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.Buf[d.Pos:]))
	d.Pos += 8
	return v
}

// ReadLength reads the length of a string or bytes value and checks it
// against the input left and MaxLength. It returns -1 on error.
func (d *Decoder) ReadLength() int {
	n := d.ReadLong()
	if d.Err != nil {
		return -1
	}
	if n < 0 {
		d.Failf(ErrInvalid, "negative length %d", n)
		return -1
	}
	if n > d.MaxLength {
		d.Failf(ErrLimit, "length %d exceeds the maximum %d", n, d.MaxLength)
		return -1
	}
	if n > int64(len(d.Buf)-d.Pos) {
		d.Truncated(n)
		return -1
	}
	return int(n)
}

// ReadRaw returns the next n bytes of the input, aliasing it.
func (d *Decoder) ReadRaw(n int) []byte {
	if n > len(d.Buf)-d.Pos {
		d.Truncated(int64(n))
		return nil
	}
	b := d.Buf[d.Pos : d.Pos+n : d.Pos+n]
	d.Pos += n
	return b
}

// ReadString reads a string; it is always a copy of the input.
func (d *Decoder) ReadString() string {
	if !d.ValidateUTF {
		if raw, ok := d.readShort(); ok {
			if len(raw) == 0 {
				return ""
			}
			return d.MakeString(raw)
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
func (d *Decoder) readShort() ([]byte, bool) {
	if p := d.Pos; p < len(d.Buf) {
		b := d.Buf[p]
		n := int(b >> 1)
		// b&0x81 == 0: one varint byte (no continuation bit) holding a
		// length that is not negative (zigzag's low bit clear).
		if b&0x81 == 0 && n < len(d.Buf)-p && int64(n) <= min(d.MaxLength, d.AllocLeft) {
			d.Pos = p + 1 + n
			d.AllocLeft -= int64(n)
			return d.Buf[p+1 : d.Pos], true
		}
	}
	return nil, false
}

// readStringChecked is readString for the values readShort does not take,
// and with ValidateUTF8.
func (d *Decoder) readStringChecked() string {
	n := d.ReadLength()
	if n <= 0 {
		return ""
	}
	raw := d.Buf[d.Pos : d.Pos+n]
	if d.ValidateUTF && !utf8.Valid(raw) {
		d.Failf(ErrInvalid, "string is not valid UTF-8")
		return ""
	}
	if !d.Reserve(int64(n)) {
		return ""
	}
	d.Pos += n
	return d.MakeString(raw)
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
	StringShareMax = 256
	stringChunk    = 1024
	stringChunkMax = 16 << 10
)

// newChunkSize sizes the next chunk.
func (d *Decoder) newChunkSize() int {
	return min(max(len(d.Buf)-d.Pos, stringChunk), stringChunkMax)
}

// Carve copies raw (at most StringShareMax bytes) into the chunk and
// returns the copy, with no spare capacity so that an append to it
// reallocates rather than writing over its neighbour.
func (d *Decoder) Carve(raw []byte) []byte {
	n := len(raw)
	if cap(d.Chunk)-len(d.Chunk) < n {
		d.Chunk = make([]byte, 0, d.newChunkSize())
	}
	start := len(d.Chunk)
	d.Chunk = append(d.Chunk, raw...)
	return d.Chunk[start : start+n : start+n]
}

// MakeBytes copies raw into a slice with no spare capacity, sharing a
// chunk with short strings.
func (d *Decoder) MakeBytes(raw []byte) []byte {
	if len(raw) > StringShareMax {
		return append([]byte(nil), raw...)
	}
	return d.Carve(raw)
}

// ReadStringBytes reads a string or bytes value without copying; the
// result aliases the input and must not be kept.
func (d *Decoder) ReadStringBytes() []byte {
	n := d.ReadLength()
	if n < 0 {
		return nil
	}
	b := d.Buf[d.Pos : d.Pos+n : d.Pos+n]
	d.Pos += n
	return b
}

// ReadBytes reads a bytes value into a new slice with no spare capacity:
// a short one carved from the string chunk, a longer one of its own.
func (d *Decoder) ReadBytes() []byte {
	var src []byte
	ok := false
	if !d.ZeroCopy {
		src, ok = d.readShort() // read and charged to the budget
	}
	if !ok {
		n := d.ReadLength()
		if n < 0 {
			return nil
		}
		src = d.Buf[d.Pos : d.Pos+n : d.Pos+n]
		d.Pos += n
		if d.ZeroCopy {
			return src
		}
		if !d.Reserve(int64(n)) {
			return nil
		}
	}
	return d.CopyBytes(src)
}

// CopyBytes returns a copy of src, already charged to the allocation
// budget, as ReadBytes returns its values: never nil (nil would read as
// null in ["null","bytes"]), short values carved from the string chunk.
func (d *Decoder) CopyBytes(src []byte) []byte {
	switch {
	case len(src) == 0:
		return []byte{}
	case len(src) <= StringShareMax:
		return d.Carve(src)
	}
	dst := make([]byte, len(src))
	memcopy.Copy(dst, src)
	return dst
}

// ReadBlock reads the header of the next block of an array or map and
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
// EndBlock after the block's last item, and also when an item fails.
func (d *Decoder) ReadBlock(itemsSoFar int64, minItemSize int) (int64, BlockEnd) {
	n, size := d.ReadBlockHeader(itemsSoFar)
	if n == 0 {
		return 0, NoBlockSize
	}
	b := NoBlockSize
	if size >= 0 {
		if hi, lo := bits.Mul64(uint64(n), uint64(max(minItemSize, 0))); hi != 0 || lo > uint64(size) {
			d.Failf(ErrInvalid, "a block of %d items of at least %d bytes each cannot fit in its %d bytes", n, minItemSize, size)
			return 0, NoBlockSize
		}
		b = d.openBlock(size)
	}
	// Decoders count items in ints: on 32-bit platforms a count past 2^31
	// would wrap where it is converted (a block of 2^62 empty records
	// read as none). Counts the input cannot hold fail first, as
	// Truncated.
	if !d.BoundItems(n, minItemSize) {
		d.EndBlock(b)
		return 0, NoBlockSize
	}
	if n > int64(math.MaxInt)-itemsSoFar {
		d.EndBlock(b)
		d.Failf(ErrLimit, "more than %d items in one collection on this platform", int64(math.MaxInt))
		return 0, NoBlockSize
	}
	return n, b
}

// BlockEnd is what endBlock needs to close a block: where it starts (after
// its header), its byte size (-1 for a block that did not give one), and
// the length of the input outside it. When the block ends within the
// input, the input is cut at its end while its items are read.
type BlockEnd struct {
	start, outer int
	size         int64
}

var NoBlockSize = BlockEnd{size: -1}

// openBlock cuts the input at the end of a block of size bytes that starts
// at the position.
func (d *Decoder) openBlock(size int64) BlockEnd {
	b := BlockEnd{start: d.Pos, outer: len(d.Buf), size: size}
	if size <= int64(b.outer-d.Pos) {
		d.Buf = d.Buf[:d.Pos+int(size)]
	}
	return b
}

// EndBlock closes the block b once its items are read or one failed, and
// reports whether the decode goes on: for a block that gave its size, the
// input is restored, and items that do not end exactly at its end are
// ErrInvalid.
func (d *Decoder) EndBlock(b BlockEnd) bool {
	if b.size < 0 {
		return d.Err == nil
	}
	return d.closeSizedBlock(b)
}

func (d *Decoder) closeSizedBlock(b BlockEnd) bool {
	d.Buf = d.Buf[:b.outer]
	inInput := b.size <= int64(b.outer-b.start)
	switch {
	case d.Err == nil:
		if took := int64(d.Pos - b.start); took != b.size {
			// The items end before the block does (had they run past it,
			// the cut would have stopped them): the size is wrong,
			// whatever bytes follow.
			d.Failf(ErrInvalid, "the items of a block take %d bytes, its header says %d", took, b.size)
		}
	case errors.Is(d.Err, ErrTruncated):
		if inInput {
			// The block is all in the input: an item that ran out of it
			// ran past the block's end, which more input cannot mend (a
			// streaming Decoder must not wait for more).
			d.Err = fmt.Errorf("%w: the items of a block run past its %d bytes", ErrInvalid, b.size)
			d.Need = 0
		} else if end := int64(b.start) + min(b.size, math.MaxInt64-int64(b.start)); end > d.Need {
			// A valid datum holds the whole block: a streaming Decoder
			// reads that much before it decodes again.
			d.Need = end
		}
	}
	return d.Err == nil
}

// ReadBlockHeader reads the header of a block: its item count, and the
// block's byte size when the writer gave one (a negative count), else -1.
// A count of 0 ends the collection; 0 is also returned on error.
func (d *Decoder) ReadBlockHeader(itemsSoFar int64) (count, size int64) {
	n := d.ReadLong()
	if d.Err != nil || n == 0 {
		return 0, -1
	}
	size = -1
	if n < 0 {
		if n == math.MinInt64 {
			d.Failf(ErrInvalid, "block count %d", n)
			return 0, -1
		}
		n = -n
		size = d.ReadLong()
		if d.Err != nil {
			return 0, -1
		}
		if size < 0 {
			d.Failf(ErrInvalid, "negative block size %d", size)
			return 0, -1
		}
	}
	if n > d.MaxItems-itemsSoFar {
		d.Failf(ErrLimit, "more than %d items in one collection", d.MaxItems)
		return 0, -1
	}
	return n, size
}

// BoundItems checks that n items of at least minItemSize bytes each fit in
// the input left. Items that may take no bytes draw from the per-decode
// budget instead, each as many as the values it holds: minus minItemSize,
// or one when it is 0 (see skip.ItemSize). n is positive (a block's count).
func (d *Decoder) BoundItems(n int64, minItemSize int) bool {
	if minItemSize > 0 {
		// The product in 128 bits rather than the bytes left divided by
		// the item size: a 64-bit division for every collection of every
		// record costs more than a multiply.
		if hi, lo := bits.Mul64(uint64(n), uint64(minItemSize)); hi != 0 || lo > uint64(len(d.Buf)-d.Pos) {
			if n <= math.MaxInt64/int64(minItemSize) {
				d.Truncated(n * int64(minItemSize))
			} else {
				d.Fail(ErrTruncated)
			}
			return false
		}
		return true
	}
	if minItemSize < -1 {
		// A division only here: items that take no bytes are rare.
		if n > d.ZeroLeft/int64(-minItemSize) {
			d.ZeroLeft = -1
		} else {
			n *= int64(-minItemSize)
		}
	}
	d.ZeroLeft -= n
	if d.ZeroLeft < 0 {
		d.Failf(ErrLimit, "more zero-size items than the budget allows")
		return false
	}
	return true
}

// ReadBranch reads a union branch index and checks it against the n
// branches; it returns -1 on error.
func (d *Decoder) ReadBranch(n int) int {
	i := d.ReadInt()
	if d.Err != nil {
		return -1
	}
	if i < 0 || int(i) >= n {
		d.Failf(ErrInvalid, "union index %d out of range (%d branches)", i, n)
		return -1
	}
	return int(i)
}

// ReadSymbol reads the index of a symbol of the enum named enum, of n
// symbols, and checks it; it returns 0 on error.
func (d *Decoder) ReadSymbol(n int, enum string) int {
	i := d.ReadInt()
	if d.Err != nil {
		return 0
	}
	if i < 0 || int(i) >= n {
		d.Failf(ErrInvalid, "enum index %d out of range for %s (%d symbols)", i, enum, n)
		return 0
	}
	return int(i)
}

// ReadBigDecimal reads the payload of a big-decimal: an Avro bytes that
// holds the unscaled value (bytes, aliasing the input) and then the scale
// (an int), within MaxDecimalScale either way. It reports false on error.
func (d *Decoder) ReadBigDecimal() (unscaled []byte, scale int32, ok bool) {
	n := d.ReadLength()
	if n < 0 {
		return nil, 0, false
	}
	// Read the payload's two parts with the input cut at its end, so that
	// neither can run past it.
	end := d.Pos + n
	outer := d.Buf
	d.Buf = d.Buf[:end]
	raw := d.ReadStringBytes()
	scale = d.ReadInt()
	left := end - d.Pos
	d.Buf = outer
	if d.Err == ErrTruncated {
		// The payload is all there (ReadLength checked it): a part that
		// runs past its end is bad data, not a datum cut short that a
		// streaming Decoder should wait for.
		d.Err, d.Need = nil, 0
		d.Failf(ErrInvalid, "big-decimal parts run past the payload of %d bytes", n)
	}
	if d.Err != nil {
		return nil, 0, false
	}
	if left != 0 {
		d.Failf(ErrInvalid, "%d bytes after the scale of a big-decimal", left)
		return nil, 0, false
	}
	if int64(scale) > int64(d.MaxDecimalScale) || int64(scale) < -int64(d.MaxDecimalScale) {
		d.Failf(ErrLimit, "big-decimal scale %d beyond ±%d", scale, d.MaxDecimalScale)
		return nil, 0, false
	}
	return raw, scale, true
}

// ReadSized reads a bytes value (size < 0) or a fixed of size bytes,
// aliasing the input.
func (d *Decoder) ReadSized(size int) []byte {
	if size < 0 {
		return d.ReadStringBytes()
	}
	return d.ReadRaw(size)
}
