//go:build !purego && (goexperiment.swissmap || go1.26)

package codec

import (
	"reflect"
	"strconv"
	"testing"
	"unsafe"

	"github.com/avrogo/avro/schema"
)

// TestSmallMapsWalkable checks that the start-up layout check passed on
// this Go: if a Go release changes its maps, maps are still encoded
// correctly (ranged), but this test says the fast path is off.
func TestSmallMapsWalkable(t *testing.T) {
	if !smallMapsWalkable {
		t.Fatal("the map layout check failed: small maps are ranged; update map_walk_swiss.go for this Go release")
	}
	if !tableMapsWalkable {
		t.Fatal("the table layout check failed: records in maps past one group are looked up; update map_walk_swiss.go for this Go release")
	}
	for n := range 12 {
		m := map[string]int64{}
		for i := range n {
			m[strconv.Itoa(i)] = int64(i)
		}
		w, ok := walkSmallMap(pointerTo(&m))
		// An empty map may or may not have its group yet.
		if (n >= 1 && n <= 8 && !ok) || (n > 8 && ok) {
			t.Fatalf("map of %d: walkable %v", n, ok)
		}
		walked := 0
		for s := w.next(unsafe.Sizeof(mapSlot[int64]{})); !s.isNil(); s = w.next(unsafe.Sizeof(mapSlot[int64]{})) {
			k, v := *as[string](s), *as[int64](s.add(unsafe.Offsetof(mapSlot[int64]{}.value)))
			if m[k] != v || strconv.Itoa(int(v)) != k {
				t.Fatalf("map of %d: walked %q: %d", n, k, v)
			}
			walked++
		}
		if ok && walked != n {
			t.Fatalf("map of %d: walked %d entries", n, walked)
		}
	}
}

// TestMapCodecsWalk checks that the per-type stride check passes for the
// typed map codecs and the reflect one, so their encoders walk small maps;
// and that values too large for the slots are ranged.
func TestMapCodecsWalk(t *testing.T) {
	type oddSlot struct {
		k mapWalkLabel //nolint:unused // a slot's layout: the key before the value
		v mapWalkOdd
	}
	if c := newTypedMapCodec[string](1, nil, stringCodec{}); c.slotSize != unsafe.Sizeof(mapSlot[string]{}) || c.valueOff != unsafe.Sizeof("") {
		t.Errorf("map[string]string: slot %d, value at %d", c.slotSize, c.valueOff)
	}
	if c := newTypedMapCodec[[]byte](1, nil, bytesCodec{}); c.slotSize != unsafe.Sizeof(mapSlot[[]byte]{}) {
		t.Errorf("map[string][]byte: slot %d, want %d", c.slotSize, unsafe.Sizeof(mapSlot[[]byte]{}))
	}
	c := newReflectMapCodec(reflect.TypeFor[map[mapWalkLabel]mapWalkOdd](), 1, nil, stringCodec{})
	if c.slotSize != unsafe.Sizeof(oddSlot{}) || c.valueOff != unsafe.Offsetof(oddSlot{}.v) {
		t.Errorf("map[mapWalkLabel]mapWalkOdd: slot %d, value at %d; want %d and %d", c.slotSize, c.valueOff, unsafe.Sizeof(oddSlot{}), unsafe.Offsetof(oddSlot{}.v))
	}
	if c := newReflectMapCodec(reflect.TypeFor[map[string][150]byte](), 1, nil, stringCodec{}); c.slotSize != 0 {
		t.Errorf("map[string][150]byte: slot %d, want 0 (values kept outside the slots)", c.slotSize)
	}
	if c := newTypedMapCodec[string](1, stringCodec{}, nil); c.slotSize != 0 {
		t.Errorf("a decoding codec set up a walk (slot %d)", c.slotSize)
	}
}

// TestFieldCursorFindsDecodedFields checks that the maps Unmarshal makes
// for records of up to 8 fields hold their fields in the order a
// fieldCursor asks for them, so that no field is looked up; and that a
// map filled in another order still gives every field.
func TestFieldCursorFindsDecodedFields(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"A","fields":[{"name":"street","type":"string"},{"name":"city","type":"string"},{"name":"zip","type":"string"},{"name":"n","type":"long"},{"name":"x","type":"double"},{"name":"ok","type":"boolean"},{"name":"tag","type":"string"},{"name":"last","type":"int"}]}`)
	in := map[string]any{"street": "a", "city": "b", "zip": "c", "n": int64(1), "x": 0.5, "ok": true, "tag": "t", "last": int32(3)}
	data, err := Marshal(s, in)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := Unmarshal(s, data, &v); err != nil {
		t.Fatal(err)
	}
	reversed := map[string]any{}
	for i := len(s.Fields()) - 1; i >= 0; i-- {
		name := s.Fields()[i].Name()
		reversed[name] = in[name]
	}
	for name, m := range map[string]map[string]any{"decoded": v.(map[string]any), "reversed": reversed} {
		var c fieldCursor
		c.start(m, nil)
		walked := 0
		for i, f := range s.Fields() {
			before := c.slot
			x, ok := c.field(i, f.Name())
			if !ok || x != in[f.Name()] {
				t.Fatalf("%s: field %s = %v, %v", name, f.Name(), x, ok)
			}
			if c.slot != before {
				walked++
			}
		}
		if name == "decoded" && walked != len(s.Fields()) {
			t.Errorf("%s: %d of %d fields found by the walk, the rest looked up", name, walked, len(s.Fields()))
		}
	}
}
