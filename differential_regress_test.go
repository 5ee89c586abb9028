package avro_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Regressions found by a random differential campaign against avsc and
// Apache Python (every one a case where our bytes or values differed).

// A map[string]any passed as itself (not behind a pointer) to Marshal,
// Append or Encoder.Encode, for a union of null and a map or a record:
// the map's interface word was read as the address of a map, so an empty
// map was written as null and a full one crashed.
func TestRegressGenericMapIntoUnion(t *testing.T) {
	cases := []struct {
		schema string
		v      map[string]any
		want   []byte
	}{
		{`["null",{"type":"map","values":"string"}]`, map[string]any{}, []byte{2, 0}},
		{`["null",{"type":"map","values":"string"}]`, map[string]any{"a": "b"}, []byte{2, 2, 2, 'a', 2, 'b', 0}},
		{`["null",{"type":"map","values":"string"}]`, nil, []byte{0}},
		{`["null",{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}]`, map[string]any{"a": "b"}, []byte{2, 2, 'b'}},
	}
	for _, c := range cases {
		s := schema.MustParse(c.schema)
		got, err := avro.Marshal(s, c.v)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("Marshal(%s, %v) = %x, %v; want %x", c.schema, c.v, got, err, c.want)
		}
		got, err = avro.Append([]byte{0xff}, s, c.v)
		if err != nil || !bytes.Equal(got, append([]byte{0xff}, c.want...)) {
			t.Errorf("Append(%s, %v) = %x, %v; want ff%x", c.schema, c.v, got, err, c.want)
		}
		var buf bytes.Buffer
		if err := avro.NewEncoder(&buf, s).Encode(c.v); err != nil || !bytes.Equal(buf.Bytes(), c.want) {
			t.Errorf("Encode(%s, %v) = %x, %v; want %x", c.schema, c.v, buf.Bytes(), err, c.want)
		}
		// The same through a pointer, which always worked.
		var v any = c.v
		if c.v == nil {
			v = nil
		}
		if got, err := avro.Marshal(s, &v); err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("Marshal(%s, &%v) = %x, %v; want %x", c.schema, c.v, got, err, c.want)
		}
		var back any
		if err := avro.Unmarshal(s, c.want, &back); err != nil {
			t.Errorf("Unmarshal(%s, %x): %v", c.schema, c.want, err)
		} else if c.v != nil && !cmp.Equal(back, any(c.v)) {
			t.Errorf("Unmarshal(%s, %x) = %v, want %v", c.schema, c.want, back, c.v)
		}
	}
}

// []time.Duration for an array of time-micros took the []int64 fast path,
// which copies the longs raw: a millisecond was written as 1,000,000
// microseconds, and read back as a microsecond. Every element must go
// through time.Duration's mapping, as a lone time.Duration does.
func TestRegressDurationSliceConverts(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":{"type":"long","logicalType":"time-micros"}}`)
	want := []byte{2, 0xd0, 0x0f, 0} // one block of 1000 µs
	got, err := avro.Marshal(s, []time.Duration{time.Millisecond})
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Marshal([1ms]) = %x, %v; want %x", got, err, want)
	}
	var d []time.Duration
	if err := avro.Unmarshal(s, want, &d); err != nil || len(d) != 1 || d[0] != time.Millisecond {
		t.Errorf("Unmarshal(%x) = %v, %v; want [1ms]", want, d, err)
	}
	// A lone value and an array agree.
	one, err := avro.Marshal(schema.MustParse(`{"type":"long","logicalType":"time-micros"}`), time.Millisecond)
	if err != nil || !bytes.Equal(one, want[1:3]) {
		t.Errorf("Marshal(1ms) = %x, %v; want %x", one, err, want[1:3])
	}
}

// In the wrapped form of a union value ({"name": value}), the short name
// of an earlier named branch hid a later branch's exact full name: in
// ["null", fixed n.E, enum E, map] the key "E" picked the fixed n.E,
// which refused the symbol, and the wrapper was then written as a map.
func TestRegressUnionWrapperFullNameFirst(t *testing.T) {
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

// directMeta is a zero-size type that the structs below embed for their
// layout alone: one pointer beside zero-size fields.
type directMeta struct{} //nolint:unused // used for its layout, never accessed

type directBox struct {
	Q *int64 `avro:"q"`
}

// A struct of one pointer and zero-size fields, passed by value, is kept
// in the interface's data word itself by Go 1.26; Marshal took that word
// for a pointer to the struct, since only structs of one field were
// counted as stored so: a null written for a value, or a crash. Found by
// an encode-side differential campaign.
func TestRegressPointerShapedStructByValue(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":{"type":"record","name":"Box","fields":[{"name":"q","type":["null","long"]}]}}]}`)
	zero := int64(0)
	type withMeta struct {
		directMeta            //nolint:unused // layout only
		B          *directBox `avro:"b"`
	}
	type metaAfter struct {
		B    *directBox `avro:"b"`
		Meta struct{}   `avro:"-"`
	}
	type oneField struct {
		B *directBox `avro:"b"`
	}
	for _, v := range []any{
		withMeta{B: &directBox{Q: &zero}},
		metaAfter{B: &directBox{Q: &zero}},
		oneField{B: &directBox{Q: &zero}},
	} {
		want := []byte{2, 0} // branch long, 0
		got, err := avro.Marshal(s, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Marshal(%T by value) = %x, %v; want %x", v, got, err, want)
		}
		if got, err := avro.Append(nil, s, v); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Append(%T by value) = %x, %v; want %x", v, got, err, want)
		}
	}
	ms := schema.MustParse(`{"type":"record","name":"M","fields":[{"name":"m","type":{"type":"map","values":"int"}}]}`)
	type mapMeta struct {
		directMeta                  //nolint:unused // layout only
		M          map[string]int32 `avro:"m"`
	}
	if got, err := avro.Marshal(ms, mapMeta{M: map[string]int32{"a": 1}}); err != nil || !bytes.Equal(got, []byte{2, 2, 'a', 2, 0}) {
		t.Errorf("Marshal(map and zero-size field by value) = %x, %v", got, err)
	}
}

// Register of a nil interface value stored a nil type, and every later
// compile of a union with that name panicked with an interface conversion
// error, far from the cause. Register itself panics now, with the name.
// Found by an API review.
func TestRegressRegisterNil(t *testing.T) {
	defer func() {
		p := recover()
		if msg, _ := p.(string); !strings.Contains(msg, `"regress.nil.T"`) {
			t.Errorf("Register(name, nil) panicked with %v; want a message naming the type", p)
		}
	}()
	avro.Register("regress.nil.T", nil)
}

type dupInner struct {
	X int32 `avro:"x" json:"x"`
}
type dupLeft struct{ dupInner }
type dupRight struct{ dupInner }

// A struct type embedded twice at one depth (through two embedded
// structs) was walked once, so the first path's field won; by
// encoding/json's rules, which the package documents, the two hide each
// other. The schema's field then has no Go field: written from its
// default, skipped when read. Found by two reviews.
func TestRegressEmbeddedTwiceAtOneDepth(t *testing.T) {
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
// errors.Is finds them. Found by two reviews.
func TestRegressTextMethodsAsInEncodingJSON(t *testing.T) {
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

// Unmarshal into a nil pointer is an *InvalidUnmarshalError whatever the
// pointer's type, as in encoding/json; a nil *int for a record schema was
// a *TypeError. Found by an API review.
func TestRegressNilPointerBeforeTypeCheck(t *testing.T) {
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
