package registry_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// Register a schema under a subject and look it up by id, against an
// in-memory registry standing in for a real one.
func ExampleClient_Register() {
	srv := httptest.NewServer(fixture.NewRegistry())
	defer srv.Close()

	c, err := registry.NewClient(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	s := schema.MustParse(`{"type":"record","name":"Order","fields":[{"name":"id","type":"long"}]}`)
	ctx := context.Background()
	id, err := c.Register(ctx, "orders-value", s)
	if err != nil {
		log.Fatal(err)
	}
	got, err := c.SchemaByID(ctx, id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(id, got.Canonical())
	// Output:
	// 1 {"name":"Order","type":"record","fields":[{"name":"id","type":"long"}]}
}

// Register a reference graph: Address under a subject of its own, then
// Order, which uses it, with a reference to it. The registry holds Order
// with Address named, not defined; SchemaByID resolves the references.
func ExampleClient_Register_references() {
	srv := httptest.NewServer(fixture.NewRegistry())
	defer srv.Close()
	c, err := registry.NewClient(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	p := schema.NewParser() // Order is parsed knowing Address
	addr, err := p.Parse(`{"type":"record","name":"shop.Address","fields":[{"name":"zip","type":"string"}]}`)
	if err != nil {
		log.Fatal(err)
	}
	order, err := p.Parse(`{"type":"record","name":"shop.Order","fields":[{"name":"to","type":"Address"}]}`)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.Register(ctx, "shop.Address", addr); err != nil {
		log.Fatal(err)
	}
	id, err := c.Register(ctx, "orders-value", order,
		registry.Reference{Name: "shop.Address", Subject: "shop.Address", Version: 1})
	if err != nil {
		log.Fatal(err)
	}
	got, err := c.SchemaByID(ctx, id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Canonical())
	// Output:
	// {"name":"shop.Order","type":"record","fields":[{"name":"to","type":{"name":"shop.Address","type":"record","fields":[{"name":"zip","type":"string"}]}}]}
}
