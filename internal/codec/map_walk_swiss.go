//go:build !purego && (goexperiment.swissmap || go1.26)

package codec

import (
	"math/bits"
	"strconv"
	"unsafe"
)

// Go maps of at most 8 entries (the map fields of most records: headers,
// labels, attributes) are walked straight through their single group of
// slots instead of ranged. Ranging sets up an iterator with a random start
// and then makes a call per slot: for a map of 3 entries that was 23% of
// encoding the 10-field record. The layout read here is that of the
// swiss-table maps of Go 1.24 and later (internal/runtime/maps). It is
// checked at start-up against range over maps of several key/value
// layouts; if anything disagrees, every map is ranged as before.
//
// Besides pointer_unsafe.go this is the one file of the package that
// imports unsafe: it reads the runtime's own structures through raw
// pointers. Its purego twin is map_walk_portable.go, which ranges every
// map.

// swissMapHeader mirrors the first fields of internal/runtime/maps.Map.
type swissMapHeader struct {
	used   uint64         // entries
	seed   uintptr        //nolint:unused // hash seed: mirrored for the offsets after it
	dirPtr unsafe.Pointer // the single group when dirLen is 0
	dirLen int
}

const (
	// swissGroupSlotsOffset is the size of a group's control word, which
	// precedes its 8 slots; control byte i (bits 8i to 8i+7 of the word)
	// is 0x80 for an empty slot and below 0x80 for a full one. A small
	// map has no deleted slots.
	swissGroupSlotsOffset = 8
	swissFullMask         = 0x8080808080808080
)

// smallMapsWalkable records the start-up check of the layout.
var smallMapsWalkable bool

func init() { smallMapsWalkable = smallMapLayoutHolds() }

// smallMapWalk yields the full slots of a small map's group.
type smallMapWalk struct {
	slots pointer // slot 0
	full  uint64  // the high bit of each full slot's control byte
}

// walkSmallMap returns a walk over the entries of the map m points to
// (m is the address of a map value), or false when the map is empty or
// has more than one group, or the layout check failed: then range it.
// The walk holds the group, so it stays valid even if the map grows.
func walkSmallMap(m pointer) (smallMapWalk, bool) {
	if !smallMapsWalkable {
		return smallMapWalk{}, false
	}
	return walkGroup(m)
}

// walkGroup is walkSmallMap before the layout check has passed. It casts
// m.p itself rather than through pointer's operations, whose calls would
// put walkSmallMap over the inlining budget of the map encoders.
func walkGroup(m pointer) (smallMapWalk, bool) {
	h := *(**swissMapHeader)(m.p)
	if h == nil || h.dirLen != 0 || h.dirPtr == nil {
		return smallMapWalk{}, false
	}
	full := ^*(*uint64)(h.dirPtr) & swissFullMask
	// The count written before the entries must be the count walked.
	if uint64(bits.OnesCount64(full)) != h.used {
		return smallMapWalk{}, false
	}
	return smallMapWalk{slots: pointer{unsafe.Add(h.dirPtr, swissGroupSlotsOffset)}, full: full}, true
}

// touchMapGroup loads a byte of the header of the map m points to and
// of its group, for a small map (see touch).
func touchMapGroup(m pointer) byte {
	h := *(**swissMapHeader)(m.p)
	switch {
	case h == nil:
		return 0
	case !smallMapsWalkable || h.dirLen != 0 || h.dirPtr == nil:
		return byte(h.used)
	}
	return *(*byte)(h.dirPtr)
}

// count returns the number of entries left to walk.
func (w *smallMapWalk) count() int { return bits.OnesCount64(w.full) }

// next returns the next full slot (its key first, the value at the
// value's offset in a mapSlot), or nil after the last.
func (w *smallMapWalk) next(slotSize uintptr) pointer {
	if w.full == 0 {
		return pointer{}
	}
	i := uintptr(bits.TrailingZeros64(w.full)) >> 3
	w.full &= w.full - 1
	return w.slots.add(i * slotSize)
}

// Maps of 9 to 1024 entries are held in one table of groups, found through
// a directory of one entry; walkTableMap walks its groups in order.

// swissTable mirrors internal/runtime/maps.table.
type swissTable struct {
	used       uint16 //nolint:unused // mirrored for the offsets after it
	capacity   uint16 //nolint:unused // mirrored for the offsets after it
	growthLeft uint16 //nolint:unused // mirrored for the offsets after it
	localDepth uint8  //nolint:unused // mirrored for the offsets after it
	index      int    //nolint:unused // mirrored for the offsets after it
	groups     unsafe.Pointer
	lengthMask uint64
}

// tableMapsWalkable records the start-up check of the table layout.
var tableMapsWalkable bool

func init() { tableMapsWalkable = smallMapsWalkable && tableLayoutHolds() }

// tableMapWalk yields the full slots of the groups of a map's one table:
// the ngroups groups from groups on (see tableGroup), walked one by one
// by next, or by callers that walk them themselves.
type tableMapWalk struct {
	groups  pointer
	ngroups uint
	// next's place: the groups loaded, the full slots left in the last
	// and its slot 0, and the slots yielded.
	loaded uint
	full   uint64
	slots  pointer
	count  uint64
}

// walkTableMap returns a walk over the entries of the map m points to,
// with slots of slotSize, or false when the map is not held in exactly
// one table (it is small, or has more than 1024 entries) or the layout
// check failed. The walk must not outlive a change to the map; the
// caller checks, when it ends, that it yielded the map's count.
func walkTableMap(m pointer, slotSize uintptr) (tableMapWalk, bool) {
	if !tableMapsWalkable {
		return tableMapWalk{}, false
	}
	return walkTable(m)
}

func walkTable(m pointer) (tableMapWalk, bool) {
	h := *(**swissMapHeader)(m.p)
	if h == nil || h.dirLen != 1 {
		return tableMapWalk{}, false
	}
	t := *(**swissTable)(h.dirPtr)
	if t == nil || t.groups == nil {
		return tableMapWalk{}, false
	}
	return tableMapWalk{groups: pointer{t.groups}, ngroups: uint(t.lengthMask + 1)}, true
}

// tableGroup returns the high bit of the control byte of each full slot
// of group g of the table whose first group is groups, and the group's
// slot 0. Empty (0x80) and deleted (0xFE) control bytes have the high
// bit set; full ones do not.
func tableGroup(groups pointer, g uint, slotSize uintptr) (full uint64, slots pointer) {
	grp := groups.add(uintptr(g) * (swissGroupSlotsOffset + 8*slotSize))
	return ^*as[uint64](grp) & swissFullMask, grp.add(swissGroupSlotsOffset)
}

// next returns the next full slot, or nil after the last.
func (w *tableMapWalk) next(slotSize uintptr) pointer {
	for w.full == 0 {
		if w.loaded == w.ngroups {
			return pointer{}
		}
		w.full, w.slots = tableGroup(w.groups, w.loaded, slotSize)
		w.loaded++
	}
	i := uintptr(bits.TrailingZeros64(w.full)) >> 3
	w.full &= w.full - 1
	w.count++
	return w.slots.add(i * slotSize)
}

// tableLayoutHolds checks walkTable against range on maps of 9 to 1024
// entries and of several value layouts, grown, emptied in part and
// refilled (which leaves deleted slots), and that maps of other sizes are
// refused.
func tableLayoutHolds() bool {
	return tableHoldsFor(func(i int) any { return []any{i, "s", nil}[i%3] }) &&
		tableHoldsFor(func(i int) string { return "v" + strconv.Itoa(i) }) &&
		tableHoldsFor(func(i int) int64 { return int64(i)*0x1000001 - 7 }) &&
		tableHoldsFor(func(i int) bool { return i%2 == 1 }) &&
		tableHoldsFor(func(i int) [3]byte { return [3]byte{byte(i), 1, 2} })
}

func tableHoldsFor[V comparable](value func(i int) V) bool {
	slotSize, valueOff := slotLayout[V]()
	walked := func(m map[string]V) (map[string]V, bool) {
		w, ok := walkTable(pointerTo(&m))
		if !ok {
			return nil, false
		}
		got, ok := collect[V](&w, slotSize, valueOff)
		return got, ok && w.count == uint64(len(m))
	}
	same := sameMap[V]
	// Maps of up to 8 entries are one group, and maps of a few thousand
	// are split over several tables: walkTable must refuse both. Maps
	// between are one table (a table splits at 1024 slots).
	for _, n := range []int{8, 9, 12, 17, 52, 100, 300, 5000} {
		m := map[string]V{}
		for i := range n {
			m["key"+strconv.Itoa(i*37)] = value(i)
		}
		got, ok := walked(m)
		switch {
		case n <= 8 || n >= 5000:
			if ok {
				return false
			}
			continue
		case !ok || !same(got, m):
			return false
		}
		for i := 0; i < n; i += 3 {
			delete(m, "key"+strconv.Itoa(i*37))
		}
		for i := range n / 4 {
			m["again"+strconv.Itoa(i)] = value(i)
		}
		if got, ok := walked(m); !ok || !same(got, m) {
			return false
		}
	}
	return true
}

// smallMapLayoutHolds checks walkSmallMap against range on maps of 0 to 9
// entries, for values of several sizes and alignments, including maps
// that grew past 8 entries and maps emptied and refilled.
func smallMapLayoutHolds() bool {
	return layoutHoldsFor(func(i int) string { return "v" + strconv.Itoa(i) }) &&
		layoutHoldsFor(func(i int) int64 { return int64(i)*0x1000001 - 7 }) &&
		layoutHoldsFor(func(i int) bool { return i%2 == 1 }) &&
		layoutHoldsFor(func(i int) int32 { return int32(i) - 3 }) &&
		layoutHoldsFor(func(i int) float32 { return float32(i) / 4 }) &&
		layoutHoldsFor(func(i int) any { return []any{i, "s", nil}[i%3] }) &&
		layoutHoldsFor(func(i int) [3]byte { return [3]byte{byte(i), 1, 2} }) &&
		layoutHoldsFor(func(i int) struct {
			a int8
			b int64
		} {
			return struct {
				a int8
				b int64
			}{int8(i), int64(i) << 40}
		})
}

func layoutHoldsFor[V comparable](value func(i int) V) bool {
	slotSize, valueOff := slotLayout[V]()
	walked := func(m map[string]V) (map[string]V, bool) {
		w, ok := walkGroup(pointerTo(&m))
		if !ok {
			return nil, false
		}
		got, ok := collect[V](&w, slotSize, valueOff)
		return got, ok && true
	}
	same := sameMap[V]
	for n := 1; n <= 9; n++ {
		m := map[string]V{}
		for i := range n {
			m["key"+strconv.Itoa(i*37)] = value(i)
		}
		got, ok := walked(m)
		if n > 8 {
			if ok {
				return false // more than one group must be ranged
			}
			continue
		}
		if !ok || !same(got, m) {
			return false
		}
		// Deleting and refilling reuses slots out of order.
		delete(m, "key0")
		m["again"] = value(n)
		if got, ok := walked(m); !ok || !same(got, m) {
			return false
		}
	}
	// A map that grew past one group stays ranged after shrinking.
	m := map[string]V{}
	for i := range 20 {
		m[strconv.Itoa(i)] = value(i)
	}
	for i := range 18 {
		delete(m, strconv.Itoa(i))
	}
	if got, ok := walked(m); ok && !same(got, m) {
		return false
	}
	return true
}

// collect returns the entries a walk yields, or false when it yields a key
// twice.
func collect[V comparable](w interface{ next(uintptr) pointer }, slotSize, valueOff uintptr) (map[string]V, bool) {
	got := map[string]V{}
	for s := w.next(slotSize); !s.isNil(); s = w.next(slotSize) {
		k := *as[string](s)
		if _, dup := got[k]; dup {
			return nil, false
		}
		got[k] = *as[V](s.add(valueOff))
	}
	return got, true
}

func sameMap[V comparable](a, b map[string]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
