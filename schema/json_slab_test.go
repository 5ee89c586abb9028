package schema

import "testing"

// TestDefaultsOutliveTheDecodedTree checks that a field's default as
// written is a copy, not part of the decoder's slabs, which hold the whole
// decoded text's tree (cloneJSON).
func TestDefaultsOutliveTheDecodedTree(t *testing.T) {
	v, _, err := decodeJSON(`{"a":[1,{"b":"c"}],"d":{}}`)
	if err != nil {
		t.Fatal(err)
	}
	c := cloneJSON(v)
	orig := v.(*object)
	want := string(appendJSON(nil, v))
	// Writing over the original tree, as a later object cut from the
	// same slab would, must leave the clone as it was.
	orig.keys[0] = "x"
	orig.vals[0].([]any)[1].(*object).vals[0] = "y"
	if got := string(appendJSON(nil, c)); got != want {
		t.Fatalf("clone changed with the original: %s, want %s", got, want)
	}
}
