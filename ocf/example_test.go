package ocf_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/avrogo/avro/avrojson"
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

// Records ranges over the records of a file, decoded into a Go type; a bad
// file ends the loop with its error. With WithReaderSchema the records of
// an older file are read in the shape of a newer schema.
func ExampleRecords() {
	v1 := schema.MustParse(`{"type":"record","name":"Reading","fields":[
		{"name":"station","type":"string"},{"name":"temp","type":"int"}]}`)
	var file bytes.Buffer
	w, err := ocf.NewWriter(&file, v1, ocf.WithCodec(ocf.CodecDeflate))
	if err != nil {
		log.Fatal(err)
	}
	for i, st := range []string{"011990-99999", "012650-99999"} {
		if err := w.Encode(map[string]any{"station": st, "temp": 10 * i}); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	v2 := schema.MustParse(`{"type":"record","name":"Reading","fields":[
		{"name":"station","type":"string"},{"name":"temp","type":"double"},
		{"name":"unit","type":"string","default":"C"}]}`)
	type Reading struct {
		Station string  `avro:"station"`
		Temp    float64 `avro:"temp"`
		Unit    string  `avro:"unit"`
	}
	r, err := ocf.NewReader(bytes.NewReader(file.Bytes()), ocf.WithReaderSchema(v2))
	if err != nil {
		log.Fatal(err)
	}
	for rd, err := range ocf.Records[Reading](r) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%+v\n", rd)
	}

	// A damaged file ends the loop with its error. Here the sync marker
	// after the only block is wrong, so none of its records are yielded.
	data := file.Bytes()
	data[len(data)-1] ^= 0xff
	r, err = ocf.NewReader(bytes.NewReader(data), ocf.WithReaderSchema(v2))
	if err != nil {
		log.Fatal(err)
	}
	for rd, err := range ocf.Records[Reading](r) {
		if err != nil {
			fmt.Println(errors.Is(err, ocf.ErrSyncMismatch))
			break
		}
		fmt.Printf("%+v\n", rd)
	}
	// Output:
	// {Station:011990-99999 Temp:0 Unit:C}
	// {Station:012650-99999 Temp:10 Unit:C}
	// true
}

// NewAppender adds records to the end of an existing file, with the
// schema, codec and sync marker its header gives.
func ExampleNewAppender() {
	s := schema.MustParse(`{"type":"record","name":"Reading","fields":[
		{"name":"station","type":"string"},{"name":"temp","type":"int"}]}`)
	f, err := os.CreateTemp("", "readings-*.avro")
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = f.Close(); _ = os.Remove(f.Name()) }()

	w, err := ocf.NewWriter(f, s, ocf.WithCodec(ocf.CodecSnappy))
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Encode(map[string]any{"station": "011990-99999", "temp": 0}); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	// Later, perhaps in another process: open the file and add to it.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		log.Fatal(err)
	}
	a, err := ocf.NewAppender(f)
	if err != nil {
		log.Fatal(err)
	}
	if err := a.Encode(map[string]any{"station": "012650-99999", "temp": -11}); err != nil {
		log.Fatal(err)
	}
	if err := a.Close(); err != nil {
		log.Fatal(err)
	}

	if _, err := f.Seek(0, io.SeekStart); err != nil {
		log.Fatal(err)
	}
	r, err := ocf.NewReader(f)
	if err != nil {
		log.Fatal(err)
	}
	for r.Next() {
		var rd map[string]any
		if err := r.Decode(&rd); err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Codec(), rd["station"], rd["temp"])
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// snappy 011990-99999 0
	// snappy 012650-99999 -11
}

// Raw hands out each record as its binary datum, which avrojson renders
// as JSON without decoding it into Go values.
func ExampleReader_Raw() {
	f, err := os.Open("../testdata/weather/weather.avro")
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	r, err := ocf.NewReader(f)
	if err != nil {
		log.Fatal(err)
	}
	var line []byte
	for range 2 {
		datum, err := r.Raw()
		if err != nil {
			log.Fatal(err)
		}
		if line, err = avrojson.BinaryToJSON(line[:0], r.Schema(), datum); err != nil {
			log.Fatal(err)
		}
		fmt.Println(string(line))
	}
	// Output:
	// {"station":"011990-99999","time":-619524000000,"temp":0}
	// {"station":"011990-99999","time":-619506000000,"temp":22}
}

// ReadRawBlock and WriteRawBlock copy the blocks of a file into another of
// the same schema and codec without decompressing them; ReadBlock and
// WriteBlock would recompress them with another codec.
func ExampleWriter_WriteRawBlock() {
	in, err := os.ReadFile("../testdata/weather/weather.avro")
	if err != nil {
		log.Fatal(err)
	}
	r, err := ocf.NewReader(bytes.NewReader(in))
	if err != nil {
		log.Fatal(err)
	}
	inHeader := r.Offset()
	var out bytes.Buffer
	w, err := ocf.NewWriter(&out, r.Schema(), ocf.WithCodec(r.Codec()), ocf.WithSyncMarker(r.SyncMarker()))
	if err != nil {
		log.Fatal(err)
	}
	for {
		b, err := r.ReadRawBlock()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		if err := w.WriteRawBlock(b); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	// The headers differ (the schema's text); the blocks are the same bytes.
	copied, err := ocf.NewReader(bytes.NewReader(out.Bytes()))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Equal(in[inHeader:], out.Bytes()[copied.Offset():]))
	// Output:
	// true
}
