package ocf

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// An Option configures both Readers and Writers.
type Option interface {
	ReaderOption
	WriterOption
}

type workersOption int

func (n workersOption) applyReader(c *readerConfig) { c.workers = int(n) }
func (n workersOption) applyWriter(c *writerConfig) { c.workers = int(n) }

// WithWorkers sets the number of goroutines that decompress the blocks of
// a Reader, or compress those of a Writer, while records go in and come
// out in file order: 1 (the default) does the work on the caller's
// goroutine, and n <= 0 means runtime.GOMAXPROCS(0), every core. Records
// has the workers decode the records too, into values of its type, and
// gives them in order, each charged to the file's budgets (see
// avro.DecodeOptions) as it is given, so that a limit is met at the record
// and with the error of a Reader without workers; Decode, which fills the
// caller's value, decodes on the caller's goroutine.
//
// A Reader with workers reads ahead of its caller, holding at most n+1
// blocks (as stored and decompressed) at a time, whatever the file: one
// for the caller and one for each worker. Records, errors and offsets are
// what a Reader without workers gives, in the same order: an error is
// reported at the record where it occurs, and no record after it is
// returned. Its workers stop at the end of the file, at the first error,
// or at Close; call Close when stopping early. SkipBlock then reads
// blocks rather than seeking over them. While the caller decodes with
// Decode and the workers are ahead of it, a worker that has finished a
// block polls for the next one for up to 300 µs before it blocks, so
// that handing it a block does not have to wake an idle core.
//
// A Writer with workers compresses up to n blocks at a time and writes
// them in order: the file is the one a Writer without workers writes, byte
// for byte, with the same sync marker. Flush returns once every block
// before it is written, and Close once the last is.
func WithWorkers(n int) Option {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return workersOption(n)
}

// A pipeline reads the blocks of a Reader ahead of it: one goroutine
// reads them from the source in order, workers unpack them, and the
// Reader takes them in file order. It refers to the Reader's blockSource,
// never to the Reader, so that a Reader dropped without Close can be
// collected, and its cleanup stops the pipeline.
type pipeline struct {
	src   *blockSource
	free  chan *block // blocks not in use: workers+1 of them
	order chan *block // blocks in file order, as read
	work  chan *block // blocks to unpack
	quit  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
	// held is the block the Reader is in, given back to free when it
	// takes the next.
	held *block
	// decoder, when set, decodes the records of each block on the
	// worker that unpacks it.
	decoder atomic.Pointer[batchDecoder]
	// ahead is set while the Reader finds its blocks ready: the workers
	// are then ahead of it, and poll rather than block (see receive).
	ahead atomic.Bool
}

func (p *pipeline) setDecoder(d batchDecoder) {
	if d == nil {
		p.decoder.Store(nil)
		return
	}
	p.decoder.Store(&d)
}

// pipelined returns the next block of the file from the pipeline,
// starting it on first use.
func (r *Reader) pipelined() *block {
	if r.pipe == nil {
		r.pipe = startPipeline(r.blockSource, r.workers)
		r.pipe.setDecoder(r.batcher)
		runtime.AddCleanup(r, (*pipeline).stop, r.pipe)
	}
	return r.pipe.next()
}

func startPipeline(src *blockSource, workers int) *pipeline {
	p := &pipeline{src: src, free: make(chan *block, workers+1), order: make(chan *block, workers+1),
		work: make(chan *block), quit: make(chan struct{})}
	for range workers + 1 {
		p.free <- new(block)
	}
	p.wg.Add(1 + workers)
	go p.fetch()
	for range workers {
		go p.unpack()
	}
	return p
}

// fetch reads the blocks of the source in order, hands each to the
// workers and to the Reader, and stops after the last or the first that
// cannot be read: nothing past it is read.
func (p *pipeline) fetch() {
	defer p.wg.Done()
	defer close(p.work)
	for {
		b, ok := p.receive(p.free, p.quit)
		if !ok {
			return
		}
		p.src.fetch(b, true)
		b.done = make(chan struct{})
		if b.err == nil && (!p.src.isNull || p.decoder.Load() != nil) {
			select {
			case p.work <- b:
			case <-p.quit:
				return
			}
		} else {
			p.src.unpack(b)
			close(b.done)
		}
		select {
		case p.order <- b:
		case <-p.quit:
			return
		}
		if b.err != nil {
			return
		}
	}
}

func (p *pipeline) unpack() {
	defer p.wg.Done()
	for {
		b, ok := p.receive(p.work, nil)
		if !ok {
			return
		}
		p.src.unpack(b)
		if d := p.decoder.Load(); d != nil {
			(*d).decode(b)
		}
		close(b.done)
	}
}

// spinFor is how long the workers, and the goroutine that reads the
// blocks, poll for their next block before they block, while the Reader's
// caller decodes the records itself (Decode) and finds its blocks ready:
// its decoding is then the slowest stage, and each block it gives back
// would otherwise wake a goroutine parked on an idle core, which costs the
// caller a system call and, on virtual machines whose idle cores halt, an
// interrupt to another core. Polling made Decode of a zstandard file, where
// decoding is two thirds of the work, a quarter faster on 2 cores, for the
// same CPU time. Records has the workers decode and keeps them busy; there
// polling took their cores from them.
const spinFor = 300 * time.Microsecond

// receive takes the next block from ch, or reports false when ch is
// closed or quit is; it polls for spinFor first when the caller decodes
// and is behind the workers.
func (p *pipeline) receive(ch <-chan *block, quit <-chan struct{}) (*block, bool) {
	if p.ahead.Load() && p.decoder.Load() == nil {
		deadline := time.Now().Add(spinFor)
		for i := 0; i%16 != 15 || time.Now().Before(deadline); i++ {
			select {
			case b, ok := <-ch:
				return b, ok
			case <-quit:
				return nil, false
			default:
			}
			runtime.Gosched()
		}
	}
	select {
	case b, ok := <-ch:
		return b, ok
	case <-quit:
		return nil, false
	}
}

// next returns the next block, unpacked, giving back the one before.
func (p *pipeline) next() *block {
	if p.held != nil {
		p.free <- p.held
		p.held = nil
	}
	b := <-p.order
	select {
	case <-b.done:
		p.ahead.Store(true)
	default:
		p.ahead.Store(false)
		<-b.done
	}
	p.held = b
	return b
}

// stop ends the pipeline's goroutines and waits for them.
func (p *pipeline) stop() {
	p.once.Do(func() { close(p.quit) })
	p.wg.Wait()
}

// Close stops the workers of a Reader made WithWorkers and releases its
// blocks; it does not close the io.Reader. After Close, Next returns
// false and Decode and the other reads return ErrClosed (or io.EOF, when
// the Reader had reached the end: Err stays nil). It returns nil, also
// when called again, and may be called on any Reader.
func (r *Reader) Close() error {
	if r.pipe != nil {
		r.pipe.stop()
		r.pipe = nil
	}
	if r.err == nil {
		r.err = ErrClosed
	}
	r.rest, r.left, r.inBlock, r.cur = nil, 0, false, nil
	return nil
}
