package jsontext

import "encoding/binary"

// keyRoom is how long a Key's text may be to be written by word stores.
const keyRoom = 24

// Key is the text that starts an object member: the name as a JSON
// string and its colon, after a comma unless it is the first member.
// Encoders write one per field of every record, where a copy of a few
// bytes through the general copy loop costs more than the rest of the
// field's bookkeeping: a Key of at most keyRoom bytes is also held as
// words, stored whole where the destination has the room past its
// length (the bytes past the key's end are left for what follows to
// overwrite, as the number formatting does).
type Key struct {
	text  []byte
	words [keyRoom / 8]uint64
}

// NewKey returns the Key of the member called name.
func NewKey(name string, first bool) Key {
	k := Key{text: Member(name, first)}
	var b [keyRoom]byte
	copy(b[:], k.text)
	for i := range k.words {
		k.words[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return k
}

// Text returns the key's text.
func (k *Key) Text() []byte { return k.text }

// Append appends the key's text to dst.
func (k *Key) Append(dst []byte) []byte {
	n := len(dst)
	if len(k.text) > keyRoom || cap(dst)-n < keyRoom {
		return append(dst, k.text...)
	}
	b := dst[n : n+keyRoom]
	binary.LittleEndian.PutUint64(b, k.words[0])
	binary.LittleEndian.PutUint64(b[8:], k.words[1])
	binary.LittleEndian.PutUint64(b[16:], k.words[2])
	return dst[:n+len(k.text)]
}
