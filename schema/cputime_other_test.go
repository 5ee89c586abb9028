//go:build !unix

package schema

import "time"

var start = time.Now()

// cpuTime returns the wall-clock time since the tests started, where the
// processor time of the process is not at hand.
func cpuTime() time.Duration { return time.Since(start) }
