package fuzz

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// FuzzStringRuns compares the decoders' one-copy reads of short strings (a
// record's consecutive string fields, a block of a map of strings) with
// their value-by-value reads, which ValidateUTF8 selects: on any input and
// limits both give the same value or the same error (path and offset
// included), unless the input holds invalid UTF-8, which only the second
// checks.
//
//	go test -run '^$' -fuzz '^FuzzStringRuns$' -fuzztime 60s ./fuzz/
func FuzzStringRuns(f *testing.F) {
	const writer = `{"type":"record","name":"Runs","namespace":"fuzz","fields":[
		{"name":"a","type":"string"},{"name":"b","type":"string"},{"name":"c","type":"string"},
		{"name":"n","type":"long"},
		{"name":"m","type":{"type":"map","values":"string"}},
		{"name":"d","type":"string"},{"name":"e","type":"string"}]}`
	// The resolved read reorders the fields and drops n.
	const reader = `{"type":"record","name":"Runs","namespace":"fuzz","fields":[
		{"name":"c","type":"string"},{"name":"a","type":"string"},
		{"name":"m","type":{"type":"map","values":"string"}},
		{"name":"d","type":"string"},{"name":"e","type":"string"},{"name":"b","type":"string"}]}`
	type runs struct {
		A string            `avro:"a"`
		B string            `avro:"b"`
		C string            `avro:"c"`
		N int64             `avro:"n"`
		M map[string]string `avro:"m"`
		D string            `avro:"d"`
		E string            `avro:"e"`
	}
	w := schema.MustParse(writer)
	rs, err := schema.Resolve(w, schema.MustParse(reader))
	if err != nil {
		f.Fatal(err)
	}
	targets := []struct {
		s   *schema.Schema
		new func() any
	}{
		{w, func() any { return new(runs) }},
		{w, func() any { return new(value.Value) }},
		{w, func() any { return new(any) }},
		{rs, func() any { return new(runs) }},
	}
	for _, v := range []runs{
		{A: "a", B: "bb", C: "", N: 7, M: map[string]string{"k": "v", "": "x"}, D: "d", E: "e"},
		{A: strings.Repeat("a", 63), B: strings.Repeat("b", 64), C: "c", M: map[string]string{"k": strings.Repeat("v", 70)}},
		{A: "é", B: "日本", C: "ok", N: -1, M: map[string]string{"ключ": "значение"}, D: "", E: ""},
	} {
		data, err := avro.Marshal(w, &v)
		if err != nil {
			f.Fatal(err)
		}
		for which := range len(targets) {
			f.Add(uint8(which), uint16(0), uint16(0), data)
			f.Add(uint8(which), uint16(3), uint16(20), data)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, maxLength, maxAlloc uint16, data []byte) {
		tg := targets[int(which)%len(targets)]
		o := avro.DecodeOptions{MaxLength: int64(maxLength), MaxAlloc: int64(maxAlloc)}
		ref := o
		ref.ValidateUTF8 = true
		got, want := tg.new(), tg.new()
		gotErr, wantErr := o.Unmarshal(tg.s, data, got), ref.Unmarshal(tg.s, data, want)
		if wantErr != nil && strings.Contains(wantErr.Error(), "not valid UTF-8") {
			return
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("input % x, %+v:\none copy:       %v\nvalue by value: %v", data, o, gotErr, wantErr)
		}
		if gotErr != nil {
			checkDecodeError(t, gotErr)
			return
		}
		if d := cmp.Diff(want, got, cmpOpts); d != "" {
			t.Fatalf("input % x, %+v (-value by value +one copy):\n%s", data, o, d)
		}
	})
}
