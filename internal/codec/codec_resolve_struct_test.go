package codec

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/avrogo/avro/internal/structgen"
	"github.com/avrogo/avro/schema"
	"github.com/google/go-cmp/cmp"
)

// transcodedUnmarshal decodes data as Unmarshal would, but always through
// the transcoder, the general path the direct struct decoder stands in
// for.
func transcodedUnmarshal(s *schema.Schema, data []byte, v any) error {
	rv := reflect.ValueOf(v)
	inner, err := newCompiler().decoderFor(s, rv.Type().Elem(), "")
	if err != nil {
		return err
	}
	prog := transcoderOf(s)
	if prog == nil {
		return errors.New("no transcoder: the resolution is an identity")
	}
	dec := &resolvingDecoder{prog: prog, inner: inner}
	d := newDecodeState(&DecodeOptions{}, data)
	defer d.release()
	dec.decode(pointerOfValue(rv), d)
	if d.Err == nil && d.Pos != len(data) {
		return fmt.Errorf("%d bytes left", len(data)-d.Pos)
	}
	return d.toError()
}

// TestResolveStructDirect checks the direct struct path against the
// transcoder on every record evolution of resolveCases and on the
// benchmark shapes: the same values for the whole datum, and the same
// error (sentinel and path) for every truncated prefix.
func TestResolveStructDirect(t *testing.T) {
	cases := []resolveCase{{
		name:   "rec10-evolved",
		writer: benchRec10,
		reader: benchRec10Evolved,
		written: map[string]any{
			"id": int32(-70000), "ts": int64(1) << 50, "name": "rec", "score": 1.25, "active": true,
			"counts": []any{int64(1), int64(-1) << 40}, "attrs": map[string]any{"k": "v", "k2": "v2"},
			"note": "n", "digest": []byte("0123456789abcdef"),
			"inner": map[string]any{"seq": int64(99), "label": "lbl"},
		},
	}, {
		name:    "union-and-enum-fields",
		writer:  `{"type":"record","name":"R","fields":[{"name":"u","type":["null","int","string"]},{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B","C"]}},{"name":"p","type":["null",{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"float"}]}]},{"name":"k","type":"int"}]}`,
		reader:  `{"type":"record","name":"R","fields":[{"name":"k","type":"long"},{"name":"u","type":["null","string","long"]},{"name":"e","type":{"type":"enum","name":"E","symbols":["C","A","Z"],"default":"Z"}},{"name":"p","type":["null",{"type":"record","name":"P","fields":[{"name":"b","type":"double"},{"name":"c","type":"string","default":"c"}]}]}]}`,
		written: map[string]any{"u": int32(5), "e": "B", "p": map[string]any{"a": int32(1), "b": float32(2.5)}, "k": int32(-300)},
	}, {
		name:    "nested-direct",
		writer:  `{"type":"record","name":"O","fields":[{"name":"x","type":"int"},{"name":"in","type":{"type":"record","name":"I","fields":[{"name":"a","type":"int"},{"name":"gone","type":"string"},{"name":"b","type":"long"}]}},{"name":"y","type":"string"}]}`,
		reader:  `{"type":"record","name":"O","fields":[{"name":"x","type":"long"},{"name":"in","type":{"type":"record","name":"I","fields":[{"name":"a","type":"long"},{"name":"b","type":"double"},{"name":"n","type":{"type":"array","items":"int"},"default":[1,2,3]}]}},{"name":"y","type":"bytes"},{"name":"z","type":"string","default":"zz"}]}`,
		written: map[string]any{"x": int32(7), "in": map[string]any{"a": int32(-1), "gone": "bye", "b": int64(1) << 40}, "y": "why"},
	}}
	for _, c := range resolveCases {
		if c.wantErr == "" && strings.HasPrefix(strings.TrimSpace(c.reader), `{"type":"record"`) {
			cases = append(cases, c)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, rs := mustResolve(t, c.writer, c.reader)
			written := c.written
			data, err := Marshal(w, &written)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			typ := structgen.TypeOf(rs)
			direct := reflect.New(typ)
			target := direct.Interface()
			dec, _, err := topDecoder(rs, &target)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := dec.(*structDecoder); !ok {
				t.Fatalf("decoder is %T, not the direct struct decoder", dec)
			}
			if transcoderOf(rs) == nil {
				// The writer encodes like the reader: the plain decoder
				// serves, and there is no transcoder to compare with.
				if !isPlainStructDecoder(dec.(*structDecoder), len(rs.Fields())) {
					t.Fatal("identity resolution: not the reader's own decoder")
				}
				return
			}
			if err := Unmarshal(rs, data, direct.Interface()); err != nil {
				t.Fatalf("direct: %v", err)
			}
			viaTranscoder := reflect.New(typ)
			if err := transcodedUnmarshal(rs, data, viaTranscoder.Interface()); err != nil {
				t.Fatalf("transcoder: %v", err)
			}
			if diff := cmp.Diff(viaTranscoder.Interface(), direct.Interface()); diff != "" {
				t.Fatalf("direct vs transcoder (-transcoder +direct):\n%s", diff)
			}
			// The streaming Decoder refills in the middle of fields read
			// directly, one byte at a time, and stops at each datum's end.
			dec2 := NewDecoder(iotestOneByte(append(append([]byte(nil), data...), data...)), rs)
			for i := 0; i < 2; i++ {
				streamed := reflect.New(typ)
				if err := dec2.Decode(streamed.Interface()); err != nil {
					t.Fatalf("stream %d: %v", i, err)
				}
				if diff := cmp.Diff(direct.Interface(), streamed.Interface()); diff != "" {
					t.Fatalf("stream %d (-Unmarshal +Decoder):\n%s", i, diff)
				}
			}
			if err := dec2.Decode(reflect.New(typ).Interface()); err != io.EOF {
				t.Fatalf("stream end: %v, want io.EOF", err)
			}
			for n := range len(data) {
				errDirect := Unmarshal(rs, data[:n], reflect.New(typ).Interface())
				errTrans := transcodedUnmarshal(rs, data[:n], reflect.New(typ).Interface())
				var ed, et *Error
				if !errors.As(errDirect, &ed) || !errors.As(errTrans, &et) || !errors.Is(errDirect, ErrTruncated) ||
					!errors.Is(errTrans, ErrTruncated) || !samePathOrParent(ed.Path, et.Path) || ed.Offset > int64(n) {
					t.Fatalf("prefix %d: direct %v, transcoder %v", n, errDirect, errTrans)
				}
			}
		})
	}
}

// samePathOrParent reports whether the two paths name the same field:
// inside a collection they may name the item differently (the bulk array
// kernels of the direct path report a truncated array without the item's
// index, the map decoder names the key, the transcoder's skipper the
// index).
func samePathOrParent(direct, path string) bool {
	field := func(p string) string {
		if i := strings.IndexByte(p, '['); i >= 0 {
			return p[:i]
		}
		return p
	}
	return field(direct) == field(path)
}

// isPlainStructDecoder reports whether sd is the reader's own decoder of
// a record of n fields: no skipped writer fields, promotions or defaults.
func isPlainStructDecoder(sd *structDecoder, n int) bool {
	if sd.defaults != nil || len(sd.fields) != n {
		return false
	}
	for _, f := range sd.fields {
		if f.op == fieldSkip || f.op == fieldIntAsInt64 {
			return false
		}
	}
	return true
}

// A struct that lacks a field the reader wants still has that field's
// resolution checked: an enum symbol the reader lacks, or a union branch
// it cannot read, fails as it does through the transcoder; the error names
// the reader's field, also when it was renamed through an alias.
func TestResolveStructMissingFieldValidated(t *testing.T) {
	w, rs := mustResolve(t,
		`{"type":"record","name":"R","fields":[
		 {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},
		 {"name":"u","type":["null","string"]},{"name":"old","type":"string"},{"name":"k","type":"int"}]}`,
		`{"type":"record","name":"R","fields":[
		 {"name":"e","type":{"type":"enum","name":"E","symbols":["A"]}},
		 {"name":"u","type":"string"},{"name":"new","aliases":["old"],"type":"string"},{"name":"k","type":"long"}]}`)
	type onlyK struct {
		K int64 `avro:"k"`
	}
	for _, c := range []struct {
		in      map[string]any
		wantErr string // "" for success
	}{
		{map[string]any{"e": "A", "u": "x", "old": "o", "k": int32(3)}, ""},
		{map[string]any{"e": "B", "u": "x", "old": "o", "k": int32(3)}, "e"},
		{map[string]any{"e": "A", "u": nil, "old": "o", "k": int32(3)}, "u"},
	} {
		data, err := Marshal(w, &c.in)
		if err != nil {
			t.Fatal(err)
		}
		var got onlyK
		errD := Unmarshal(rs, data, &got)
		errT := Unmarshal(rs, data, new(map[string]any)) // the transcoder
		if (errD == nil) != (errT == nil) {
			t.Fatalf("%v: direct %v, transcoder %v", c.in, errD, errT)
		}
		var e *Error
		switch {
		case c.wantErr == "" && (errD != nil || got.K != 3):
			t.Fatalf("%v: %v, k = %d", c.in, errD, got.K)
		case c.wantErr != "" && (!errors.As(errD, &e) || !errors.Is(errD, ErrInvalid) || e.Path != c.wantErr):
			t.Fatalf("%v: %#v, want an ErrInvalid at %q", c.in, errD, c.wantErr)
		}
	}
	// A truncated renamed field is named by the reader's name.
	data, _ := Marshal(w, &map[string]any{"e": "A", "u": "x", "old": "oooo", "k": int32(3)})
	var e *Error
	if err := Unmarshal(rs, data[:len(data)-3], new(onlyK)); !errors.As(err, &e) || e.Path != "new" {
		t.Fatalf("truncated renamed field: %v, want the path new", err)
	}
}
