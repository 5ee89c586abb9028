package avrojson_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// shape is an interface whose implementations are registered for the
// named branches of a union.
type shape interface{ area() float64 }

type jsonCircle struct {
	R float64 `avro:"r"`
}

func (c jsonCircle) area() float64 { return 3 * c.R * c.R }

type jsonSquare struct {
	Side float64 `avro:"side"`
}

func (s *jsonSquare) area() float64 { return s.Side * s.Side }

func init() {
	avro.Register("shapes.Circle", jsonCircle{})
	avro.Register("shapes.Square", (*jsonSquare)(nil))
}

var shapeSchema = schema.MustParse(`{"type":"record","name":"Drawing","namespace":"shapes","fields":[
 {"name":"shapes","type":{"type":"array","items":[
   {"type":"record","name":"Circle","fields":[{"name":"r","type":"double"}]},
   {"type":"record","name":"Square","fields":[{"name":"side","type":"double"}]}]}},
 {"name":"main","type":["null","Circle","Square"]}]}`)

type drawing struct {
	Shapes []shape `avro:"shapes"`
	Main   shape   `avro:"main"`
}

// TestRegisteredInterfaces: a union of named records into an interface,
// through the types registered for them: the branch is the registered
// type of the value, tagged by its full name (or bare), and reads back as
// that type.
func TestRegisteredInterfaces(t *testing.T) {
	in := drawing{Shapes: []shape{jsonCircle{R: 1}, &jsonSquare{Side: 2}}, Main: &jsonSquare{Side: 3}}
	for _, c := range []struct {
		o    avrojson.Options
		want string
	}{
		{avrojson.Options{}, `{"shapes":[{"shapes.Circle":{"r":1}},{"shapes.Square":{"side":2}}],"main":{"shapes.Square":{"side":3}}}`},
		{avrojson.Options{Unions: avrojson.BareUnions}, `{"shapes":[{"r":1},{"side":2}],"main":{"side":3}}`},
	} {
		text, err := c.o.Marshal(shapeSchema, &in)
		if err != nil || string(text) != c.want {
			t.Fatalf("Marshal = %s, %v; want %s", text, err, c.want)
		}
		var out drawing
		if c.o.Unions == avrojson.BareUnions {
			// Two record branches both read objects: bare, the branch is
			// ambiguous, and the error says where.
			err := c.o.Unmarshal(shapeSchema, text, &out)
			if !errors.Is(err, avro.ErrInvalid) || !strings.Contains(err.Error(), "shapes[0]") {
				t.Errorf("Unmarshal(%s) = %v, want ErrInvalid at shapes[0]", text, err)
			}
			continue
		}
		if err := c.o.Unmarshal(shapeSchema, text, &out); err != nil {
			t.Fatalf("Unmarshal(%s): %v", text, err)
		}
		if len(out.Shapes) != 2 || out.Shapes[0] != (jsonCircle{R: 1}) || *out.Shapes[1].(*jsonSquare) != (jsonSquare{Side: 2}) ||
			*out.Main.(*jsonSquare) != (jsonSquare{Side: 3}) {
			t.Errorf("Unmarshal(%s) = %+v", text, out)
		}
	}
	var nothing drawing
	text, err := avrojson.Marshal(shapeSchema, &drawing{Shapes: []shape{}})
	if err != nil || string(text) != `{"shapes":[],"main":null}` {
		t.Fatalf("Marshal of no shapes = %s, %v", text, err)
	}
	if err := avrojson.Unmarshal(shapeSchema, text, &nothing); err != nil || nothing.Main != nil || len(nothing.Shapes) != 0 {
		t.Errorf("Unmarshal(%s) = %+v, %v", text, nothing, err)
	}
}
