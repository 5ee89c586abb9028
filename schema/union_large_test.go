package schema

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// largeUnion is a union of n fixed types named prefix0 ... prefix<n-1>.
func largeUnion(prefix string, n int) string {
	var b strings.Builder
	b.WriteString(`["null"`)
	for i := range n {
		b.WriteString(`,{"type":"fixed","size":1,"name":"` + prefix + strconv.Itoa(i) + `"}`)
	}
	b.WriteString(`]`)
	return b.String()
}

// A union's duplicate branches were found by comparing every branch with
// every one before it, and a writer union was resolved against a reader
// union by comparing every pair of branches: a container header of 80,000
// fixed types took 20 seconds to parse, and two such unions 17 seconds to
// resolve. Both are now linear; 40,000 branches take milliseconds (the
// quadratic code took seconds, more under the race detector).
func TestLargeUnionsLinear(t *testing.T) {
	const n = 40_000
	start := time.Now()
	w := MustParse(largeUnion("f", n))
	r := MustParse(largeUnion("f", n))
	other := MustParse(largeUnion("g", n)) // no branch but null in common
	parsed := time.Since(start)
	if _, err := Resolve(w, r); err != nil {
		t.Fatal(err)
	}
	if err := CheckCompatibility(r, w); err != nil {
		t.Fatal(err)
	}
	if err := CheckCompatibility(other, w); err == nil {
		t.Error("unions with only null in common are compatible")
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("parsing three unions of %d branches took %v, resolving them %v: quadratic", n, parsed, took-parsed)
	}
	t.Logf("parse %v, resolve %v", parsed, time.Since(start)-parsed)
	// Past unionScanMax branches, duplicates are still found: a named
	// type given again by reference, and an unnamed kind twice.
	for _, extra := range []string{`"f7"`, `"int","int"`} {
		dup := strings.TrimSuffix(largeUnion("f", 20), "]") + "," + extra + "]"
		if _, err := Parse(dup); err == nil || !strings.Contains(err.Error(), "duplicate union branch") {
			t.Errorf("a union of 20 fixed types and %s: %v", extra, err)
		}
	}
	if _, err := Parse(largeUnion("f", 20)); err != nil {
		t.Error(err)
	}
}
