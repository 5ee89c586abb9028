package avro_test

import (
	"fmt"
	"log"
	"net/netip"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// The schema of a Go type, with struct tag options, and a value written
// and read back with it.
func ExampleSchemaOf() {
	type Visit struct {
		Page    string            `avro:"page,doc='The path visited'"`
		User    *string           `avro:"user"`
		At      time.Time         `avro:"at,timestamp-millis"`
		Tags    map[string]string `avro:"tags"`
		Retries int32             `avro:"retries,omitzero,default=0,alias=attempts"`
	}
	s, err := avro.SchemaOf[Visit](avro.WithNamespace("com.example"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s)

	in := Visit{Page: "/", At: time.UnixMilli(1764720000000).UTC(), Tags: map[string]string{"ab": "b"}}
	data, err := avro.Marshal(s, &in)
	if err != nil {
		log.Fatal(err)
	}
	var out Visit
	if err := avro.Unmarshal(s, data, &out); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Page, out.User == nil, out.At.Format(time.RFC3339), out.Tags)
	// Output:
	// {"type":"record","name":"Visit","namespace":"com.example","fields":[{"name":"page","type":"string","doc":"The path visited"},{"name":"user","type":["null","string"],"default":null},{"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}},{"name":"tags","type":{"type":"map","values":"string"}},{"name":"retries","type":"int","default":0,"aliases":["attempts"]}]}
	// / true 2025-12-03T00:00:00Z map[ab:b]
}

// A conversion maps a Go type the library does not know through one it
// does: here netip.Prefix on an Avro record of an address and a length.
func ExampleRegisterConversion() {
	type prefixRecord struct {
		Addr []byte `avro:"addr"`
		Bits int32  `avro:"bits"`
	}
	avro.RegisterConversion(avro.Conversion[netip.Prefix, prefixRecord]{
		Encode: func(p netip.Prefix) (prefixRecord, error) {
			return prefixRecord{p.Addr().AsSlice(), int32(p.Bits())}, nil
		},
		Decode: func(r prefixRecord) (netip.Prefix, error) {
			a, ok := netip.AddrFromSlice(r.Addr)
			if !ok {
				return netip.Prefix{}, fmt.Errorf("%d bytes are not an address", len(r.Addr))
			}
			return a.Prefix(int(r.Bits))
		},
		AvroType: "net.Prefix",
	})
	s := schema.MustParse(`{"type":"record","name":"Route","fields":[
		{"name":"dest","type":{"type":"record","name":"Prefix","namespace":"net","fields":[
			{"name":"addr","type":"bytes"},{"name":"bits","type":"int"}]}},
		{"name":"metric","type":"int"}]}`)
	type Route struct {
		Dest   netip.Prefix `avro:"dest"`
		Metric int32        `avro:"metric"`
	}
	data, err := avro.Marshal(s, &Route{netip.MustParsePrefix("10.1.0.0/16"), 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x\n", data)
	var r Route
	if err := avro.Unmarshal(s, data, &r); err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Dest, r.Metric)
	// Output:
	// 08 0a 01 00 00 20 0a
	// 10.1.0.0/16 5
}
