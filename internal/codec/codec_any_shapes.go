package codec

import (
	"reflect"

	"github.com/avrogo/avro/schema"
)

// The generic Go shapes map[string]any (a record or a map) and []any (an
// array) go through the any codecs, which choose union branches by value
// and box numbers in chunks, rather than through the reflection-based
// codecs of arbitrary map and slice types.

var (
	stringAnyMapType = reflect.TypeFor[map[string]any]()
	anySliceType     = reflect.TypeFor[[]any]()
)

// genericShapeCodec adapts an any codec to a map[string]any or []any
// target.
type genericShapeCodec struct {
	any anyCodec
	t   reflect.Type
}

func (c genericShapeCodec) decode(p pointer, d *decodeState) {
	var v any
	c.any.decode(pointerTo(&v), d)
	if d.Err != nil {
		return
	}
	c.store(p, v)
}

// store puts the decoded generic value v in the map[string]any or []any
// at p.
func (c genericShapeCodec) store(p pointer, v any) {
	switch x := v.(type) {
	case map[string]any:
		// Like every map target, a non-nil map keeps its other entries.
		if m := *as[map[string]any](p); m != nil {
			for k, v := range x {
				m[k] = v
			}
			return
		}
		*as[map[string]any](p) = x
	case []any:
		*as[[]any](p) = x
	}
}

func (c genericShapeCodec) encode(p pointer, e *encodeState) {
	switch c.t {
	case stringAnyMapType:
		c.any.n.encodeAny(*as[map[string]any](p), e)
	default:
		c.any.n.encodeAny(*as[[]any](p), e)
	}
}

// genericShape returns the codec for t when t is map[string]any with a
// record or map schema, or []any with an array schema; nil otherwise.
func (c *compiler) genericShape(s *schema.Schema, t reflect.Type, path string) (codec, error) {
	switch {
	case t == stringAnyMapType && (s.Kind() == schema.Record || s.Kind() == schema.Map),
		t == anySliceType && s.Kind() == schema.Array:
	default:
		return nil, nil
	}
	dec, err := c.anyDecoder(s, path)
	if err != nil {
		return nil, err
	}
	return genericShapeCodec{any: dec.(anyCodec), t: t}, nil
}
