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
