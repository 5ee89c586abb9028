// Command quickstart parses the Avro weather schema, marshals the readings
// of testdata/weather/weather.json to Avro binary, unmarshals them back and
// prints both with the Avro JSON of each datum, then reads the same
// readings from a raw stream with a Decoder.
//
// Run it from the repository root:
//
//	go run ./examples/quickstart
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// Weather is one reading; the tags name the schema's fields.
type Weather struct {
	Station string `avro:"station" json:"station"`
	Time    int64  `avro:"time" json:"time"`
	Temp    int32  `avro:"temp" json:"temp"`
}

func main() {
	dir := "testdata/weather"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	text, err := os.ReadFile(filepath.Join(dir, "weather.avsc"))
	if err != nil {
		log.Fatal(err)
	}
	s, err := schema.Parse(string(text))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("schema %s\n  canonical form %s\n  CRC-64-AVRO fingerprint %016x\n\n", s.FullName(), s.Canonical(), s.Fingerprint())

	readings, err := loadReadings(filepath.Join(dir, "weather.json"))
	if err != nil {
		log.Fatal(err)
	}

	var stream bytes.Buffer
	enc := avro.NewEncoder(&stream, s)
	for _, w := range readings {
		data, err := avro.Marshal(s, &w)
		if err != nil {
			log.Fatal(err)
		}
		var back Weather
		if err := avro.Unmarshal(s, data, &back); err != nil {
			log.Fatal(err)
		}
		text, err := avrojson.BinaryToJSON(nil, s, data)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%+v\n  avro %x (%d bytes)\n  json %s\n  back %+v\n", w, data, len(data), text, back)
		if back != w {
			log.Fatalf("round trip changed the reading: %+v became %+v", w, back)
		}
		if err := enc.Encode(&w); err != nil {
			log.Fatal(err)
		}
	}

	fmt.Printf("\nraw stream of %d readings, %d bytes:\n", len(readings), stream.Len())
	dec := avro.NewDecoder(&stream, s)
	for {
		var w Weather
		err := dec.Decode(&w)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("  %+v\n", w)
	}
}

func loadReadings(path string) (_ []Weather, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	var out []Weather
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var w Weather
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, sc.Err()
}
