package avrojson_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// The same record in the specification's JSON encoding and in plain JSON.
func Example() {
	s := schema.MustParse(`{"type":"record","name":"User","fields":[
		{"name":"name","type":"string"},
		{"name":"nick","type":["null","string"]},
		{"name":"born","type":{"type":"long","logicalType":"timestamp-millis"}},
		{"name":"key","type":"bytes"}]}`)
	type User struct {
		Name string    `avro:"name"`
		Nick *string   `avro:"nick"`
		Born time.Time `avro:"born"`
		Key  []byte    `avro:"key"`
	}
	nick := "ada"
	u := User{Name: "Ada", Nick: &nick, Born: time.Date(1815, 12, 10, 0, 0, 0, 0, time.UTC), Key: []byte{1, 0xff}}

	spec, err := avrojson.Marshal(s, &u)
	if err != nil {
		panic(err)
	}
	plain, err := avrojson.Plain().Marshal(s, &u)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(spec))
	fmt.Println(string(plain))

	var back User
	if err := avrojson.Plain().Unmarshal(s, plain, &back); err != nil {
		panic(err)
	}
	fmt.Println(back.Name, *back.Nick, back.Born.Format(time.DateOnly), back.Key[0], back.Key[1])
	// Output:
	// {"name":"Ada","nick":{"string":"ada"},"born":-4861728000000,"key":"\u0001ÿ"}
	// {"name":"Ada","nick":"ada","born":"1815-12-10T00:00:00Z","key":"Af8="}
	// Ada ada 1815-12-10 1 255
}

// BinaryToJSON renders a binary datum without decoding it into Go values.
func ExampleBinaryToJSON() {
	s := schema.MustParse(`{"type":"record","name":"P","fields":[{"name":"x","type":"long"},{"name":"tags","type":{"type":"map","values":"int"}}]}`)
	datum := []byte{0x54, 0x02, 0x02, 'a', 0x0e, 0x00} // x=42, tags={"a": 7}
	text, err := avrojson.BinaryToJSON(nil, s, datum)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(text))
	back, err := avrojson.JSONToBinary(nil, s, text)
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", back)
	// Output:
	// {"x":42,"tags":{"a":7}}
	// 54 02 02 61 0e 00
}

// Unmarshal reads the specification's JSON into any Go target avro.Unmarshal
// takes; with a resolved schema, JSON written with an older schema comes
// back in the newer one's shape.
func ExampleUnmarshal() {
	v1 := schema.MustParse(`{"type":"record","name":"User","fields":[
		{"name":"name","type":"string"}]}`)
	v2 := schema.MustParse(`{"type":"record","name":"User","fields":[
		{"name":"name","type":"string"},
		{"name":"langs","type":{"type":"array","items":"string"},"default":["en"]}]}`)
	type User struct {
		Name  string   `avro:"name"`
		Langs []string `avro:"langs"`
	}
	resolved, err := schema.Resolve(v1, v2)
	if err != nil {
		panic(err)
	}
	var u User
	if err := avrojson.Unmarshal(resolved, []byte(`{"name":"Ada"}`), &u); err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", u)

	var generic any
	if err := avrojson.Unmarshal(v2, []byte(`{"name":"Grace","langs":["en","fr"]}`), &generic); err != nil {
		panic(err)
	}
	fmt.Println(generic)
	// Output:
	// {Name:Ada Langs:[en]}
	// map[langs:[en fr] name:Grace]
}

// A Decoder reads JSON Lines (or JSON values one after another); errors
// carry the path of the field and the byte offset in the stream.
func ExampleOptions_NewDecoder() {
	s := schema.MustParse(`{"type":"record","name":"Reading","fields":[
		{"name":"station","type":"string"},
		{"name":"temp","type":["null","double"]}]}`)
	type Reading struct {
		Station string   `avro:"station"`
		Temp    *float64 `avro:"temp"`
	}
	lines := `{"station":"011990-99999","temp":21.5}
{"station":"012650-99999","temp":null}
{"station":"012650-99999","temp":"warm"}
`
	d := avrojson.Plain().NewDecoder(strings.NewReader(lines), s)
	for {
		var r Reading
		err := d.Decode(&r)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			break
		}
		if r.Temp == nil {
			fmt.Println(r.Station, "no reading")
		} else {
			fmt.Println(r.Station, *r.Temp)
		}
	}
	// Output:
	// 011990-99999 21.5
	// 012650-99999 no reading
	// avro: unmarshal temp at offset 111: invalid data: a JSON string matches no branch of union [null,double]
}

// A line that is JSON but does not fit the schema is an error the Decoder
// moves past, so a reader of JSON Lines can skip and count bad lines;
// text that is not JSON ends the stream.
func ExampleDecoder_Decode_skipBadLines() {
	s := schema.MustParse(`{"type":"record","name":"Reading","fields":[
		{"name":"station","type":"string"},
		{"name":"temp","type":"double"}]}`)
	type Reading struct {
		Station string  `avro:"station"`
		Temp    float64 `avro:"temp"`
	}
	lines := `{"station":"011990-99999","temp":21.5}
{"station":"012650-99999","temp":"warm"}
{"station":"012650-99999"}
{"station":"013010-99999","temp":-3.25}
{"station":"014200-99999","temp":
`
	d := avrojson.Plain().NewDecoder(strings.NewReader(lines), s)
	var sum float64
	good, bad := 0, 0
	for {
		var r Reading
		err := d.Decode(&r)
		if err == io.EOF {
			break
		}
		var ae *avro.Error
		if errors.As(err, &ae) && !errors.Is(err, avrojson.ErrStopped) {
			bad++
			fmt.Println("skipped:", err)
			continue
		}
		if err != nil {
			fmt.Println("stopped:", err)
			break
		}
		good++
		sum += r.Temp
	}
	fmt.Println(good, "readings,", bad, "skipped, sum", sum)
	// Output:
	// skipped: avro: unmarshal temp at offset 72: invalid data: "warm" is not a number
	// skipped: avro: unmarshal at offset 105: invalid data: record Reading: field "temp" is missing and has no default
	// stopped: avro: unmarshal at offset 181: truncated input: unexpected EOF: unexpected end of JSON input, want number
	// 2 readings, 2 skipped, sum 18.25
}
