package avrojson_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/avrogo/avro/varint"
)

// wantError checks that err is an *avro.Error wrapping sentinel with the
// given path and offset.
func wantError(t *testing.T, what string, err, sentinel error, path string, offset int64) {
	t.Helper()
	var ae *avro.Error
	if !errors.Is(err, sentinel) || !errors.As(err, &ae) {
		t.Errorf("%s: got %v, want an *avro.Error wrapping %v", what, err, sentinel)
		return
	}
	if ae.Path != path || ae.Offset != offset {
		t.Errorf("%s: path %q offset %d, want %q %d (%v)", what, ae.Path, ae.Offset, path, offset, err)
	}
}

var nested = schema.MustParse(`{"type":"record","name":"N","fields":[
	{"name":"next","type":["null","N"]},
	{"name":"items","type":{"type":"array","items":"string"},"default":[]},
	{"name":"tags","type":{"type":"map","values":"int"},"default":{}},
	{"name":"n","type":"long","default":0}]}`)

// TestHostileText: every kind of bad text is a typed error with the path
// and the offset, under the limits of the options.
func TestHostileText(t *testing.T) {
	deep := strings.Repeat(`{"next":{"N":`, 200) + `null` + strings.Repeat(`}}`, 200)
	var v value.Value
	err := avrojson.Unmarshal(nested, []byte(deep), &v)
	if !errors.Is(err, avro.ErrLimit) {
		t.Errorf("200 levels: %v, want ErrLimit", err)
	}

	small := avrojson.Options{Decode: avro.DecodeOptions{MaxLength: 4, MaxItems: 2}, MaxNumberLength: 5}
	err = small.Unmarshal(nested, []byte(`{"next":null,"items":["abcde"]}`), &v)
	wantError(t, "long string", err, avro.ErrLimit, "items[0]", 22)
	err = small.Unmarshal(nested, []byte(`{"next":null,"items":["a","b","c"]}`), &v)
	wantError(t, "many items", err, avro.ErrLimit, "items[2]", 30)
	err = small.Unmarshal(nested, []byte(`{"next":null,"n":123456}`), &v)
	wantError(t, "long number", err, avro.ErrLimit, "n", 17)
	small.AllowUnknownFields = true
	err = small.Unmarshal(nested, []byte(`{"next":null,"x":[123456]}`), &v)
	wantError(t, "long number in an unknown field", err, avro.ErrLimit, "", 18)
	err = small.NewDecoder(strings.NewReader(`123456`), schema.MustParse(`"long"`)).Decode(new(int64))
	wantError(t, "long number in a stream", err, avro.ErrLimit, "", 0)

	for _, c := range []struct {
		text, path string
		offset     int64
		sentinel   error
	}{
		{`{"next":null,"n":1,"n":2}`, "", 19, avro.ErrInvalid},                     // a field given twice
		{`{"next":null,"x":1}`, "", 13, avro.ErrInvalid},                           // an unknown field
		{`{"next":null,"tags":{"a":1,"a":2}}`, "tags", 27, avro.ErrInvalid},        // a map key given twice
		{`{"next":{"M":null}}`, "next", 9, avro.ErrInvalid},                        // an unknown branch
		{`{"next":null,"n":9223372036854775808}`, "n", 17, avro.ErrRange},          // beyond int64
		{`{"next":null,"n":"1"}`, "n", 17, avro.ErrInvalid},                        // a string for a long
		{`{"next":null,"n":1e99999999999999999999}`, "n", 17, avro.ErrRange},       // an exponent past int32, on 32-bit platforms too
		{`{"next":null,"n":10e-2147483648}`, "n", 17, avro.ErrInvalid},             // and below it
		{"{\"next\":null,\"items\":[\"a\x01\"]}", "items[0]", 24, avro.ErrInvalid}, // a raw control character
		{`{"next":null,"items":["a"]`, "", 26, avro.ErrTruncated},
		{`{"next":nu`, "next", 10, avro.ErrTruncated}, // cut inside a word
		{`{"next":null,"n":1,"items":[fals`, "items[0]", 32, avro.ErrTruncated},
		{`{"next":null} x`, "", 14, avro.ErrInvalid}, // text after the value
		{`{}`, "", 1, avro.ErrInvalid},               // next has no default
	} {
		err := avrojson.Unmarshal(nested, []byte(c.text), &v)
		wantError(t, c.text, err, c.sentinel, c.path, c.offset)
	}
}

// TestUnknownFieldsAreChecked: with AllowUnknownFields, the members a
// reader drops are still JSON: a bad escape in one is an error, as in a
// known field, while the words a double may be written as are values.
func TestUnknownFieldsAreChecked(t *testing.T) {
	o := avrojson.Options{AllowUnknownFields: true}
	for _, text := range []string{
		`{"next":null,"x":"a\u00e9\n\"\\\/"}`,
		`{"next":null,"x":{"y":[NaN,Infinity,-Infinity,-1e3,true,null]}}`,
		`{"next":null,"x":{"\u0061":"\ud83d\ude00"}}`,
	} {
		var v value.Value
		if err := o.Unmarshal(nested, []byte(text), &v); err != nil {
			t.Errorf("%s: %v", text, err)
		}
		if _, err := o.JSONToBinary(nil, nested, []byte(text)); err != nil {
			t.Errorf("%s to binary: %v", text, err)
		}
	}
	for text, offset := range map[string]int64{
		`{"next":null,"x":"\q"}`:           18,
		`{"next":null,"x":"\u12"}`:         18,
		`{"next":null,"x":["a","b\x01"]}`:  24,
		`{"next":null,"x":{"k\z":1}}`:      20,
		"{\"next\":null,\"x\":\"\\\x01\"}": 18,
		`{"next":null,"x":Nan}`:            17,
	} {
		var v value.Value
		err := o.Unmarshal(nested, []byte(text), &v)
		wantError(t, text, err, avro.ErrInvalid, "", offset)
		_, err = o.JSONToBinary(nil, nested, []byte(text))
		wantError(t, text+" to binary", err, avro.ErrInvalid, "", offset)
	}
	// Dropped members are not kept: a name repeated among them is read,
	// while a field given twice is still an error.
	if _, err := o.JSONToBinary(nil, nested, []byte(`{"x":1,"next":null,"x":2}`)); err != nil {
		t.Errorf("an unknown member given twice: %v", err)
	}
	if _, err := o.JSONToBinary(nil, nested, []byte(`{"next":null,"x":1,"next":null}`)); !errors.Is(err, avro.ErrInvalid) {
		t.Errorf("a field given twice: %v, want ErrInvalid", err)
	}
}

// TestDuplicateKeysInLargeMaps: duplicates are found in maps too large to
// compare key by key, and in such maps nested in each other.
func TestDuplicateKeysInLargeMaps(t *testing.T) {
	s := schema.MustParse(`{"type":"map","values":{"type":"map","values":"int"}}`)
	inner := func(dup bool) string {
		var b strings.Builder
		b.WriteByte('{')
		for i := range 40 {
			if i > 0 {
				b.WriteByte(',')
			}
			k := i
			if dup && i == 39 {
				k = 3
			}
			b.WriteString(`"k` + string(rune('A'+k%26)) + string(rune('a'+k/26)) + `":1`)
		}
		b.WriteByte('}')
		return b.String()
	}
	var good, bad strings.Builder
	good.WriteByte('{')
	bad.WriteByte('{')
	for i := range 40 {
		if i > 0 {
			good.WriteByte(',')
			bad.WriteByte(',')
		}
		key := `"o` + string(rune('A'+i%26)) + string(rune('a'+i/26)) + `":`
		good.WriteString(key + inner(false))
		bad.WriteString(key + inner(i == 30))
	}
	good.WriteByte('}')
	bad.WriteByte('}')
	var m map[string]map[string]int
	if err := avrojson.Unmarshal(s, []byte(good.String()), &m); err != nil || len(m) != 40 {
		t.Fatalf("good: %d entries, %v", len(m), err)
	}
	err := avrojson.Unmarshal(s, []byte(bad.String()), &m)
	if !errors.Is(err, avro.ErrInvalid) || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("bad: %v, want a duplicate key", err)
	}
}

// TestDefaultsBounded: a text of empty records, each filled with a large
// default, is bounded by the allocation limit.
func TestDefaultsBounded(t *testing.T) {
	s := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[
		{"name":"pad","type":"string","default":"` + strings.Repeat("x", 1<<16) + `"}]}}`)
	text := "[" + strings.Repeat("{},", 999) + "{}]"
	o := avrojson.Options{Decode: avro.DecodeOptions{MaxAlloc: 1 << 20}}
	_, err := o.JSONToBinary(nil, s, []byte(text))
	if !errors.Is(err, avro.ErrLimit) {
		t.Errorf("1000 defaults of 64 KiB under a 1 MiB limit: %v, want ErrLimit", err)
	}
	got, err := o.JSONToBinary(nil, s, []byte("[{},{}]"))
	if err != nil || !bytes.Contains(got, bytes.Repeat([]byte("x"), 1<<16)) {
		t.Errorf("two defaults: %v", err)
	}
}

// TestTextOfZeroSizeItemsBounded: a datum of a few bytes that holds many
// records of many nulls would make a huge text; the text is bounded.
func TestTextOfZeroSizeItemsBounded(t *testing.T) {
	fields := make([]string, 500)
	for i := range fields {
		fields[i] = `{"name":"f` + strings.Repeat("x", 10) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `","type":"null"}`
	}
	s := schema.MustParse(`{"type":"array","items":{"type":"record","name":"Z","fields":[` + strings.Join(fields, ",") + `]}}`)
	// One block of 2^20 records, which take no bytes.
	datum := []byte{0x80, 0x80, 0x80, 0x01, 0}
	_, err := avrojson.BinaryToJSON(nil, s, datum)
	if !errors.Is(err, avro.ErrLimit) {
		t.Errorf("%d bytes to text: %v, want ErrLimit", len(datum), err)
	}
}

// TestZeroSizeRecordItemsCharged: the transcoder charges an array item
// that is a record of nulls once per value it holds, as the decoders do,
// so a datum of a few bytes cannot make it walk a billion fields before
// its text grows past a limit.
func TestZeroSizeRecordItemsCharged(t *testing.T) {
	fields := make([]string, 1000)
	for i := range fields {
		fields[i] = `{"name":"f` + strconv.Itoa(i) + `","type":"null"}`
	}
	s := schema.MustParse(`{"type":"array","items":{"type":"record","name":"Z","fields":[` + strings.Join(fields, ",") + `]}}`)
	block := func(n int64) []byte { return append(varint.AppendLong(nil, n), 0) }
	// 1,000 items of 1,001 values fit the budget (2^20); 2,000 do not,
	// though their text fits the allocation limit.
	o := avrojson.Options{Decode: avro.DecodeOptions{MaxAlloc: 1 << 30}}
	if _, err := o.BinaryToJSON(nil, s, block(1000)); err != nil {
		t.Errorf("1,000 items: %v", err)
	}
	if _, err := o.BinaryToJSON(nil, s, block(2000)); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("2,000 items: %v, want ErrLimit", err)
	}
}

// TestReadableDecimalDigits: a decimal is written as readable text only up
// to the digits of MaxDecimalScale, as the time to write a number in
// decimal grows faster than its length.
func TestReadableDecimalDigits(t *testing.T) {
	dec := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}`)
	big := schema.MustParse(`{"type":"bytes","logicalType":"big-decimal"}`)
	datum := func(s *schema.Schema, n int) []byte {
		b := varint.AppendLong(nil, int64(n))
		b = append(b, bytes.Repeat([]byte{0x7f}, n)...)
		if s == big {
			// The payload: the unscaled bytes, then the scale, 2.
			b = append(varint.AppendLong(nil, int64(len(b)+1)), append(b, 4)...)
		}
		return b
	}
	readable := avrojson.Options{Logical: avrojson.ReadableLogical}
	for _, s := range []*schema.Schema{dec, big} {
		// 2048 digits (the default MaxDecimalScale) fill 849 bytes.
		text, err := readable.BinaryToJSON(nil, s, datum(s, 849))
		if err != nil || len(text) < 2040 {
			t.Errorf("%s of 849 bytes: %d bytes of text, %v", s, len(text), err)
		}
		if _, err = readable.BinaryToJSON(nil, s, datum(s, 1<<20)); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s of 1 MiB: %v, want ErrLimit", s, err)
		}
		more := readable
		more.Decode.MaxDecimalScale = 10000
		if _, err := more.BinaryToJSON(nil, s, datum(s, 2000)); err != nil {
			t.Errorf("%s of 2000 bytes with MaxDecimalScale 10000: %v", s, err)
		}
		// The specification's encoding writes the bytes.
		if _, err := avrojson.BinaryToJSON(nil, s, datum(s, 1<<20)); err != nil {
			t.Errorf("%s of 1 MiB as bytes: %v", s, err)
		}
	}
}

// TestReadableDecimalSignBytes: the digit limit counts the digits of the
// value, not the sign bytes a writer may pad it with, so a small value in
// many bytes is written as its number.
func TestReadableDecimalSignBytes(t *testing.T) {
	readable := avrojson.Options{Logical: avrojson.ReadableLogical}
	dec := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`)
	fixed := schema.MustParse(`{"type":"fixed","name":"F","size":900,"logicalType":"decimal","precision":4,"scale":2}`)
	for _, c := range []struct {
		pad  byte
		last []byte
		want string
	}{
		{0x00, []byte{0x00}, "0.00"},
		{0x00, []byte{0x02, 0x69}, "6.17"},
		{0xff, []byte{0xff}, "-0.01"},
		{0xff, []byte{0xfd, 0x97}, "-6.17"},
		{0x00, []byte{0x80}, "1.28"},
		{0xff, []byte{0x7f}, "-1.29"},
	} {
		unscaled := append(bytes.Repeat([]byte{c.pad}, 900-len(c.last)), c.last...)
		for _, s := range []*schema.Schema{dec, fixed} {
			datum := unscaled
			if s == dec {
				datum = append(varint.AppendLong(nil, int64(len(unscaled))), unscaled...)
			}
			text, err := readable.BinaryToJSON(nil, s, datum)
			if err != nil || string(text) != c.want {
				t.Errorf("%s padded with %#x: %s, %v; want %s", s, c.pad, text, err, c.want)
			}
		}
	}
}

// TestResolvedReadBoundedByText: a read through a resolved schema is
// limited by the length of its text, not by the binary datum made of it,
// which holds the writer's defaults the text leaves out: a writer default
// of 2 MB must not let a few kilobytes of text fill 64 MiB of reader
// defaults.
func TestResolvedReadBoundedByText(t *testing.T) {
	writer := schema.MustParse(`{"type":"record","name":"Top","fields":[
		{"name":"pad","type":"bytes","default":"` + strings.Repeat("a", 2_000_000) + `"},
		{"name":"items","type":{"type":"array","items":{"type":"record","name":"E","fields":[]}}}]}`)
	reader := schema.MustParse(`{"type":"record","name":"Top","fields":[
		{"name":"items","type":{"type":"array","items":{"type":"record","name":"E","fields":[
			{"name":"x","type":"bytes","default":"` + strings.Repeat("b", 64<<10) + `"}]}}}]}`)
	resolved, err := schema.Resolve(writer, reader)
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(`{"items":[` + strings.Repeat(`{},`, 999) + `{}]}`)
	if _, err := avrojson.JSONToBinary(nil, resolved, text); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("JSONToBinary: %v, want ErrLimit", err)
	}
	var v any
	if err := avrojson.Unmarshal(resolved, text, &v); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("Unmarshal into any: %v, want ErrLimit", err)
	}
	// Within the text's allowance it reads.
	small := []byte(`{"items":[{},{}]}`)
	bin, err := avrojson.JSONToBinary(nil, resolved, small)
	if err != nil || len(bin) < 2*(64<<10) {
		t.Errorf("two items: %d bytes, %v", len(bin), err)
	}
}

// TestErrorsQuoteLittleText: an error quotes the start of a long piece of
// input, not all of it.
func TestErrorsQuoteLittleText(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"e","type":{"type":"enum","name":"E","symbols":["A"]}},
		{"name":"u","type":["null","int"]}]}`)
	long := strings.Repeat("k", 1<<20)
	type R struct {
		E string `avro:"e"`
		U *int32 `avro:"u"`
	}
	for _, text := range []string{
		`{"` + long + `":1}`,
		`{"e":"` + long + `","u":null}`,
		`{"e":"A","u":{"` + long + `":1}}`,
	} {
		for _, v := range []any{new(any), new(R), new(value.Value)} {
			err := avrojson.Unmarshal(s, []byte(text), v)
			if !errors.Is(err, avro.ErrInvalid) || len(err.Error()) > 500 {
				t.Errorf("%.20s into %T: a message of %d bytes, %v", text, v, len(err.Error()), errors.Is(err, avro.ErrInvalid))
			}
		}
		_, err := avrojson.JSONToBinary(nil, s, []byte(text))
		if !errors.Is(err, avro.ErrInvalid) || len(err.Error()) > 500 || !strings.Contains(err.Error(), "bytes)") {
			t.Errorf("%.20s: a message of %d bytes: %.200v", text, len(err.Error()), err)
		}
	}
}

// TestRecordReadAgainCountsOnce: a record read into an any that has to be
// read again (a field missing, taking its default) is charged once
// against MaxAlloc, as it is with the field present.
func TestRecordReadAgainCountsOnce(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":{"type":"array","items":"long"}},
		{"name":"b","type":"int","default":0}]}`)
	items := `[0` + strings.Repeat(",0", 99_999) + `]`
	o := avrojson.Options{}
	o.Decode.MaxAlloc = 2 << 20
	for _, text := range []string{`{"a":` + items + `,"b":0}`, `{"a":` + items + `}`, `{"b":0,"a":` + items + `}`} {
		var v any
		if err := o.Unmarshal(s, []byte(text), &v); err != nil {
			t.Errorf("%.12s...%s: %v", text, text[len(text)-8:], err)
		}
	}
}

// TestJSONMaxDepthHasACeiling: JSON text nested past CeilingMaxDepth is
// ErrLimit whatever MaxDepth says, for every target.
func TestJSONMaxDepthHasACeiling(t *testing.T) {
	s := schema.MustParse(`{"type":"record","name":"N","fields":[{"name":"next","type":["null","N"]}]}`)
	n := 2 * avro.CeilingMaxDepth
	text := []byte(strings.Repeat(`{"next":{"N":`, n) + `{"next":null}` + strings.Repeat(`}}`, n))
	o := avrojson.Options{}
	o.Decode.MaxDepth = 1 << 30
	if _, err := o.JSONToBinary(nil, s, text); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("JSONToBinary: %v, want ErrLimit", err)
	}
	for _, v := range []any{new(any), new(value.Value)} {
		if err := o.Unmarshal(s, text, v); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("into %T: %v, want ErrLimit", v, err)
		}
	}
	if err := o.NewDecoder(bytes.NewReader(text), s).Decode(new(any)); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("Decoder: %v, want ErrLimit", err)
	}
}
