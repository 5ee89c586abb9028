package codec_test

import (
	"strings"
	"testing"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/jsoncodec"
	"github.com/avrogo/avro/schema"
)

// countingStyle is the specification's style with programs that count the
// bytes of text they read.
type countingStyle struct {
	codec.JSONStyle
	read *int
}

func (countingStyle) Index() int { return codec.JSONStyles - 2 }

func (c countingStyle) TextReader(s *schema.Schema) codec.JSONTextReader {
	return countingReader{c.JSONStyle.TextReader(s), c.read}
}

type countingReader struct {
	r    codec.JSONTextReader
	read *int
}

func (c countingReader) FromJSON(dst, text []byte, start int, o *codec.JSONReadOptions) ([]byte, int, error) {
	out, n, err := c.r.FromJSON(dst, text, start, o)
	*c.read += n - start
	return out, n, err
}

type again struct {
	C *again `avro:"c"`
	V int64  `avro:"v"`
}

// TestJSONReadAgainIsBounded: in a recursive record whose every level
// sends its direct decoder back to its start after reading its child (here
// a key written with an escape, after the child), the text is read again
// through the programs at most about twice over, not once a level, and the
// value is the one the text holds.
func TestJSONReadAgainIsBounded(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"T","fields":[{"name":"c","type":["null","T"]},{"name":"v","type":"long"}]}`)
	const levels = 60
	text := strings.Repeat(`{"c":{"T":`, levels) +
		`{"c":null,"v":7,"x":"` + strings.Repeat("x", 100000) + `"}` +
		strings.Repeat(`},"\u0076":1}`, levels)
	read := 0
	st := countingStyle{jsoncodec.StyleOf(jsoncodec.Flavor{}), &read}
	o := &codec.JSONReadOptions{Decode: &codec.DecodeOptions{}, MaxNumberLength: 1024, AllowUnknownFields: true}
	var v again
	if err := codec.UnmarshalJSON(s, []byte(text), &v, st, o); err != nil {
		t.Fatal(err)
	}
	depth := 0
	for p := &v; p != nil; p = p.C {
		if want := int64(1); p.C == nil {
			want = 7
			if p.V != want {
				t.Fatalf("level %d: v = %d, want %d", depth, p.V, want)
			}
		} else if p.V != want {
			t.Fatalf("level %d: v = %d, want %d", depth, p.V, want)
		}
		depth++
	}
	if depth != levels+1 {
		t.Fatalf("%d levels, want %d", depth, levels+1)
	}
	if read > 3*len(text) {
		t.Errorf("into a struct, the programs read %d bytes of a text of %d", read, len(text))
	}
	read = 0
	var x any
	if err := codec.UnmarshalJSON(s, []byte(text), &x, st, o); err != nil {
		t.Fatal(err)
	}
	for depth = 0; depth < levels; depth++ {
		m, ok := x.(map[string]any)
		if !ok || m["v"] != int64(1) {
			t.Fatalf("level %d: %#v", depth, x)
		}
		x = m["c"]
	}
	if m, ok := x.(map[string]any); !ok || m["v"] != int64(7) {
		t.Fatalf("innermost: %#v", x)
	}
	if read > 3*len(text) {
		t.Errorf("into any, the programs read %d bytes of a text of %d", read, len(text))
	}
}
