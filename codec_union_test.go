package avro_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// In the wrapped form of a union value ({"name": value}), the short name
// of an earlier named branch hid a later branch's exact full name: in
// ["null", fixed n.E, enum E, map] the key "E" picked the fixed n.E,
// which refused the symbol, and the wrapper was then written as a map.
func TestUnionWrapperFullNameFirst(t *testing.T) {
	s := schema.MustParse(`["null",{"type":"fixed","name":"n.E","size":1},{"type":"enum","name":"E","symbols":["B"]},{"type":"map","values":"string"}]`)
	var v any = map[string]any{"E": "B"}
	want := []byte{4, 0} // branch 2, symbol 0
	if got, err := avro.Marshal(s, &v); err != nil || !bytes.Equal(got, want) {
		t.Errorf("Marshal({E: B}) = %x, %v; want %x", got, err, want)
	}
	if got, err := value.FromAny(s, v); err != nil || got.Branch() != 2 {
		t.Errorf("value.FromAny({E: B}) = %v (branch %d), %v; want branch 2", got, got.Branch(), err)
	}
	// The short name still names a branch when no full name takes it.
	two := schema.MustParse(`["null",{"type":"enum","name":"n.E","symbols":["A"]}]`)
	v = map[string]any{"E": "A"}
	if got, err := avro.Marshal(two, &v); err != nil || !bytes.Equal(got, []byte{2, 0}) {
		t.Errorf("Marshal({E: A}) by short name = %x, %v; want 0200", got, err)
	}
	v = map[string]any{"map": map[string]any{"a": int32(1)}}
	fm := schema.MustParse(`[{"type":"fixed","name":"x.map","size":2},{"type":"map","values":"int"}]`)
	if got, err := avro.Marshal(fm, &v); err != nil || !bytes.Equal(got, []byte{2, 2, 2, 'a', 2, 0}) {
		t.Errorf("Marshal({map: {a: 1}}) = %x, %v; want 020202610200", got, err)
	}
}

// Register of a nil interface value stored a nil type, and every later
// compile of a union with that name panicked with an interface conversion
// error, far from the cause. Register itself panics now, with the name.
func TestRegisterNilPanics(t *testing.T) {
	defer func() {
		p := recover()
		if msg, _ := p.(string); !strings.Contains(msg, `"register.nil.T"`) {
			t.Errorf("Register(name, nil) panicked with %v; want a message naming the type", p)
		}
	}()
	avro.Register("register.nil.T", nil)
}
