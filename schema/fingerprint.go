package schema

import (
	"crypto/md5"
	"crypto/sha256"
)

// rabinEmpty is the CRC-64-AVRO of no bytes, and the polynomial's seed
// (spec "Schema Fingerprints").
const rabinEmpty uint64 = 0xc15d213aa4d7a795

var rabinTable = func() *[256]uint64 {
	var t [256]uint64
	for i := range t {
		fp := uint64(i)
		for j := 0; j < 8; j++ {
			fp = (fp >> 1) ^ (rabinEmpty & -(fp & 1))
		}
		t[i] = fp
	}
	return &t
}()

// Rabin returns the CRC-64-AVRO (Rabin) fingerprint of data, the 64-bit
// fingerprint the Avro specification defines; Rabin of a canonical form is
// a schema's Fingerprint. Single-object encoding writes it in little-endian
// byte order after the 0xC3 0x01 marker.
func Rabin(data []byte) uint64 {
	fp := rabinEmpty
	for _, b := range data {
		fp = (fp >> 8) ^ rabinTable[byte(fp)^b]
	}
	return fp
}

// Fingerprint returns the CRC-64-AVRO fingerprint of the schema's canonical
// form. (The reference test data print it as a signed Java long; compare
// as uint64.) It is computed when the schema is parsed for the root, and
// on first use for nested nodes.
func (s *Schema) Fingerprint() uint64 {
	s.fpOnce.Do(func() { s.fingerprint = Rabin([]byte(s.Canonical())) })
	return s.fingerprint
}

// FingerprintMD5 returns the MD5 digest of the schema's canonical form,
// computed on first use.
func (s *Schema) FingerprintMD5() [16]byte {
	s.hashes()
	return s.md5
}

// FingerprintSHA256 returns the SHA-256 digest of the schema's canonical
// form, computed on first use.
func (s *Schema) FingerprintSHA256() [32]byte {
	s.hashes()
	return s.sha256
}

func (s *Schema) hashes() {
	s.hashOnce.Do(func() {
		s.md5 = md5.Sum([]byte(s.Canonical()))
		s.sha256 = sha256.Sum256([]byte(s.Canonical()))
	})
}
