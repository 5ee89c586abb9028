package ocf

import (
	"testing"
	"time"
)

// While the caller decodes and is behind the workers, they poll for
// their next block before blocking; the poll must end in the blocking
// receive, and see a close or quit as the blocking receive does.
func TestPipelineReceivePollsThenBlocks(t *testing.T) {
	for _, ahead := range []bool{false, true} {
		p := &pipeline{quit: make(chan struct{})}
		p.ahead.Store(ahead)
		ch := make(chan *block, 1)

		want := new(block)
		go func() {
			time.Sleep(2 * spinFor) // past the poll: the receive blocks
			ch <- want
		}()
		if b, ok := p.receive(ch, p.quit); !ok || b != want {
			t.Fatalf("ahead %v: receive = %p, %v; want the block sent", ahead, b, ok)
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
