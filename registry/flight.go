package registry

import (
	"context"
	"sync"
)

// flightGroup makes concurrent calls with one key share one call.
type flightGroup struct {
	mu    sync.Mutex
	calls map[int]*flight
}

type flight struct {
	done chan struct{}
	val  any
	err  error
}

// do runs fn once for all the concurrent callers with key; a caller
// whose ctx ends stops waiting.
func (g *flightGroup) do(ctx context.Context, key int, fn func() (any, error)) (any, error) {
	g.mu.Lock()
	if g.calls == nil {
		g.calls = map[int]*flight{}
	}
	if f, ok := g.calls[key]; ok {
		g.mu.Unlock()
		select {
		case <-f.done:
			return f.val, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	g.calls[key] = f
	g.mu.Unlock()
	f.val, f.err = fn()
	close(f.done)
	g.mu.Lock()
	delete(g.calls, key)
	g.mu.Unlock()
	return f.val, f.err
}
