package avro_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// A map block may declare a million entries that all repeat one key (two
// bytes each: an empty key and an empty value). Go maps were created with
// the declared count as their size hint, which allocated about 90 bytes
// per input byte for a map that ends with one entry; the hint is now
// capped, so memory follows the distinct keys.
func TestMapDuplicateKeysSizeHint(t *testing.T) {
	const entries = 1 << 20
	data := binary.AppendVarint(nil, entries)
	data = append(data, bytes.Repeat([]byte{0, 0}, entries)...)
	data = append(data, 0)
	s := schema.MustParse(`{"type":"map","values":"string"}`)
	type key string
	for name, decode := range map[string]func() error{
		"map[string]string": func() error { var m map[string]string; return avro.Unmarshal(s, data, &m) },
		"map[key]string":    func() error { var m map[key]string; return avro.Unmarshal(s, data, &m) },
		"any":               func() error { var m any; return avro.Unmarshal(s, data, &m) },
	} {
		var err error
		got := allocDuring(func() { err = decode() })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if limit := uint64(1<<20 + 4*len(data)); got > limit {
			t.Errorf("%s: %d bytes allocated for %d input bytes of one distinct key, want at most %d", name, got, len(data), limit)
		}
	}
}
