package fuzz

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// hostileCorpus returns the inputs of the hostile corpus of
// testdata/hostile/cases.json (run in full by the root package's
// hostile_test.go), as fuzzing seeds: the datum cases, and the container
// cases (files and hex; the generated compression bombs are left out).
// Inputs are cut to maxLen bytes: the fuzzer mutates short inputs best,
// and a cut hostile input is still hostile.
func hostileCorpus(tb testing.TB, maxLen int) (datums, containers [][]byte) {
	tb.Helper()
	const dir = "../testdata/hostile/"
	b, err := os.ReadFile(dir + "cases.json")
	if err != nil {
		tb.Fatal(err)
	}
	type hcase struct {
		Input [][2]any `json:"input"`
	}
	var m struct {
		Cases      []hcase `json:"cases"`
		Containers []hcase `json:"containers"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	build := func(c hcase) []byte {
		var out []byte
		for _, seg := range c.Input {
			h, _ := seg[0].(string)
			n, _ := seg[1].(float64)
			if name, ok := strings.CutPrefix(h, "file:"); ok {
				f, err := os.ReadFile(dir + name)
				if err != nil {
					tb.Fatal(err)
				}
				return f
			}
			if strings.HasPrefix(h, "gen:") {
				return nil
			}
			p, err := hex.DecodeString(h)
			if err != nil {
				tb.Fatal(err)
			}
			for i := 0; i < int(n) && len(out) < maxLen; i++ {
				out = append(out, p...)
			}
		}
		if len(out) > maxLen {
			out = out[:maxLen]
		}
		return out
	}
	for _, c := range m.Cases {
		datums = append(datums, build(c))
	}
	for _, c := range m.Containers {
		if in := build(c); in != nil {
			containers = append(containers, in)
		}
	}
	if len(datums) < 60 || len(containers) < 20 {
		tb.Fatalf("hostile corpus: only %d datums and %d containers", len(datums), len(containers))
	}
	return datums, containers
}

// wrapContainer returns a container file of schema text whose one block
// holds datum as its only record.
func wrapContainer(schemaText string, datum []byte) []byte {
	long := func(b []byte, v int64) []byte {
		u := uint64(v<<1) ^ uint64(v>>63)
		for u >= 0x80 {
			b = append(b, byte(u)|0x80)
			u >>= 7
		}
		return append(b, byte(u))
	}
	sync := bytes.Repeat([]byte{0x5a}, 16)
	b := long([]byte("Obj\x01"), 1)
	b = long(b, int64(len("avro.schema")))
	b = append(b, "avro.schema"...)
	b = long(b, int64(len(schemaText)))
	b = append(b, schemaText...)
	b = append(b, 0)
	b = append(b, sync...)
	b = long(long(b, 1), int64(len(datum)))
	b = append(b, datum...)
	return append(b, sync...)
}
