package avro_test

import (
	"math/big"
	"net/netip"
	"time"

	"github.com/avrogo/avro"
)

// Go types of the SchemaOf table: every kind, nesting, recursion,
// embedding and inlining, every tag option and logical type.

type soPrims struct {
	B   bool
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U   uint `avro:",long"`
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64 `avro:",long"`
	F32 float32
	F64 float64
	S   string
	Bs  []byte
}

type soMD5 [16]byte

type soUUID [16]byte

type soCelsius float64

type soTree struct {
	Value    int32    `avro:"value"`
	Children []soTree `avro:"children"`
}

type soList struct {
	Head int64   `avro:"head"`
	Tail *soList `avro:"tail"`
}

type soAddr struct {
	Street string `avro:"street"`
	Zip    string `avro:"zip"`
}

type soPerson struct {
	Name string  `avro:"name"`
	Home soAddr  `avro:"home"`
	Work *soAddr `avro:"work"`
}

type soBase struct {
	ID      int64  `avro:"id"`
	Created string `avro:"created"`
}

type soEmbedded struct {
	soBase
	Title string `avro:"title"`
}

type soEmbeddedPtr struct {
	*soBase
	Title string `avro:"title"`
}

type soInlined struct {
	Meta  soBase `avro:",inline"`
	Title string `avro:"title"`
}

type soTagged struct {
	Name    string    `avro:"full_name,alias=name,alias=fullName,doc='The name, in full'"`
	Age     int32     `avro:"age,default=18"`
	Tags    []string  `avro:"tags,default=[\"a\",\"b\"]"`
	Nick    *string   `avro:"nick,default=\"none\""`
	Score   float64   `avro:"score,omitzero"`
	Count   int64     `avro:"count,omitzero,default=7"`
	When    time.Time `avro:"when,omitzero"`
	Skipped string    `avro:"-"`
	hidden  int       //nolint:unused // unexported fields are left out
}

type soLogical struct {
	Millis  time.Time     `avro:"millis,timestamp-millis"`
	Micros  time.Time     `avro:"micros,logical=timestamp-micros"`
	Nanos   time.Time     `avro:"nanos,timestamp-nanos"`
	LMillis time.Time     `avro:"lmillis,local-timestamp-millis"`
	LMicros time.Time     `avro:"lmicros,local-timestamp-micros"`
	LNanos  time.Time     `avro:"lnanos,local-timestamp-nanos"`
	Date    time.Time     `avro:"date,date"`
	TOfDay1 time.Duration `avro:"tmillis,time-millis"`
	TOfDay2 time.Duration `avro:"tmicros,time-micros"`
	Dec     big.Rat       `avro:"dec,decimal(10,2)"`
	DecPtr  *big.Rat      `avro:"decptr,logical=decimal(20,4)"`
	DecFix  [8]byte       `avro:"decfix,decimal(18,3),typename=Money8"`
	BigDec  *big.Rat      `avro:"bigdec"`
	UUIDStr string        `avro:"uuidstr,uuid"`
	UUIDArr [16]byte      `avro:"uuidarr,uuid"`
	UUIDTyp soUUID        `avro:"uuidtyp"`
	Dur     avro.Duration `avro:"dur"`
	EpochMs int64         `avro:"epochms,timestamp-millis"`
	Day     int32         `avro:"day,date"`
}

type soPet interface{ pet() }

type soCat struct {
	Lives int32 `avro:"lives"`
}

type soDog struct {
	Good bool `avro:"good"`
}

func (soCat) pet()  {}
func (*soDog) pet() {}

type soOwner struct {
	Pet  soPet   `avro:"pet"`
	Pets []soPet `avro:"pets"`
}

type soGeneric[T any] struct {
	Val T `avro:"val"`
}

type soMethods struct {
	Addr netip.Addr        `avro:"addr"`
	Pre  netip.Prefix      `avro:"pre"`
	URL  soBinary          `avro:"url"`
	Temp soCelsius         `avro:"temp"`
	Opt  *soCelsius        `avro:"opt"`
	Fix  soMD5             `avro:"fix"`
	Fix2 soMD5             `avro:"fix2"`
	Anon struct{ X int32 } `avro:"anon"`
}

// soBinary has binary methods only.
type soBinary struct{ b []byte }

func (s soBinary) MarshalBinary() ([]byte, error) { return s.b, nil }
func (s *soBinary) UnmarshalBinary(b []byte) error {
	s.b = b
	return nil
}

func init() {
	avro.Register("zoo.Cat", soCat{})
	avro.Register("zoo.Dog", (*soDog)(nil))
}
