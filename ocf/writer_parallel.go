package ocf

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A writePipeline compresses a Writer's blocks on several goroutines and
// writes them in order on one more. It refers to the Writer's destination,
// never to the Writer, so that a Writer dropped without Close can be
// collected, and its cleanup stops the pipeline.
type writePipeline struct {
	out   *blockSink
	free  chan *writeJob // jobs not in use, with their buffers
	work  chan *writeJob // to compress
	order chan *writeJob // in file order, to write
	wg    sync.WaitGroup
	once  sync.Once

	// err is the first write or compression error, set once: nothing is
	// written after it.
	err    atomic.Pointer[error]
	failed atomic.Bool
}

// A writeJob is one block on its way to the file, or a barrier that a
// Flush waits on.
type writeJob struct {
	data     []byte // the records, or the block as stored when !compress
	comp     []byte
	count    int64
	compress bool
	err      error
	done     chan struct{} // closed when compressed
	barrier  chan struct{} // a Flush's: closed when every block before it is written
}

// blockSink is where a Writer's blocks go: its destination, codec and
// sync marker, and the frame of each block.
type blockSink struct {
	w      interface{ Write([]byte) (int, error) }
	codec  Codec
	isNull bool
	sync   [SyncSize]byte
	hdr    []byte
}

// compress returns the block's data as stored.
func (s *blockSink) compress(comp, data []byte) ([]byte, error) {
	if s.isNull {
		return data, nil
	}
	return s.codec.Compress(comp[:0], data)
}

// write writes a block of count records whose data, as stored, is
// payload: header, data and sync marker in three writes, since framing
// the block in one buffer first would copy all of its data once more.
func (s *blockSink) write(payload []byte, count int64) error {
	s.hdr = appendLong(appendLong(s.hdr[:0], count), int64(len(payload)))
	for _, b := range [][]byte{s.hdr, payload, s.sync[:]} {
		if _, err := s.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func startWritePipeline(out *blockSink, workers int) *writePipeline {
	p := &writePipeline{out: out, free: make(chan *writeJob, workers+1),
		work: make(chan *writeJob), order: make(chan *writeJob, workers+1)}
	for range workers + 1 {
		p.free <- &writeJob{}
	}
	p.wg.Add(workers + 1)
	for range workers {
		go p.compressor()
	}
	go p.writer()
	return p
}

func (p *writePipeline) compressor() {
	defer p.wg.Done()
	for j := range p.work {
		j.comp, j.err = p.out.compress(j.comp, j.data)
		close(j.done)
	}
}

func (p *writePipeline) writer() {
	defer p.wg.Done()
	for j := range p.order {
		if j.barrier != nil {
			close(j.barrier)
			continue
		}
		<-j.done
		if p.error() == nil {
			err := j.err
			if err == nil {
				payload := j.data
				if j.compress {
					payload = j.comp
				}
				err = p.out.write(payload, j.count)
			}
			if err != nil {
				p.err.Store(&err)
				p.failed.Store(true)
			}
		}
		p.free <- j
	}
}

func (p *writePipeline) error() error {
	if !p.failed.Load() {
		return nil
	}
	return *p.err.Load()
}

// job returns a free job, waiting for one when n blocks are in flight.
func (p *writePipeline) job() *writeJob { return <-p.free }

// submit sends a job, its data set, to be compressed (when it is) and
// written after the blocks before it.
func (p *writePipeline) submit(j *writeJob) {
	j.done, j.err = make(chan struct{}), nil
	if j.compress && !p.out.isNull {
		p.work <- j
	} else {
		j.compress = false
		close(j.done)
	}
	p.order <- j
}

// wait returns once every block submitted is written, with the first
// error.
func (p *writePipeline) wait() error {
	b := make(chan struct{})
	p.order <- &writeJob{barrier: b}
	<-b
	return p.error()
}

// stop ends the pipeline's goroutines, after what they hold is written.
func (p *writePipeline) stop() {
	p.once.Do(func() {
		close(p.work)
		close(p.order)
	})
	p.wg.Wait()
}

// emit writes the first n bytes of wr.buf, count records, as a block, and
// keeps the records after them pending at the start of wr.buf: written
// here, or handed to the workers, whose buffer the Writer takes instead.
func (wr *Writer) emit(n int, count int64) error {
	if wr.pipe == nil {
		if err := wr.writeBlock(wr.buf[:n], count); err != nil {
			return err
		}
		wr.buf = append(wr.buf[:0], wr.buf[n:]...)
		return nil
	}
	if err := wr.failed(); err != nil {
		return err
	}
	j := wr.pipe.job()
	j.data, wr.buf = wr.buf[:n], append(j.data[:0], wr.buf[n:]...)
	j.count, j.compress = count, true
	wr.pipe.submit(j)
	return nil
}

// writeOwned writes a block whose data the caller keeps (WriteBlock,
// WriteRawBlock): copied for the workers, so that the caller may reuse
// it at once.
func (wr *Writer) writeOwned(data []byte, count int64, compress bool) error {
	if wr.pipe == nil {
		if compress {
			return wr.writeBlock(data, count)
		}
		return wr.writeFramed(data, count)
	}
	j := wr.pipe.job()
	j.data = append(j.data[:0], data...)
	j.count, j.compress = count, compress
	wr.pipe.submit(j)
	return nil
}

// start readies a Writer, its header written, for blocks: with workers,
// it starts the pipeline.
func (wr *Writer) start(workers int) {
	wr.sink = &blockSink{w: wr.w, codec: wr.codec, isNull: isNullCodec(wr.codec), sync: wr.sync}
	if workers <= 1 {
		return
	}
	wr.pipe = startWritePipeline(wr.sink, workers)
	runtime.AddCleanup(wr, (*writePipeline).stop, wr.pipe)
}

func isNullCodec(c Codec) bool {
	_, ok := c.(nullCodec)
	return ok
}
