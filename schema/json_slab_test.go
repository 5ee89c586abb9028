package schema

import (
	"encoding/json"
	"strings"
	"testing"
	"unsafe"
)

// TestDefaultsOutliveTheDecodedTree checks that a field's default as
// written is a copy, not part of the decoder's slabs, which hold the whole
// decoded text's tree (cloneJSON).
func TestDefaultsOutliveTheDecodedTree(t *testing.T) {
	text := `{"a":[1,{"b":"c"}],"d":{}}`
	v, _, err := decodeJSON(text)
	if err != nil {
		t.Fatal(err)
	}
	c := cloneJSON(v)
	// Nor do its keys point into the text, which they would keep alive.
	start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	for _, m := range c.(*object).members {
		k := m.key
		if at := uintptr(unsafe.Pointer(unsafe.StringData(k))); at >= start && at < start+uintptr(len(text)) {
			t.Fatalf("the clone's key %q points into the text", k)
		}
	}
	orig := v.(*object)
	want := string(appendJSON(nil, v))
	// Writing over the original tree, as a later object cut from the
	// same slab would, must leave the clone as it was.
	orig.members[0].key = "x"
	orig.members[0].val.([]any)[1].(*object).members[0].val = "y"
	if got := string(appendJSON(nil, c)); got != want {
		t.Fatalf("clone changed with the original: %s, want %s", got, want)
	}
}

// TestLongArraysKeepTheirItems checks arrays long enough to take the
// decoder's stack, beside and inside others, against the text.
func TestLongArraysKeepTheirItems(t *testing.T) {
	long := func(n int, item string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
	}
	for _, text := range []string{
		long(3000, "1"),
		`[` + long(2000, "2") + `,` + long(1500, `"x"`) + `,3]`,
		`{"a":[1,2,3],"b":` + long(maxSlabChunk+1, "4") + `,"c":` + long(5000, "[5]") + `}`,
		long(1100, long(1100, "0")),
		long(2000, `"a,]\\\"[{"`),
		long(1500, `{"k,]":[",",{}]}`),
	} {
		v, _, err := decodeJSON(text)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(appendJSON(nil, v)); got != text {
			t.Fatalf("decoded %d bytes and wrote back %d that differ", len(text), len(got))
		}
	}
}

// TestCountItems checks the count that sizes a long array's stack.
func TestCountItems(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{`1]`, 1},
		{`1,2,3]`, 3},
		{`"a,]\"",[1,[2,3]],{"x,":"]"}]`, 3},
		{`1, 2 ,3 ] ,4]`, 3},
		{`1,2`, -1},
		{`"]`, -1},
	} {
		if got := countItems(c.text, 0); got != c.want {
			t.Errorf("countItems(%s) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestLongDefaultHoldsNoText checks that a long default array, which a
// field keeps as decoded, holds no string of the text and nothing of
// the slabs later values are cut from.
func TestLongDefaultHoldsNoText(t *testing.T) {
	items := strings.TrimSuffix(strings.Repeat(`"ab",12,`, 1000), ",")
	text := `{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"array","items":["string","long"]},"default":[` + items + `]},` +
		`{"name":"g","type":{"type":"map","values":"int"},"default":{"k":1}}]}`
	s, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	arr := s.Field("f").dflt.json.([]any)
	start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	for i, e := range arr {
		var str string
		switch e := e.(type) {
		case string:
			str = e
		case json.Number:
			str = string(e)
		default:
			t.Fatalf("item %d is %T", i, e)
		}
		if at := uintptr(unsafe.Pointer(unsafe.StringData(str))); at >= start && at < start+uintptr(len(text)) {
			t.Fatalf("item %d of the kept default points into the text", i)
		}
	}
	if got, want := string(appendJSON(nil, arr)), "["+items+"]"; got != want {
		t.Fatalf("the kept default changed")
	}
}
