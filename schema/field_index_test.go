package schema

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recordOf is a record of the fields named, all ints.
func recordOf(names ...string) string {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"R","fields":[`)
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":%q,"type":"int"}`, n)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestFieldByName checks Field on records scanned and records with a
// table of their fields, for every field and for names that are none.
func TestFieldByName(t *testing.T) {
	for _, n := range []int{0, 1, scanFields, scanFields + 1, 100, 5000} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("f%d", i)
		}
		s := MustParse(recordOf(names...))
		for i, name := range names {
			f := s.Field(name)
			if f == nil || f.Index() != i || f.Name() != name {
				t.Fatalf("%d fields: Field(%q) = %v, want field %d", n, name, f, i)
			}
		}
		for _, name := range []string{"", "f", fmt.Sprintf("f%d", n), "g0", "f0 "} {
			if f := s.Field(name); f != nil {
				t.Fatalf("%d fields: Field(%q) = field %d, want nil", n, name, f.Index())
			}
		}
	}
}

// TestDuplicateFieldInLargeRecord checks that a repeated field name is
// found however many fields the record has, at the first repetition.
func TestDuplicateFieldInLargeRecord(t *testing.T) {
	for _, c := range []struct {
		n, dup, of int
	}{{scanFields + 1, scanFields, 0}, {1000, 999, 3}, {1000, 500, 499}, {1000, 2, 1}} {
		names := make([]string, c.n)
		for i := range names {
			names[i] = fmt.Sprintf("f%d", i)
		}
		names[c.dup] = names[c.of]
		// A later repetition too: the first must be the one reported.
		names[c.n-1] = names[0]
		_, err := Parse(recordOf(names...))
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%+v: got %v, want an *Error", c, err)
		}
		want := fmt.Sprintf("fields[%d].name", c.dup)
		if e.Path != want || !strings.Contains(e.Msg, fmt.Sprintf("duplicate field name %q", names[c.dup])) {
			t.Fatalf("%+v: got %q at %s, want a duplicate of %q at %s", c, e.Msg, e.Path, names[c.dup], want)
		}
	}
}
