package schema

import (
	"math"
	"runtime"
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
// resolve. Both are now linear. The test measures the processor time of
// n branches against 8n (not the wall clock, which other processes
// stretch), the least of three runs of each taken in turn: linear work
// takes about 8 to 18 times as long (maps and the collector grow with the
// schema), the quadratic code about 60.
func TestLargeUnionsLinear(t *testing.T) {
	work := func(n int) time.Duration {
		runtime.GC() // the garbage of the run before is not this one's to collect
		start := cpuTime()
		w := MustParse(largeUnion("f", n))
		r := MustParse(largeUnion("f", n))
		other := MustParse(largeUnion("g", n)) // no branch but null in common
		if _, err := Resolve(w, r); err != nil {
			t.Fatal(err)
		}
		if err := CheckCompatibility(r, w); err != nil {
			t.Fatal(err)
		}
		if err := CheckCompatibility(other, w); err == nil {
			t.Error("unions with only null in common are compatible")
		}
		return cpuTime() - start
	}
	const n = 5_000
	small, large := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for range 3 {
		small = min(small, work(n))
		large = min(large, work(8*n))
	}
	t.Logf("%d branches %v, %d branches %v: %.1fx", n, small, 8*n, large, float64(large)/float64(small))
	if large > 32*small {
		t.Errorf("%d branches took %v, %d took %v: more than 32 times as long, quadratic", n, small, 8*n, large)
	}
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
