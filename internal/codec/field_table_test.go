package codec

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestFieldTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const letters = "ab_Z9"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	built := 0
	for trial := range 2000 {
		seen := map[string]bool{}
		var names []string
		for len(names) < minTableFields+trial%(maxTableFields-minTableFields+1) {
			if w := word(r.IntN(12)); !seen[w] {
				seen[w] = true
				names = append(names, w)
			}
		}
		tab := newFieldTable(names)
		if tab == nil {
			continue // names too alike for the hash: the caller looks them up
		}
		built++
		for i, n := range names {
			if got := tab.index(n); got != i {
				t.Fatalf("names %q: index(%q) = %d, want %d", names, n, got, i)
			}
		}
		for range 50 {
			if w := word(r.IntN(14)); !seen[w] && tab.index(w) != -1 {
				t.Fatalf("names %q: index(%q) = %d, want -1", names, w, tab.index(w))
			}
		}
	}
	if built < 1000 {
		t.Errorf("tables built for %d of 2000 random name sets", built)
	}
	many := make([]string, maxTableFields+1)
	for i := range many {
		many[i] = fmt.Sprintf("f%d", i)
	}
	switch {
	case newFieldTable(many) != nil:
		t.Errorf("a table for %d fields", len(many))
	case newFieldTable(many[:maxTableFields]) == nil || newFieldTable(many[:minTableFields]) == nil:
		t.Errorf("no table for %d or %d fields", maxTableFields, minTableFields)
	case newFieldTable(many[:minTableFields-1]) != nil:
		t.Errorf("a table for %d fields, which are looked up", minTableFields-1)
	}
	// Names equal in length and in their first and last four bytes
	// cannot be told apart by the hash.
	alike := append([]string{"created_at_utc", "created_on_utc"}, many[:minTableFields]...)
	if newFieldTable(alike) != nil {
		t.Error("a table for names the hash cannot separate")
	}
}

// find walks a map of one table, and leaves the others, and any map
// whose walk does not add up, to be looked up.
func TestFieldTableFind(t *testing.T) {
	names := make([]string, 20)
	for i := range names {
		names[i] = "field" + strconv.Itoa(i)
	}
	tab := newFieldTable(names)
	if tab == nil {
		t.Fatal("no table")
	}
	m := map[string]any{}
	for i, n := range names {
		if i != 3 { // field3 missing
			m[n] = i
		}
	}
	m["other"] = "x"
	var c fieldCursor
	ok := tab.find(m, &c)
	if !ok && tableMapsWalkable {
		t.Fatal("a map of one table not walked")
	}
	if ok {
		c.m = m
		for i, n := range names {
			if x, got := c.field(i, n); got != (i != 3) || got && x != i {
				t.Errorf("field %d: held %v, value %v", i, got, x)
			}
		}
	}
	small := map[string]any{"field1": 1}
	if tab.find(small, &fieldCursor{}) {
		t.Error("a map of one group walked")
	}
	big := map[string]any{}
	for i := range 100 {
		big[strconv.Itoa(i)] = i
	}
	if tab.find(big, &fieldCursor{}) {
		t.Error("a map of many other keys walked")
	}
}
