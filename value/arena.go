package value

import (
	"unsafe"

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
// unless SetBlockSize says otherwise, and each new block doubles, up to
// 512 Values (8 KiB). The exception is the block after one that
// SetBlockSize sized: that caller knew about how large its tree is, so
// what did not fit is likely little, and that block is a quarter of the
// sized one. A request for more than 256 Values gets an allocation of its
// own. What is left of a block too small for a request is not used again,
// which at most doubles the memory a tree takes. Memory is never reused:
// the collector frees a block when nothing refers into it, which also
// means that one small value kept alive keeps its whole block alive. An
// Arena is not safe for concurrent use; the values it made are ordinary
// values and follow the package's rules.
type Arena struct {
	free   []Value // the unused part of the current block
	next   int     // the size of the next block, in Values; 0 means arenaFirst
	handed int     // Values handed out so far
	sized  bool    // whether SetBlockSize set next
}

const (
	arenaFirst = 32
	arenaMin   = 4
	arenaMax   = 512
)

// SetBlockSize sets the size, in Values of 16 bytes, of the next block the
// arena allocates (clamped to [4, 512]). A caller that knows roughly how
// many Values a tree needs avoids both a second block and a mostly empty
// one; if the tree outgrows it, the block after it is a quarter of its
// size.
func (a *Arena) SetBlockSize(n int) { a.next, a.sized = min(max(n, arenaMin), arenaMax), true }

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
	if a.sized {
		a.next, a.sized = max(size/4, arenaMin), false
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
	m := (*Map)(unsafe.Pointer(&block[0]))
	if n > 0 {
		m.keys = (*string)(unsafe.Pointer(&block[mapHeaderValues]))
		m.vals = &block[mapHeaderValues+n]
		m.n, m.c = n, n
	}
	return m
}

// mapHeaderValues is the number of Values a Map header occupies in a block.
const mapHeaderValues = int(unsafe.Sizeof(Map{}) / unsafe.Sizeof(Value{}))
