// Command orders runs the Kafka serde end to end on an in-process Kafka
// cluster and Schema Registry: a producer registers two versions of an
// order schema and writes records with both, and a consumer group reads
// every one back into the newer version's struct.
//
//	cd e2e && go run ./cmd/orders -n 100000 -headers
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/avrogo/avro/e2e"
)

func main() {
	n := flag.Int("n", 100_000, "records to produce (even)")
	headers := flag.Bool("headers", false, "carry the schema id in the __value_schema_id header")
	reg := flag.String("registry", "", "the Schema Registry's URL (default: an in-memory one)")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	rep, err := e2e.Run(ctx, e2e.Config{Records: *n, Headers: *headers, Registry: *reg})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("schema ids: version 1 = %d, version 2 = %d\n", rep.IDs[0], rep.IDs[1])
	fmt.Printf("produced %d records, consumed %d, each checked, none lost or read twice (%v)\n",
		rep.Produced, rep.Consumed, rep.Elapsed.Round(time.Millisecond))
	fmt.Printf("first record read: %+v\n", rep.First)
}
