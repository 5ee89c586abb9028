package avro_test

import (
	"errors"
	"fmt"
	"log"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

func TestCompileReportsTypeError(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"n","type":"int"},
		{"name":"tags","type":{"type":"array","items":"string"}}]}`)
	type wrongField struct {
		N string `avro:"n"`
	}
	type wrongElem struct {
		N    int   `avro:"n"`
		Tags []int `avro:"tags"`
	}
	check := func(name string, err error, path string) {
		t.Helper()
		var te *avro.TypeError
		if !errors.As(err, &te) {
			t.Fatalf("%s: %v, want a *TypeError", name, err)
		}
		if te.Path != path {
			t.Fatalf("%s: path %q, want %q", name, te.Path, path)
		}
	}
	check("field", avro.Compile[wrongField](s), "n")
	check("array item", avro.Compile[wrongElem](s), "tags[]")
	check("pointer", avro.Compile[*wrongElem](s), "tags[]")
	// The error is the one Marshal gives the same type.
	_, merr := avro.Marshal(s, &wrongElem{})
	if err := avro.Compile[wrongElem](s); err.Error() != merr.Error() {
		t.Fatalf("Compile: %v; Marshal: %v", err, merr)
	}
	if err := avro.Compile[wrongElem](nil); err == nil || !strings.Contains(err.Error(), "nil schema") {
		t.Fatalf("nil schema: %v", err)
	}
}

func TestCompileThenRoundTrip(t *testing.T) {
	if err := avro.Compile[User](userSchema); err != nil {
		t.Fatal(err)
	}
	email := "ada@example.com"
	in := User{Name: "Ada", Age: 36, Email: &email, Tags: []string{"x"}}
	data, err := avro.Marshal(userSchema, &in)
	if err != nil {
		t.Fatal(err)
	}
	var out User
	if err := avro.Unmarshal(userSchema, data, &out); err != nil {
		t.Fatal(err)
	}
	if out.Name != in.Name || out.Age != in.Age || out.Email == nil || *out.Email != email || len(out.Tags) != 1 {
		t.Fatalf("got %+v", out)
	}
}

// A service compiles its codecs at start-up, so that a Go type that does
// not fit its schema stops it there rather than failing its first
// request, and that request does not pay for the compile.
func ExampleCompile() {
	if err := avro.Compile[User](userSchema); err != nil {
		log.Fatal(err)
	}

	type Wrong struct {
		Name int `avro:"name"`
	}
	err := avro.Compile[Wrong](userSchema)
	var te *avro.TypeError
	fmt.Println(errors.As(err, &te), te.Path)
	// Output: true name
}
