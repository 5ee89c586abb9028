package registry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/avrogo/avro/schema"
)

// Defaults of the options.
const (
	DefaultMaxRetries        = 4
	DefaultMinBackoff        = 50 * time.Millisecond
	DefaultMaxBackoff        = 2 * time.Second
	DefaultMaxResponseSize   = 16 << 20
	DefaultNegativeTTL       = 5 * time.Second
	DefaultMaxReferenceDepth = 32
	DefaultLatestTTL         = 5 * time.Second
)

// Client is a Schema Registry client. Make one with NewClient.
type Client struct {
	urls    []string
	hc      *http.Client
	headers http.Header
	user    string
	pass    string
	token   func(context.Context) (string, error)

	maxRetries  int
	minBackoff  time.Duration
	maxBackoff  time.Duration
	maxResponse int64
	negativeTTL time.Duration
	maxRefDepth int
	parse       schema.ParseOptions
	now         func() time.Time
	sleep       func(context.Context, time.Duration) error
	lastGood    int // index of the URL that answered last
	mu          sync.Mutex
	byID        map[int]*schema.Schema
	unknown     map[int]time.Time // ids the registry did not know, until
	ids         map[subjectText]int
	flights     flightGroup
	latestTTL   time.Duration
	latest      map[string]latestEntry
	versions    map[subjectVersion]SubjectSchema
	normalize   bool
}

type latestEntry struct {
	s     SubjectSchema
	until time.Time
}

type subjectText struct{ subject, text string }

type subjectVersion struct {
	subject string
	version int
}

// An Option configures a Client.
type Option func(*Client)

// WithHTTPClient sends the requests with hc (for its transport, TLS
// configuration and client certificates, proxies, timeouts).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithBasicAuth authenticates every request with HTTP basic auth.
func WithBasicAuth(user, password string) Option {
	return func(c *Client) { c.user, c.pass = user, password }
}

// WithBearerToken authenticates every request with a static bearer token.
func WithBearerToken(token string) Option {
	return func(c *Client) { c.token = func(context.Context) (string, error) { return token, nil } }
}

// WithTokenSource authenticates every request with the bearer token that
// source returns for it (a source that refreshes an OAuth token, say).
func WithTokenSource(source func(context.Context) (string, error)) Option {
	return func(c *Client) { c.token = source }
}

// WithHeader adds a header to every request.
func WithHeader(key, value string) Option { return func(c *Client) { c.headers.Add(key, value) } }

// WithRetries sets how many times a request is retried after a network
// error, a 5xx or a 429, and the bounds of the backoff between tries
// (doubling from min up to max, with full jitter). A 429's Retry-After
// is honoured up to max.
func WithRetries(n int, min, max time.Duration) Option {
	return func(c *Client) { c.maxRetries, c.minBackoff, c.maxBackoff = n, min, max }
}

// WithMaxResponseSize bounds the size of a response body.
func WithMaxResponseSize(n int64) Option { return func(c *Client) { c.maxResponse = n } }

// WithNegativeTTL sets how long an id the registry does not know is
// answered from the cache with ErrSchemaNotFound.
func WithNegativeTTL(d time.Duration) Option { return func(c *Client) { c.negativeTTL = d } }

// WithMaxReferenceDepth bounds the depth of a schema's reference graph.
func WithMaxReferenceDepth(n int) Option { return func(c *Client) { c.maxRefDepth = n } }

// WithLatestTTL sets how long Latest answers from its cache: the latest
// version of a subject changes when a schema is registered, which the
// client sees at once when it registers it, and other clients' after the
// TTL. Zero disables the cache.
func WithLatestTTL(d time.Duration) Option { return func(c *Client) { c.latestTTL = d } }

// WithNormalize asks the registry to normalize schemas when registering
// and looking them up (?normalize=true), so that schemas that differ only
// in form share one id.
func WithNormalize(on bool) Option { return func(c *Client) { c.normalize = on } }

// WithParseOptions parses the registry's schemas with o (and its limits).
func WithParseOptions(o schema.ParseOptions) Option { return func(c *Client) { c.parse = o } }

// NewClient returns a client of the registry at rawURL. Several URLs,
// separated by commas, are tried in turn (failover).
func NewClient(rawURL string, opts ...Option) (*Client, error) {
	c := &Client{
		hc: http.DefaultClient, headers: http.Header{},
		maxRetries: DefaultMaxRetries, minBackoff: DefaultMinBackoff, maxBackoff: DefaultMaxBackoff,
		maxResponse: DefaultMaxResponseSize, negativeTTL: DefaultNegativeTTL, maxRefDepth: DefaultMaxReferenceDepth,
		now: time.Now, sleep: sleepCtx,
		byID: map[int]*schema.Schema{}, unknown: map[int]time.Time{}, ids: map[subjectText]int{},
		versions:  map[subjectVersion]SubjectSchema{},
		latestTTL: DefaultLatestTTL, latest: map[string]latestEntry{},
	}
	for _, u := range strings.Split(rawURL, ",") {
		u = strings.TrimRight(strings.TrimSpace(u), "/")
		if u == "" {
			continue
		}
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return nil, fmt.Errorf("registry: %q is not an http or https URL", u)
		}
		c.urls = append(c.urls, u)
	}
	if len(c.urls) == 0 {
		return nil, errors.New("registry: no URL")
	}
	for _, o := range opts {
		o(c)
	}
	if c.maxRetries < 0 || c.minBackoff <= 0 || c.maxBackoff < c.minBackoff || c.maxResponse <= 0 || c.maxRefDepth <= 0 || c.latestTTL < 0 {
		return nil, errors.New("registry: retries, backoff, response size and reference depth must be positive")
	}
	return c, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
