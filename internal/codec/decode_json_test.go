package codec

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro/schema"
)

// programless is a JSONStyle whose programs count their reads and fail:
// a decode that never reaches them read its text on the direct path.
type programless struct{ reads int }

func (*programless) Index() int                           { return JSONStyles - 1 }
func (*programless) Direct(*schema.Schema) bool           { return true }
func (*programless) Base64() bool                         { return false }
func (*programless) Renderer(*schema.Schema) JSONRenderer { return nil }
func (*programless) BranchOpen(u *schema.Schema, i int) []byte {
	b := u.Branches()[i]
	if b.Kind() == schema.Null {
		return nil
	}
	name := b.Kind().String()
	if b.Kind().IsNamed() {
		name = b.FullName()
	}
	return []byte(`{"` + name + `":`)
}
func (p *programless) TextReader(*schema.Schema) JSONTextReader { return p }
func (*programless) NonFiniteOpen(*schema.Schema, int) []byte   { return nil }
func (*programless) NumberOpen(*schema.Schema, int) []byte      { return nil }

func (p *programless) FromJSON(dst, _ []byte, start int, _ *JSONReadOptions) ([]byte, int, error) {
	p.reads++
	return dst, start, &Error{Op: "unmarshal", Offset: int64(start), Err: errors.New("read through the program")}
}

type directRead struct {
	I     int32             `avro:"i"`
	L     int64             `avro:"l"`
	F     float32           `avro:"f"`
	D     float64           `avro:"d"`
	B     bool              `avro:"b"`
	S     string            `avro:"s"`
	Raw   []byte            `avro:"raw"`
	Opt   *string           `avro:"opt"`
	Next  *directRead       `avro:"next"`
	Kids  []directRead      `avro:"kids"`
	Longs []int64           `avro:"longs"`
	Strs  []string          `avro:"strs"`
	Attrs map[string]string `avro:"attrs"`
}

const directReadSchema = `{"type":"record","name":"D","fields":[
 {"name":"i","type":"int"},{"name":"l","type":"long"},{"name":"f","type":"float"},
 {"name":"d","type":"double"},{"name":"b","type":"boolean"},{"name":"s","type":"string"},
 {"name":"raw","type":"bytes"},{"name":"opt","type":["null","string"]},
 {"name":"next","type":["null","D"]},{"name":"kids","type":{"type":"array","items":"D"}},
 {"name":"longs","type":{"type":"array","items":"long"}},
 {"name":"strs","type":{"type":"array","items":"string"}},
 {"name":"attrs","type":{"type":"map","values":"string"}}]}`

// TestJSONDecodeDirect: the text the encoders write, compact or spaced,
// is read without the programs, into the Go value it stands for; text in
// another order goes to them.
func TestJSONDecodeDirect(t *testing.T) {
	s := schema.MustParse(directReadSchema)
	leaf := `"kids":[],"longs":[],"strs":[],"attrs":{}`
	text := `{"i":-2147483648,"l":-9223372036854775808,"f":1.5,"d":-2.5e-300,"b":true,"s":"a\"\u00e9\n",` +
		`"raw":"\u00ff\u0000A","opt":{"string":"o"},"next":{"D":{"i":1,"l":2,"f":0,"d":0,"b":false,"s":"","raw":"",` +
		`"opt":null,"next":null,` + leaf + `}},"kids":[{"i":3,"l":9223372036854775807,"f":0,"d":0,"b":false,"s":"k","raw":"",` +
		`"opt":null,"next":null,` + leaf + `}],"longs":[1,-2,3],"strs":["x","y"],"attrs":{"k":"v","k2":"v2"}}`
	o := "o"
	want := directRead{I: -2147483648, L: -9223372036854775808, F: 1.5, D: -2.5e-300, B: true, S: "a\"\u00e9\n",
		Raw: []byte{0xff, 0, 'A'}, Opt: &o,
		Next:  &directRead{I: 1, L: 2, Raw: []byte{}, Kids: []directRead{}, Longs: []int64{}, Strs: []string{}, Attrs: map[string]string{}},
		Kids:  []directRead{{I: 3, L: 9223372036854775807, S: "k", Raw: []byte{}, Kids: []directRead{}, Longs: []int64{}, Strs: []string{}, Attrs: map[string]string{}}},
		Longs: []int64{1, -2, 3}, Strs: []string{"x", "y"}, Attrs: map[string]string{"k": "v", "k2": "v2"}}
	spaced := ""
	for _, c := range text {
		spaced += string(c)
		if c == ',' || c == ':' || c == '[' || c == '{' {
			spaced += " \n\t"
		}
	}
	for _, txt := range []string{text, spaced} {
		st := &programless{}
		var got directRead
		err := UnmarshalJSON(s, []byte(txt), &got, st, &JSONReadOptions{Decode: &DecodeOptions{}, MaxNumberLength: 1024})
		if err != nil || st.reads != 0 {
			t.Fatalf("%s: %v after %d reads through the programs", txt, err, st.reads)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s: (-want +got)\n%s", txt, d)
		}
	}
	// A generic value too, as the binary decode gives it.
	bin, err := Marshal(s, &want)
	if err != nil {
		t.Fatal(err)
	}
	var wantAny any
	if err := Unmarshal(s, bin, &wantAny); err != nil {
		t.Fatal(err)
	}
	for _, txt := range []string{text, spaced} {
		st := &programless{}
		var got any
		err := UnmarshalJSON(s, []byte(txt), &got, st, &JSONReadOptions{Decode: &DecodeOptions{}, MaxNumberLength: 1024})
		if err != nil || st.reads != 0 {
			t.Fatalf("%s into an any: %v after %d reads through the programs", txt, err, st.reads)
		}
		if d := cmp.Diff(wantAny, got); d != "" {
			t.Fatalf("%s into an any: (-want +got)\n%s", txt, d)
		}
	}
	st := &programless{}
	reordered := `{"l":1,"i":2}`
	if err := UnmarshalJSON(s, []byte(reordered), new(directRead), st, &JSONReadOptions{Decode: &DecodeOptions{}, MaxNumberLength: 1024}); err == nil || st.reads == 0 {
		t.Fatalf("%s: %v after %d reads through the programs, want the program's error", reordered, err, st.reads)
	}
}
