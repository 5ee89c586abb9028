package schema

import (
	"bytes"
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

// TestSymbolIndex checks SymbolIndex, enum defaults and repeated symbols
// on enums scanned and enums with a map of their symbols.
func TestSymbolIndex(t *testing.T) {
	for _, n := range []int{1, scanSymbols, scanSymbols + 1, 300} {
		syms := make([]string, n)
		for i := range syms {
			syms[i] = fmt.Sprintf("S%d", i)
		}
		list := `"` + strings.Join(syms, `","`) + `"`
		last := syms[n-1]
		s := MustParse(fmt.Sprintf(`{"type":"enum","name":"E","symbols":[%s],"default":%q}`, list, last))
		for i, sym := range syms {
			if got := s.SymbolIndex(sym); got != i {
				t.Fatalf("%d symbols: SymbolIndex(%q) = %d, want %d", n, sym, got, i)
			}
		}
		if got := s.SymbolIndex("X"); got != -1 {
			t.Fatalf("%d symbols: SymbolIndex(X) = %d, want -1", n, got)
		}
		if d, ok := s.EnumDefault(); !ok || d != last {
			t.Fatalf("%d symbols: default %q %v, want %q", n, d, ok, last)
		}
		r := MustParse(fmt.Sprintf(`{"type":"record","name":"R","fields":[{"name":"e","type":{"type":"enum","name":"E","symbols":[%s]},"default":%q}]}`, list, last))
		if b := r.Field("e").DefaultBinary(); !bytes.Equal(b, appendLong(nil, int64(n-1))) {
			t.Fatalf("%d symbols: default encodes as %x", n, b)
		}
		checkError(t, fmt.Sprintf(`{"type":"enum","name":"E","symbols":[%s],"default":"X"}`, list), "default", `enum default "X" is not a symbol`)
		checkError(t, fmt.Sprintf(`{"type":"enum","name":"E","symbols":[%s,"S0",%q]}`, list, last), fmt.Sprintf("symbols[%d]", n), `duplicate enum symbol "S0"`)
	}
}
