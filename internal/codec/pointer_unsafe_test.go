package codec

import (
	"testing"

	"github.com/avrogo/avro/internal/fixture"
)

// TestUnsafeIsFenced guards the fence of pointer_unsafe.go: a codec that
// imports unsafe again instead of using its operations fails here. Files
// of every build are read, not only those of this one.
func TestUnsafeIsFenced(t *testing.T) {
	fixture.CheckUnsafeFence(t, "pointer_unsafe.go", "map_walk_swiss.go")
}
