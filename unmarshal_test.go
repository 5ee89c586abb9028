package avro_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// Unmarshal into a nil pointer is an *InvalidUnmarshalError whatever the
// pointer's type, as in encoding/json; a nil *int for a record schema was
// a *TypeError.
func TestUnmarshalNilPointerBeforeTypeCheck(t *testing.T) {
	rec := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`)
	var ie *avro.InvalidUnmarshalError
	for _, v := range []any{(*int)(nil), (*struct {
		A int32 `avro:"a"`
	})(nil), nil} {
		if err := avro.Unmarshal(rec, []byte{2}, v); !errors.As(err, &ie) {
			t.Errorf("Unmarshal into %T(nil): %v, want *InvalidUnmarshalError", v, err)
		}
	}
}

// A Decoder over a schema whose datums take no bytes (null, an empty
// record, fixed of size 0) returned a datum at every call and never
// reached the end of a one-byte stream, so a read loop never ended. The
// bytes belong to no datum: it is ErrInvalid. An empty stream is io.EOF.
func TestDecoderZeroByteDatumsStream(t *testing.T) {
	for _, text := range []string{`"null"`, `{"type":"record","name":"E","fields":[]}`, `{"type":"fixed","name":"F","size":0}`} {
		s := schema.MustParse(text)
		dec := avro.NewDecoder(bytes.NewReader([]byte{0}), s)
		var err error
		for range 3 {
			var v any
			if err = dec.Decode(&v); err != nil {
				break
			}
		}
		if !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s over one byte: %v, want ErrInvalid", text, err)
		}
		var v any
		if err := avro.NewDecoder(bytes.NewReader(nil), s).Decode(&v); err != io.EOF {
			t.Errorf("%s over no bytes: %v, want io.EOF", text, err)
		}
	}
}

// Raw hands out datums as Marshal wrote them, through a resolved schema
// too (the writer's bytes), with the root's error types; a stream whose
// datums take no bytes is ErrInvalid for Raw as for Decode.
func TestDecoderRaw(t *testing.T) {
	w := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"long"},{"name":"b","type":"string"}]}`)
	r := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"string"}]}`)
	resolved, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		A int64  `avro:"a"`
		B string `avro:"b"`
	}
	var stream []byte
	var datums [][]byte
	for i := range 5 {
		d, _ := avro.Marshal(w, &rec{A: int64(i) << 30, B: string(make([]byte, i*7))})
		datums = append(datums, d)
		stream = append(stream, d...)
	}
	for _, s := range []*schema.Schema{w, resolved} {
		dec := avro.NewDecoder(bytes.NewReader(stream), s)
		for i, want := range datums {
			got, err := dec.Raw()
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("datum %d: %x, %v; want %x", i, got, err, want)
			}
		}
		if _, err := dec.Raw(); err != io.EOF {
			t.Fatalf("after the last datum: %v, want io.EOF", err)
		}
	}
	_, err = avro.NewDecoder(bytes.NewReader(datums[1][:3]), w).Raw()
	var ae *avro.Error
	if !errors.As(err, &ae) || !errors.Is(err, avro.ErrTruncated) {
		t.Fatalf("Raw of a cut datum = %v (%T), want an *avro.Error wrapping ErrTruncated", err, err)
	}
	if _, err := avro.NewDecoder(bytes.NewReader([]byte{0}), schema.MustParse(`"null"`)).Raw(); !errors.Is(err, avro.ErrInvalid) {
		t.Fatalf("Raw of datums of no bytes = %v, want ErrInvalid", err)
	}
}
