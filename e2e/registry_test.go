package e2e

import (
	"testing"

	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/avrogo/avro/registry"
)

// newRegistry starts an in-memory Schema Registry for the test and
// returns it with a client of ours.
func newRegistry(t *testing.T, opts ...registry.Option) (*srfake.Registry, *registry.Client) {
	t.Helper()
	reg := srfake.New()
	t.Cleanup(reg.Close)
	rc, err := registry.NewClient(reg.URL(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return reg, rc
}
