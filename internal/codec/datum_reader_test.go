package codec

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro/value"
)

// TestDecoderSwitchesTypes: a Decoder keeps the decoder of the last Go type
// it was given; records decoded into changing types, with a nil pointer and
// a type that cannot hold the schema in between (neither consumes a
// record), all come out right.
func TestDecoderSwitchesTypes(t *testing.T) {
	d := streamLoad(t)
	dec := NewDecoder(bytes.NewReader(d.raw), d.s)
	var nilPerson *streamPerson
	var wrong int64
	for i := range d.records {
		if i%3 == 1 {
			var ie *InvalidUnmarshalError
			if err := dec.Decode(nilPerson); !errors.As(err, &ie) {
				t.Fatalf("record %d: Decode(nil *streamPerson) = %v, want *InvalidUnmarshalError", i, err)
			}
			var te *TypeError
			if err := dec.Decode(&wrong); !errors.As(err, &te) {
				t.Fatalf("record %d: Decode(*int64) = %v, want *TypeError", i, err)
			}
		}
		switch i % 3 {
		case 0:
			var p streamPerson
			if err := dec.Decode(&p); err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
			if diff := cmp.Diff(d.records[i], p); diff != "" {
				t.Errorf("record %d as struct (-want +got):\n%s", i, diff)
			}
		case 1:
			var a any
			if err := dec.Decode(&a); err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
			if diff := cmp.Diff(d.anys[i], a, vecCmp); diff != "" {
				t.Errorf("record %d as any (-want +got):\n%s", i, diff)
			}
		case 2:
			var v value.Value
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
			x, err := vecValueToGo(d.s, v)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(d.anys[i], x, vecCmp); diff != "" {
				t.Errorf("record %d as value.Value (-want +got):\n%s", i, diff)
			}
		}
	}
	var p streamPerson
	if err := dec.Decode(&p); err != io.EOF {
		t.Fatalf("after the last record: %v, want io.EOF", err)
	}
}

// TestDecoderStateIsRewound: the Decoder's state outlives a datum, and a
// datum read one byte at a time is decoded again after every truncation,
// each time leaving an error and a path in the state. None of that may
// reach the next datum: with a type error in between, the good datum
// decodes, and the bad one after it fails with its own path only.
func TestDecoderStateIsRewound(t *testing.T) {
	d := streamLoad(t)
	// Datum 0, then datum 0 again with its union index out of range.
	first := d.raw[:d.ends[0]]
	stream := append(append([]byte(nil), first...), first...)
	nameLen := int(stream[d.ends[0]] >> 1) // one-byte zigzag length of the name
	stream[d.ends[0]+1+nameLen] = 0x7e     // the age union's index: 63

	dec := NewDecoder(iotest.OneByteReader(bytes.NewReader(stream)), d.s)
	var wrong struct {
		Name int32 `avro:"name"`
	}
	var te *TypeError
	if err := dec.Decode(&wrong); !errors.As(err, &te) {
		t.Fatalf("Decode into a struct with an int name: %v, want *TypeError", err)
	}
	var p streamPerson
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("first datum: %v", err)
	}
	if diff := cmp.Diff(d.records[0], p); diff != "" {
		t.Errorf("first datum (-want +got):\n%s", diff)
	}
	if dec.attempts < 2 {
		t.Fatalf("the first datum was decoded %d times; the test needs retries", dec.attempts)
	}
	err := dec.Decode(&p)
	var ae *Error
	// The offset is the stream's, just after the index read.
	wantOffset := int64(d.ends[0] + 1 + nameLen + 1)
	if !errors.As(err, &ae) || !errors.Is(err, ErrInvalid) || ae.Path != "age" || ae.Offset != wantOffset {
		t.Fatalf("bad union index: %v, want *Error at age, offset %d, wrapping ErrInvalid", err, wantOffset)
	}
}
