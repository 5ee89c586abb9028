package fuzz

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// bodyTransport answers every request with one status and body.
type bodyTransport struct {
	status int
	body   []byte
}

func (t bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: t.status, Body: io.NopCloser(bytes.NewReader(t.body)), Header: http.Header{}, Request: r}, nil
}

// FuzzRegistryResponse feeds arbitrary registry responses to the client:
// a schema or an error, never a panic, a hang or an allocation past the
// response limit.
func FuzzRegistryResponse(f *testing.F) {
	for _, seed := range []string{
		`{"schema":"\"int\""}`,
		`{"schema":"{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}","references":[{"name":"x","subject":"s","version":1}]}`,
		`{"error_code":40403,"message":"not found"}`,
		`{"schema":"\"int\"","schemaType":"PROTOBUF"}`,
		`{"schema":5}`, `[`, ``, `null`,
	} {
		f.Add(200, []byte(seed))
		f.Add(404, []byte(seed))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 999 {
			status = 200
		}
		hc := &http.Client{Transport: bodyTransport{status, body}}
		c, err := registry.NewClient("http://registry.invalid", registry.WithHTTPClient(hc),
			registry.WithRetries(1, time.Microsecond, time.Microsecond), registry.WithMaxResponseSize(1<<16))
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.SchemaByID(context.Background(), 1)
		if err == nil {
			if s == nil {
				t.Fatal("no schema and no error")
			}
			if _, err := schema.Parse(s.String()); err != nil {
				t.Fatalf("the schema does not parse back: %v", err)
			}
			return
		}
		var re *registry.Error
		var se *schema.Error
		if !errors.As(err, &re) && !errors.As(err, &se) && !errors.Is(err, registry.ErrTooLarge) && !errors.Is(err, registry.ErrReferences) && !bytes.Contains([]byte(err.Error()), []byte("registry:")) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}
