package schema

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// doublingDefaults is a record nested levels deep whose two fields both
// default to {}: each level's default takes its fields' defaults, so it is
// twice the size of the level below, from a text that grows by a line.
func doublingDefaults(levels int) string {
	prev := `{"type":"record","name":"L0","fields":[{"name":"x","type":"long","default":7}]}`
	for i := 1; i <= levels; i++ {
		prev = fmt.Sprintf(`{"type":"record","name":"L%d","fields":[{"name":"f0","type":%s,"default":{}},{"name":"f1","type":"L%d","default":{}}]}`, i, prev, i-1)
	}
	return prev
}

// allocated returns the bytes the heap allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Guards the default expansion: 32 levels (3.8 KB) expanded to 2^32
// values and ended the process out of memory; 24 levels parsed, holding
// 47 MiB of defaults.
func TestDefaultExpansionBounded(t *testing.T) {
	for _, levels := range []int{24, 32, 64} {
		text := doublingDefaults(levels)
		var err error
		n := allocated(func() { _, err = Parse(text) })
		var e *Error
		if !errors.Is(err, ErrLimit) || !errors.As(err, &e) || !strings.Contains(e.Path, "default") {
			t.Fatalf("%d levels (%d bytes): err = %v, want an *Error wrapping ErrLimit at a default", levels, len(text), err)
		}
		// The default limit is 4 MiB of expansion; what the parse
		// allocates stays within a few times that.
		if n > 32<<20 {
			t.Errorf("%d levels: the rejected parse allocated %d MiB", levels, n>>20)
		}
	}
	// The limit is configurable: 12 levels fit in the default, not in 1 KiB.
	text := doublingDefaults(12)
	s, err := Parse(text)
	if err != nil {
		t.Fatalf("12 levels: %v", err)
	}
	if got := len(s.Fields()[0].DefaultBinary()); got != 1<<11 {
		t.Errorf("12 levels: a field's default encodes to %d bytes, want %d", got, 1<<11)
	}
	if _, err := (ParseOptions{MaxDefaultSize: 1 << 10}).Parse(text); !errors.Is(err, ErrLimit) {
		t.Errorf("12 levels, MaxDefaultSize 1 KiB: err = %v, want ErrLimit", err)
	}
}

// A default that is written out in the text is never over the default
// limit, however large: the limit grows with the text.
func TestDefaultSizeScalesWithText(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"R","fields":[`)
	// A double default of "0" is 8 bytes and one value for 2 bytes of
	// text: 2,000 defaults of 300 make 5.4 million, over the 4 MiB floor.
	zeros := strings.TrimSuffix(strings.Repeat("0,", 300), ",")
	for i := 0; i < 2000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"f%d","type":{"type":"array","items":"double"},"default":[%s]}`, i, zeros)
	}
	b.WriteString(`]}`)
	s, err := Parse(b.String())
	if err != nil {
		t.Fatalf("%d bytes of written-out defaults: %v", b.Len(), err)
	}
	if got, want := len(s.Fields()[1999].DefaultBinary()), 2+1+300*8; got != want {
		t.Errorf("a default encodes to %d bytes, want %d", got, want)
	}
}

// Guards the cost of checking defaults: the budget was 2^20 steps for the
// whole text, so a million fields ["null","string"] with a null default
// failed at the 524,288th. It now grows with the text; the margin for
// union backtracking stays bounded.
func TestDefaultStepsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"R","fields":[`)
	const n = 20000
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"f%d","type":["null","string"],"default":null}`, i)
	}
	b.WriteString(`]}`)
	// With a margin of 100 steps, 20,000 defaults still take their two
	// steps each from the text's share.
	s, err := ParseOptions{MaxDefaultSteps: 100}.Parse(b.String())
	if err != nil {
		t.Fatalf("%d nullable fields with a margin of 100 steps: %v", n, err)
	}
	if f := s.Fields()[n-1]; !f.HasDefault() || f.DefaultBranch() != 0 {
		t.Errorf("last field: default %v, branch %d", f.HasDefault(), f.DefaultBranch())
	}
}

// backtracking is a field whose union default is tried against two
// record branches at each of depth levels and fits none, at the bottom:
// checking it takes 2^depth steps.
func backtracking(depth int) string {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"Top","fields":[{"name":"t","type":[`)
	b.WriteString(`{"type":"record","name":"A0","fields":[{"name":"g","type":"int"}]},`)
	b.WriteString(`{"type":"record","name":"B0","fields":[{"name":"g","type":"int"}]}`)
	b.WriteString(`]}`)
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&b, `,{"name":"a%d","type":{"type":"record","name":"A%d","fields":[{"name":"f","type":["A%d","B%d"]}]}}`, i, i, i-1, i-1)
		fmt.Fprintf(&b, `,{"name":"b%d","type":{"type":"record","name":"B%d","fields":[{"name":"f","type":["A%d","B%d"]}]}}`, i, i, i-1, i-1)
	}
	def := `{"g":"not an int"}`
	for i := 0; i < depth; i++ {
		def = `{"f":` + def + `}`
	}
	fmt.Fprintf(&b, `,{"name":"d","type":["A%d","B%d"],"default":%s}]}`, depth-1, depth-1, def)
	return b.String()
}

func TestDefaultStepsBoundBacktracking(t *testing.T) {
	// 2^30 steps unbounded; the text's share and a margin of 1,000 stop
	// it after a few thousand.
	_, err := ParseOptions{MaxDefaultSteps: 1000}.Parse(backtracking(30))
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "MaxDefaultSteps") {
		t.Fatalf("err = %v, want ErrLimit naming MaxDefaultSteps", err)
	}
	// A shallow one is an ordinary mismatch.
	_, err = Parse(backtracking(4))
	if err == nil || errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "matches no branch") {
		t.Fatalf("depth 4: err = %v, want a default that matches no branch", err)
	}
	// The default margin, 2^20 steps, holds depth 16 (2^16 steps).
	if _, err := Parse(backtracking(16)); err == nil || errors.Is(err, ErrLimit) {
		t.Fatalf("depth 16: err = %v, want a default that matches no branch", err)
	}
}

func TestMaxSize(t *testing.T) {
	text := `{"type":"fixed","name":"F","size":4}`
	if _, err := (ParseOptions{MaxSize: len(text)}).Parse(text); err != nil {
		t.Fatalf("a text of exactly MaxSize: %v", err)
	}
	_, err := ParseOptions{MaxSize: len(text) - 1}.Parse(text)
	var e *Error
	if !errors.Is(err, ErrLimit) || !errors.As(err, &e) || !strings.Contains(e.Msg, "MaxSize") {
		t.Fatalf("a text over MaxSize: err = %v, want an *Error wrapping ErrLimit", err)
	}
	p := ParseOptions{MaxSize: len(text) - 1}.NewParser()
	if _, err := p.Parse(text); !errors.Is(err, ErrLimit) {
		t.Fatalf("Parser over MaxSize: err = %v, want ErrLimit", err)
	}
}

// hostileShapes are texts of about n bytes built to cost the parser the
// most memory for their length.
func hostileShapes(n int) map[string]string {
	shapes := map[string]string{}
	build := func(name, head, tail string, item func(i int) string) {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; b.Len() < n; i++ {
			b.WriteString(item(i))
		}
		b.WriteString(tail)
		shapes[name] = b.String()
	}
	build("props of empty arrays", `{"type":"array","items":"int","p":[`, `[]]}`, func(int) string { return `[],` })
	build("props of one-item arrays", `{"type":"array","items":"int","p":[`, `[]]}`, func(int) string { return `[1],` })
	build("props of empty objects", `{"type":"array","items":"int","p":{`, `"z":1}}`, func(i int) string { return fmt.Sprintf(`"%x":{},`, i) })
	build("a union of fixed types", `[`, `"null"]`, func(i int) string { return fmt.Sprintf(`{"type":"fixed","name":"f%x","size":1},`, i) })
	build("nullable fields", `{"type":"record","name":"R","fields":[`, `{"name":"z","type":"int"}]}`, func(i int) string {
		return fmt.Sprintf(`{"name":"f%x","type":["null","string"],"default":null},`, i)
	})
	build("fields of arrays of maps", `{"type":"record","name":"R","fields":[`, `{"name":"z","type":"int"}]}`, func(i int) string {
		return fmt.Sprintf(`{"name":"f%x","type":{"type":"array","items":{"type":"map","values":"int"}}},`, i)
	})
	return shapes
}

// Guards the memory a text can cost: 15 MiB of properties holding arrays
// took 818 MiB (54 bytes a byte) and 4 s, and parsing may not grow faster
// than its text. ParseOptions documents at most about 60 bytes a byte.
func TestParseMemoryLinear(t *testing.T) {
	for name, text := range hostileShapes(1 << 20) {
		var s *Schema
		var err error
		n := allocated(func() { s, err = Parse(text) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ratio := float64(n) / float64(len(text))
		t.Logf("%s: %d bytes of text, %.1f bytes allocated a byte", name, len(text), ratio)
		if ratio > 64 {
			t.Errorf("%s: parsing allocated %.1f bytes a byte of text, more than the documented 60", name, ratio)
		}
		runtime.KeepAlive(s)
	}
}
