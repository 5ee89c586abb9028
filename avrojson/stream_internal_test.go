package avrojson

import (
	"io"
	"strings"
	"testing"

	"github.com/avrogo/avro/schema"
)

// TestDecoderBufferShrinks: the buffer a large value needed is given back
// once the values after it are small.
func TestDecoderBufferShrinks(t *testing.T) {
	s := schema.MustParse(`"string"`)
	text := `"` + strings.Repeat("x", 8<<20) + `"` + strings.Repeat("\n\"small\"", 100_000)
	d := NewDecoder(strings.NewReader(text), s)
	var v string
	if err := d.Decode(&v); err != nil || len(v) != 8<<20 {
		t.Fatalf("large value: %d bytes, %v", len(v), err)
	}
	if cap(d.buf) < 8<<20 {
		t.Fatalf("buffer of %d bytes held an 8 MiB value", cap(d.buf))
	}
	n := 0
	for {
		err := d.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil || v != "small" {
			t.Fatalf("value %d: %q, %v", n, v, err)
		}
		n++
	}
	if n != 100_000 {
		t.Errorf("%d small values, want 100000", n)
	}
	if cap(d.buf) > decoderKeep {
		t.Errorf("buffer of %d bytes kept after the large value", cap(d.buf))
	}
}
