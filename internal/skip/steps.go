package skip

import (
	"encoding/binary"
	"math/bits"

	"github.com/avrogo/avro/internal/wire"
	"github.com/avrogo/avro/schema"
)

// Step skips one value. Primitive values, and unions of them, are
// skipped inline, in one loop over a record's consecutive skipped or
// copied fields (no call per field, varints measured by their stop bit
// without being decoded); other values go to their Skipper. name labels
// errors inside a record ("" for a value that is not a field).
type Step struct {
	op   uint8
	n    int // opFixed: width; opEnum: number of symbols
	sk   *Skipper
	name string
	// opUnion: one step per branch, each a primitive step or a Skipper.
	branches []Step
}

const (
	opNull uint8 = iota
	opBool
	opInt
	opLong
	opLen
	opFixed
	opEnum
	opSkipper
	opUnion
)

// Step returns the step that skips a value of s, the field name (or "")
// labelling its errors.
func (m Memo) Step(s *schema.Schema, name string) Step {
	st := Step{name: name}
	switch s.Kind() {
	case schema.Null:
		st.op = opNull
	case schema.Boolean:
		st.op = opBool
	case schema.Int:
		st.op = opInt
	case schema.Long:
		st.op = opLong
	case schema.Float:
		st.op, st.n = opFixed, 4
	case schema.Double:
		st.op, st.n = opFixed, 8
	case schema.String, schema.Bytes:
		st.op = opLen
	case schema.Fixed:
		st.op, st.n = opFixed, s.Size()
	case schema.Enum:
		st.op, st.n = opEnum, len(s.Symbols())
	case schema.Union:
		// A branch step has no name: an error inside it is named once,
		// by the union's own step.
		st.op = opUnion
		for _, b := range s.Branches() {
			st.branches = append(st.branches, m.Step(b, ""))
		}
	default:
		st.op, st.sk = opSkipper, m.Skipper(s)
	}
	return st
}

// All runs the steps, and reports false (with the error recorded and
// the field named) if one fails. It validates what it skips as a decoder
// would: varint lengths, booleans, enum indexes and union branches,
// lengths against the limit and the input left.
//
// The position lives in a local between fields: kept in d.pos, every
// field's skip would wait on a store and a reload of it before it could
// read its first byte. The slow paths take it from and give it back to d.
func All(d *wire.Decoder, steps []Step) bool {
	buf, p := d.Buf, d.Pos
	for i := range steps {
		st := &steps[i]
		op := st.op
		if op == opUnion {
			// The branch index, inline when it is one byte (a union has
			// at most 63 branches that fit one, and real ones have few).
			if p < len(buf) && buf[p] < 0x80 && buf[p]&1 == 0 && int(buf[p]>>1) < len(st.branches) {
				st = &st.branches[buf[p]>>1]
				p++
			} else {
				d.Pos = p
				j := d.ReadBranch(len(st.branches))
				buf, p = d.Buf, d.Pos
				if j < 0 {
					if name := steps[i].name; name != "" {
						d.AddField(name)
					}
					return false
				}
				st = &st.branches[j]
			}
			op = st.op
		}
		switch op {
		case opInt, opLong:
			// A one-byte value first: on data of small numbers the branch
			// is predicted and the next skip need not wait for this one.
			// Longer ones take their length from one word, inline.
			if p < len(buf) && buf[p] < 0x80 {
				p++
				continue
			}
			if n := varintLenInWord(buf[p:], op == opLong); n > 0 {
				p += n
				continue
			}
			d.Pos = p
			skipVarint(d, op == opLong)
		case opLen:
			// A one-byte length (0 to 63) within the input and the limit.
			if p < len(buf) && buf[p] < 0x80 && buf[p]&1 == 0 {
				if n := int(buf[p] >> 1); int64(n) <= d.MaxLength && n < len(buf)-p {
					p += 1 + n
					continue
				}
			}
			d.Pos = p
			if n := d.ReadLength(); n > 0 {
				d.Pos += n
			}
		case opFixed:
			if len(buf)-p >= st.n {
				p += st.n
				continue
			}
			d.Pos = p
			d.Truncated(int64(st.n))
		case opBool:
			if p < len(buf) && buf[p] <= 1 {
				p++
				continue
			}
			d.Pos = p
			d.ReadBool()
		case opNull:
			continue
		case opEnum:
			d.Pos = p
			if j := d.ReadInt(); d.Err == nil && (j < 0 || int(j) >= st.n) {
				d.Failf(wire.ErrInvalid, "enum index %d out of range (%d symbols)", j, st.n)
			}
		case opSkipper:
			d.Pos = p
			st.sk.Skip(d)
		}
		// Only the slow paths reach here, with the position in d.
		buf, p = d.Buf, d.Pos
		if d.Err != nil {
			if name := steps[i].name; name != "" {
				d.AddField(name)
			}
			return false
		}
	}
	d.Pos = p
	return true
}

// varintLenInWord returns the length of the int or long varint at the
// start of b when b holds 8 bytes and the varint ends, valid, within
// them; 0 otherwise. It is small enough to inline into All.
func varintLenInWord(b []byte, long bool) int {
	if len(b) < 8 {
		return 0
	}
	m := ^binary.LittleEndian.Uint64(b) & 0x8080808080808080
	if m == 0 {
		return 0
	}
	n := (bits.TrailingZeros64(m) + 1) >> 3
	if long || n < 5 || b[4] <= 0x0f {
		return n
	}
	return 0 // an int past 5 bytes or the int range: the slow path fails
}

// skipVarint moves past an int or long varint of two bytes or more,
// failing as readInt and readLong would on a malformed one.
func skipVarint(d *wire.Decoder, long bool) {
	if n := varintLenInWord(d.Buf[d.Pos:], long); n > 0 {
		d.Pos += n
		return
	}
	if long {
		d.ReadLongSlow()
	} else {
		d.ReadInt()
	}
}
