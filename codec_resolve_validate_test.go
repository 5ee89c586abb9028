package avro_test

import (
	"errors"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Reading through a resolution whose reader union (or enum) has more
// branches (symbols) than the writer's, and maps the writer's to
// themselves, or that reads an int as a long, ran no transcoder: the
// reader's decoder read the writer's bytes and accepted an index (or a
// long) the writer cannot have written. What reads through a resolution
// must be valid writer data.
func TestResolveWidenedUnionChecksWriterIndex(t *testing.T) {
	cases := []struct {
		writer, reader string
		bad, good      []byte
	}{
		{`["null","long"]`, `["null","long","string"]`, []byte{4, 0}, []byte{2, 2}},
		{`{"type":"enum","name":"E","symbols":["A","B"]}`, `{"type":"enum","name":"E","symbols":["A","B","C"]}`, []byte{4}, []byte{2}},
		{`{"type":"array","items":["null","long"]}`, `{"type":"array","items":["null","long","string"]}`, []byte{2, 4, 0, 0}, []byte{2, 2, 2, 0}},
		// int read as long: 2^31 is a long, not an int.
		{`"int"`, `"long"`, []byte{0x80, 0x80, 0x80, 0x80, 0x10}, []byte{0xfe, 0xff, 0xff, 0xff, 0x0f}},
		{`{"type":"array","items":"int"}`, `{"type":"array","items":"long"}`, []byte{2, 0x80, 0x80, 0x80, 0x80, 0x10, 0}, []byte{2, 2, 0}},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}`,
			`{"type":"record","name":"R","fields":[{"name":"a","type":"long"},{"name":"b","type":"string"}]}`,
			[]byte{0xff, 0xff, 0xff, 0xff, 0x1f, 0}, []byte{2, 2, 'x'}},
	}
	for _, tc := range cases {
		rs, err := schema.Resolve(schema.MustParse(tc.writer), schema.MustParse(tc.reader))
		if err != nil {
			t.Fatal(err)
		}
		var v value.Value
		if err := avro.Unmarshal(rs, tc.bad, &v); !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s read as %s: % x gave %v, %v; want ErrInvalid", tc.writer, tc.reader, tc.bad, v, err)
		}
		var a any
		if err := avro.Unmarshal(rs, tc.bad, &a); !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s into any: % x gave %v; want ErrInvalid", tc.writer, tc.bad, err)
		}
		if err := avro.Unmarshal(rs, tc.good, &v); err != nil {
			t.Errorf("%s read as %s: % x: %v", tc.writer, tc.reader, tc.good, err)
		}
	}
}

// Bytes written by a writer schema and read as a string (the bytes-to-
// string promotion) are copied by the transcoder; with ValidateUTF8 the
// reader's string decoder must still reject invalid UTF-8, in every
// target, and pass it through without the option.
func TestResolvedBytesAsStringValidatesUTF8(t *testing.T) {
	w := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"s","type":"bytes"}]}`)
	r := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"s","type":"string"}]}`)
	rs, err := schema.Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte{6, 'a', 0xff, 'b'}
	strict := avro.DecodeOptions{ValidateUTF8: true}
	type rec struct {
		S string `avro:"s"`
	}
	targets := map[string]func() any{
		"struct": func() any { return new(rec) },
		"any":    func() any { return new(any) },
		"value":  func() any { return new(value.Value) },
	}
	for name, target := range targets {
		err := strict.Unmarshal(rs, data, target())
		if !errors.Is(err, avro.ErrInvalid) {
			t.Errorf("%s: ValidateUTF8 read of invalid UTF-8 through bytes->string: %v, want ErrInvalid", name, err)
		}
		var e *avro.Error
		if errors.As(err, &e) && e.Path != "s" {
			t.Errorf("%s: error path %q, want s", name, e.Path)
		}
		if err := avro.Unmarshal(rs, data, target()); err != nil {
			t.Errorf("%s: default read: %v", name, err)
		}
	}
}
