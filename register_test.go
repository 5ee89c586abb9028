package avro_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// Two sealed unions, each with its own Go types for the same branch
// names: a generated package has one such interface per union.
type (
	regShape     interface{ isRegShape() }
	regShapeName string
	regShapeSize int32
	regShapeTags []string

	regLabel     interface{ isRegLabel() }
	regLabelName string
	regLabelSize int64
)

func (regShapeName) isRegShape() {}
func (regShapeSize) isRegShape() {}
func (regShapeTags) isRegShape() {}
func (regLabelName) isRegLabel() {}
func (regLabelSize) isRegLabel() {}

func init() {
	avro.Register("string", regShapeName(""))
	avro.Register("int", regShapeSize(0))
	avro.Register("array", regShapeTags(nil))
	avro.Register("string", regLabelName(""))
	avro.Register("long", regLabelSize(0))
}

// A branch name registered for several interfaces keeps one Go type per
// interface: registering "string" for a second union replaced the type
// of the first, which then refused to compile.
func TestRegisterSameBranchForTwoInterfaces(t *testing.T) {
	shapeSchema := schema.MustParse(`{"type":"record","name":"reg.Shape","fields":[
		{"name":"v","type":["null","string","int",{"type":"array","items":"string"}]}]}`)
	labelSchema := schema.MustParse(`{"type":"record","name":"reg.Label","fields":[
		{"name":"v","type":["string","long"]}]}`)
	type shapeRec struct {
		V regShape `avro:"v"`
	}
	type labelRec struct {
		V regLabel `avro:"v"`
	}
	for _, in := range []shapeRec{{nil}, {regShapeName("disc")}, {regShapeSize(-7)}, {regShapeTags{"a", "b"}}} {
		data, err := avro.Marshal(shapeSchema, &in)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", in, err)
		}
		var out shapeRec
		if err := avro.Unmarshal(shapeSchema, data, &out); err != nil {
			t.Fatalf("Unmarshal(%x): %v", data, err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Errorf("round trip of %#v gave %#v", in, out)
		}
	}
	for _, in := range []labelRec{{regLabelName("x")}, {regLabelSize(1 << 40)}} {
		data, err := avro.Marshal(labelSchema, &in)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", in, err)
		}
		var out labelRec
		if err := avro.Unmarshal(labelSchema, data, &out); err != nil {
			t.Fatalf("Unmarshal(%x): %v", data, err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Errorf("round trip of %#v gave %#v", in, out)
		}
	}
	// The wire carries the branch index of the interface's own union.
	got, err := avro.Marshal(labelSchema, &labelRec{regLabelName("x")})
	if want := []byte{0, 2, 'x'}; err != nil || !bytes.Equal(got, want) {
		t.Errorf("Marshal(label name) = %x, %v; want %x", got, err, want)
	}
}

// A branch for which no Go type implementing the interface is registered
// decoded as if it were null, losing the value without an error.
func TestRegisterUnregisteredBranchIsAnError(t *testing.T) {
	for _, text := range []string{
		`["null","string","double"]`,
		`["double","null","string"]`,
		`[{"type":"map","values":"int"},"string"]`,
	} {
		s := schema.MustParse(`{"type":"record","name":"reg.U","fields":[{"name":"v","type":` + text + `}]}`)
		type rec struct {
			V regShape `avro:"v"`
		}
		idx := -1
		for i, b := range s.Field("v").Type().Branches() {
			if b.Kind() == schema.Double || b.Kind() == schema.Map {
				idx = i
			}
		}
		data := []byte{byte(2 * idx), 0, 0, 0, 0, 0, 0, 0xf0, 0x3f} // 1.0, or an empty map and stray bytes
		var out rec
		err := avro.Unmarshal(s, data, &out)
		var ae *avro.Error
		if !errors.Is(err, avro.ErrRange) || !errors.As(err, &ae) || ae.Path != "v" {
			t.Errorf("%s: Unmarshal of the unregistered branch = %v (%#v); want ErrRange at v", text, err, out)
		}
	}
}
