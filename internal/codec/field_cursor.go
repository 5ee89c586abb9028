package codec

// fieldCursor finds the fields of a record held in a map[string]any, in
// schema order, hashing as few keys with the map's seed as it can.
//
// A map of at most 8 entries is one group of slots, filled in the order
// its keys were first set. Decoders (this package's among them) and map
// literals set a record's fields in schema order, so the field to write
// next is most often the next full slot: comparing that slot's key with
// the field's name finds it, and for a map this package decoded the two
// strings share their bytes, so the comparison stops at their address. A
// field not found there is looked up.
//
// A larger map is one table of groups, in no useful order: it is walked
// once, before the first field, and each key placed by the record's
// fieldTable (a multiplication and a comparison, where a lookup hashes
// the name and probes). Maps that are neither, and the purego build, look
// every field up. Whichever way, a map in any order, with keys that are
// no field, is written the same.
type fieldCursor struct {
	m map[string]any
	// The walk of a map of one group, and its next full slot (nil once
	// the walk is done or when there is none).
	w    smallMapWalk
	slot pointer
	// For a map of one table, with groups set: where the slot of each
	// field held lies from groups, which held says.
	groups pointer
	held   uint64
	at     [maxTableFields]uint16
}

// start sets c, a zero cursor, to find the fields of m, with the
// record's table t (nil for a record of few fields).
func (c *fieldCursor) start(m map[string]any, t *fieldTable) {
	c.m = m
	if t != nil && t.find(m, c) {
		return
	}
	if w, ok := walkSmallMap(pointerTo(&m)); ok {
		size, _ := slotLayout[any]()
		c.w = w
		c.slot = c.w.next(size)
	}
}

// field returns the value the map holds for field i, named name, and
// whether it holds one. Fields are asked for in schema order.
func (c *fieldCursor) field(i int, name string) (any, bool) {
	size, off := slotLayout[any]()
	if !c.groups.isNil() {
		if c.held&(1<<uint(i)) == 0 {
			return nil, false
		}
		return *as[any](c.groups.add(uintptr(c.at[i]) + off)), true
	}
	if !c.slot.isNil() && *as[string](c.slot) == name {
		x := *as[any](c.slot.add(off))
		c.slot = c.w.next(size)
		return x, true
	}
	x, ok := c.m[name]
	return x, ok
}
