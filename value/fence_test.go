package value

import (
	"testing"

	"github.com/avrogo/avro/internal/fixture"
)

// TestUnsafeIsFenced: only the representation and the Arena's layout
// check use unsafe; every other file goes through the operations on the
// pointer word.
func TestUnsafeIsFenced(t *testing.T) {
	fixture.CheckUnsafeFence(t, "value.go", "arena_slab.go")
}
