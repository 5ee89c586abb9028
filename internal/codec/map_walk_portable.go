//go:build purego || !(goexperiment.swissmap || go1.26)

package codec

// The purego build, and Go built without swiss-table maps, range every
// map (see map_walk_swiss.go).

const smallMapsWalkable = false

type smallMapWalk struct{}

func walkSmallMap(m pointer) (smallMapWalk, bool) { return smallMapWalk{}, false }

func (w *smallMapWalk) count() int { return 0 }

func (w *smallMapWalk) next(slotSize uintptr) pointer { return pointer{} }

// touchMapGroup loads a byte of the header of the map m points to.
func touchMapGroup(m pointer) byte {
	if h := m.elem(); !h.isNil() {
		return *as[byte](h)
	}
	return 0
}

const tableMapsWalkable = false

type tableMapWalk struct {
	groups  pointer
	ngroups uint
}

func walkTableMap(m pointer, slotSize uintptr) (tableMapWalk, bool) { return tableMapWalk{}, false }

func tableGroup(groups pointer, g uint, slotSize uintptr) (full uint64, slots pointer) {
	return 0, pointer{}
}
