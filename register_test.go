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

// Branch types of every layout an interface stores: by a pointer to a
// copy (strings, numbers, slices, structs), in the data word itself
// (maps, structs and arrays of one pointer), and of size zero.
type (
	regAll       interface{ isRegAll() }
	regAllMap    map[string]int32
	regAllBox    struct{ P *int64 }
	regAllArr    [1]*string
	regAllEmpty  struct{}
	regAllFixed  [3]byte
	regAllDouble float64
	regAllRec    struct {
		A int32  `avro:"a"`
		B string `avro:"b"`
	}
)

func (regAllMap) isRegAll()    {}
func (regAllBox) isRegAll()    {}
func (regAllArr) isRegAll()    {}
func (regAllEmpty) isRegAll()  {}
func (regAllFixed) isRegAll()  {}
func (regAllDouble) isRegAll() {}
func (*regAllRec) isRegAll()   {}

func init() {
	avro.Register("map", regAllMap(nil))
	avro.Register("reg.Box", regAllBox{})
	avro.Register("array", regAllArr{})
	avro.Register("reg.Empty", regAllEmpty{})
	avro.Register("reg.F3", regAllFixed{})
	avro.Register("double", regAllDouble(0))
	avro.Register("reg.Rec", (*regAllRec)(nil))
}

// reg.Box's type and the array's hold one pointer; reg.Empty's holds
// nothing.
var regAllSchema = schema.MustParse(`{"type":"record","name":"reg.All","fields":[{"name":"v","type":{"type":"array","items":[
	"null",
	{"type":"map","values":"int"},
	{"type":"record","name":"reg.Box","fields":[{"name":"P","type":["null","long"]}]},
	{"type":"array","items":["null","string"]},
	{"type":"record","name":"reg.Empty","fields":[]},
	{"type":"fixed","name":"reg.F3","size":3},
	"double",
	{"type":"record","name":"reg.Rec","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}]}}]}`)

type regAllHolder struct {
	V []regAll `avro:"v"`
}

func TestRegisterEveryLayout(t *testing.T) {
	n, word := int64(-3), "w"
	in := regAllHolder{V: []regAll{
		nil,
		regAllMap{"k": 7},
		regAllMap{},
		regAllBox{P: &n},
		regAllBox{},
		regAllArr{&word},
		regAllArr{},
		regAllEmpty{},
		regAllFixed{1, 2, 3},
		regAllDouble(2.5),
		&regAllRec{A: 9, B: "nine"},
	}}
	data, err := avro.Marshal(regAllSchema, &in)
	if err != nil {
		t.Fatal(err)
	}
	var out regAllHolder
	if err := avro.Unmarshal(regAllSchema, data, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip of\n%#v\ngave\n%#v", in, out)
	}
	// A nil pointer branch is an error, not a null.
	if _, err := avro.Marshal(regAllSchema, &regAllHolder{V: []regAll{(*regAllRec)(nil)}}); !errors.Is(err, avro.ErrRange) {
		t.Errorf("Marshal of a nil *regAllRec = %v; want ErrRange", err)
	}
	// The empty record encodes to its branch index alone.
	data, err = avro.Marshal(regAllSchema, &regAllHolder{V: []regAll{regAllEmpty{}}})
	if err != nil || !bytes.Equal(data, []byte{2, 8, 0}) {
		t.Errorf("Marshal of regAllEmpty = %x, %v; want 020800", data, err)
	}
}

// Encoding a union from an interface writes the value where the
// interface holds it, with no copy.
func TestRegisterEncodeAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race (sync.Pool drops items at random)")
	}
	n := int64(5)
	v := regAllHolder{V: []regAll{regAllMap{"a": 1}, regAllBox{P: &n}, regAllArr{}, regAllEmpty{}, regAllFixed{}, regAllDouble(1), &regAllRec{B: "x"}}}
	buf := make([]byte, 0, 256)
	if allocs := testing.AllocsPerRun(100, func() { buf, _ = avro.Append(buf[:0], regAllSchema, &v) }); allocs != 0 {
		t.Errorf("Append of registered branch types: %v allocations; want 0", allocs)
	}
}
