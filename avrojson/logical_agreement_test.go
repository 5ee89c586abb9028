package avrojson_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// JSON reading accepts exactly what avro.Marshal accepts: random decimal
// schemas on bytes and fixed, values at and just past their precision and
// scale, read in every flavour and through JSONToBinary.
func TestDecimalReadingAgreesWithMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 1))
	for range 200 {
		p := 1 + r.IntN(30)
		sc := r.IntN(p + 1)
		typ := `"type":"bytes"`
		if r.IntN(2) == 0 {
			size := (p*100)/241 + 2
			typ = fmt.Sprintf(`"type":"fixed","name":"F","size":%d`, size)
		}
		s := schema.MustParse(fmt.Sprintf(`{%s,"logicalType":"decimal","precision":%d,"scale":%d}`, typ, p, sc))
		if s.Logical() != schema.Decimal {
			t.Fatalf("schema %s lost its logical type", s)
		}
		bound := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		for _, u := range []*big.Int{
			new(big.Int).Sub(bound, big.NewInt(1)), bound,
			new(big.Int).Neg(new(big.Int).Sub(bound, big.NewInt(1))), new(big.Int).Neg(bound),
			big.NewInt(r.Int64N(1000) - 500),
		} {
			for _, extra := range []int{0, 1} {
				// u*10 / 10^(scale+extra): at extra 1, u at the precision and
				// scale; at 0, one digit more before the point.
				v := new(big.Rat).SetFrac(new(big.Int).Mul(u, big.NewInt(10)), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(sc+extra)), nil))
				_, merr := avro.Marshal(s, v)
				ok := merr == nil
				text := v.FloatString(sc + extra)
				for _, in := range []string{text, strconv.Quote(text)} {
					o := avrojson.Plain()
					var rat big.Rat
					var a any
					_, e1 := o.JSONToBinary(nil, s, []byte(in))
					e2 := o.Unmarshal(s, []byte(in), &rat)
					e3 := o.Unmarshal(s, []byte(in), &a)
					for i, err := range []error{e1, e2, e3} {
						if (err == nil) != ok {
							t.Fatalf("%s %s: read %d: %v; avro.Marshal: %v", s, in, i, err, merr)
						}
					}
				}
			}
		}
	}
}
