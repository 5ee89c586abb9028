package main

import (
	"flag"
	"runtime"

	"github.com/avrogo/avro/ocf"
)

// maxDefaultJobs bounds the default of -j. Records are rendered or
// decoded on one goroutine, in file order, and a few decompressing
// goroutines keep it busy; more would only hold more blocks in memory.
const maxDefaultJobs = 4

// jobsFlag declares -j, the number of goroutines that decompress blocks.
func jobsFlag(fs *flag.FlagSet) *int {
	return fs.Int("j", 0, "decompress blocks on `N` goroutines, records still in file order;\n"+
		"0 is one a core, at most 4; 1 reads on one goroutine")
}

// readerJobs returns the reader options for -j n: none for one
// goroutine, else WithWorkers.
func readerJobs(n int) ([]ocf.ReaderOption, error) {
	if n < 0 {
		return nil, usagef("-j %d: want 0 (one a core) or a number of goroutines", n)
	}
	if n == 0 {
		n = min(runtime.GOMAXPROCS(0), maxDefaultJobs)
	}
	if n == 1 {
		return nil, nil
	}
	return []ocf.ReaderOption{ocf.WithWorkers(n)}, nil
}
