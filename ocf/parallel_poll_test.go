package ocf

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// While the caller decodes and is behind the workers, they poll for
// their next block before blocking; the poll must end in the blocking
// receive, and see a block, a close or a quit as the blocking receive
// does.
func TestPipelineReceivePollsThenBlocks(t *testing.T) {
	for _, ahead := range []bool{false, true} {
		p := &pipeline{quit: make(chan struct{})}
		p.ahead.Store(ahead)
		ch := make(chan *block, 1)

		want := new(block)
		got := make(chan *block)
		go func() {
			b, _ := p.receive(ch, p.quit)
			got <- b
		}()
		waitParkedInReceive(t)
		ch <- want
		if b := <-got; b != want {
			t.Fatalf("ahead %v: receive = %p, want the block sent", ahead, b)
		}

		ch <- want // ready at once
		if b, ok := p.receive(ch, nil); !ok || b != want {
			t.Fatalf("ahead %v: receive of a ready block = %p, %v", ahead, b, ok)
		}

		go func() {
			time.Sleep(spinFor / 2)
			close(p.quit)
		}()
		if _, ok := p.receive(ch, p.quit); ok {
			t.Fatalf("ahead %v: receive after quit reported a block", ahead)
		}

		close(ch)
		if _, ok := p.receive(ch, nil); ok {
			t.Fatalf("ahead %v: receive from a closed channel reported a block", ahead)
		}
	}
}

// waitParkedInReceive waits until a goroutine is parked in
// pipeline.receive's blocking select, and fails if none is within 10 s:
// one that polled for ever would stay runnable.
func waitParkedInReceive(t *testing.T) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "[select") && strings.Contains(g, "(*pipeline).receive") {
				return
			}
		}
	}
	t.Fatal("no goroutine blocked in receive: the poll did not end")
}
