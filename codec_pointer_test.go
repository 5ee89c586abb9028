package avro_test

import (
	"errors"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// endless is a pointer type whose elements are pointers forever: a value
// of it can only be nil or point, in the end, back to itself.
type endless *endless

// A pointer type that points only to pointers cannot hold a string: the
// codec refuses it when it is compiled, instead of following a cyclic
// value (p = &p) without end when it encodes, or allocating pointers
// without end when it decodes.
func TestEndlessPointerTypeRefused(t *testing.T) {
	str := schema.MustParse(`"string"`)
	p := new(endless)
	*p = p
	var te *avro.TypeError
	if _, err := avro.Marshal(str, p); !errors.As(err, &te) {
		t.Errorf("Marshal(string, cyclic *endless): %v, want a *TypeError", err)
	}
	var q endless
	if err := avro.Unmarshal(str, []byte{2, 'a'}, &q); !errors.As(err, &te) {
		t.Errorf("Unmarshal(string, *endless): %v, want a *TypeError", err)
	}

	// Null alone fits it in a nullable union, and a union that only null
	// fits is refused like any other.
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"x","type":["null","string"]}]}`)
	type rec struct {
		X endless `avro:"x"`
	}
	if _, err := avro.Marshal(s, &rec{X: p}); !errors.As(err, &te) {
		t.Errorf("Marshal(record of cyclic *endless): %v, want a *TypeError", err)
	}
	var r rec
	if err := avro.Unmarshal(s, []byte{0}, &r); !errors.As(err, &te) {
		t.Errorf("Unmarshal(record of *endless): %v, want a *TypeError", err)
	}
}
