package jsoncodec

import (
	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// style is the codec.JSONStyle of a flavour: what the JSON encoders of
// Go values, compiled by package codec, write as this flavour does.
type style struct{ fl Flavor }

var styles = func() (t [flavors]*style) {
	for i := range t {
		t[i] = &style{fl: Flavor{
			Unions:         Unions(i & 3),
			Readable:       i&4 != 0,
			DecimalStrings: i&8 != 0,
			Base64:         i&16 != 0,
		}}
	}
	return t
}()

// StyleOf returns the style of the JSON encoders of Go values in
// flavour f.
func StyleOf(f Flavor) codec.JSONStyle { return styles[f.index()&(flavors-1)] }

func (s *style) Index() int { return s.fl.index() }

// Direct: only the readable flavours write logical types otherwise than
// their underlying values, and a decimal's bytes and a uuid's text are checked when read.
func (s *style) Direct(n *schema.Schema) bool {
	return n.Logical() == schema.NoLogical || !s.fl.Readable && n.Logical() != schema.Decimal && n.Logical() != schema.UUID
}

func (s *style) BranchOpen(u *schema.Schema, i int) []byte {
	if s.fl.Unions == Bare || u.Branches()[i].Kind() == schema.Null {
		return nil
	}
	return ProgramOf(u, s.fl).root.(*unionNode).open[i]
}

func (s *style) NonFiniteOpen(u *schema.Schema, i int) []byte {
	n := ProgramOf(u, s.fl).root.(*unionNode)
	if !n.tagsNonFinite(i) {
		return nil
	}
	return n.open[i]
}

func (s *style) NumberOpen(u *schema.Schema, i int) []byte {
	return ProgramOf(u, s.fl).root.(*unionNode).numberTag(i)
}

func (s *style) Base64() bool { return s.fl.Base64 }

func (s *style) Renderer(n *schema.Schema) codec.JSONRenderer { return ProgramOf(n, s.fl) }

func (s *style) TextReader(n *schema.Schema) codec.JSONTextReader { return ProgramOf(n, s.fl) }

// AppendJSON appends the text of the binary datum bin, for the JSON
// encoders of Go values.
func (p *Program) AppendJSON(dst, bin []byte, o *codec.DecodeOptions) ([]byte, error) {
	out, _, err := p.ToJSON(dst, bin, o, "marshal")
	return out, err
}
