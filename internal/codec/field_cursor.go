package codec

// A record held in a map[string]any of at most 8 entries is one group of
// slots, filled in the order its keys were first set. Decoders (this
// package's among them) and map literals set a record's fields in schema
// order, so the field to write next is most often the next full slot:
// comparing that slot's key with the field's name finds it without
// hashing the name, and for a map this package decoded the two strings
// share their bytes, so the comparison stops at their address. A field
// not found there is looked up: a map filled in any other order is
// written the same, at the cost of the lookups. Maps past one group, and
// the purego build, look every field up (see fieldTable for large
// records).
type fieldCursor struct {
	m    map[string]any
	w    smallMapWalk
	slot pointer // the next full slot; nil once the walk is done or refused
}

func newFieldCursor(m map[string]any) fieldCursor {
	c := fieldCursor{m: m}
	if w, ok := walkSmallMap(pointerTo(&m)); ok {
		size, _ := slotLayout[any]()
		c.w = w
		c.slot = c.w.next(size)
	}
	return c
}

// field returns the value the map holds under name, and whether it holds
// one. Fields are asked for in schema order.
func (c *fieldCursor) field(name string) (any, bool) {
	if !c.slot.isNil() && *as[string](c.slot) == name {
		size, off := slotLayout[any]()
		x := *as[any](c.slot.add(off))
		c.slot = c.w.next(size)
		return x, true
	}
	x, ok := c.m[name]
	return x, ok
}
