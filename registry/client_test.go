package registry_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

var _ kafka.Registry = (*registry.Client)(nil)

// fast retries, so that the tests that exhaust them stay short; no test
// asserts on time.
func newClient(t *testing.T, url string, opts ...registry.Option) *registry.Client {
	t.Helper()
	c, err := registry.NewClient(url, append([]registry.Option{registry.WithRetries(3, time.Millisecond, 5*time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var userSchema = schema.MustParse(`{"type":"record","name":"User","namespace":"com.example","fields":[{"name":"name","type":"string"}]}`)

func TestRegisterAndSchemaByID(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	c := newClient(t, srv.URL)
	ctx := context.Background()
	id, err := c.Register(ctx, "users-value", userSchema)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Register(ctx, "users-value", userSchema)
	if err != nil || again != id {
		t.Fatalf("second Register = %d, %v; want %d", again, err, id)
	}
	if n := f.Requests.Load(); n != 1 {
		t.Errorf("%d requests for two registrations of one schema, want 1 (cached)", n)
	}
	// A fresh client looks it up, once.
	c2 := newClient(t, srv.URL)
	for range 3 {
		s, err := c2.SchemaByID(ctx, id)
		if err != nil || s.Canonical() != userSchema.Canonical() {
			t.Fatalf("SchemaByID = %v, %v", s, err)
		}
	}
	if n := f.Count(fmt.Sprintf("/schemas/ids/%d", id)); n != 1 {
		t.Errorf("%d lookups of one id, want 1", n)
	}
	latest, err := c2.Latest(ctx, "users-value")
	if err != nil || latest.ID != id || latest.Version != 1 || latest.Schema.Canonical() != userSchema.Canonical() {
		t.Errorf("Latest = %+v, %v", latest, err)
	}
	subjects, err := c2.Subjects(ctx)
	if err != nil || len(subjects) != 1 || subjects[0] != "users-value" {
		t.Errorf("Subjects = %v, %v", subjects, err)
	}
	// A version never changes: it is asked for once.
	c3 := newClient(t, srv.URL)
	for range 3 {
		v, err := c3.SchemaByVersion(ctx, "users-value", 1)
		if err != nil || v.ID != id || v.Version != 1 || v.Schema.Canonical() != userSchema.Canonical() {
			t.Fatalf("SchemaByVersion = %+v, %v", v, err)
		}
	}
	if n := f.Count("/subjects/users-value/versions/1"); n != 1 {
		t.Errorf("%d requests for one version, want 1", n)
	}
}

func TestErrors(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	c := newClient(t, srv.URL, registry.WithNegativeTTL(time.Hour))
	ctx := context.Background()
	_, err := c.SchemaByID(ctx, 99)
	var e *registry.Error
	if !errors.As(err, &e) || e.StatusCode != 404 || e.Code != 40403 || !errors.Is(err, registry.ErrSchemaNotFound) || errors.Is(err, registry.ErrSubjectNotFound) {
		t.Fatalf("SchemaByID(99) = %v, want a 404 *Error matching ErrSchemaNotFound only", err)
	}
	for range 10 {
		if _, err := c.SchemaByID(ctx, 99); !errors.Is(err, registry.ErrSchemaNotFound) {
			t.Fatal(err)
		}
	}
	if n := f.Count("/schemas/ids/99"); n != 1 {
		t.Errorf("%d requests for an unknown id looked up 11 times, want 1 (the negative cache)", n)
	}
	if _, err := c.Latest(ctx, "nobody"); !errors.Is(err, registry.ErrSubjectNotFound) {
		t.Errorf("Latest of an unknown subject = %v, want ErrSubjectNotFound", err)
	}
	f.Fail = func(w http.ResponseWriter, r *http.Request) bool {
		fixture.WriteError(w, 409, 409, "Schema being registered is incompatible with an earlier schema")
		return true
	}
	if _, err := c.Register(ctx, "s", userSchema); !errors.Is(err, registry.ErrIncompatible) || !strings.Contains(err.Error(), "incompatible") {
		t.Errorf("Register of an incompatible schema = %v, want ErrIncompatible", err)
	}
}

func TestReferences(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	addr := `{"type":"record","name":"Address","namespace":"com.example","fields":[{"name":"zip","type":"string"}]}`
	f.Add("address", fixture.Schema{Schema: addr})
	country := `{"type":"enum","name":"Country","namespace":"com.example","symbols":["DE","FR"]}`
	f.Add("country", fixture.Schema{Schema: country})
	// Address v2 refers to Country; Person refers to both (a diamond).
	addr2 := `{"type":"record","name":"Address","namespace":"com.example","fields":[{"name":"zip","type":"string"},{"name":"c","type":"Country"}]}`
	f.Add("address", fixture.Schema{Schema: addr2, References: []byte(`[{"name":"com.example.Country","subject":"country","version":1}]`)})
	person := `{"type":"record","name":"Person","namespace":"com.example","fields":[{"name":"home","type":"Address"},{"name":"born","type":"Country"}]}`
	id, _ := f.Add("person", fixture.Schema{Schema: person, References: []byte(`[{"name":"com.example.Country","subject":"country","version":1},{"name":"com.example.Address","subject":"address","version":2}]`)})
	// A second person refers to Address version 1: the same named type
	// in another version, which must not collide with the first graph's.
	person1 := `{"type":"record","name":"Person","namespace":"com.example","fields":[{"name":"home","type":"Address"}]}`
	id1, _ := f.Add("person1", fixture.Schema{Schema: person1, References: []byte(`[{"name":"com.example.Address","subject":"address","version":1}]`)})

	c := newClient(t, srv.URL)
	ctx := context.Background()
	s, err := c.SchemaByID(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Field("home").Type().Field("c").Type().Symbols(); len(got) != 2 {
		t.Errorf("home.c symbols = %v", got)
	}
	s1, err := c.SchemaByID(ctx, id1)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s1.Field("home").Type().Fields()); n != 1 {
		t.Errorf("person1's Address has %d fields, want 1 (version 1)", n)
	}

	// A cycle, and a chain deeper than the bound.
	f.Add("a", fixture.Schema{Schema: `"int"`, References: []byte(`[{"name":"x","subject":"b","version":1}]`)})
	f.Add("b", fixture.Schema{Schema: `"int"`, References: []byte(`[{"name":"y","subject":"a","version":1}]`)})
	cyc, _ := f.Add("top", fixture.Schema{Schema: `"int"`, References: []byte(`[{"name":"x","subject":"a","version":1}]`)})
	if _, err := c.SchemaByID(ctx, cyc); !errors.Is(err, registry.ErrReferences) {
		t.Errorf("a cyclic graph = %v, want ErrReferences", err)
	}
	prev := ""
	for i := range 5 {
		var refs []byte
		if prev != "" {
			refs = []byte(`[{"name":"r","subject":"` + prev + `","version":1}]`)
		}
		prev = fmt.Sprintf("chain%d", i)
		f.Add(prev, fixture.Schema{Schema: `"int"`, References: refs})
	}
	deep, _ := f.Add("deep", fixture.Schema{Schema: `"int"`, References: []byte(`[{"name":"r","subject":"chain4","version":1}]`)})
	shallow := newClient(t, srv.URL, registry.WithMaxReferenceDepth(3))
	if _, err := shallow.SchemaByID(ctx, deep); !errors.Is(err, registry.ErrReferences) {
		t.Errorf("a graph of depth 5 with a bound of 3 = %v, want ErrReferences", err)
	}
	if _, err := c.SchemaByID(ctx, deep); err != nil {
		t.Errorf("the same graph with the default bound: %v", err)
	}
}

// A schema that uses types its references define is registered with
// those types written by name: the registry parses the references first,
// and refuses a schema that defines their types again. The graph is
// registered leaves first, and read back whole.
func TestRegisterReferences(t *testing.T) {
	_, srv := fixture.NewRegistryServer(t)
	c := newClient(t, srv.URL)
	ctx := context.Background()
	p := schema.NewParser()
	country, err := p.Parse(`{"type":"enum","name":"Country","namespace":"shop","symbols":["NL","FR"]}`)
	if err != nil {
		t.Fatal(err)
	}
	addr, err := p.Parse(`{"type":"record","name":"Address","namespace":"shop","fields":[{"name":"country","type":"Country"},
		{"name":"geo","type":{"type":"record","name":"Geo","fields":[{"name":"lat","type":"double"}]}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	order, err := p.Parse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"ship","type":"Address"},{"name":"from","type":"Country"},{"name":"at","type":"Geo"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Register(ctx, "shop.Country", country); err != nil {
		t.Fatal(err)
	}
	countryRef := registry.Reference{Name: "shop.Country", Subject: "shop.Country", Version: 1}
	if _, err := c.Register(ctx, "shop.Address", addr, countryRef); err != nil {
		t.Fatalf("Address, referring to Country: %v", err)
	}
	refs := []registry.Reference{countryRef, {Name: "shop.Address", Subject: "shop.Address", Version: 1}}
	ss, err := c.RegisterSchema(ctx, "orders-value", order, refs...)
	if err != nil {
		t.Fatalf("Order, referring to Address and Country: %v", err)
	}
	if ss.Version != 1 || ss.ID == 0 || ss.GUID != guidOf(t, ss.ID) {
		t.Errorf("RegisterSchema = %+v, want version 1 and the registry's GUID", ss)
	}
	again, err := c.Register(ctx, "orders-value", order, refs...)
	if err != nil || again != ss.ID {
		t.Errorf("Register again = %d, %v; want %d", again, err, ss.ID)
	}
	fresh := newClient(t, srv.URL)
	back, err := fresh.SchemaByID(ctx, ss.ID)
	if err != nil {
		t.Fatal(err)
	}
	if back.String() != order.String() {
		t.Errorf("read back as\n%s\nwant\n%s", back, order)
	}
}

func guidOf(t *testing.T, id int) [16]byte {
	t.Helper()
	var g [16]byte
	if _, err := hex.Decode(g[:], []byte(strings.ReplaceAll(fixture.GUID(id), "-", ""))); err != nil {
		t.Fatal(err)
	}
	return g
}

// Deleting a version drops what the client kept of the subject: the
// latest version is the one before, and registering the deleted schema
// again reaches the registry.
func TestDeleteVersion(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	c := newClient(t, srv.URL, registry.WithLatestTTL(time.Hour))
	ctx := context.Background()
	v2 := schema.MustParse(`{"type":"record","name":"User","namespace":"com.example","fields":[{"name":"name","type":"string"},{"name":"age","type":"int","default":0}]}`)
	id1, err := c.Register(ctx, "users-value", userSchema)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := c.Register(ctx, "users-value", v2)
	if err != nil {
		t.Fatal(err)
	}
	if l, err := c.Latest(ctx, "users-value"); err != nil || l.ID != id2 || l.Version != 2 {
		t.Fatalf("Latest = %+v, %v", l, err)
	}
	if err := c.DeleteVersion(ctx, "users-value", 2, false); err != nil {
		t.Fatal(err)
	}
	if l, err := c.Latest(ctx, "users-value"); err != nil || l.ID != id1 || l.Version != 1 {
		t.Errorf("Latest after deleting version 2 = %+v, %v; want version 1", l, err)
	}
	if _, err := c.SchemaByVersion(ctx, "users-value", 2); !errors.Is(err, registry.ErrVersionNotFound) {
		t.Errorf("a deleted version = %v, want ErrVersionNotFound", err)
	}
	if err := c.DeleteVersion(ctx, "users-value", 2, true); !errors.Is(err, registry.ErrVersionNotFound) {
		t.Errorf("deleting it again = %v, want ErrVersionNotFound", err)
	}
	posts := f.Count("/subjects/users-value/versions")
	if ss, err := c.RegisterSchema(ctx, "users-value", v2); err != nil || ss.Version != 3 {
		t.Errorf("registering it again = %+v, %v; want version 3", ss, err)
	}
	if n := f.Count("/subjects/users-value/versions") - posts; n != 1 {
		t.Errorf("%d registrations reached the registry, want 1 (the cache dropped)", n)
	}
}

func TestRetries(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	id, _ := f.Add("s", fixture.Schema{Schema: `"string"`})
	var mu sync.Mutex
	answers := []int{500, 429, 503}
	f.Fail = func(w http.ResponseWriter, r *http.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		if len(answers) == 0 {
			return false
		}
		code := answers[0]
		answers = answers[1:]
		fixture.WriteError(w, code, code, "busy")
		return true
	}
	c := newClient(t, srv.URL)
	if _, err := c.SchemaByID(context.Background(), id); err != nil {
		t.Fatalf("after 500, 429, 503: %v", err)
	}
	if n := f.Requests.Load(); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
	// Always failing: 1 try and 3 retries, then the last error.
	f.Fail = func(w http.ResponseWriter, r *http.Request) bool {
		fixture.WriteError(w, 500, 50001, "down")
		return true
	}
	f.Requests.Store(0)
	_, err := c.SchemaByID(context.Background(), id+1)
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != 50001 || f.Requests.Load() != 4 {
		t.Errorf("always 500: %v after %d requests, want the 500 after 4", err, f.Requests.Load())
	}
	// A 4xx is not retried.
	f.Fail = func(w http.ResponseWriter, r *http.Request) bool {
		fixture.WriteError(w, 401, 401, "who are you")
		return true
	}
	f.Requests.Store(0)
	if _, err := c.SchemaByID(context.Background(), id+2); !errors.As(err, &e) || e.StatusCode != 401 || f.Requests.Load() != 1 {
		t.Errorf("401: %v after %d requests, want it after 1", err, f.Requests.Load())
	}
}

func TestDeadline(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	release := make(chan struct{})
	defer close(release)
	f.Fail = func(w http.ResponseWriter, r *http.Request) bool {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		return true
	}
	c := newClient(t, srv.URL, registry.WithRetries(100, time.Millisecond, time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.SchemaByID(ctx, 1)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a registry that never answers: %v, want the context's deadline", err)
	}
}

func TestResponseLimit(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	f.Fail = func(w http.ResponseWriter, r *http.Request) bool {
		_, _ = w.Write([]byte(`{"schema":"` + strings.Repeat("x", 1<<20) + `"}`))
		return true
	}
	c := newClient(t, srv.URL, registry.WithMaxResponseSize(64<<10))
	if _, err := c.SchemaByID(context.Background(), 1); !errors.Is(err, registry.ErrTooLarge) {
		t.Errorf("a 1 MiB response with a 64 KiB limit: %v, want ErrTooLarge", err)
	}
	// A deeply nested schema is the parser's to refuse.
	f.Fail = func(w http.ResponseWriter, r *http.Request) bool {
		deep := strings.Repeat(`{"type":"array","items":`, 5000) + `"int"` + strings.Repeat("}", 5000)
		_, _ = fmt.Fprintf(w, `{"schema":%q}`, deep)
		return true
	}
	var se *schema.Error
	if _, err := newClient(t, srv.URL).SchemaByID(context.Background(), 2); !errors.As(err, &se) {
		t.Errorf("a schema nested 5,000 deep: %v, want a *schema.Error", err)
	}
}

func TestFailover(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	id, _ := f.Add("s", fixture.Schema{Schema: `"string"`})
	// A URL where nothing listens.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	_ = l.Close()
	c := newClient(t, dead+","+srv.URL)
	if _, err := c.SchemaByID(context.Background(), id); err != nil {
		t.Fatalf("with the first URL down: %v", err)
	}
}

// 64 goroutines decoding 10,000 lookups of 50 ids make 50 requests.
func TestSingleFlight(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	var ids []int
	for i := range 50 {
		id, _ := f.Add(fmt.Sprintf("s%d", i), fixture.Schema{Schema: fmt.Sprintf(`{"type":"fixed","name":"F%d","size":1}`, i)})
		ids = append(ids, id)
	}
	c := newClient(t, srv.URL)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10000 / 64 {
				if _, err := c.SchemaByID(context.Background(), ids[(g+i)%len(ids)]); err != nil {
					errs <- err
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
	if n := f.Requests.Load(); n != 50 {
		t.Errorf("%d requests for 50 ids, want 50", n)
	}
}

func TestAuth(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	id, _ := f.Add("s", fixture.Schema{Schema: `"string"`})
	var got http.Header
	f.Seen = func(r *http.Request) { got = r.Header.Clone() }
	c := newClient(t, srv.URL, registry.WithBasicAuth("u", "p"), registry.WithHeader("X-Tenant", "t1"))
	if _, err := c.SchemaByID(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if got.Get("Authorization") != "Basic dTpw" || got.Get("X-Tenant") != "t1" {
		t.Errorf("headers = %v", got)
	}
	calls := 0
	c = newClient(t, srv.URL, registry.WithTokenSource(func(context.Context) (string, error) { calls++; return fmt.Sprintf("tok%d", calls), nil }))
	if _, err := c.Subjects(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got.Get("Authorization") != "Bearer tok1" {
		t.Errorf("Authorization = %q, want the token source's", got.Get("Authorization"))
	}
	c = newClient(t, srv.URL, registry.WithBearerToken("static"))
	if _, err := c.Subjects(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got.Get("Authorization") != "Bearer static" {
		t.Errorf("Authorization = %q, want the static token", got.Get("Authorization"))
	}
}

// The client parses schemas under the parse options it is given: a
// registry's schema larger than the caller allows is refused.
func TestParseOptions(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	big := `{"type":"record","name":"R","doc":"` + strings.Repeat("d", 4096) + `","fields":[]}`
	id, _ := f.Add("s", fixture.Schema{Schema: big})
	if _, err := newClient(t, srv.URL).SchemaByID(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	small := newClient(t, srv.URL, registry.WithParseOptions(schema.ParseOptions{MaxSize: 1024}))
	if _, err := small.SchemaByID(context.Background(), id); !errors.Is(err, schema.ErrLimit) {
		t.Errorf("a 4 KiB schema with a 1 KiB limit: %v, want schema.ErrLimit", err)
	}
}

func TestNewClientErrors(t *testing.T) {
	for _, u := range []string{"", "localhost:8081", "ftp://x", "http://"} {
		if _, err := registry.NewClient(u); err == nil {
			t.Errorf("NewClient(%q) succeeded", u)
		}
	}
}

// CheckCompatibility asks the registry, against the latest version, one
// version, or every version, and returns its reasons.
func TestCheckCompatibility(t *testing.T) {
	f, srv := fixture.NewRegistryServer(t)
	c := newClient(t, srv.URL)
	ctx := context.Background()
	v1 := schema.MustParse(`{"type":"record","name":"User","fields":[{"name":"name","type":"string"}]}`)
	v2 := schema.MustParse(`{"type":"record","name":"User","fields":[{"name":"name","type":"string"},{"name":"age","type":"int","default":0}]}`)
	for _, s := range []*schema.Schema{v1, v2} {
		if _, err := c.Register(ctx, "users-value", s); err != nil {
			t.Fatal(err)
		}
	}
	// Readable as v2 (age from its default), not as v1: v1 has no age.
	needsAge := schema.MustParse(`{"type":"record","name":"User","fields":[{"name":"name","type":"string"},{"name":"age","type":"int"}]}`)
	// Not readable at all: name changed type.
	broken := schema.MustParse(`{"type":"record","name":"User","fields":[{"name":"name","type":"long"}]}`)
	for _, c2 := range []struct {
		s       *schema.Schema
		version int
		path    string
		ok      bool
	}{
		{v2, -1, "/compatibility/subjects/users-value/versions/latest", true},
		{needsAge, -1, "/compatibility/subjects/users-value/versions/latest", true},
		{needsAge, 1, "/compatibility/subjects/users-value/versions/1", false},
		{needsAge, registry.AllVersions, "/compatibility/subjects/users-value/versions", false},
		{broken, 2, "/compatibility/subjects/users-value/versions/2", false},
	} {
		before := f.Count(c2.path)
		ok, reasons, err := c.CheckCompatibility(ctx, "users-value", c2.version, c2.s)
		if err != nil || ok != c2.ok || ok == (len(reasons) > 0) {
			t.Errorf("%s against version %d: %v %q %v, want ok %v with reasons only when not", c2.s, c2.version, ok, reasons, err, c2.ok)
		}
		if f.Count(c2.path) != before+1 {
			t.Errorf("version %d: no request to %s", c2.version, c2.path)
		}
	}
	_, reasons, err := c.CheckCompatibility(ctx, "users-value", 1, needsAge)
	if err != nil || len(reasons) == 0 || !strings.Contains(reasons[0], "age") {
		t.Errorf("the reasons %q, %v, want one naming the field age", reasons, err)
	}
}
