package value

import (
	"github.com/avrogo/avro/schema"
)

// Arena hands out the records, maps and value slices of a tree of values
// from shared blocks, so that building a tree costs a few allocations
// rather than one or more per node. The decoders of package avro use one
// per decode: a decoded record with a nested record and a map is one
// block.
//
// The zero Arena is ready to use; a nil *Arena allocates every node on its
// own, as NewRecord and NewMap do. Blocks start at 32 Values (512 bytes)
// unless SetBlockSize or SetBlockSizes says otherwise, and each new block
// doubles, up to 512 Values (8 KiB); a request for more than 256 Values
// gets an allocation of its own. What is left of a block too small for a
// request is not used again, which at most doubles the memory a tree
// takes. Memory is never reused: the collector frees a block when nothing
// refers into it, which also means that one small value kept alive keeps
// its whole block alive. An Arena is not safe for concurrent use; the
// values it made are ordinary values and follow the package's rules.
type Arena struct {
	free   []Value // the unused part of the current block
	next   int     // the size of the next block, in Values; 0 means arenaFirst
	after  int     // the size of the block after it; 0 means twice its size
	handed int     // Values handed out so far
}

const (
	arenaFirst = 32
	arenaMin   = 4
	arenaMax   = 512
)

// SetBlockSize sets the size, in Values of 16 bytes, of the next block the
// arena allocates (clamped to [4, 512]). A caller that knows roughly how
// many Values a tree needs avoids both a second block and a mostly empty
// one.
func (a *Arena) SetBlockSize(n int) { a.SetBlockSizes(n, 0) }

// SetBlockSizes sets the sizes of the next two blocks the arena allocates
// (each clamped to [4, 512] Values; a second size of 0 or less doubles
// the first, as after SetBlockSize); blocks after them double. A caller
// with a close estimate of its tree passes it first and a small second
// size: what does not fit in the first block is then likely little.
func (a *Arena) SetBlockSizes(first, second int) {
	a.next, a.after = clampBlock(first), 0
	if second > 0 {
		a.after = clampBlock(second)
	}
}

func clampBlock(n int) int { return min(max(n, arenaMin), arenaMax) }

// Values returns n null Values (len and cap n). It panics if n < 0.
func (a *Arena) Values(n int) []Value {
	if n < 0 {
		panic("value: Arena.Values: negative length")
	}
	if a == nil {
		return make([]Value, n)
	}
	a.handed += n
	if n <= len(a.free) {
		s := a.free[:n:n]
		a.free = a.free[n:]
		return s
	}
	size := a.next
	if size == 0 {
		size = arenaFirst
	}
	if n > arenaMax/2 {
		return make([]Value, n)
	}
	size = max(size, n)
	if a.after > 0 {
		a.next, a.after = a.after, 0
	} else {
		a.next = min(2*size, arenaMax)
	}
	block := make([]Value, size)
	a.free = block[n:]
	return block[:n:n]
}

// Handed returns the number of Values (of 16 bytes) the arena has handed
// out: a record takes two plus one per field, a map three plus two per
// entry. Callers that build similar trees again use it to size the next
// arena's block (SetBlockSize).
func (a *Arena) Handed() int { return a.handed }

// NewRecord returns a record of schema s with every field null. It panics
// if s is not a record schema.
func (a *Arena) NewRecord(s *schema.Schema) *Record {
	if a == nil || !arenaSlabs {
		return NewRecord(s, nil)
	}
	n := recordSize(s, 0)
	return placeRecord(a.Values(2+n), s, n)
}

// NewMap returns a map of n entries with empty keys and null values, to be
// filled through the slices Keys and Values return (as a decoder does when
// it knows how many entries follow); Append and Set add more. It panics if
// n < 0.
func (a *Arena) NewMap(n int) *Map {
	if n < 0 {
		panic("value: Arena.NewMap: negative size")
	}
	if a == nil || !arenaSlabs {
		return NewMap(make([]string, n), make([]Value, n))
	}
	// Header, keys and values in one run of Values: a string header has
	// the size and pointer layout of a Value (arenaSlabs checks it).
	block := a.Values(mapHeaderValues + 2*n)
	m := as[Map](ptrTo(&block[0]))
	if n > 0 {
		m.keys = as[string](ptrTo(&block[mapHeaderValues]))
		m.vals = &block[mapHeaderValues+n]
		m.n, m.c = n, n
	}
	return m
}
