package avro_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

var userSchema = schema.MustParse(`{
	"type": "record",
	"name": "User",
	"fields": [
		{"name": "name", "type": "string"},
		{"name": "age", "type": "int"},
		{"name": "email", "type": ["null", "string"], "default": null},
		{"name": "tags", "type": {"type": "array", "items": "string"}}
	]
}`)

// User is the Go side of userSchema: fields match by tag, a pointer holds
// the ["null", "string"] union.
type User struct {
	Name  string   `avro:"name"`
	Age   int      `avro:"age"`
	Email *string  `avro:"email"`
	Tags  []string `avro:"tags"`
}

func ExampleMarshal() {
	email := "ada@example.com"
	data, err := avro.Marshal(userSchema, &User{Name: "Ada", Age: 36, Email: &email, Tags: []string{"math"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x\n", data)
	// Output:
	// 06 41 64 61 48 02 1e 61 64 61 40 65 78 61 6d 70 6c 65 2e 63 6f 6d 02 08 6d 61 74 68 00
}

func ExampleUnmarshal() {
	data := []byte{0x06, 'A', 'd', 'a', 0x48, 0x00, 0x02, 0x08, 'm', 'a', 't', 'h', 0x00}
	var u User
	if err := avro.Unmarshal(userSchema, data, &u); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s is %d, email %v, tags %q\n", u.Name, u.Age, u.Email, u.Tags)

	// Any schema also decodes into the generic forms.
	var generic any
	if err := avro.Unmarshal(userSchema, data, &generic); err != nil {
		log.Fatal(err)
	}
	fmt.Println(generic)
	var v value.Value
	if err := avro.Unmarshal(userSchema, data, &v); err != nil {
		log.Fatal(err)
	}
	fmt.Println(v.Record().Field("age").Int())
	// Output:
	// Ada is 36, email <nil>, tags ["math"]
	// map[age:36 email:<nil> name:Ada tags:[math]]
	// 36
}

// Append encodes into a caller's buffer: reusing it, encoding a struct
// through a pointer does not allocate.
func ExampleAppend() {
	users := []User{{Name: "Ada", Age: 36}, {Name: "Alan", Age: 41}, {Name: "Grace", Age: 85}}
	buf := make([]byte, 0, 256)
	for i := range users {
		var err error
		buf, err = avro.Append(buf[:0], userSchema, &users[i])
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: % x\n", users[i].Name, buf)
	}
	// Output:
	// Ada: 06 41 64 61 48 00 00
	// Alan: 08 41 6c 61 6e 52 00 00
	// Grace: 0a 47 72 61 63 65 aa 01 00 00
}

// An Encoder writes datums back to back, with no framing; a Decoder with
// the same schema reads them back.
func ExampleNewEncoder() {
	var stream bytes.Buffer
	enc := avro.NewEncoder(&stream, userSchema)
	for _, u := range []User{{Name: "Ada", Age: 36}, {Name: "Alan", Age: 41}} {
		if err := enc.Encode(&u); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("%d bytes: % x\n", stream.Len(), stream.Bytes())
	// Output:
	// 15 bytes: 06 41 64 61 48 00 00 08 41 6c 61 6e 52 00 00
}

func ExampleNewDecoder() {
	stream := bytes.NewReader([]byte{
		0x06, 'A', 'd', 'a', 0x48, 0x00, 0x00,
		0x08, 'A', 'l', 'a', 'n', 0x52, 0x00, 0x02, 0x02, 'x', 0x00,
	})
	dec := avro.NewDecoder(stream, userSchema)
	for {
		var u User
		err := dec.Decode(&u)
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(u.Name, u.Age, u.Tags)
	}
	// Output:
	// Ada 36 []
	// Alan 41 [x]
}

// Animal is implemented by the Go types registered for the branches of a
// union of named records.
type Animal interface{ Sound() string }

type Cat struct {
	Name  string `avro:"name"`
	Lives int    `avro:"lives"`
}

func (c Cat) Sound() string { return c.Name + " says meow" }

type Dog struct {
	Name string `avro:"name"`
}

func (d *Dog) Sound() string { return d.Name + " says woof" }

// Register maps the full names of union branches to Go types, so that the
// union decodes into an interface and encodes from it.
func ExampleRegister() {
	// Usually in an init function, before the schema is first used.
	avro.Register("example.Cat", Cat{})
	avro.Register("example.Dog", (*Dog)(nil)) // *Dog implements Animal

	s := schema.MustParse(`{"type":"record","name":"Pet","namespace":"example","fields":[
		{"name":"animal","type":["null",
			{"type":"record","name":"Cat","fields":[{"name":"name","type":"string"},{"name":"lives","type":"int"}]},
			{"type":"record","name":"Dog","fields":[{"name":"name","type":"string"}]}]}]}`)
	type Pet struct {
		Animal Animal `avro:"animal"`
	}
	for _, p := range []Pet{{&Dog{Name: "Rex"}}, {Cat{Name: "Tom", Lives: 9}}, {nil}} {
		data, err := avro.Marshal(s, &p)
		if err != nil {
			log.Fatal(err)
		}
		var back Pet
		if err := avro.Unmarshal(s, data, &back); err != nil {
			log.Fatal(err)
		}
		if back.Animal == nil {
			fmt.Printf("% x: no animal\n", data)
			continue
		}
		fmt.Printf("% x: %T: %s\n", data, back.Animal, back.Animal.Sound())
	}

	// A value whose type is registered for no branch is an error.
	type Fish struct{ Animal }
	_, err := avro.Marshal(s, &Pet{Fish{}})
	fmt.Println(errors.Is(err, avro.ErrRange))
	// Output:
	// 04 06 52 65 78: *avro_test.Dog: Rex says woof
	// 02 06 54 6f 6d 12: avro_test.Cat: Tom says meow
	// 00: no animal
	// true
}

// DecodeOptions sets the limits and checks of a decode; its zero value is
// what the package-level functions use.
func ExampleDecodeOptions() {
	s := schema.MustParse(`{"type":"record","name":"Node","fields":[
		{"name":"label","type":"string"},
		{"name":"next","type":["null","Node"]}]}`)
	type Node struct {
		Label string `avro:"label"`
		Next  *Node  `avro:"next"`
	}
	var list *Node
	for i := range 5 {
		list = &Node{Label: fmt.Sprint(i), Next: list}
	}
	data, err := avro.Marshal(s, list)
	if err != nil {
		log.Fatal(err)
	}

	strict := avro.DecodeOptions{MaxDepth: 3, ValidateUTF8: true}
	var n Node
	err = strict.Unmarshal(s, data, &n)
	fmt.Println(errors.Is(err, avro.ErrLimit), err)

	err = strict.Unmarshal(s, []byte{0x02, 0xff, 0x00}, &n)
	fmt.Println(errors.Is(err, avro.ErrInvalid), err)

	err = avro.DecodeOptions{}.Unmarshal(s, data, &n)
	fmt.Println(err, n.Label, n.Next.Label)
	// Output:
	// true avro: unmarshal next.next.next at offset 9: limit exceeded: nesting deeper than the maximum depth
	// true avro: unmarshal label at offset 1: invalid data: string is not valid UTF-8
	// <nil> 4 3
}

// Single-object encoding prefixes the datum with the marker C3 01 and the
// writer schema's fingerprint, so that a reader can find the schema.
func ExampleMarshalSingleObject() {
	s := schema.MustParse(`{"type":"record","name":"Ping","fields":[{"name":"seq","type":"int"}]}`)
	type Ping struct {
		Seq int `avro:"seq"`
	}
	data, err := avro.MarshalSingleObject(s, &Ping{Seq: 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x | % x | % x\n", data[:2], data[2:avro.SingleObjectHeaderSize], data[avro.SingleObjectHeaderSize:])
	fp, err := avro.SingleObjectFingerprint(data)
	fmt.Println(fp == s.Fingerprint(), err)
	// Output:
	// c3 01 | 1f 26 e7 d0 82 3d 34 9f | 0a
	// true <nil>
}

// UnmarshalSingleObject finds the writer schema of each message in a
// SchemaStore and reads the datum as the reader schema, resolving the two
// once per writer.
func ExampleUnmarshalSingleObject() {
	v1 := schema.MustParse(`{"type":"record","name":"Ping","fields":[{"name":"seq","type":"int"}]}`)
	v2 := schema.MustParse(`{"type":"record","name":"Ping","fields":[
		{"name":"seq","type":"long"},
		{"name":"from","type":"string","default":"?"}]}`)
	store := avro.NewMemoryStore(v1, v2)

	old, err := avro.MarshalSingleObject(v1, map[string]any{"seq": 5})
	if err != nil {
		log.Fatal(err)
	}
	cur, err := avro.MarshalSingleObject(v2, map[string]any{"seq": 6, "from": "node-2"})
	if err != nil {
		log.Fatal(err)
	}
	type Ping struct {
		Seq  int64  `avro:"seq"`
		From string `avro:"from"`
	}
	for _, msg := range [][]byte{old, cur} {
		var p Ping
		if err := avro.UnmarshalSingleObject(store, v2, msg, &p); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%+v\n", p)
	}

	// A writer the store does not hold is an *UnknownSchemaError.
	other, _ := avro.MarshalSingleObject(schema.MustParse(`"string"`), "x")
	var p Ping
	err = avro.UnmarshalSingleObject(store, v2, other, &p)
	var unknown *avro.UnknownSchemaError
	fmt.Println(errors.As(err, &unknown))
	// Output:
	// {Seq:5 From:?}
	// {Seq:6 From:node-2}
	// true
}
