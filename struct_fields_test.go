package avro_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

type dupInner struct {
	X int32 `avro:"x" json:"x"`
}
type dupLeft struct{ dupInner }
type dupRight struct{ dupInner }

// A struct type embedded twice at one depth (through two embedded
// structs) was walked once, so the first path's field won; by
// encoding/json's rules, which the package documents, the two hide each
// other. The schema's field then has no Go field: written from its
// default, skipped when read.
func TestStructFieldsEmbeddedTwiceAtOneDepth(t *testing.T) {
	type dup struct {
		dupLeft
		dupRight
		Y int32 `avro:"y" json:"y"`
	}
	v := dup{dupLeft{dupInner{1}}, dupRight{dupInner{2}}, 3}
	if j, _ := json.Marshal(v); string(j) != `{"y":3}` {
		t.Fatalf("encoding/json: %s", j)
	}
	s := schema.MustParse(`{"type":"record","name":"D","fields":[{"name":"x","type":"int","default":7},{"name":"y","type":"int"}]}`)
	got, err := avro.Marshal(s, &v)
	if want := []byte{14, 6}; err != nil || !bytes.Equal(got, want) {
		t.Errorf("Marshal = %x, %v; want %x (x from its default)", got, err, want)
	}
	var back dup
	if err := avro.Unmarshal(s, []byte{2, 6}, &back); err != nil || back.dupLeft.X != 0 || back.dupRight.X != 0 || back.Y != 3 {
		t.Errorf("Unmarshal = %+v, %v; want x skipped", back, err)
	}
	// Without a default, the schema's field cannot be written.
	noDefault := schema.MustParse(`{"type":"record","name":"D","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"}]}`)
	var te *avro.TypeError
	if _, err := avro.Marshal(noDefault, &v); !errors.As(err, &te) {
		t.Errorf("Marshal without a default: %v, want a *TypeError", err)
	}
}
