package jsontext

import (
	"strings"
	"testing"
)

// feed gives a Skipper text in pieces of n bytes, as a stream's reader
// appends them, and returns the Reader after the last Resume, the most
// bytes any Resume went back over before the end of the text it was given
// before (in a string, before where its scan stopped), and the bytes of
// strings scanned in all.
func feed(t *testing.T, text string, n int) (r *Reader, worst, scanned int) {
	t.Helper()
	var s Skipper
	s.Init(nil)
	r = &Reader{}
	all := []byte(text)
	for end := min(n, len(text)); ; end = min(end+n, len(text)) {
		r.Buf = all[:end]
		if s.started {
			back := len(r.Buf) - n - s.at
			if s.strFrom > 0 {
				back = len(r.Buf) - n - s.strFrom
			}
			worst = max(worst, back)
		}
		s.Resume(r, 64, 32)
		if r.Fault != Truncated || end == len(text) {
			return r, worst, s.scanned
		}
	}
}

// TestSkipperResumes: a value that arrives in pieces is skipped as when it
// is whole, and each Resume reads again at most the number, word or
// escape it was cut in, never the value or string from its start.
func TestSkipperResumes(t *testing.T) {
	long := strings.Repeat(`ab\"c\\\u00e9 `, 2000)
	text := ` [` + strings.Repeat(`12345, -6.5e7 ,`, 500) + `"` + long + `", {"k\"ey": [true, null, NaN,-Infinity, {"a": "b"}, []], "` + long + `": {}}, false]`
	whole := Reader{Buf: []byte(text)}
	whole.Skip(64, 32)
	if whole.Failed() || whole.Pos != len(text) {
		t.Fatalf("whole: %v %s at %d", whole.Fault, whole.ErrMsg, whole.Pos)
	}
	for _, n := range []int{1, 2, 7, 4096} {
		r, worst, scanned := feed(t, text, n)
		if r.Failed() || r.Pos != len(text) {
			t.Fatalf("pieces of %d: %v %s at %d of %d", n, r.Fault, r.ErrMsg, r.Pos, len(text))
		}
		if worst > 16 {
			t.Errorf("pieces of %d: a Resume went back %d bytes", n, worst)
		}
		if scanned > len(text) {
			t.Errorf("pieces of %d: %d bytes of strings scanned, in a text of %d", n, scanned, len(text))
		}
	}
	// Errors are found wherever the pieces cut the text, at the same
	// place: a word or number the piece ends with may go on.
	for _, bad := range []string{`["ab\q"]`, `{"a\u12x":1}`, `[1,]`, `{"a":tru }`, `[` + strings.Repeat(`[`, 64) + `]`, `[123456789012345678901234567890123]`, `[null0]`, `{"a":truex}`, `[1,Infinityy]`} {
		want := Reader{Buf: []byte(bad)}
		want.Skip(64, 32)
		for _, n := range []int{1, 3, len(bad)} {
			r, _, _ := feed(t, bad, n)
			if r.Fault != Invalid && r.Fault != Limit || r.ErrPos != want.ErrPos {
				t.Errorf("%s in pieces of %d: %v %s at %d, want an error at %d", bad, n, r.Fault, r.ErrMsg, r.ErrPos, want.ErrPos)
			}
		}
	}
}
