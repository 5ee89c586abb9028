package avro

import (
	"fmt"
	"strings"
	"testing"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Regressions found by a review of the value-arena, string-span and
// resolution changes.

// A block of eight or more strings is copied at once; it charged the
// allocation limit for the length bytes too, so a MaxAlloc that the
// string-by-string path (and the purego build) accepts failed, with no
// item index in the error.
func TestStringSpanChargesLikeEachString(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":"string"}`)
	data, err := Marshal(s, []string{"a", "b", "c", "d", "e", "f", "g", "h"})
	if err != nil {
		t.Fatal(err)
	}
	for limit := int64(1); limit < 400; limit++ {
		o := DecodeOptions{MaxAlloc: limit}
		each := newDecodeState(&o, data)
		each.pos = 1 // after the block count
		decodeStringsEach(make([]string, 8), each)
		eachErr := each.toError()
		each.release()

		block := newDecodeState(&o, data)
		block.pos = 1
		decodeStringsBlock(make([]string, 8), block)
		blockErr := block.toError()
		block.release()
		if fmt.Sprint(eachErr) != fmt.Sprint(blockErr) {
			t.Fatalf("MaxAlloc %d: one by one %v, as a block %v", limit, eachErr, blockErr)
		}
	}
}

// A resolved read decodes the transcoded bytes on its own state; when that
// decode failed, the offset mapping transcoded again with the budgets the
// failed decode had spent, stopped early and named the wrong offset. The
// error must be the one a plain read of the same bytes reports.
func TestResolvedErrorOffsetAfterSpentBudgets(t *testing.T) {
	type inner struct {
		N int8 `avro:"n"`
	}
	type mid struct {
		T inner `avro:"t"`
	}
	type rec struct {
		Pre []int64  `avro:"pre"`
		S   mid      `avro:"s"`
		B   []string `avro:"b"`
	}
	fields := func(pre string) string {
		return `{"type":"record","name":"R","fields":[
			{"name":"pre","type":{"type":"array","items":"` + pre + `"}},
			{"name":"s","type":{"type":"record","name":"S","fields":[{"name":"t","type":{"type":"record","name":"T","fields":[
				{"name":"n","type":"long"}]}}]}},
			{"name":"b","type":{"type":"array","items":"string"}}]}`
	}
	w, r := schema.MustParse(fields("int")), schema.MustParse(fields("long"))
	rs, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	many := make([]any, 50)
	for i := range many {
		many[i] = "y"
	}
	for name, c := range map[string]struct {
		n    int64
		opts DecodeOptions
	}{
		"allocation limit": {5, DecodeOptions{MaxAlloc: 400}},  // fails in b
		"depth":            {1000, DecodeOptions{MaxDepth: 4}}, // 1000 overflows int8 three records deep
	} {
		data, err := Marshal(w, map[string]any{"pre": []any{int32(1), int32(2), int32(3)},
			"s": map[string]any{"t": map[string]any{"n": c.n}}, "b": many})
		if err != nil {
			t.Fatal(err)
		}
		// Each read into a new value: a second read into the first one's
		// value reuses its slices, which costs no budget, and so fails
		// later (on 32-bit platforms, where strings take 8 bytes, at b[0]
		// rather than b).
		plain := c.opts.Unmarshal(r, data, new(rec))
		resolved := c.opts.Unmarshal(rs, data, new(rec))
		if plain == nil || fmt.Sprint(plain) != fmt.Sprint(resolved) {
			t.Errorf("%s: plain read %v, resolved read %v", name, plain, resolved)
		}
	}
}

// fixedValues walked the schema as a tree: records that reuse named
// records as fields many times over cost fanout^depth, 20 s for a schema
// of a few KB, before a value.Value decoder was compiled.
func TestFixedValuesOfReusedRecords(t *testing.T) {
	const fan, levels = 16, 8
	inner := `{"type":"record","name":"L","fields":[{"name":"x","type":"int"}]}`
	for l := levels - 1; l >= 0; l-- {
		var fs []string
		for i := range fan {
			typ := inner
			if i > 0 {
				typ = fmt.Sprintf("%q", fmt.Sprintf("R%d", l+1))
				if l == levels-1 {
					typ = `"L"`
				}
			}
			fs = append(fs, fmt.Sprintf(`{"name":"f%d","type":%s}`, i, typ))
		}
		inner = fmt.Sprintf(`{"type":"record","name":"R%d","fields":[%s]}`, l, strings.Join(fs, ","))
	}
	// Walked as a tree, this takes 16^8 steps: the test then runs into
	// go test's timeout.
	s := schema.MustParse(inner)
	var v value.Value
	_ = Unmarshal(s, []byte{0}, &v) // compiles the decoder
	if n := fixedValues(s); n != arenaMaxBlock {
		t.Errorf("fixedValues = %d, want the cap %d", n, arenaMaxBlock)
	}
}
