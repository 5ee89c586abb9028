//go:build !purego

package wire

import "unsafe"

// nativeLittleEndian is checked at start-up, not assumed from GOARCH: the
// float and bool array fast paths copy memory only when the host's layout
// is Avro's.
var nativeLittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()
