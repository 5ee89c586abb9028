package avro

import (
	"bytes"
	"io"
	"testing"

	"github.com/avrogo/avro/schema"
)

// chunkReader returns at most n bytes per Read, as a network connection
// or a pipe does.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// A large datum arriving in small chunks must not be decoded again for
// every chunk (which made a 6 MB array 100 times slower than Unmarshal):
// the Decoder reads as much as the failed read said it needed before it
// tries again. That bound is safe (never past the datum's end, so an
// interactive stream cannot hang waiting for bytes that are not coming),
// so for items larger than their minimum size it is a lower bound and the
// attempts grow sub-linearly rather than logarithmically: 20 for 6 MB of
// longs, about 65 for 4 MB of short strings, against one per chunk (250
// to 380) before.
func TestDecoderRefillsLargeDatumsInFewAttempts(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		value  any
		out    func() any
	}{
		{"longs", `{"type":"array","items":"long"}`, func() any {
			v := make([]int64, 1_600_000)
			for i := range v {
				v[i] = int64(i * 7)
			}
			return v
		}(), func() any { return new([]int64) }},
		{"strings", `{"type":"array","items":"string"}`, func() any {
			v := make([]string, 200_000)
			for i := range v {
				v[i] = string(bytes.Repeat([]byte{'a' + byte(i%26)}, i%40))
			}
			return v
		}(), func() any { return new([]string) }},
		{"bytes", `"bytes"`, bytes.Repeat([]byte{7}, 5<<20), func() any { return new([]byte) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := schema.MustParse(c.schema)
			data, err := Marshal(s, c.value)
			if err != nil {
				t.Fatal(err)
			}
			dec := NewDecoder(&chunkReader{bytes.NewReader(data), 16 << 10}, s)
			out := c.out()
			if err := dec.Decode(out); err != nil {
				t.Fatal(err)
			}
			chunks := len(data) / (16 << 10)
			t.Logf("%d bytes in %d chunks: %d decode attempts", len(data), chunks, dec.attempts)
			if dec.attempts > chunks/3 {
				t.Errorf("%d decode attempts for %d chunks of input, want at most a third as many", dec.attempts, chunks)
			}
			again, err := Marshal(s, out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Error("the decoded value does not re-encode to the input")
			}
			if err := dec.Decode(out); err != io.EOF {
				t.Errorf("after the datum: %v, want io.EOF", err)
			}
		})
	}
}
