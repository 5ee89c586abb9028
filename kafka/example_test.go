package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

var (
	orderV1 = schema.MustParse(`{"type": "record", "name": "Order", "fields": [
		{"name": "id", "type": "int"},
		{"name": "sku", "type": "string"}]}`)
	orderV2 = schema.MustParse(`{"type": "record", "name": "Order", "fields": [
		{"name": "id", "type": "long"},
		{"name": "sku", "type": "string"},
		{"name": "qty", "type": "int", "default": 1}]}`)
)

// A Serializer writes the header (the magic byte and the schema id, big
// endian) and then the datum.
func ExampleSerializer() {
	type Order struct {
		ID  int32  `avro:"id"`
		SKU string `avro:"sku"`
	}
	sr, err := kafka.NewSerializer(3, orderV1) // 3: the id the registry gave orderV1
	if err != nil {
		log.Fatal(err)
	}
	msg, err := sr.Marshal(&Order{ID: 1, SKU: "A-7"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x | % x\n", msg[:kafka.HeaderSize], msg[kafka.HeaderSize:])

	id, datum, err := kafka.ParseHeader(msg)
	fmt.Println(id, len(datum), err)
	// Output:
	// 00 00 00 00 03 | 02 06 41 2d 37
	// 3 5 <nil>
}

// A Deserializer reads the messages of every writer schema in the registry
// as the reader schema: messages of an older version are resolved against
// it, once per schema id.
func ExampleDeserializer() {
	var reg kafka.MemoryRegistry // a registry client in real use
	reg.Register(3, orderV1)
	reg.Register(4, orderV2)

	oldWriter, err := kafka.NewSerializer(3, orderV1)
	if err != nil {
		log.Fatal(err)
	}
	newWriter, err := kafka.NewSerializer(4, orderV2)
	if err != nil {
		log.Fatal(err)
	}
	m1, err := oldWriter.Marshal(map[string]any{"id": 1, "sku": "A-7"})
	if err != nil {
		log.Fatal(err)
	}
	m2, err := newWriter.Marshal(map[string]any{"id": 2, "sku": "B-1", "qty": 5})
	if err != nil {
		log.Fatal(err)
	}

	type Order struct {
		ID  int64  `avro:"id"`
		SKU string `avro:"sku"`
		Qty int    `avro:"qty"`
	}
	ds := kafka.NewDeserializer(&reg, orderV2)
	ctx := context.Background()
	for _, msg := range [][]byte{m1, m2} {
		var o Order
		if err := ds.Unmarshal(ctx, msg, &o); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%+v\n", o)
	}

	// An id the registry does not know.
	var o Order
	err = ds.Unmarshal(ctx, []byte{0, 0, 0, 0, 9, 0}, &o)
	var unknown *kafka.UnknownIDError
	fmt.Println(errors.As(err, &unknown), err)
	// Output:
	// {ID:1 SKU:A-7 Qty:1}
	// {ID:2 SKU:B-1 Qty:5}
	// true kafka: looking up schema id 9: kafka: unknown schema id 9
}

// A producer gets its schema id from a Schema Registry, registering the
// schema under the topic's subject; a consumer looks the writer schema up
// through the same registry. Here the id travels in a record header and
// the payload is the datum alone, as some producers write it.
func ExampleNewRegistrySerializer() {
	srv := httptest.NewServer(fixture.NewRegistry()) // a real registry's URL in real use
	defer srv.Close()
	rc, err := registry.NewClient(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	sr, err := kafka.NewRegistrySerializer(ctx, rc, "orders", orderV2, kafka.SerializerConfig{})
	if err != nil {
		log.Fatal(err)
	}
	value, err := sr.AppendDatum(nil, map[string]any{"id": 2, "sku": "B-1", "qty": 5})
	if err != nil {
		log.Fatal(err)
	}
	headers := []kafka.Header{sr.IDHeader(false)}
	fmt.Printf("subject orders-value, id %d, header %s = % x\n", sr.ID(), headers[0].Key, headers[0].Value)

	type Order struct {
		ID  int64  `avro:"id"`
		SKU string `avro:"sku"`
		Qty int    `avro:"qty"`
	}
	ds := kafka.NewDeserializer(rc, orderV2).ForTopic("orders")
	var o Order
	if err := ds.UnmarshalRecord(ctx, headers, false, value, &o); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", o)
	// Output:
	// subject orders-value, id 1, header __value_schema_id = 00 00 00 00 01
	// {ID:2 SKU:B-1 Qty:5}
}
