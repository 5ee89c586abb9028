package avro_test

import (
	"errors"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// A decimal held as its unscaled bytes is written as it is, but only when
// it has at most the precision's digits, as for a big.Rat; decoding keeps
// what a writer sent.
func TestMarshalRawDecimalPrecision(t *testing.T) {
	s := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`)
	f := schema.MustParse(`{"type":"fixed","name":"F","size":4,"logicalType":"decimal","precision":4,"scale":2}`)
	for _, c := range []struct {
		s   *schema.Schema
		v   any
		err error
	}{
		{s, []byte{0x27, 0x0f}, nil},                     // 9999
		{s, []byte{0x27, 0x10}, avro.ErrRange},           // 10000
		{s, []byte{0xd8, 0xf0}, avro.ErrRange},           // -10000
		{f, [4]byte{0, 0, 0x27, 0x0f}, nil},              // 9999
		{f, [4]byte{0, 0x01, 0x86, 0xa0}, avro.ErrRange}, // 100000
		{s, any([]byte{0x27, 0x10}), avro.ErrRange},
	} {
		data, err := avro.Marshal(c.s, c.v)
		if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("Marshal(%v) = %v, want %v", c.v, err, c.err)
			continue
		}
		if c.err != nil {
			continue
		}
		// Decoding does not check: a reader keeps what was written.
		var back any
		if err := avro.Unmarshal(c.s, data, &back); err != nil {
			t.Errorf("Unmarshal: %v", err)
		}
	}
	var anyV any = []byte{0x27, 0x10}
	if _, err := avro.Marshal(s, &anyV); !errors.Is(err, avro.ErrRange) {
		t.Errorf("Marshal of an any holding bytes: %v, want ErrRange", err)
	}
	// Data over the precision, written by others, still decodes.
	var got []byte
	if err := avro.Unmarshal(s, []byte{0x04, 0x27, 0x10}, &got); err != nil || len(got) != 2 {
		t.Errorf("Unmarshal of an over-precision datum = %v, %v; want it kept", got, err)
	}
}
