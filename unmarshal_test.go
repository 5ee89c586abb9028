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
