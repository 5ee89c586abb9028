package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestEndToEnd produces 100,000 records, half with each version, and
// reads them all with a consumer group into the version 2 struct: every
// record is checked and counted, none lost or duplicated. With headers,
// the schema id travels in __value_schema_id and the payload is the datum.
func TestEndToEnd(t *testing.T) {
	for _, headers := range []bool{false, true} {
		t.Run(fmt.Sprintf("headers=%v", headers), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			const n = 100_000
			rep, err := Run(ctx, Config{Records: n, Headers: headers})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Produced != n || rep.Consumed != n {
				t.Errorf("produced %d, consumed %d, want %d each", rep.Produced, rep.Consumed, n)
			}
			if rep.IDs[0] == rep.IDs[1] || rep.IDs[0] <= 0 || rep.IDs[1] <= 0 {
				t.Errorf("schema ids %v", rep.IDs)
			}
		})
	}
}
