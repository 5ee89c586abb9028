package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// Raw streams: datums written back to back with no header, read with a
// Decoder and written with an Encoder. The data is lang/js's
// person-10.avro.raw, with the records the Python reference decoded from it
// (derived/raw-streams.json).

type streamAddress struct {
	Zipcode int32 `avro:"zipcode" json:"zipcode"`
}

type streamPerson struct {
	Name    string        `avro:"name" json:"name"`
	Age     *int32        `avro:"age" json:"age"`
	Gender  string        `avro:"gender" json:"gender"`
	Address streamAddress `avro:"address" json:"address"`
}

type streamData struct {
	s       *schema.Schema
	raw     []byte
	records []streamPerson // decoded by encoding/json from raw-streams.json
	anys    []any          // the same, as Unmarshal into *any gives them
	ends    []int          // ends[i] is the offset just after record i
}

func streamLoad(t *testing.T) streamData {
	t.Helper()
	var d streamData
	var meta map[string]struct {
		Path       string            `json:"path"`
		SchemaPath string            `json:"schema_path"`
		Records    []json.RawMessage `json:"records"`
	}
	if err := json.Unmarshal(vecReadFile(t, "derived/raw-streams.json"), &meta); err != nil {
		t.Fatal(err)
	}
	m, ok := meta["person-10.avro.raw"]
	if !ok || m.Path != "lang/js/test/dat/person-10.avro.raw" || m.SchemaPath != "lang/js/test/dat/Person.avsc" {
		t.Fatalf("raw-streams.json: unexpected entry %+v", m)
	}
	s, err := schema.Parse(string(vecReadFile(t, m.SchemaPath)))
	if err != nil {
		t.Fatalf("Person.avsc: %v", err)
	}
	d.s = s
	d.raw = vecReadFile(t, m.Path)
	if len(m.Records) != 10 {
		t.Fatalf("raw-streams.json has %d records, want 10", len(m.Records))
	}
	for _, r := range m.Records {
		var p streamPerson
		if err := json.Unmarshal(r, &p); err != nil {
			t.Fatal(err)
		}
		d.records = append(d.records, p)
		x, err := vecDecodeJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		a, err := vecToGo(s, x, false)
		if err != nil {
			t.Fatal(err)
		}
		d.anys = append(d.anys, a)
	}
	// Datum boundaries, from the Python records' encodings; the stream
	// must be exactly their concatenation (checked in
	// TestStreamEncoderPerson10).
	end := 0
	for _, p := range d.records {
		b, err := Marshal(s, &p)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", p, err)
		}
		end += len(b)
		d.ends = append(d.ends, end)
	}
	return d
}

// streamDecodeAll decodes datums of s from r into new values of type T
// until an error, and returns the values and that error.
func streamDecodeAll[T any](s *schema.Schema, r io.Reader) ([]T, error) {
	dec := NewDecoder(r, s)
	var out []T
	for i := 0; i < 100; i++ {
		var v T
		if err := dec.Decode(&v); err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, errors.New("more than 100 datums")
}

func TestStreamDecodePerson10(t *testing.T) {
	d := streamLoad(t)
	readers := map[string]func() io.Reader{
		"bytes.Reader":  func() io.Reader { return bytes.NewReader(d.raw) },
		"OneByteReader": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(d.raw)) },
		"HalfReader":    func() io.Reader { return iotest.HalfReader(bytes.NewReader(d.raw)) },
		"DataErrReader": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(d.raw)) },
	}
	for name, newReader := range readers {
		t.Run(name, func(t *testing.T) {
			got, err := streamDecodeAll[streamPerson](d.s, newReader())
			if err != io.EOF {
				t.Errorf("after %d records: err = %v, want io.EOF", len(got), err)
			}
			if diff := cmp.Diff(d.records, got); diff != "" {
				t.Errorf("struct records (-want +got):\n%s", diff)
			}

			anys, err := streamDecodeAll[any](d.s, newReader())
			if err != io.EOF {
				t.Errorf("any: after %d records: err = %v, want io.EOF", len(anys), err)
			}
			if diff := cmp.Diff(d.anys, anys, vecCmp); diff != "" {
				t.Errorf("any records (-want +got):\n%s", diff)
			}

			vals, err := streamDecodeAll[value.Value](d.s, newReader())
			if err != io.EOF {
				t.Errorf("value.Value: after %d records: err = %v, want io.EOF", len(vals), err)
			}
			var fromVals []any
			for _, v := range vals {
				x, err := vecValueToGo(d.s, v)
				if err != nil {
					t.Fatal(err)
				}
				fromVals = append(fromVals, x)
			}
			if diff := cmp.Diff(d.anys, fromVals, vecCmp); diff != "" {
				t.Errorf("value.Value records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStreamDecodeEOFIsSticky: once the stream has ended, Decode keeps
// returning io.EOF.
func TestStreamDecodeEOFIsSticky(t *testing.T) {
	d := streamLoad(t)
	dec := NewDecoder(bytes.NewReader(d.raw), d.s)
	for range d.records {
		var p streamPerson
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		var p streamPerson
		if err := dec.Decode(&p); err != io.EOF {
			t.Fatalf("Decode #%d after the end = %v, want io.EOF", i+1, err)
		}
	}
	var empty streamPerson
	if err := NewDecoder(bytes.NewReader(nil), d.s).Decode(&empty); err != io.EOF {
		t.Errorf("Decode of an empty stream = %v, want io.EOF", err)
	}
}

// TestStreamDecodeTruncated cuts the stream at every offset: a cut between
// datums ends it with io.EOF, a cut inside one with an *Error that matches
// both ErrTruncated and io.ErrUnexpectedEOF, after the whole datums before
// the cut.
func TestStreamDecodeTruncated(t *testing.T) {
	d := streamLoad(t)
	if d.ends[len(d.ends)-1] != len(d.raw) {
		t.Fatalf("records end at %d, stream has %d bytes", d.ends[len(d.ends)-1], len(d.raw))
	}
	for cut := 0; cut < len(d.raw); cut++ {
		whole := 0 // records that end at or before cut
		for whole < len(d.ends) && d.ends[whole] <= cut {
			whole++
		}
		start := 0
		if whole > 0 {
			start = d.ends[whole-1]
		}
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = bytes.NewReader(d.raw[:cut])
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			got, err := streamDecodeAll[streamPerson](d.s, r)
			where := fmt.Sprintf("cut at %d (oneByte %v)", cut, oneByte)
			if diff := cmp.Diff(d.records[:whole], got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: records (-want +got):\n%s", where, diff)
			}
			if cut == start {
				if err != io.EOF {
					t.Errorf("%s, between datums: err = %v, want io.EOF", where, err)
				}
				continue
			}
			if !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s, inside datum %d: err = %v, want ErrTruncated and io.ErrUnexpectedEOF", where, whole, err)
				continue
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s: err %T is not an *Error", where, err)
			} else if e.Offset < int64(start) || e.Offset > int64(cut) {
				t.Errorf("%s: error offset %d outside the cut datum [%d, %d]", where, e.Offset, start, cut)
			}
		}
	}
}

// TestStreamDecodeReaderError: an error of the reader, other than io.EOF,
// is returned as it is, not as truncated data.
func TestStreamDecodeReaderError(t *testing.T) {
	d := streamLoad(t)
	r := io.MultiReader(bytes.NewReader(d.raw[:d.ends[0]+3]), iotest.ErrReader(iotest.ErrTimeout))
	got, err := streamDecodeAll[streamPerson](d.s, r)
	if !errors.Is(err, iotest.ErrTimeout) {
		t.Errorf("err = %v, want iotest.ErrTimeout", err)
	}
	if errors.Is(err, ErrTruncated) {
		t.Errorf("err = %v matches ErrTruncated; the reader failed, the data was not cut", err)
	}
	if diff := cmp.Diff(d.records[:1], got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// stallingReader returns data, then n reads of no bytes and no error
// (forever when n < 0), then rest, then io.EOF.
type stallingReader struct {
	data, rest []byte
	n, reads   int
}

func (r *stallingReader) Read(p []byte) (int, error) {
	r.reads++
	if len(r.data) > 0 {
		k := copy(p, r.data)
		r.data = r.data[k:]
		return k, nil
	}
	if r.n != 0 {
		r.n--
		return 0, nil
	}
	if len(r.rest) > 0 {
		k := copy(p, r.rest)
		r.rest = r.rest[k:]
		return k, nil
	}
	return 0, io.EOF
}

// Guards a reader that returns no bytes and no error: Decode looped on it
// at full CPU forever. It is io.ErrNoProgress after 100 such reads in a
// row, as in bufio; fewer are waited out.
func TestStreamDecodeReaderNoProgress(t *testing.T) {
	d := streamLoad(t)
	r := &stallingReader{data: d.raw[:d.ends[0]+3], n: -1}
	got, err := streamDecodeAll[streamPerson](d.s, r)
	if !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("err = %v, want io.ErrNoProgress", err)
	}
	if r.reads > 200 {
		t.Errorf("%d reads before giving up", r.reads)
	}
	if diff := cmp.Diff(d.records[:1], got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	// 99 empty reads inside a datum, then the rest of the stream: every
	// record.
	cut := d.ends[0] + 3
	r = &stallingReader{data: d.raw[:cut], n: 99, rest: d.raw[cut:]}
	all, err := streamDecodeAll[streamPerson](d.s, r)
	if err != io.EOF || len(all) != len(d.records) {
		t.Fatalf("a reader that stalls 99 times: %d records, %v; want %d and io.EOF", len(all), err, len(d.records))
	}
}

// TestStreamEncoderPerson10 writes the records back with an Encoder: the
// bytes are those of the upstream file, from structs, any and value.Value.
func TestStreamEncoderPerson10(t *testing.T) {
	d := streamLoad(t)

	var buf bytes.Buffer
	enc := NewEncoder(&buf, d.s)
	for i := range d.records {
		if err := enc.Encode(&d.records[i]); err != nil {
			t.Fatalf("Encode(record %d): %v", i, err)
		}
	}
	if !bytes.Equal(buf.Bytes(), d.raw) {
		t.Errorf("Encoder from structs:\n got %x\nwant %x", buf.Bytes(), d.raw)
	}

	buf.Reset()
	enc = NewEncoder(&buf, d.s)
	for i, p := range d.records {
		if err := enc.Encode(p); err != nil { // by value, not pointer
			t.Fatalf("Encode(record %d by value): %v", i, err)
		}
	}
	if !bytes.Equal(buf.Bytes(), d.raw) {
		t.Errorf("Encoder from struct values:\n got %x\nwant %x", buf.Bytes(), d.raw)
	}

	buf.Reset()
	enc = NewEncoder(&buf, d.s)
	for i, a := range d.anys {
		if err := enc.Encode(a); err != nil {
			t.Fatalf("Encode(any record %d): %v", i, err)
		}
	}
	if !bytes.Equal(buf.Bytes(), d.raw) {
		t.Errorf("Encoder from any:\n got %x\nwant %x", buf.Bytes(), d.raw)
	}

	vals, err := streamDecodeAll[value.Value](d.s, bytes.NewReader(d.raw))
	if err != io.EOF || len(vals) != 10 {
		t.Fatalf("decoding value.Value records: %d, %v", len(vals), err)
	}
	buf.Reset()
	enc = NewEncoder(&buf, d.s)
	for i := range vals {
		if err := enc.Encode(&vals[i]); err != nil {
			t.Fatalf("Encode(value record %d): %v", i, err)
		}
	}
	if !bytes.Equal(buf.Bytes(), d.raw) {
		t.Errorf("Encoder from value.Value:\n got %x\nwant %x", buf.Bytes(), d.raw)
	}
}

// TestStreamEncoderError: a value that does not fit is an error and writes
// nothing, and the Encoder goes on with the next value.
func TestStreamEncoderError(t *testing.T) {
	d := streamLoad(t)
	var buf bytes.Buffer
	enc := NewEncoder(&buf, d.s)
	bad := map[string]any{"name": "x", "age": nil, "gender": "OTHER", "address": map[string]any{"zipcode": int32(1)}}
	if err := enc.Encode(bad); !errors.Is(err, ErrRange) {
		t.Errorf("Encode(gender OTHER) = %v, want ErrRange", err)
	}
	if buf.Len() != 0 {
		t.Errorf("a failed Encode wrote %x", buf.Bytes())
	}
	if err := enc.Encode(&d.records[0]); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), d.raw[:d.ends[0]]) {
		t.Errorf("after a failed Encode:\n got %x\nwant %x", buf.Bytes(), d.raw[:d.ends[0]])
	}
}

// TestStreamUnmarshalTrailingBytes: Unmarshal reads exactly one datum;
// anything after it is ErrInvalid, for every mapping.
func TestStreamUnmarshalTrailingBytes(t *testing.T) {
	d := streamLoad(t)
	first := d.raw[:d.ends[0]]
	var p streamPerson
	if err := Unmarshal(d.s, first, &p); err != nil {
		t.Fatalf("Unmarshal(first datum): %v", err)
	}
	if diff := cmp.Diff(d.records[0], p); diff != "" {
		t.Errorf("first datum (-want +got):\n%s", diff)
	}
	inputs := map[string][]byte{
		"one zero byte":   append(first[:len(first):len(first)], 0),
		"next datum":      d.raw[:d.ends[1]],
		"the whole file":  d.raw,
		"one stray byte":  append(first[:len(first):len(first)], 0xff),
		"datum and a few": append(first[:len(first):len(first)], 1, 2, 3),
	}
	for name, in := range inputs {
		targets := map[string]any{"struct": new(streamPerson), "any": new(any), "value.Value": new(value.Value)}
		for tname, dst := range targets {
			err := Unmarshal(d.s, in, dst)
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%s into %s: err = %v, want ErrInvalid", name, tname, err)
			}
		}
	}
	// A datum that is a prefix of the input is also found by a Decoder,
	// which then reports what follows it.
	dec := NewDecoder(bytes.NewReader(append(first[:len(first):len(first)], 0xff)), d.s)
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("Decoder, first datum: %v", err)
	}
	if err := dec.Decode(&p); !errors.Is(err, ErrTruncated) {
		t.Errorf("Decoder, stray byte 0xff (a varint that never ends): err = %v, want ErrTruncated", err)
	}
}

// Guards what reader defaults may cost over a stream: each datum had the
// allocation budget of its own, so one-byte datums read through a reader
// that adds a 64 KiB default made 64 KiB for every byte of the stream.
// The datums of a Decoder share a budget of defaults, MaxAlloc's floor
// and 64 bytes a byte read.
func TestStreamDecodeReaderDefaultsBounded(t *testing.T) {
	writer := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"boolean"}]}`)
	pad := strings.Repeat("p", 64<<10)
	for _, typ := range []string{"bytes", "string"} {
		reader := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"boolean"},{"name":"pad","type":"` + typ + `","default":"` + pad + `"}]}`)
		resolved, err := schema.Resolve(writer, reader)
		if err != nil {
			t.Fatal(err)
		}
		targets := map[string]func() any{
			"struct":      func() any { return new(struct{ Pad []byte }) },
			"value.Value": func() any { return new(value.Value) },
			"any":         func() any { return new(any) },
		}
		for name, v := range targets {
			dec := NewDecoder(bytes.NewReader(make([]byte, 1<<20)), resolved)
			n := 0
			for err = dec.Decode(v()); err == nil; err = dec.Decode(v()) {
				n++
			}
			if !errors.Is(err, ErrLimit) || n > 100 {
				t.Errorf("%s default into %s: %d datums, then %v; want ErrLimit within 100", typ, name, n, err)
			}
		}
	}
	// A reader that also reorders the writer's fields.
	writer2 := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"boolean"},{"name":"b","type":"boolean"}]}`)
	reader2 := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"boolean"},{"name":"a","type":"boolean"},{"name":"pad","type":"string","default":"` + pad + `"}]}`)
	resolved2, err := schema.Resolve(writer2, reader2)
	if err != nil {
		t.Fatal(err)
	}
	dec2 := NewDecoder(bytes.NewReader(make([]byte, 1<<20)), resolved2)
	n2 := 0
	var e *Error
	for err = dec2.Decode(new(value.Value)); err == nil; err = dec2.Decode(new(value.Value)) {
		n2++
	}
	if !errors.As(err, &e) || !errors.Is(err, ErrLimit) || e.Path != "pad" || n2 > 100 {
		t.Errorf("reordered: %d datums, then %v; want ErrLimit at pad within 100", n2, err)
	}
	// Datums that take small defaults read whatever the stream's length.
	reader := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"boolean"},{"name":"note","type":"bytes","default":"` + strings.Repeat("n", 32) + `"}]}`)
	resolved, err := schema.Resolve(writer, reader)
	if err != nil {
		t.Fatal(err)
	}
	dec := NewDecoder(bytes.NewReader(make([]byte, 1<<18)), resolved)
	n := 0
	var v struct{ Note []byte }
	for err = dec.Decode(&v); err == nil; err = dec.Decode(&v) {
		n++
	}
	if err != io.EOF || n != 1<<18 || len(v.Note) != 32 {
		t.Fatalf("%d datums with 32-byte defaults, then %v; want %d and io.EOF", n, err, 1<<18)
	}
}

// TestStreamRaw: Raw hands out each datum's bytes, whatever the reads'
// sizes, interleaved with Decode; a cut inside a datum is ErrTruncated
// after the whole datums, and a bad one an *Error at its offset.
func TestStreamRaw(t *testing.T) {
	d := streamLoad(t)
	for _, oneByte := range []bool{false, true} {
		var r io.Reader = bytes.NewReader(d.raw)
		if oneByte {
			r = iotest.OneByteReader(r)
		}
		dec := NewDecoder(r, d.s)
		start := 0
		for i, end := range d.ends {
			if i%4 == 3 {
				var p streamPerson
				if err := dec.Decode(&p); err != nil || !cmp.Equal(p, d.records[i]) {
					t.Fatalf("Decode of record %d: %+v, %v", i, p, err)
				}
			} else {
				raw, err := dec.Raw()
				if err != nil {
					t.Fatalf("oneByte %v: Raw of record %d: %v", oneByte, i, err)
				}
				if !bytes.Equal(raw, d.raw[start:end]) || cap(raw) != len(raw) {
					t.Fatalf("oneByte %v: Raw of record %d = %x (cap %d), want %x", oneByte, i, raw, cap(raw), d.raw[start:end])
				}
			}
			start = end
		}
		if raw, err := dec.Raw(); err != io.EOF || raw != nil {
			t.Fatalf("Raw after the last datum = %x, %v; want io.EOF", raw, err)
		}
	}

	cut := d.ends[2] + 3
	dec := NewDecoder(bytes.NewReader(d.raw[:cut]), d.s)
	for i := range 3 {
		if _, err := dec.Raw(); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	if _, err := dec.Raw(); !errors.Is(err, ErrTruncated) {
		t.Fatalf("Raw of a datum cut short = %v, want ErrTruncated", err)
	}

	// A union index out of range in the fourth record ("age" is a union
	// after the name).
	bad := bytes.Clone(d.raw)
	nameLen := int(bad[d.ends[2]] >> 1)
	bad[d.ends[2]+1+nameLen] = 0x7e
	dec = NewDecoder(bytes.NewReader(bad), d.s)
	for range 3 {
		if _, err := dec.Raw(); err != nil {
			t.Fatal(err)
		}
	}
	_, err := dec.Raw()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) || e.Path != "age" || e.Offset <= int64(d.ends[2]) {
		t.Fatalf("Raw of a bad union index = %v, want ErrInvalid at age, in the fourth datum", err)
	}
	// Decode reports the same error.
	_, derr := streamDecodeAll[streamPerson](d.s, bytes.NewReader(bad))
	if derr == nil || derr.Error() != err.Error() {
		t.Fatalf("Raw's error %q, Decode's %q", err, derr)
	}
}
