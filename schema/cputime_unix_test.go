//go:build unix

package schema

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time the process has used, user and
// system: unlike the wall clock, what other processes do on the machine
// hardly changes it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
