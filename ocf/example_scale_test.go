package ocf_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sync"

	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

type event struct {
	ID   int64  `avro:"id"`
	Kind string `avro:"kind"`
}

var eventSchema = schema.MustParse(`{"type":"record","name":"Event","fields":[
	{"name":"id","type":"long"},{"name":"kind","type":"string"}]}`)

// writeEvents writes n events to a container file of blocks of 100.
func writeEvents(n int) []byte {
	var file bytes.Buffer
	w, err := ocf.NewWriter(&file, eventSchema, ocf.WithCodec(ocf.CodecDeflate), ocf.WithBlockCount(100))
	if err != nil {
		log.Fatal(err)
	}
	for i := range n {
		if err := w.Encode(&event{ID: int64(i), Kind: "click"}); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	return file.Bytes()
}

// Blocks are decompressed on every core while records come out in file
// order.
func ExampleWithWorkers() {
	file := writeEvents(10_000)
	r, err := ocf.NewReader(bytes.NewReader(file), ocf.WithWorkers(0))
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = r.Close() }() // stops the workers, also when the loop ends early
	var sum int64
	for e, err := range ocf.Records[event](r) {
		if err != nil {
			log.Fatal(err)
		}
		sum += e.ID
	}
	fmt.Println(sum)
	// Output: 49995000
}

// A worker pool reads one file as a distributed engine does: the file is
// planned into splits, each worker reads its own, and every record is read
// once.
func ExamplePlanSplits() {
	file := writeEvents(10_000)
	src := bytes.NewReader(file) // an *os.File, or any io.ReaderAt
	splits, err := ocf.PlanSplits(src, int64(len(file)), 4)
	if err != nil {
		log.Fatal(err)
	}
	counts := make([]int, len(splits))
	var wg sync.WaitGroup
	for i, sp := range splits {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := ocf.NewSplitReader(src, int64(len(file)), sp.Offset, sp.Length)
			if err != nil {
				log.Fatal(err)
			}
			for _, err := range ocf.Records[event](r) {
				if err != nil {
					log.Fatal(err)
				}
				counts[i]++
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, n := range counts {
		total += n
	}
	fmt.Println(len(splits), "splits,", total, "records")
	// Output: 4 splits, 10000 records
}

// A Reader WithFollow reads a file that another process is still writing,
// as tail -f does: each pass reads the records of the blocks written since
// the last, and a block half written waits for the next pass. A real
// follower sleeps between passes, or waits for a file-system event.
func ExampleWithFollow() {
	path := filepath.Join(os.TempDir(), "events-follow.avro")
	defer func() { _ = os.Remove(path) }()
	out, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = out.Close() }()
	w, err := ocf.NewWriter(out, eventSchema)
	if err != nil {
		log.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = in.Close() }()
	r, err := ocf.NewReader(in, ocf.WithFollow())
	if err != nil {
		log.Fatal(err)
	}
	id := int64(0)
	for pass := range 3 {
		for range 2 + pass {
			if err := w.Encode(&event{ID: id, Kind: "tick"}); err != nil {
				log.Fatal(err)
			}
			id++
		}
		if err := w.Flush(); err != nil { // the records are in a whole block
			log.Fatal(err)
		}
		var ids []int64
		for e, err := range ocf.Records[event](r) {
			if err != nil {
				log.Fatal(err)
			}
			ids = append(ids, e.ID)
		}
		fmt.Println("pass", pass, ids)
	}
	// Output:
	// pass 0 [0 1]
	// pass 1 [2 3 4]
	// pass 2 [5 6 7 8]
}

// The newest records of a file, read from its last block alone.
func ExampleReader_SeekLastBlock() {
	file := writeEvents(1_050)
	r, err := ocf.NewReader(bytes.NewReader(file))
	if err != nil {
		log.Fatal(err)
	}
	b, err := r.SeekLastBlock()
	if err != nil {
		log.Fatal(err)
	}
	var last event
	for e, err := range ocf.Records[event](r) {
		if err != nil {
			log.Fatal(err)
		}
		last = e
	}
	fmt.Println(b.Count, "records in the last block; the last is", last.ID)
	// Output: 50 records in the last block; the last is 1049
}
