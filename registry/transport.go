package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

const contentType = "application/vnd.schemaregistry.v1+json"

// do sends one request, with failover and retries, and decodes the JSON
// response into out (when out is not nil).
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	var last error
	for attempt := 0; ; attempt++ {
		c.mu.Lock()
		u := c.urls[(c.lastGood+attempt)%len(c.urls)]
		c.mu.Unlock()
		retry, wait, err := c.once(ctx, method, u, path, body, out)
		if err == nil {
			c.mu.Lock()
			c.lastGood = (c.lastGood + attempt) % len(c.urls)
			c.mu.Unlock()
			return nil
		}
		last = err
		if !retry || attempt >= c.maxRetries {
			return last
		}
		backoff := min(c.maxBackoff, c.minBackoff<<min(attempt, 30))
		backoff = time.Duration(rand.Int64N(int64(backoff)) + 1)
		if wait > 0 {
			backoff = min(max(backoff, wait), c.maxBackoff)
		}
		if err := c.sleep(ctx, backoff); err != nil {
			return fmt.Errorf("%w (after: %w)", err, last)
		}
	}
}

// once sends the request to one URL. retry says whether a failure may be
// retried, and wait is the delay a 429 asked for.
func (c *Client) once(ctx context.Context, method, base, path string, body []byte, out any) (retry bool, wait time.Duration, err error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return false, 0, err
	}
	for k, vs := range c.headers {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Accept", contentType+", application/json")
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	if c.user != "" || c.pass != "" {
		req.SetBasicAuth(c.user, c.pass)
	}
	if c.token != nil {
		tok, err := c.token(ctx)
		if err != nil {
			return false, 0, fmt.Errorf("registry: token: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		// The network: retried unless the context ended.
		return ctx.Err() == nil, 0, fmt.Errorf("registry: %s %s: %w", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxResponse+1))
	if err != nil {
		return ctx.Err() == nil, 0, fmt.Errorf("registry: %s %s: %w", method, path, err)
	}
	if int64(len(data)) > c.maxResponse {
		return false, 0, fmt.Errorf("%w: %s %s gave more than %d bytes", ErrTooLarge, method, path, c.maxResponse)
	}
	if resp.StatusCode >= 300 {
		e := &Error{Method: method, Path: path, StatusCode: resp.StatusCode, Code: resp.StatusCode}
		var eb struct {
			Code    int    `json:"error_code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(data, &eb) == nil && eb.Code != 0 {
			e.Code, e.Message = eb.Code, eb.Message
		} else {
			e.Message = http.StatusText(resp.StatusCode)
		}
		retry := resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			wait = time.Duration(min(s, 3600)) * time.Second
		}
		return retry, wait, e
	}
	if out == nil {
		return false, 0, nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return false, 0, fmt.Errorf("registry: %s %s: the response is not the JSON expected: %w", method, path, err)
	}
	return false, 0, nil
}
