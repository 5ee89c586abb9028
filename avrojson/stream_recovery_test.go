package avrojson_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// A line of a stream, and whether it fits the schema.
type streamLine struct {
	text string
	fits bool
}

// TestStreamGoesOnAfterAValueThatDoesNotFit: a value that is JSON but
// does not fit the schema is an *avro.Error whose offset is inside that
// value, and the next Decode reads the value after it, in both flavours,
// for a schema read as written and a resolved one, into a struct and
// into any, whole and one byte a read.
func TestStreamGoesOnAfterAValueThatDoesNotFit(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"n","type":"int"},
		{"name":"tags","type":{"type":"array","items":"string"}},
		{"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}},
		{"name":"u","type":["null","long"]}]}`)
	reader := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"n","type":"long"},
		{"name":"extra","type":"string","default":"x"}]}`)
	resolved, err := schema.Resolve(s, reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, plain := range []bool{false, true} {
		o, dec, union := avrojson.Options{}, `"\u0001\u0000"`, `{"long":7}`
		if plain {
			o, dec, union = avrojson.Plain(), `2.56`, `7`
		}
		good := func(n int) streamLine {
			return streamLine{fmt.Sprintf(`{"n":%d,"tags":["a"],"d":%s,"u":%s}`, n, dec, union), true}
		}
		lines := []streamLine{
			good(1),
			{`{"n":"2","tags":[],"d":` + dec + `,"u":null}`, false},
			good(3),
			{`{"n":4,"tags":["a",5],"d":` + dec + `,"u":null}`, false},
			{`{"n":2147483648,"tags":[],"d":` + dec + `,"u":null}`, false},
			good(6),
			{`{"tags":[],"d":` + dec + `,"u":null}`, false},
			{`[1,2,3]`, false},
			{`"n"`, false},
			good(10),
			{`{"n":11,"tags":[],"d":` + dec + `,"u":{"string":"x"}}`, false},
			good(12),
		}
		if plain {
			lines = append(lines, streamLine{`{"n":13,"tags":[],"d":123.456,"u":null}`, false}, good(14))
		}
		var text strings.Builder
		var starts []int64
		for _, l := range lines {
			starts = append(starts, int64(text.Len()))
			text.WriteString(l.text + "\n")
		}
		for _, sc := range []*schema.Schema{s, resolved} {
			for _, oneByte := range []bool{false, true} {
				for _, target := range []string{"struct", "any"} {
					name := fmt.Sprintf("plain=%v/resolved=%v/onebyte=%v/%s", plain, sc == resolved, oneByte, target)
					var r io.Reader = strings.NewReader(text.String())
					if oneByte {
						r = iotest.OneByteReader(r)
					}
					d := o.NewDecoder(r, sc)
					for i, l := range lines {
						var err error
						var n int64
						if target == "struct" {
							var v struct {
								N int64 `avro:"n"`
							}
							err = d.Decode(&v)
							n = v.N
						} else {
							var v any
							err = d.Decode(&v)
							if m, ok := v.(map[string]any); ok && err == nil {
								n = toInt64(m["n"])
							}
						}
						if l.fits {
							if err != nil || n != int64(i+1) {
								t.Errorf("%s: line %d: n=%d, %v; want %d", name, i+1, n, err, i+1)
							}
							continue
						}
						var ae *avro.Error
						misfit := errors.Is(err, avro.ErrInvalid) || errors.Is(err, avro.ErrRange)
						if !errors.As(err, &ae) || !misfit || errors.Is(err, avrojson.ErrStopped) {
							t.Errorf("%s: line %d: %T %v, want an *avro.Error wrapping ErrInvalid or ErrRange, not ErrStopped", name, i+1, err, err)
							continue
						}
						if ae.Offset >= 0 && (ae.Offset < starts[i] || ae.Offset > starts[i]+int64(len(l.text))) {
							t.Errorf("%s: line %d: offset %d outside the line [%d, %d]", name, i+1, ae.Offset, starts[i], starts[i]+int64(len(l.text)))
						}
					}
					var v any
					if err := d.Decode(&v); err != io.EOF {
						t.Errorf("%s: after the last line: %v, want io.EOF", name, err)
					}
				}
			}
		}
	}
}

func toInt64(v any) int64 {
	switch n := v.(type) {
	case int32:
		return int64(n)
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return -1
}

// TestStreamSyntaxErrorsStop: text that is not JSON, a value over the
// length limit and a stream cut short lose the framing of what follows,
// so the error wraps ErrStopped and every later Decode returns it; a Go
// target that cannot hold the schema consumes nothing.
func TestStreamSyntaxErrorsStop(t *testing.T) {
	for _, bad := range []string{`{"x":1,"y"}`, `{"x":1,"y":"a\q"}`, `{"x":nul,"y":"a"}`, `{"x":1 "y":"a"}`} {
		for _, plain := range []bool{false, true} {
			o := avrojson.Options{}
			if plain {
				o = avrojson.Plain()
			}
			d := o.NewDecoder(strings.NewReader(`{"x":1,"y":"a"}`+"\n"+bad+"\n"+`{"x":2,"y":"b"}`+"\n"), pointSchema)
			var p point
			if err := d.Decode(&p); err != nil {
				t.Fatal(err)
			}
			err := d.Decode(&p)
			if !errors.Is(err, avro.ErrInvalid) || !errors.Is(err, avrojson.ErrStopped) {
				t.Fatalf("%s: %v, want ErrInvalid and ErrStopped", bad, err)
			}
			for range 2 {
				if again := d.Decode(&p); again != err {
					t.Errorf("%s, plain %v: after a syntax error: %v, want the same error", bad, plain, again)
				}
			}
		}
	}
	for _, c := range []struct {
		text     string
		sentinel error
	}{
		{`{"x":1,"y":"a"} {"x":2,"y":"b`, avro.ErrTruncated},
		{`{"x":1,"y":"a"} {"x":2,"y":"` + strings.Repeat("b", 200) + `"} {"x":3,"y":"c"}`, avro.ErrLimit},
	} {
		o := avrojson.Options{Decode: avro.DecodeOptions{MaxLength: 100}}
		// Read a byte at a time, the long value is refused before it is
		// all buffered, so its end is not known.
		d := o.NewDecoder(iotest.OneByteReader(strings.NewReader(c.text)), pointSchema)
		var p point
		if err := d.Decode(&p); err != nil {
			t.Fatal(err)
		}
		err := d.Decode(&p)
		if !errors.Is(err, c.sentinel) || !errors.Is(err, avrojson.ErrStopped) {
			t.Errorf("%.40s: %v, want %v and ErrStopped", c.text, err, c.sentinel)
		}
		if again := d.Decode(&p); again != err {
			t.Errorf("%.40s: after it: %v, want the same error", c.text, again)
		}
	}
	d := avrojson.NewDecoder(strings.NewReader(`{"x":1,"y":"a"}`), pointSchema)
	var n int
	var te *avro.TypeError
	if err := d.Decode(&n); !errors.As(err, &te) {
		t.Fatalf("into *int: %v, want *avro.TypeError", err)
	}
	var p point
	if err := d.Decode(&p); err != nil || p != (point{1, "a"}) {
		t.Errorf("after a target error: %+v, %v; want the value again", p, err)
	}
}
