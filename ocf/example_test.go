package ocf_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

func Example() {
	s := schema.MustParse(`{"type":"record","name":"Reading","fields":[
		{"name":"station","type":"string"},{"name":"temp","type":"int"}]}`)
	type Reading struct {
		Station string `avro:"station"`
		Temp    int    `avro:"temp"`
	}

	var file bytes.Buffer // an *os.File in real use
	w, err := ocf.NewWriter(&file, s, ocf.WithCodec(ocf.CodecZstandard),
		ocf.WithMetadata("source", []byte("example")))
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range []Reading{{"011990-99999", 0}, {"011990-99999", 22}, {"012650-99999", -11}} {
		if err := w.Encode(&r); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := ocf.NewReader(&file)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Codec(), string(r.Metadata()["source"]))
	for r.Next() {
		var rd Reading
		if err := r.Decode(&rd); err != nil {
			log.Fatal(err)
		}
		fmt.Println(rd.Station, rd.Temp)
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// zstandard example
	// 011990-99999 0
	// 011990-99999 22
	// 012650-99999 -11
}
