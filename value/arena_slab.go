//go:build !purego

package value

import "unsafe"

// arenaSlabs reports whether an Arena places record and map headers and map
// keys inside []Value blocks. That needs the pointer words of a Record, a
// Map and a string header to fall where a []Value has its pointers (the
// first word of every 16 bytes), which holds on 64-bit platforms; the
// purego build and other platforms allocate every node on its own.
const arenaSlabs = unsafe.Sizeof(uintptr(0)) == 8 &&
	unsafe.Sizeof("") == unsafe.Sizeof(Value{}) &&
	unsafe.Sizeof(Record{}) == 2*unsafe.Sizeof(Value{}) &&
	unsafe.Sizeof(Map{}) == 3*unsafe.Sizeof(Value{})
