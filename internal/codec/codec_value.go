package codec

import (
	"reflect"
	"sync/atomic"

	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// The value.Value codecs: a tree of nodes built once per schema, so that a
// decode walks no schema and looks nothing up by name. Values hold the
// underlying Avro representation of logical types (a timestamp-millis is a
// Long), so every datum round-trips exactly. Arrays of int, long, float,
// double and boolean decode to typed arrays: one allocation, filled by the
// bulk kernels.

var valueType = reflect.TypeFor[value.Value]()

func isValueType(t reflect.Type) bool { return t == valueType }

// valueNode is the codec of one schema node for value.Value.
type valueNode interface {
	read(d *decodeState) value.Value
	write(v value.Value, e *encodeState)
	// accepts reports whether write takes v at this level (for choosing
	// the union branch of a value without one).
	accepts(v value.Value) bool
}

// valueCodec is the decoder and encoder of *value.Value for one node.
type valueCodec struct {
	n     valueNode
	arena *arenaSizer // nil for an encoder
}

func newValueDecoder(n valueNode, s *schema.Schema) valueCodec {
	return valueCodec{n, &arenaSizer{fixed: int32(fixedValues(s))}}
}

func (c valueCodec) decode(p pointer, d *decodeState) {
	// Only the first tree of a decode sizes the arena: the trees of a
	// []value.Value, or of a struct's other value.Value fields, share its
	// blocks, which then double as usual. (Sizing each anew would give
	// each small tree a block of its own.)
	top := d.arena.Handed() == 0
	left := len(d.Buf) - d.Pos
	if top {
		d.arena.SetBlockSizes(c.arena.blockSizes(left))
	}
	v := c.n.read(d)
	if d.Err == nil {
		*as[value.Value](p) = v
		if top {
			c.arena.learn(d.arena.Handed(), left-(len(d.Buf)-d.Pos), left)
		}
	}
}

// arenaSizer sizes the first arena blocks of a decode so that the whole
// tree fits with little to spare: the bytes of a block cost the collector
// more than the number of blocks. It starts from the fixed part of the
// tree (records, nested records, map headers) plus room for what the input
// can add, then follows what decodes of this codec used:
//   - By default, the first block takes the size of the last tree, and
//     the blocks after it double. Trees of one size (a record of scalars
//     and strings) fit it exactly.
//   - When trees vary in size but not in Values per byte of input (a
//     record with 2 or 20 array items takes 30 or 180 Values, and about as
//     many Values per byte either way), the input's length predicts the
//     tree better than the last tree does. The first block is then the
//     input's length times a recent high count of Values per byte, and the
//     second a quarter of it: what did not fit is likely little. This
//     needs decodes whose input is the one datum (Unmarshal's, or a
//     resolved datum's transcoded bytes); a stream's buffer holds more, so
//     its decodes keep the default.
//
// Its fields are shared by every goroutine decoding with the codec, and
// are written only when they change or leave a band around the new
// figure, so that concurrent decodes of similar data do not keep writing
// one cache line.
type arenaSizer struct {
	fixed int32
	// last is a recent decode's use in Values (0 before the first),
	// written when it moves out of [use, 2*use).
	last atomic.Int32
	// perKiB is a recent high count of Values per 1,024 bytes of input,
	// from decodes that took all of their input (0 before the first),
	// written when it moves out of [rate, 2*rate].
	perKiB atomic.Int32
	// steady reports whether the last decode took all of its input, used
	// another number of Values than last held, and had a rate within
	// [perKiB/2, perKiB]: the per-byte estimate is then to be trusted.
	steady atomic.Bool
}

// maxSizedInput caps the input length the per-byte estimate multiplies,
// so that the product fits in an int64 (a rate is at most 2^19); larger
// inputs get the largest block anyway.
const maxSizedInput = 1 << 30

// blockSizes returns the sizes of the first two blocks of a decode of
// inputLeft bytes (a second size of 0 doubles the first).
func (z *arenaSizer) blockSizes(inputLeft int) (first, second int) {
	fixed, last := int(z.fixed), int(z.last.Load())
	if rate := z.perKiB.Load(); rate > 0 && z.steady.Load() {
		est := int(min((int64(min(inputLeft, maxSizedInput))*int64(rate)+1023)>>10, arenaMaxBlock))
		// The cap bounds the block of a stream's first datum after one
		// that took all of its buffer.
		est = max(fixed, min(est+est&1, 4*last))
		if est >= arenaMaxBlock {
			return est, 0 // a tree this large may take many blocks
		}
		return est, est / 4
	}
	if last > 0 {
		// A short input after a large one does not get its large block.
		return min(last, max(fixed, 2*min(inputLeft, arenaMaxBlock)+2)), 0
	}
	return max(fixed, min(arenaHint, fixed+inputLeft/8)), 0
}

// learn records that a decode used the given Values and consumed the
// given bytes of the inputLeft bytes it was given.
func (z *arenaSizer) learn(used, consumed, inputLeft int) {
	used = min(used+used&1, arenaMaxBlock) // a whole size class: blocks of two Values
	last := int(z.last.Load())
	if used > last || 2*used <= last {
		z.last.Store(int32(used))
	}
	steady := false
	if consumed == inputLeft && consumed > 0 {
		rate := int32((int64(used)<<10 + int64(consumed) - 1) / int64(consumed))
		cur := z.perKiB.Load()
		steady = used != last && rate <= cur && 2*int64(rate) >= int64(cur)
		if rate > cur || 2*int64(rate) < int64(cur) {
			z.perKiB.Store(rate)
		}
	}
	if z.steady.Load() != steady {
		z.steady.Store(steady)
	}
}

func (c valueCodec) encode(p pointer, e *encodeState) { c.n.write(*as[value.Value](p), e) }

func (c *compiler) valueDecoder(s *schema.Schema, path string) (decoder, error) {
	n, err := c.valueNodeFor(s, path, false)
	if err != nil {
		return nil, err
	}
	return newValueDecoder(n, s), nil
}

// arenaHint caps the first arena block of a decode at 512 bytes unless
// the fixed part of the tree needs more: the runtime allocates objects
// with pointers up to that size without a type header.
const arenaHint = 32

// fixedValues is the number of Values the records of s and the records
// they nest directly take in an arena (a map counts its header only),
// capped at arenaMaxBlock: only a block size is derived from it. Each
// named record is counted once per path and remembered, so a schema that
// reuses record types as fields many times over costs time linear in its
// size, not exponential (found in review: a few KB of schema took 20 s).
func fixedValues(s *schema.Schema) int {
	return fixedValuesMemo(s, map[*schema.Schema]int{})
}

// arenaMaxBlock is the largest block a value.Arena allocates, in Values.
const arenaMaxBlock = 512

func fixedValuesMemo(s *schema.Schema, memo map[*schema.Schema]int) int {
	switch s.Kind() {
	case schema.Map:
		return 3
	case schema.Record:
		if n, seen := memo[s]; seen {
			return n // also 0 for a record inside itself (marked below)
		}
		memo[s] = 0
		n := 2 + len(s.Fields())
		for _, f := range s.Fields() {
			n = min(n+fixedValuesMemo(f.Type(), memo), arenaMaxBlock)
		}
		memo[s] = n
		return n
	}
	return 0
}

func (c *compiler) valueEncoder(s *schema.Schema, path string) (encoder, error) {
	n, err := c.valueNodeFor(s, path, false)
	if err != nil {
		return nil, err
	}
	return valueCodec{n: n}, nil
}

// valueNodeFor returns the node of schema s. inRecord tells whether the
// values of s are read inside a record Value, whose schema then names
// every union branch; outside one, a fixed union branch is read with its
// schema, so that the Value can name its branch when written as JSON.
func (c *compiler) valueNodeFor(s *schema.Schema, path string, inRecord bool) (valueNode, error) {
	key := compileKey{s, valueType}
	if vc, ok := c.decoders[key].(valueCodec); ok {
		return vc.n, nil
	}
	var n valueNode
	switch s.Kind() {
	case schema.Null:
		n = valueNull{}
	case schema.Boolean:
		n = valueBool{}
	case schema.Int:
		n = valueInt{}
	case schema.Long:
		n = valueLong{}
	case schema.Float:
		n = valueFloat{}
	case schema.Double:
		n = valueDouble{}
	case schema.String:
		n = valueString{}
	case schema.Bytes:
		n = valueBytes{}
	case schema.Enum:
		n = valueEnum{s}
	case schema.Fixed:
		n = valueFixed{s.Size()}
	case schema.Array:
		if typed := typedValueArray(s.Items()); typed != nil {
			n = typed
			break
		}
		arr := &valueArray{minSize: skip.ItemSize(s.Items())}
		c.setValueNode(s, arr)
		items, err := c.valueNodeFor(s.Items(), path+"[]", inRecord)
		if err != nil {
			return nil, err
		}
		arr.items = items
		n = arr
	case schema.Map:
		m := &valueMap{minSize: 1 + s.Values().MinEncodedSize()}
		c.setValueNode(s, m)
		values, err := c.valueNodeFor(s.Values(), path+"[]", inRecord)
		if err != nil {
			return nil, err
		}
		m.values = values
		_, m.stringValues = values.(valueString)
		n = m
	case schema.Record:
		rec := &valueRecord{s: s}
		c.setValueNode(s, rec)
		for _, f := range s.Fields() {
			fn, err := c.valueNodeFor(f.Type(), joinPath(path, f.Name()), true)
			if err != nil {
				return nil, err
			}
			rec.fields = append(rec.fields, fn)
			rec.ops = append(rec.ops, valueOpOf(fn))
			rec.names = append(rec.names, f.Name())
		}
		rec.runs = make([]uint8, len(rec.ops))
		forStringRuns(len(rec.ops), func(i int) bool { return rec.ops[i] == vopString }, func(first, run int) {
			rec.ops[first], rec.runs[first] = vopStringRun, uint8(run)
		})
		n = rec
	case schema.Union:
		u := &valueUnion{s: s}
		c.setValueNode(s, u)
		for _, b := range s.Branches() {
			bn, err := c.valueNodeFor(b, joinPath(path, "["+b.FullName()+"]"), inRecord)
			if err != nil {
				return nil, err
			}
			if b.Kind() == schema.Fixed && !inRecord {
				bn = valueNamedFixed{b}
			}
			u.branches = append(u.branches, bn)
		}
		n = u
	default:
		return nil, typeErr(path, valueType, s, "unknown schema kind")
	}
	if l := s.Logical(); l == schema.Decimal || l == schema.UUID && s.Kind() == schema.String {
		n = valueChecked{valueNode: n, check: newDatumCheck(s)}
	}
	c.setValueNode(s, n)
	return n, nil
}

// valueChecked writes a decimal's or uuid's value.Value with the node of
// its underlying type, then checks the datum as the encoders of Go values
// of that type do.
type valueChecked struct {
	valueNode
	check datumCheck
}

func (n valueChecked) write(v value.Value, e *encodeState) {
	start := len(e.Buf)
	n.valueNode.write(v, e)
	n.check.after(start, e)
}

func (c *compiler) setValueNode(s *schema.Schema, n valueNode) {
	key := compileKey{s, valueType}
	c.decoders[key], c.encoders[key] = newValueDecoder(n, s), valueCodec{n: n}
}
