package schema

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func fieldsText(n int, field func(i int) string) string {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"R","fields":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(field(i))
	}
	b.WriteString(`]}`)
	return b.String()
}

// Fields of one shared type with the same small default share it: each
// must still read as its own, and types that differ must not be mixed.
func TestSharedDefaults(t *testing.T) {
	types := []struct {
		typ, def string
		value    any
		branch   int
		binary   []byte
	}{
		{`["null","string"]`, `null`, nil, 0, []byte{0}},
		{`["null","boolean"]`, `null`, nil, 0, []byte{0}},
		{`"boolean"`, `true`, true, -1, []byte{1}},
		{`["boolean","null"]`, `true`, true, 0, []byte{0, 1}},
		{`"int"`, `7`, int32(7), -1, []byte{14}},
		{`"long"`, `7`, int64(7), -1, []byte{14}},
		{`"string"`, `""`, "", -1, []byte{0}},
		{`"bytes"`, `""`, []byte{}, -1, []byte{0}},
	}
	text := fieldsText(3*len(types), func(i int) string {
		c := types[i%len(types)]
		return fmt.Sprintf(`{"name":"f%d","type":%s,"default":%s}`, i, c.typ, c.def)
	})
	s := mustParse(t, text)
	for i, f := range s.Fields() {
		c := types[i%len(types)]
		v, ok := f.Default()
		if !ok || !f.HasDefault() || fmt.Sprintf("%#v", v) != fmt.Sprintf("%#v", c.value) ||
			f.DefaultBranch() != c.branch || !bytes.Equal(f.DefaultBinary(), c.binary) {
			t.Errorf("field %d (%s default %s): Default %#v %v, branch %d, binary %v; want %#v, %d, %v",
				i, c.typ, c.def, v, ok, f.DefaultBranch(), f.DefaultBinary(), c.value, c.branch, c.binary)
		}
	}
	if again := mustParse(t, s.String()); again.String() != s.String() {
		t.Errorf("String does not parse back to itself")
	}
}

// A default shared by many fields counts once for each toward
// MaxDefaultSize, as defaults of their own do.
func TestSharedDefaultsChargedEach(t *testing.T) {
	for _, c := range []struct{ typ, def string }{{`"long"`, `1`}, {`["null","int"]`, `null`}} {
		// Each default is one value and one byte: 100 fields expand to 200.
		text := fieldsText(100, func(i int) string {
			return fmt.Sprintf(`{"name":"f%d","type":%s,"default":%s}`, i, c.typ, c.def)
		})
		if _, err := (ParseOptions{MaxDefaultSize: 200}).Parse(text); err != nil {
			t.Errorf("%s: MaxDefaultSize 200: %v", c.typ, err)
		}
		_, err := (ParseOptions{MaxDefaultSize: 150}).Parse(text)
		var e *Error
		if !errors.Is(err, ErrLimit) || !errors.As(err, &e) || e.Path != "fields[75].default" {
			t.Errorf("%s: MaxDefaultSize 150: err = %v, want ErrLimit at fields[75].default", c.typ, err)
		}
	}
}
