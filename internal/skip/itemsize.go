package skip

import (
	"math"

	"github.com/avrogo/avro/schema"
)

// ItemSize is the item size a collection decoder passes ReadBlock for items
// of schema s: their least encoded size, or, for items that may take no
// bytes at all, minus the number of values one holds (a null, a fixed(0),
// an empty record, each record around them). Decoding a zero-size item
// costs a step per value, and those steps are what the budget of zero-size
// items bounds: a record of a thousand null fields counted as one item
// would let five bytes declare a billion steps.
func ItemSize(s *schema.Schema) int {
	if n := s.MinEncodedSize(); n > 0 {
		return n
	}
	return -zeroValues(s, map[*schema.Schema]int{})
}

// zeroValues counts the values in an encoding of s that takes no bytes.
// Only nulls, fixed(0) and records of such fields take none. Counts are
// kept by record, as a named record used twice in a field costs its walk
// once; a record that holds itself that way has no finite encoding, and
// counts as the most.
func zeroValues(s *schema.Schema, seen map[*schema.Schema]int) int {
	if s.Kind() != schema.Record {
		return 1
	}
	if n, ok := seen[s]; ok {
		if n == 0 {
			return math.MaxInt32
		}
		return n
	}
	seen[s] = 0
	n := 1
	for _, f := range s.Fields() {
		n = min(n+zeroValues(f.Type(), seen), math.MaxInt32)
	}
	seen[s] = n
	return n
}
