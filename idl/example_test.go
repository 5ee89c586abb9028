package idl_test

import (
	"fmt"
	"log"

	"github.com/avrogo/avro/idl"
)

func ExampleParse() {
	src := []byte(`
@namespace("org.example")
protocol Shop {
  /** An item for sale. */
  record Item {
    string name;
    decimal(9,2) price;
    Colour? colour = null;
  }
  enum Colour { RED, GREEN } = RED;
  Item lookup(string name);
}`)
	f, err := idl.Parse("shop.avdl", src)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range f.Types() {
		fmt.Println(s.FullName(), s.Kind())
	}
	fmt.Println(f.Types()[0].Field("price").Type().Logical())
	// Output:
	// org.example.Item record
	// org.example.Colour enum
	// decimal
}

func ExampleParse_schema() {
	src := []byte(`
namespace org.example;
schema Message;
record Message {
  string? title = null;
  string message;
}`)
	f, err := idl.Parse("message.avdl", src)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", f.SchemaJSON())
	// Output:
	// {
	//   "type": "record",
	//   "name": "Message",
	//   "namespace": "org.example",
	//   "fields": [
	//     {
	//       "name": "title",
	//       "type": [
	//         "null",
	//         "string"
	//       ],
	//       "default": null
	//     },
	//     {
	//       "name": "message",
	//       "type": "string"
	//     }
	//   ]
	// }
}

func ExampleError() {
	_, err := idl.Parse("shop.avdl", []byte("protocol Shop {\n  record Item { string name }\n}"))
	fmt.Println(err)
	// Output:
	// shop.avdl:2:29: expected ';' after field "name", found "}"
}
