//go:build !purego

package codec

import (
	"bytes"
	"github.com/avrogo/avro/internal/wire"
	"testing"
)

// ReadShortSpan takes a run of values with one-byte lengths that fits a
// share of the chunk, and declines anything else having read nothing.
func TestReadShortSpan(t *testing.T) {
	run := func(lens ...int) []byte {
		var b []byte
		for i, n := range lens {
			b = append(b, byte(n<<1))
			b = append(b, bytes.Repeat([]byte{byte('a' + i)}, n)...)
		}
		return b
	}
	read := func(o DecodeOptions, data []byte, strs int64) (span []byte, ok bool, pos int, spent int64) {
		d := newDecodeState(&o, data)
		defer d.release()
		before := d.AllocLeft
		span, ok = d.ReadShortSpan(strs)
		return span, ok, d.Pos, before - d.AllocLeft
	}

	data := run(2, 0, 3)
	span, ok, pos, spent := read(DecodeOptions{}, data, 3)
	if !ok || pos != len(data) || spent != 5 {
		t.Fatalf("3 short strings: ok %v, pos %d, spent %d; want true, %d, 5", ok, pos, spent, len(data))
	}
	if &span[0] == &data[0] {
		t.Errorf("the span aliases the input")
	}
	var got []string
	for range 3 {
		got = append(got, wire.CutSpanString(&span))
	}
	if want := []string{"aa", "", "ccc"}; len(span) != 0 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("cut %q, %d bytes left; want %q", got, len(span), want)
	}

	// The span, lengths included, may take wire.StringShareMax bytes.
	full := run(63, 63, 63, wire.StringShareMax-3*64-1)
	if len(full) != wire.StringShareMax {
		t.Fatalf("the full span is %d bytes", len(full))
	}
	if _, ok, _, _ := read(DecodeOptions{}, full, 4); !ok {
		t.Errorf("a span of exactly %d bytes declined", len(full))
	}
	for name, c := range map[string]struct {
		o    DecodeOptions
		data []byte
		strs int64
	}{
		"over wire.StringShareMax": {DecodeOptions{}, append(full, 0), 5},
		"a two-byte length":        {DecodeOptions{}, append(run(1), 0x80, 0x01), 2},
		"a negative length":        {DecodeOptions{}, append(run(1), 0x03, 'x'), 2},
		"past the input":           {DecodeOptions{}, run(1, 2)[:4], 2},
		"fewer values":             {DecodeOptions{}, run(1, 2), 3},
		"over MaxLength":           {DecodeOptions{MaxLength: 2}, run(1, 3), 2},
		"over MaxAlloc":            {DecodeOptions{MaxAlloc: 3}, run(2, 2), 2},
		"ZeroCopy":                 {DecodeOptions{ZeroCopy: true}, run(1, 2), 2},
		"ValidateUTF8":             {DecodeOptions{ValidateUTF8: true}, run(1, 2), 2},
	} {
		if _, ok, pos, spent := read(c.o, c.data, c.strs); ok || pos != 0 || spent != 0 {
			t.Errorf("%s: ok %v, pos %d, spent %d; want false, 0, 0", name, ok, pos, spent)
		}
	}
	// At the limits themselves it still takes the run.
	for name, o := range map[string]DecodeOptions{"MaxLength": {MaxLength: 3}, "MaxAlloc": {MaxAlloc: 4}} {
		if _, ok, _, _ := read(o, run(1, 3), 2); !ok {
			t.Errorf("%s at the run's size: declined", name)
		}
	}
}
