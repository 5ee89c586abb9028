package jsoncodec

import (
	"unicode/utf8"

	"github.com/avrogo/avro/internal/jsontext"
	"github.com/avrogo/avro/internal/wire"
)

// arrayNode writes an array's items, of any number of blocks, as one JSON
// array; reading writes them as one block.
type arrayNode struct {
	elem    node
	minSize int
}

func (n *arrayNode) toJSON(t *toState) {
	if !t.Enter() {
		return
	}
	t.out = append(t.out, '[')
	var total int64
	for {
		count, blk := t.ReadBlock(total, n.minSize)
		if count == 0 {
			break
		}
		for i := range count {
			if total+i > 0 {
				t.out = append(t.out, ',')
			}
			n.elem.toJSON(t)
			if t.Err != nil || !t.grown() {
				t.EndBlock(blk)
				t.AddIndex(total + i)
				return
			}
		}
		if !t.EndBlock(blk) {
			return
		}
		total += count
	}
	if t.Err != nil {
		return
	}
	t.out = append(t.out, ']')
	t.Leave()
}

func (n *arrayNode) fromJSON(f *fromState) {
	if !f.Expect('[') || !f.enter() {
		return
	}
	start := len(f.out)
	var count int64
	if !f.Empty(']') {
		for {
			if count == f.maxItems {
				f.fail(wire.ErrLimit, f.Pos, "array of more than %d items", f.maxItems)
			} else {
				n.elem.fromJSON(f)
			}
			if f.failed() {
				f.addIndex(count)
				return
			}
			count++
			if !f.More(']') {
				break
			}
		}
		if f.failed() {
			return
		}
		f.insertCount(start, count)
	}
	f.out = append(f.out, 0)
	f.leave()
}

// mapNode writes a map's entries as a JSON object, in the order of the
// binary; reading takes them in the order of the text, and a key given
// twice is an error.
type mapNode struct {
	elem    node
	minSize int
}

func (n *mapNode) toJSON(t *toState) {
	if !t.Enter() {
		return
	}
	t.out = append(t.out, '{')
	var total int64
	for {
		count, blk := t.ReadBlock(total, n.minSize)
		if count == 0 {
			break
		}
		for i := range count {
			if total+i > 0 {
				t.out = append(t.out, ',')
			}
			k := t.ReadStringBytes()
			if t.Err == nil && t.ValidateUTF && !utf8.Valid(k) {
				t.Failf(wire.ErrInvalid, "map key is not valid UTF-8")
			}
			if t.Err != nil {
				t.EndBlock(blk)
				if !t.encoding {
					// A Go map's entries have no order: the index of
					// one in its encoding does not locate it.
					t.AddIndex(total + i)
				}
				return
			}
			t.out = jsontext.AppendString(t.out, k)
			t.out = append(t.out, ':')
			n.elem.toJSON(t)
			if t.Err != nil || !t.grown() {
				t.EndBlock(blk)
				t.AddKey(string(k))
				return
			}
		}
		if !t.EndBlock(blk) {
			return
		}
		total += count
	}
	if t.Err != nil {
		return
	}
	t.out = append(t.out, '}')
	t.Leave()
}

func (n *mapNode) fromJSON(f *fromState) {
	if !f.Expect('{') || !f.enter() {
		return
	}
	start := len(f.out)
	keysBase := len(f.keys)
	var set keySet
	defer func() {
		f.keys = f.keys[:keysBase]
		set.release(f)
	}()
	var count int64
	if !f.Empty('}') {
		for {
			if count == f.maxItems {
				f.fail(wire.ErrLimit, f.Pos, "map of more than %d entries", f.maxItems)
				return
			}
			text, pos := f.readString()
			if f.failed() {
				f.addIndex(count)
				return
			}
			keyStart := len(f.out)
			f.appendString(text, pos)
			if f.failed() {
				f.addIndex(count)
				return
			}
			key := span{keyStart, len(f.out)}
			if f.duplicateKey(keysBase, key, &set) {
				f.fail(wire.ErrInvalid, pos, "map key %q given twice", text)
				return
			}
			f.keys = append(f.keys, key)
			if !f.Expect(':') {
				return
			}
			n.elem.fromJSON(f)
			if f.failed() {
				f.addKey(f.out[key.start:key.end][varintLen(f.out[key.start:]):])
				return
			}
			count++
			if !f.More('}') {
				break
			}
		}
		if f.failed() {
			return
		}
		f.insertCount(start, count)
	}
	f.out = append(f.out, 0)
	f.leave()
}

// keySet is the set of the keys of one large map: the state's own set,
// or, for a large map inside another's values, a set of its own.
type keySet struct {
	m     map[string]struct{}
	owned bool
}

func (k *keySet) release(f *fromState) {
	if k.owned {
		f.keySetBusy = false
	}
}

// duplicateKey reports whether the key at k (its Avro string in f.out)
// was written before by the map whose keys start at f.keys[base]: by
// comparison for a few keys, with a set for more.
func (f *fromState) duplicateKey(base int, k span, set *keySet) bool {
	keys := f.keys[base:]
	kb := f.out[k.start:k.end]
	const linear = 16
	if len(keys) < linear {
		for _, o := range keys {
			if string(f.out[o.start:o.end]) == string(kb) {
				return true
			}
		}
		return false
	}
	if set.m == nil {
		if !f.keySetBusy {
			if f.keySet == nil {
				f.keySet = make(map[string]struct{}, 4*linear)
			}
			clear(f.keySet)
			set.m, set.owned, f.keySetBusy = f.keySet, true, true
		} else {
			set.m = make(map[string]struct{}, 4*linear)
		}
		for _, o := range keys {
			set.m[string(f.out[o.start:o.end])] = struct{}{}
		}
	}
	if _, ok := set.m[string(kb)]; ok {
		return true
	}
	set.m[string(kb)] = struct{}{}
	return false
}

// varintLen returns the length of the varint at the start of b.
func varintLen(b []byte) int {
	for i, c := range b {
		if c < 0x80 {
			return i + 1
		}
	}
	return len(b)
}
