package wire

// Elem is the element type of the typed arrays that may be carved from a
// decode's chunk of short strings (ChunkSlice): pointer-free.
type Elem interface {
	int32 | int64 | float32 | float64 | bool
}
