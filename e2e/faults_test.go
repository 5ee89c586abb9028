package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// fastRetries keeps the tests that exhaust retries short; no test
// asserts on time.
var fastRetries = registry.WithRetries(4, time.Millisecond, 5*time.Millisecond)

// schemaRequests intercepts GET /schemas/ids/..., counting them and
// answering with fail while it says so; the rest reach the registry.
func schemaRequests(reg *srfake.Registry, fail func(n int64, w http.ResponseWriter, r *http.Request) bool) *atomic.Int64 {
	var n atomic.Int64
	reg.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != "GET" || !strings.HasPrefix(r.URL.Path, "/schemas/ids/") {
			return false
		}
		return fail(n.Add(1), w, r)
	})
	return &n
}

// registered starts a registry holding OrderV2Schema and returns it, the
// schema's id, and a client with fast retries and opts, for the test to
// intercept its requests.
func registered(t *testing.T, opts ...registry.Option) (*srfake.Registry, *registry.Client, int) {
	t.Helper()
	reg, rc := newRegistry(t)
	id, err := rc.Register(context.Background(), "orders-value", OrderV2Schema)
	if err != nil {
		t.Fatal(err)
	}
	c, err := registry.NewClient(reg.URL(), append([]registry.Option{fastRetries}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg, c, id
}

func writeStatus(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "application/vnd.schemaregistry.v1+json")
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"error_code":%d,"message":"try later"}`, status*100)
}

// A registry that answers 500, 429 and 503, or drops the connection, a
// few times is retried through; one that keeps failing ends in a typed
// error after the retries, and one that never answers at the context's
// deadline.
func TestRegistryFaults(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name  string
		fails int64
		fail  func(w http.ResponseWriter)
	}{
		{"500", 3, func(w http.ResponseWriter) { writeStatus(w, 500) }},
		{"429", 2, func(w http.ResponseWriter) { writeStatus(w, 429) }},
		{"503", 1, func(w http.ResponseWriter) { writeStatus(w, 503) }},
		{"closed connection", 2, func(w http.ResponseWriter) {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg, rc, id := registered(t)
			n := schemaRequests(reg, func(n int64, w http.ResponseWriter, _ *http.Request) bool {
				if n > c.fails {
					return false
				}
				c.fail(w)
				return true
			})
			s, err := rc.SchemaByID(ctx, id)
			if err != nil || s.String() != OrderV2Schema.String() {
				t.Fatalf("after %d failures: %v, %v", c.fails, s, err)
			}
			if got := n.Load(); got != c.fails+1 {
				t.Errorf("%d requests, want %d", got, c.fails+1)
			}
		})
	}

	t.Run("always 500", func(t *testing.T) {
		reg, rc, id := registered(t)
		n := schemaRequests(reg, func(_ int64, w http.ResponseWriter, _ *http.Request) bool { writeStatus(w, 500); return true })
		_, err := rc.SchemaByID(ctx, id)
		var re *registry.Error
		if !errors.As(err, &re) || re.StatusCode != 500 || re.Code != 50000 {
			t.Errorf("%v, want a *registry.Error with status 500 and code 50000", err)
		}
		if got := n.Load(); got != 5 {
			t.Errorf("%d requests, want 5 (the first and 4 retries)", got)
		}
		// The Deserializer names the id and keeps the registry's error.
		_, err = kafka.NewDeserializer(rc, nil).SchemaFor(ctx, id)
		var le *kafka.LookupError
		if !errors.As(err, &le) || le.ID != id || !errors.As(err, &re) {
			t.Errorf("Deserializer: %v, want a *kafka.LookupError for id %d wrapping the *registry.Error", err, id)
		}
	})

	t.Run("slow", func(t *testing.T) {
		reg, rc, id := registered(t)
		schemaRequests(reg, func(_ int64, w http.ResponseWriter, r *http.Request) bool {
			<-r.Context().Done() // never answers before the client gives up
			return true
		})
		dctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if _, err := rc.SchemaByID(dctx, id); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v, want context.DeadlineExceeded", err)
		}
	})

	t.Run("huge", func(t *testing.T) {
		reg, rc, id := registered(t, registry.WithMaxResponseSize(64<<10))
		body := []byte(`{"schema":"` + strings.Repeat("x", 64<<20) + `"}`)
		n := schemaRequests(reg, func(_ int64, w http.ResponseWriter, _ *http.Request) bool {
			_, _ = w.Write(body)
			return true
		})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := rc.SchemaByID(ctx, id)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, registry.ErrTooLarge) {
			t.Errorf("a 64 MiB answer with a 64 KiB limit: %v, want ErrTooLarge", err)
		}
		// The client reads no more than the limit; what the process
		// allocated meanwhile (the server's buffers included) stays far
		// below the answer's size.
		if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
			t.Errorf("%d bytes allocated while refusing a 64 MiB answer", got)
		}
		if got := n.Load(); got != 1 {
			t.Errorf("%d requests, want 1 (a too-large answer is not retried)", got)
		}
	})

	t.Run("deep", func(t *testing.T) {
		reg, rc, id := registered(t)
		deep := strings.Repeat(`{"type":"array","items":`, 5000) + `"int"` + strings.Repeat("}", 5000)
		schemaRequests(reg, func(_ int64, w http.ResponseWriter, _ *http.Request) bool {
			_, _ = fmt.Fprintf(w, `{"schema":%q}`, deep)
			return true
		})
		var se *schema.Error
		if _, err := rc.SchemaByID(ctx, id); !errors.As(err, &se) || !errors.Is(err, schema.ErrLimit) {
			t.Errorf("a schema nested 5,000 deep: %v, want a *schema.Error matching schema.ErrLimit", err)
		}
	})
}

// 64 goroutines decode 10,000 messages each, written with 50 schema ids:
// the registry sees exactly 50 lookups.
func TestConcurrentLookups(t *testing.T) {
	ctx := context.Background()
	reg, rc := newRegistry(t)
	const ids = 50
	msgs := make([][]byte, ids)
	for i := range ids {
		s := schema.MustParse(fmt.Sprintf(`{"type":"record","name":"R%d","fields":[{"name":"n","type":"long"}]}`, i))
		ser, err := kafka.NewRegistrySerializer(ctx, rc, fmt.Sprintf("topic%d", i), s, kafka.SerializerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if msgs[i], err = ser.Marshal(map[string]any{"n": int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	n := schemaRequests(reg, func(int64, http.ResponseWriter, *http.Request) bool { return false })
	fresh, err := registry.NewClient(reg.URL())
	if err != nil {
		t.Fatal(err)
	}
	d := kafka.NewDeserializer(fresh, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 10_000 {
				i := (g + j) % ids
				var v map[string]any
				if err := d.Unmarshal(ctx, msgs[i], &v); err != nil || v["n"] != int64(i) {
					errs <- fmt.Errorf("message of id %d: %v, %v", i, v, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := n.Load(); got != ids {
		t.Errorf("%d lookups for %d ids, want %d", got, ids, ids)
	}
}
