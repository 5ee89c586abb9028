package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/avrogo/avro/kafka"
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
