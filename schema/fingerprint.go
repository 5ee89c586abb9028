package schema

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/binary"
)

// rabinEmpty is the CRC-64-AVRO of no bytes, and the polynomial's seed
// (spec "Schema Fingerprints").
const rabinEmpty uint64 = 0xc15d213aa4d7a795

// rabinTables are the tables of CRC-64-AVRO read 8 bytes at a time
// ("slicing by 8"): rabinTables[0] is the byte-at-a-time table, and
// rabinTables[k][b] is the CRC of byte b followed by k zero bytes. Eight
// independent lookups a word take about a third of the time of eight
// dependent ones.
var rabinTables = func() *[8][256]uint64 {
	var t [8][256]uint64
	for i := range t[0] {
		fp := uint64(i)
		for j := 0; j < 8; j++ {
			fp = (fp >> 1) ^ (rabinEmpty & -(fp & 1))
		}
		t[0][i] = fp
	}
	for k := 1; k < 8; k++ {
		for i := range t[k] {
			prev := t[k-1][i]
			t[k][i] = (prev >> 8) ^ t[0][byte(prev)]
		}
	}
	return &t
}()

// Rabin returns the CRC-64-AVRO (Rabin) fingerprint of data, the 64-bit
// fingerprint the Avro specification defines; Rabin of a canonical form is
// a schema's Fingerprint. Single-object encoding writes it in little-endian
// byte order after the 0xC3 0x01 marker.
func Rabin(data []byte) uint64 {
	t := rabinTables
	fp := rabinEmpty
	for len(data) >= 8 {
		// The CRC is reflected: the word's first byte meets the CRC's
		// low byte, whatever the machine's byte order.
		fp ^= binary.LittleEndian.Uint64(data)
		fp = t[7][byte(fp)] ^ t[6][byte(fp>>8)] ^ t[5][byte(fp>>16)] ^ t[4][byte(fp>>24)] ^
			t[3][byte(fp>>32)] ^ t[2][byte(fp>>40)] ^ t[1][byte(fp>>48)] ^ t[0][byte(fp>>56)]
		data = data[8:]
	}
	return rabinBytes(fp, data)
}

// rabinBytes continues the CRC-64-AVRO fp over data a byte at a time, as
// the specification gives it.
func rabinBytes(fp uint64, data []byte) uint64 {
	for _, b := range data {
		fp = (fp >> 8) ^ rabinTables[0][byte(fp)^b]
	}
	return fp
}

// Fingerprint returns the CRC-64-AVRO fingerprint of the schema's canonical
// form. (The reference test data print it as a signed Java long; compare
// as uint64.) It is computed on first use.
func (s *Schema) Fingerprint() uint64 {
	if fp := s.fingerprint.Load(); fp != 0 {
		return fp
	}
	fp := Rabin([]byte(s.Canonical()))
	s.fingerprint.Store(fp)
	return fp
}

// FingerprintMD5 returns the MD5 digest of the schema's canonical form,
// computed on first use.
func (s *Schema) FingerprintMD5() [16]byte {
	return s.hashes().md5
}

// FingerprintSHA256 returns the SHA-256 digest of the schema's canonical
// form, computed on first use.
func (s *Schema) FingerprintSHA256() [32]byte {
	return s.hashes().sha256
}

// digests are the MD5 and SHA-256 digests of a node's canonical form,
// apart from the node, which most nodes never need them for.
type digests struct {
	md5    [16]byte
	sha256 [32]byte
}

// hashes returns the digests of s, computing them on first use. Callers
// that race may each compute them; all get the first stored.
func (s *Schema) hashes() *digests {
	if d := s.digests.Load(); d != nil {
		return d
	}
	c := s.Canonical()
	s.digests.CompareAndSwap(nil, &digests{md5: md5.Sum([]byte(c)), sha256: sha256.Sum256([]byte(c))})
	return s.digests.Load()
}
