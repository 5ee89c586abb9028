package schema

import (
	"fmt"
	"strings"
	"testing"
)

// maxAllocPerByte bounds what parsing allocates in all, temporary
// garbage included, for each byte of schema text: the memory a registry
// or container header can make a reader spend is in proportion to what it
// sends.
const maxAllocPerByte = 20

// costlyShapes are the schema shapes that cost the parser the most for
// their length, each about n bytes long.
func costlyShapes(n int) map[string]string {
	shapes := map[string]string{}
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
	shapes["nullable fields"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":["null","string"],"default":null}`, i)
	})
	shapes["small unions"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":["null","int"]}`, i)
	})
	shapes["bare fields"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":"int"}`, i)
	})
	shapes["named types"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":{"type":"fixed","name":"X%d","size":1}}`, i, i)
	})
	shapes["enums"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":{"type":"enum","name":"E%d","symbols":["A"]}}`, i, i)
	})
	shapes["references"] = record(func(i int) string {
		if i == 0 {
			return `{"name":"f0","type":{"type":"fixed","name":"X","size":1}}`
		}
		return fmt.Sprintf(`{"name":"f%d","type":"X"}`, i)
	})
	shapes["arrays"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":{"type":"array","items":"int"}}`, i)
	})
	shapes["aliases"] = repeat(`{"type":"fixed","name":"X","namespace":"a.b","size":1,"aliases":[`, `]}`, func(i int) string {
		return fmt.Sprintf(`"a%d"`, i)
	})
	shapes["field aliases"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":"int","aliases":["a%d"]}`, i, i)
	})
	shapes["docs"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":"int","doc":"%s"}`, i, strings.Repeat("d", 200))
	})
	shapes["props"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":{"type":"int","p":[1,{"q":[]}]}}`, i)
	})
	shapes["big default"] = `{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"array","items":"int"},"default":[` +
		strings.TrimSuffix(strings.Repeat("1,", n/2), ",") + `]}]}`
	shapes["record defaults"] = record(func(i int) string {
		return fmt.Sprintf(`{"name":"f%d","type":{"type":"map","values":"long"},"default":{"a":1,"b":2}}`, i)
	})
	var deep strings.Builder
	levels := 300
	for i := range levels {
		fmt.Fprintf(&deep, `{"type":"record","name":"D%d","fields":[{"name":"f","type":`, i)
	}
	shapes["deep records"] = deep.String() + `"int"` + strings.Repeat("}]}", levels)
	levels = 490
	shapes["deep arrays"] = strings.Repeat(`{"type":"array","items":`, levels) + `"int"` + strings.Repeat("}", levels)
	return shapes
}

// shapeBounds are the bytes each shape of costlyShapes may allocate for
// each byte of its text: maxAllocPerByte, or less for the shapes that
// large records of plain fields take (a record of a million nullable
// fields must parse in a few hundred MiB) and for those that cost the
// most, a node of their own for about every 25 to 60 bytes of text, so
// that a change that brings their cost back fails here.
var shapeBounds = map[string]float64{
	"nullable fields": 8, "small unions": 8, "bare fields": 10, "field aliases": 11,
	"docs": 5, "references": 13, "aliases": 11,
	"arrays": maxAllocPerByte, "big default": maxAllocPerByte,
	"named types": maxAllocPerByte, "enums": maxAllocPerByte,
	"record defaults": 18.5, "deep records": 19.5, "props": 17, "deep arrays": 19,
}

func TestParseAllocatesInProportionToText(t *testing.T) {
	shapes := costlyShapes(256 << 10)
	for name, text := range shapes {
		bound, ok := shapeBounds[name]
		if !ok {
			t.Errorf("shape %q has no bound", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			var err error
			got := allocated(func() { _, err = Parse(text) })
			if err != nil {
				t.Fatal(err)
			}
			per := float64(got) / float64(len(text))
			t.Logf("%s: %d bytes of text, %d allocated, %.1f a byte", name, len(text), got, per)
			if per > bound*allocSlack {
				t.Errorf("parsing %d bytes allocated %d, %.1f a byte, more than %g", len(text), got, per, bound*allocSlack)
			}
		})
	}
}
