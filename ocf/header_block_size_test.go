package ocf

import (
	"bytes"
	"errors"
	"testing"
)

// TestHeaderMetadataBlockSize: the header's metadata is an Avro map, and a
// block of it with a negative count gives its byte size. The entries must
// end exactly there, as in any Avro map (see block_size_test.go in the
// avro package): the Reader read the entries and ignored the size, so a
// reader that skips the block by its size saw other metadata.
func TestHeaderMetadataBlockSize(t *testing.T) {
	long := func(v int64) []byte { return appendLong(nil, v) }
	str := func(s string) []byte { return cat(long(int64(len(s))), []byte(s)) }
	schemaKV := cat(str("avro.schema"), str(`"long"`))
	codecKV := cat(str("avro.codec"), str("null"))
	n := int64(len(schemaKV))
	header := func(parts ...[]byte) []byte {
		return cat([]byte(Magic), cat(parts...), long(0), testSync[:])
	}
	good := [][]byte{
		header(long(-1), long(n), schemaKV),
		header(long(-2), long(n+int64(len(codecKV))), schemaKV, codecKV),
		header(long(-1), long(n), schemaKV, long(-1), long(int64(len(codecKV))), codecKV),
	}
	for i, h := range good {
		if r, err := NewReader(bytes.NewReader(h)); err != nil || r.Schema().String() != `"long"` {
			t.Errorf("good header %d: %v", i, err)
		}
	}
	bad := map[string][]byte{
		"one byte too many":         header(long(-1), long(n+1), schemaKV, long(0)),
		"one byte too few":          header(long(-1), long(n-1), schemaKV),
		"zero":                      header(long(-1), long(0), schemaKV),
		"huge":                      header(long(-1), long(1<<20), schemaKV),
		"size of the first of two":  header(long(-2), long(n), schemaKV, codecKV),
		"two blocks, second wrong":  header(long(-1), long(n), schemaKV, long(-1), long(3), codecKV),
		"size past the second item": header(long(-1), long(n+int64(len(codecKV))), schemaKV, codecKV),
	}
	for name, h := range bad {
		if _, err := NewReader(bytes.NewReader(h)); !errors.Is(err, ErrInvalidHeader) {
			t.Errorf("%s: %v, want ErrInvalidHeader", name, err)
		}
	}
}
