package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progressEvery is how often the progress line is redrawn.
const progressEvery = 200 * time.Millisecond

// A progress draws one line on a terminal's standard error while a
// command works through its input: bytes and records done, the rate, and
// for inputs of known size a bar and the time left. A nil *progress draws
// nothing and its methods do nothing, so commands call them regardless.
type progress struct {
	w     io.Writer
	width int
	total int64 // bytes of input, or -1 when unknown
	start time.Time

	bytes, records atomic.Int64

	stopOnce sync.Once
	done     chan struct{}
	stopped  chan struct{}
}

// startProgress starts the progress line for a command that reads total
// bytes (-1 when unknown). It draws only when standard error is a
// terminal, quiet is false, and the command's results do not go to a
// terminal on standard output (toStdout), where the line would mix with
// them.
func (e *env) startProgress(quiet, toStdout bool, total int64) *progress {
	if quiet || e.stderrTerminal == nil || (toStdout && e.stdoutTerminal) {
		return nil
	}
	tty, width := e.stderrTerminal()
	if !tty {
		return nil
	}
	p := &progress{w: e.stderr, width: width, total: total, start: time.Now(),
		done: make(chan struct{}), stopped: make(chan struct{})}
	p.draw()
	go p.loop()
	return p
}

func (p *progress) loop() {
	defer close(p.stopped)
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			p.draw()
		}
	}
}

// setBytes sets the bytes of input done to n.
func (p *progress) setBytes(n int64) {
	if p != nil {
		p.bytes.Store(n)
	}
}

// addRecords counts n more records done.
func (p *progress) addRecords(n int64) {
	if p != nil {
		p.records.Add(n)
	}
}

// reader counts the bytes read from r.
func (p *progress) reader(r io.Reader) io.Reader {
	if p == nil {
		return r
	}
	return &countingReader{r: r, p: p}
}

type countingReader struct {
	r io.Reader
	p *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.bytes.Add(int64(n))
	return n, err
}

// stop erases the line, so that what is printed next starts clean.
func (p *progress) stop() {
	if p == nil {
		return
	}
	p.stopOnce.Do(func() {
		close(p.done)
		<-p.stopped
		say(p.w, "\r\x1b[K")
	})
}

func (p *progress) draw() {
	say(p.w, "\r%s\x1b[K", p.line(time.Since(p.start)))
}

// line is the text of the progress line after elapsed time.
func (p *progress) line(elapsed time.Duration) string {
	done, recs := p.bytes.Load(), p.records.Load()
	secs := elapsed.Seconds()
	var parts []string
	if p.total > 0 {
		frac := min(float64(done)/float64(p.total), 1)
		parts = append(parts, bar(frac, 20), fmt.Sprintf("%3.0f%%", 100*frac),
			humanBytes(done)+" / "+humanBytes(p.total))
	} else {
		parts = append(parts, humanBytes(done))
	}
	parts = append(parts, humanCount(recs)+" records")
	if secs > 0.05 {
		rate := float64(done) / secs
		parts = append(parts, humanBytes(int64(rate))+"/s")
		if p.total > 0 && rate > 0 && done < p.total {
			left := time.Duration(float64(p.total-done) / rate * float64(time.Second))
			parts = append(parts, "ETA "+left.Round(time.Second).String())
		}
	}
	s := strings.Join(parts, "  ")
	if p.width > 1 && len(s) >= p.width {
		s = s[:p.width-1]
	}
	return s
}

// bar draws a fraction as a bar of n cells.
func bar(frac float64, n int) string {
	full := int(frac * float64(n))
	return "[" + strings.Repeat("=", full) + strings.Repeat(" ", n-full) + "]"
}

// humanBytes writes n bytes in the largest unit of 1000s that keeps it
// above one.
func humanBytes(n int64) string {
	const units = "kMGTPE"
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	f, u := float64(n)/1000, 0
	for f >= 1000 && u < len(units)-1 {
		f /= 1000
		u++
	}
	return fmt.Sprintf("%.1f %cB", f, units[u])
}

// humanCount writes a count in thousands or millions past 10,000.
func humanCount(n int64) string {
	switch {
	case n < 10_000:
		return fmt.Sprint(n)
	case n < 10_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}
