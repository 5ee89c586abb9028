package avro_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// ptrText has its text methods on the pointer only.
type ptrText struct{ v string }

func (p *ptrText) MarshalText() ([]byte, error) { return []byte(p.v), nil }
func (p *ptrText) UnmarshalText(b []byte) error { p.v = string(b); return nil }

// upperSym is a string type whose text form is upper case.
type upperSym string

func (s upperSym) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(string(s))), nil }
func (s *upperSym) UnmarshalText(b []byte) error {
	*s = upperSym(strings.ToLower(string(b)))
	return nil
}

var errTextHook = errors.New("text hook refused")

type failingText struct{}

func (failingText) MarshalText() ([]byte, error) { return nil, errTextHook }
func (*failingText) UnmarshalText([]byte) error  { return errTextHook }

// Text methods as encoding/json uses them: a MarshalText on the pointer
// serves (the value was decoded through UnmarshalText but could not be
// encoded), a string type's methods come before its kind (it was written
// raw, and as an enum refused), and the methods' errors are wrapped, so
// errors.Is finds them.
func TestTextMethodsAsInEncodingJSON(t *testing.T) {
	str := schema.MustParse(`"string"`)
	p := ptrText{"abc"}
	if got, err := avro.Marshal(str, &p); err != nil || !bytes.Equal(got, []byte{6, 'a', 'b', 'c'}) {
		t.Errorf("Marshal(&ptrText) = %x, %v", got, err)
	}
	type holder struct {
		P ptrText `avro:"p"`
	}
	rec := schema.MustParse(`{"type":"record","name":"H","fields":[{"name":"p","type":"string"}]}`)
	if got, err := avro.Marshal(rec, &holder{ptrText{"x"}}); err != nil || !bytes.Equal(got, []byte{2, 'x'}) {
		t.Errorf("Marshal(a struct field of ptrText) = %x, %v", got, err)
	}

	if got, err := avro.Marshal(str, upperSym("abc")); err != nil || !bytes.Equal(got, []byte{6, 'A', 'B', 'C'}) {
		t.Errorf("Marshal(upperSym) = %q, %v; want its MarshalText, ABC", got, err)
	}
	var back upperSym
	if err := avro.Unmarshal(str, []byte{6, 'X', 'Y', 'Z'}, &back); err != nil || back != "xyz" {
		t.Errorf("Unmarshal into upperSym = %q, %v; want its UnmarshalText, xyz", back, err)
	}
	enum := schema.MustParse(`{"type":"enum","name":"E","symbols":["A","B"]}`)
	if got, err := avro.Marshal(enum, upperSym("b")); err != nil || !bytes.Equal(got, []byte{2}) {
		t.Errorf("Marshal(upperSym b) as enum = %x, %v; want symbol B", got, err)
	}

	if _, err := avro.Marshal(str, failingText{}); !errors.Is(err, errTextHook) || !errors.Is(err, avro.ErrRange) {
		t.Errorf("Marshal with a failing MarshalText: %v; want it wrapped", err)
	}
	var f failingText
	if err := avro.Unmarshal(str, []byte{2, 'a'}, &f); !errors.Is(err, errTextHook) || !errors.Is(err, avro.ErrInvalid) {
		t.Errorf("Unmarshal with a failing UnmarshalText: %v; want it wrapped", err)
	}
}
