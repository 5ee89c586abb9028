// Command hostile measures what small hostile inputs cost the library:
// the time, the bytes allocated and the peak heap of each reproducer, up
// to a time limit. Each must end at once with an error; an input that
// runs to the limit, or allocates in proportion to what it declares
// rather than to its length, is a defect.
//
//	cd bench && go run ./cmd/hostile            # every case
//	go run ./cmd/hostile -run records -limit 5s # one group, a shorter limit
//
// The cases:
//   - defaults: a container file whose schema nests records that default
//     to {} at every level, each level doubling what its default expands
//     to (24, 26 and 28 levels, 3 KB).
//   - records: a 96-byte container file of 2^20 empty records, read
//     through a reader schema that adds a 64 KiB default, into a struct
//     and into value.Value.
//   - header: 15 MiB of schema properties holding empty arrays, in a
//     container file's header and given to schema.Parse.
//   - fields: a schema of a million ["null","string"] fields with a null
//     default (56 MiB, legitimate: it must parse, in time and memory in
//     proportion to its text; the aim is under 2 s and 400 MiB).
//   - shapes: legitimate schemas of about 1 MiB in the shapes that cost
//     the parser the most for their length (many small unions, named
//     types, aliases, docs, props, big defaults, deep nesting), with the
//     bytes allocated per byte of text (the aim is under 20).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

func main() {
	run := flag.String("run", "", "run only the groups whose name contains this")
	limit := flag.Duration("limit", 20*time.Second, "time limit of a case that reads records")
	flag.Parse()
	for _, g := range []struct {
		name string
		fn   func(time.Duration)
	}{{"defaults", defaults}, {"records", records}, {"header", header}, {"fields", fields}, {"shapes", shapes}} {
		if strings.Contains(g.name, *run) {
			g.fn(*limit)
		}
	}
}

func appendLong(b []byte, x int64) []byte {
	u := uint64(x<<1) ^ uint64(x>>63)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

var sync16 = bytes.Repeat([]byte{7}, 16)

// file is a container file of the given schema text, with the given
// blocks after its header.
func file(schemaText string, blocks ...[]byte) []byte {
	h := []byte("Obj\x01")
	h = appendLong(h, 1)
	h = appendLong(h, int64(len("avro.schema")))
	h = append(h, "avro.schema"...)
	h = appendLong(h, int64(len(schemaText)))
	h = append(h, schemaText...)
	h = appendLong(h, 0)
	h = append(h, sync16...)
	for _, b := range blocks {
		h = append(h, b...)
	}
	return h
}

// measure runs f and prints its time, what it allocated, the peak heap
// seen by a sampler every 10 ms, and what it said.
func measure(name string, textLen int, f func() (string, error)) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	info, err := f()
	took := time.Since(start)
	close(stop)
	<-done
	runtime.ReadMemStats(&after)
	msg := "no error"
	if err != nil {
		msg = err.Error()
		if len(msg) > 100 {
			msg = msg[:100] + "..."
		}
	}
	total := after.TotalAlloc - before.TotalAlloc
	perByte := ""
	if textLen > 0 {
		perByte = fmt.Sprintf(" %5.1f B/byte", float64(total)/float64(textLen))
	}
	fmt.Printf("%-40s %8.3f s %10.1f MiB allocated%s %8.1f MiB peak heap  %s  %s\n", name, took.Seconds(),
		float64(total)/(1<<20), perByte, float64(peak.Load())/(1<<20), info, msg)
}

func defaults(time.Duration) {
	for _, levels := range []int{24, 26, 28} {
		text := `{"type":"record","name":"L0","fields":[{"name":"x","type":"long","default":7}]}`
		for i := 1; i <= levels; i++ {
			text = fmt.Sprintf(`{"type":"record","name":"L%d","fields":[{"name":"f0","type":%s,"default":{}},{"name":"f1","type":"L%d","default":{}}]}`, i, text, i-1)
		}
		f := file(text)
		measure(fmt.Sprintf("defaults: %d levels, %d-byte file", levels, len(f)), 0, func() (string, error) {
			_, err := ocf.NewReader(bytes.NewReader(f))
			return "", err
		})
	}
}

func records(limit time.Duration) {
	pad := strings.Repeat("a", 64<<10)
	block := append(appendLong(appendLong(nil, 1<<20), 0), sync16...)
	f := file(`{"type":"record","name":"R","fields":[]}`, block)
	for _, c := range []struct {
		name, typ string
		v         func() any
	}{
		{"struct", "bytes", func() any { return new(struct{ Pad []byte }) }},
		{"value.Value", "string", func() any { return new(value.Value) }},
	} {
		reader := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"pad","type":"` + c.typ + `","default":"` + pad + `"}]}`)
		measure(fmt.Sprintf("records: %d-byte file into %s", len(f), c.name), 0, func() (string, error) {
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			r, err := ocf.NewReader(bytes.NewReader(f), ocf.WithReaderSchema(reader))
			if err != nil {
				return "", err
			}
			n := 0
			for ctx.Err() == nil {
				if err = r.Decode(c.v()); err != nil {
					break
				}
				n++
			}
			if ctx.Err() != nil {
				return fmt.Sprintf("%d records, stopped at the limit", n), nil
			}
			return fmt.Sprintf("%d records", n), err
		})
	}
}

func header(time.Duration) {
	var b strings.Builder
	b.WriteString(`{"type":"array","items":"int","p":[`)
	for b.Len() < 15<<20 {
		b.WriteString(`[],`)
	}
	b.WriteString(`[]]}`)
	f := file(b.String())
	measure("header: 15 MiB schema in a file", 0, func() (string, error) {
		_, err := ocf.NewReader(bytes.NewReader(f))
		return "", err
	})
	measure("header: 15 MiB schema, schema.Parse", b.Len(), func() (string, error) {
		_, err := schema.Parse(b.String())
		return "", err
	})
}

func fields(time.Duration) {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"R","fields":[`)
	for i := range 1000000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"f%d","type":["null","string"],"default":null}`, i)
	}
	b.WriteString(`]}`)
	text := b.String()
	measure(fmt.Sprintf("fields: 10^6 nullable, %d MiB", len(text)>>20), len(text), func() (string, error) {
		s, err := schema.Parse(text)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d fields", len(s.Fields())), nil
	})
}

// shapeTexts are schema texts of about n bytes in the costly shapes.
func shapeTexts(n int) [][2]string {
	repeat := func(head, tail string, item func(i int) string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; b.Len() < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(item(i))
		}
		b.WriteString(tail)
		return b.String()
	}
	record := func(item func(i int) string) string {
		return repeat(`{"type":"record","name":"R","namespace":"a.b","fields":[`, `]}`, item)
	}
	field := func(typ string) func(int) string {
		return func(i int) string { return fmt.Sprintf(`{"name":"f%d","type":%s}`, i, typ) }
	}
	var deep strings.Builder
	for i := range 300 {
		fmt.Fprintf(&deep, `{"type":"record","name":"D%d","fields":[{"name":"f","type":`, i)
	}
	return [][2]string{
		{"nullable fields", record(func(i int) string {
			return fmt.Sprintf(`{"name":"f%d","type":["null","string"],"default":null}`, i)
		})},
		{"small unions", record(field(`["null","int"]`))},
		{"bare fields", record(field(`"int"`))},
		{"arrays", record(field(`{"type":"array","items":"int"}`))},
		{"named types", record(func(i int) string {
			return fmt.Sprintf(`{"name":"f%d","type":{"type":"fixed","name":"X%d","size":1}}`, i, i)
		})},
		{"enums", record(func(i int) string {
			return fmt.Sprintf(`{"name":"f%d","type":{"type":"enum","name":"E%d","symbols":["A"]}}`, i, i)
		})},
		{"references", record(func(i int) string {
			if i == 0 {
				return `{"name":"f0","type":{"type":"fixed","name":"X","size":1}}`
			}
			return fmt.Sprintf(`{"name":"f%d","type":"X"}`, i)
		})},
		{"aliases", repeat(`{"type":"fixed","name":"X","namespace":"a.b","size":1,"aliases":[`, `]}`, func(i int) string {
			return fmt.Sprintf(`"a%d"`, i)
		})},
		{"field aliases", record(func(i int) string {
			return fmt.Sprintf(`{"name":"f%d","type":"int","aliases":["a%d"]}`, i, i)
		})},
		{"docs", record(func(i int) string {
			return fmt.Sprintf(`{"name":"f%d","type":"int","doc":"%s"}`, i, strings.Repeat("d", 200))
		})},
		{"props", record(field(`{"type":"int","p":[1,{"q":[]}]}`))},
		{"record defaults", record(func(i int) string {
			return fmt.Sprintf(`{"name":"f%d","type":{"type":"map","values":"long"},"default":{"a":1,"b":2}}`, i)
		})},
		{"big default", `{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"array","items":"int"},"default":[` +
			strings.TrimSuffix(strings.Repeat("1,", n/2), ",") + `]}]}`},
		{"deep records", deep.String() + `"int"` + strings.Repeat("}]}", 300)},
		{"deep arrays", strings.Repeat(`{"type":"array","items":`, 490) + `"int"` + strings.Repeat("}", 490)},
	}
}

func shapes(time.Duration) {
	for _, c := range shapeTexts(1 << 20) {
		text := c[1]
		measure(fmt.Sprintf("shapes: %s, %d KiB", c[0], len(text)>>10), len(text), func() (string, error) {
			_, err := schema.Parse(text)
			return "", err
		})
	}
}
