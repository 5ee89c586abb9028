package bench

import (
	"math/big"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	twmb "github.com/twmb/avro"
)

// SchemaOf against twmb's SchemaFor on the same Go types: where the two
// mappings agree, and where they differ and why ours is the one we want.

type sfPrims struct {
	B   bool
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U8  uint8
	U16 uint16
	U32 uint32
	F32 float32
	F64 float64
	S   string
	Bs  []byte
}

type sfUint64 struct {
	U64 uint64
}

type sfAddr struct {
	Street string `avro:"street"`
	Zip    string `avro:"zip"`
}

type sfNested struct {
	Home sfAddr            `avro:"home"`
	Work *sfAddr           `avro:"work"`
	Tags []string          `avro:"tags"`
	Meta map[string]int64  `avro:"meta"`
	Opts map[string]*int32 `avro:"opts"`
}

type sfTree struct {
	Value    int32    `avro:"value"`
	Children []sfTree `avro:"children"`
}

type sfList struct {
	Head int64   `avro:"head"`
	Tail *sfList `avro:"tail"`
}

type sfHash [16]byte

type sfFixed struct {
	H   sfHash  `avro:"h"`
	Raw [4]byte `avro:"raw"`
}

type sfTime struct {
	T time.Time     `avro:"t"`
	D time.Duration `avro:"d"`
}

type sfTimeTagged struct {
	T  time.Time `avro:"t,timestamp-micros"`
	TM time.Time `avro:"tm,timestamp-millis"`
	D  time.Time `avro:"d,date"`
}

type sfDecimal struct {
	P *big.Rat `avro:"p,decimal(10,2)"`
}

type sfRat struct {
	P *big.Rat `avro:"p"`
}

type sfTags struct {
	Name  string `avro:"full_name,alias=name"`
	Age   int32  `avro:"age,default=18"`
	Count int64  `avro:"count,omitzero"`
}

type sfEmbedded struct {
	sfAddr
	Title string `avro:"title"`
}

type sfInline struct {
	A     sfAddr `avro:",inline"`
	Title string `avro:"title"`
}

type sfUUID struct {
	ID string `avro:"id,uuid"`
}

type sfDuration struct {
	D avro.Duration `avro:"d"`
}

type schemaForCase struct {
	name         string
	ours, theirs func() (*schema.Schema, string, error)
	differs      bool
	why          string
}

func pair[T any]() (func() (*schema.Schema, string, error), func() (*schema.Schema, string, error)) {
	return func() (*schema.Schema, string, error) {
			s, err := avro.SchemaOf[T]()
			if err != nil {
				return nil, "", err
			}
			return s, s.String(), nil
		}, func() (*schema.Schema, string, error) {
			ts, err := twmb.SchemaFor[T]()
			if err != nil {
				return nil, "", err
			}
			s, err := schema.Parse(ts.String())
			return s, ts.String(), err
		}
}

func sfCase[T any](name string, differs bool, why string) schemaForCase {
	o, t := pair[T]()
	return schemaForCase{name, o, t, differs, why}
}

var schemaForCases = []schemaForCase{
	sfCase[sfPrims]("primitives", false, ""),
	sfCase[sfUint64]("uint64 without a tag", true,
		"twmb gives a uint64 a long that half its values do not fit; ours refuses it and asks for the tag option long or a hand-written schema"),
	sfCase[sfNested]("nested records, arrays, maps, pointers", false, ""),
	sfCase[sfTree]("recursion through a slice", false, ""),
	sfCase[sfList]("recursion through a pointer", false, ""),
	sfCase[sfFixed]("fixed", false, ""),
	sfCase[sfTime]("time.Time and time.Duration", true,
		"twmb writes timestamp-millis and time-millis, which drop a time.Time's microseconds and overflow an int for a Duration past 24.8 days; ours keep microseconds (timestamp-micros, time-micros on a long)"),
	sfCase[sfTimeTagged]("timestamps and dates by tag", false, ""),
	sfCase[sfDecimal]("decimal by tag", false, ""),
	sfCase[sfRat]("*big.Rat without a tag", true,
		"twmb requires a decimal(p,s) tag; ours writes big-decimal, which holds every finite decimal exactly, in a nullable union as every pointer is"),
	sfCase[sfTags]("alias, default, omitzero", true,
		"ours gives an omitzero field without a default= the encoding of its zero value as its default, so that the zero value that omitzero writes reads back; twmb leaves it without one"),
	sfCase[sfEmbedded]("embedded struct", false, ""),
	sfCase[sfInline]("inline", false, ""),
	sfCase[sfUUID]("uuid by tag", false, ""),
	sfCase[sfDuration]("avro.Duration", true,
		"avro.Duration is this library's type: twmb maps it as any struct, a record of three longs; ours writes the duration logical type, a fixed of 12 bytes"),
}

func TestSchemaOfVersusSchemaFor(t *testing.T) {
	for _, c := range schemaForCases {
		t.Run(c.name, func(t *testing.T) {
			ours, ot, err := c.ours()
			if err != nil {
				if !c.differs {
					t.Fatalf("SchemaOf: %v", err)
				}
				t.Logf("differs: %s\n ours: %v", c.why, err)
				return
			}
			theirs, tt, err := c.theirs()
			if err != nil {
				if !c.differs {
					t.Fatalf("twmb SchemaFor: %v", err)
				}
				t.Logf("differs: %s\n ours  %s\ntheirs: %v", c.why, ot, err)
				return
			}
			same := ours.String() == theirs.String()
			if same == c.differs {
				t.Errorf("the mappings %s, but the table says differs=%v (%s)\n ours  %s\ntheirs %s", map[bool]string{true: "agree", false: "differ"}[same], c.differs, c.why, ot, tt)
			}
			if c.differs {
				t.Logf("differs: %s\n ours  %s\ntheirs %s", c.why, ot, tt)
			}
		})
	}
}
