//go:build purego

package value

// arenaSlabs is false in the purego build: an Arena allocates every record
// and map on its own, with no header placed inside a []Value block.
const arenaSlabs = false
