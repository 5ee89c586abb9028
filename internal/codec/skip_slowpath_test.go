package codec

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/avrogo/avro/varint"
)

// TestProjectionSkipSlowPaths skips, in one run of skipped fields, every
// kind of value whose skip leaves the inline paths: a string of more than
// 63 bytes (a two-byte length), a union branch past 63 (a two-byte index),
// an enum, a fixed, a record and an array in two blocks (skippers), a long
// of five bytes and a boolean. The field kept after them must come out
// right, and every truncation and every bad byte must fail as a full
// decode of the writer's schema fails: the same sentinel, path and offset.
// (The position stays in a local of skipAll between fields and goes back
// to the decode state around each of these paths.)
func TestProjectionSkipSlowPaths(t *testing.T) {
	var branches []string
	for i := range 70 {
		branches = append(branches, fmt.Sprintf(`{"type":"fixed","name":"F%02d","size":1}`, i))
	}
	w, rs := mustResolve(t, `{"type":"record","name":"R","fields":[
		{"name":"s","type":"string"},
		{"name":"u","type":[`+strings.Join(branches, ",")+`]},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y","Z"]}},
		{"name":"f","type":{"type":"fixed","name":"G","size":3}},
		{"name":"r","type":{"type":"record","name":"In","fields":[{"name":"a","type":"int"}]}},
		{"name":"a","type":{"type":"array","items":"long"}},
		{"name":"l","type":"long"},
		{"name":"b","type":"boolean"},
		{"name":"keep","type":"long"}]}`,
		`{"type":"record","name":"R","fields":[{"name":"keep","type":"long"}]}`)

	var valid []byte
	valid = varint.AppendLong(valid, 100)
	valid = append(valid, strings.Repeat("s", 100)...)
	uAt := len(valid)
	valid = varint.AppendLong(valid, 65) // u: branch F65, two bytes
	valid = append(valid, 'u')
	eAt := len(valid)
	valid = varint.AppendLong(valid, 2)   // e: Z
	valid = append(valid, 'f', 'f', 'f')  // f
	valid = varint.AppendLong(valid, 300) // r.a
	valid = varint.AppendLong(valid, 2)   // a: a block of two
	valid = varint.AppendLong(valid, 1)
	valid = varint.AppendLong(valid, -1)
	valid = varint.AppendLong(valid, -1) // a block of one, with its size
	valid = varint.AppendLong(valid, int64(varintLen(1<<30)))
	valid = varint.AppendLong(valid, 1<<30)
	valid = varint.AppendLong(valid, 0)
	valid = varint.AppendLong(valid, 1<<33) // l: five bytes
	bAt := len(valid)
	valid = append(valid, 1)                // b
	valid = varint.AppendLong(valid, 12345) // keep

	type kept struct {
		Keep int64 `avro:"keep"`
	}
	var got kept
	if err := Unmarshal(rs, valid, &got); err != nil || got.Keep != 12345 {
		t.Fatalf("projection: %+v, %v; want keep 12345", got, err)
	}

	inputs := [][]byte{}
	for i := range valid {
		inputs = append(inputs, valid[:i])
	}
	// Bad bytes: a union index past the 70 branches (70, two bytes as 65
	// is), an enum index past the 3 symbols, a boolean byte of 2, a
	// negative string length (-5, one byte where 100 took two).
	inputs = append(inputs,
		splice(valid, uAt, 2, varint.AppendLong(nil, 70)),
		splice(valid, eAt, 1, varint.AppendLong(nil, 3)),
		splice(valid, bAt, 1, []byte{2}),
		splice(valid, 0, 2, varint.AppendLong(nil, -5)),
	)
	for _, in := range inputs {
		errFull := Unmarshal(w, in, new(any))
		errProj := Unmarshal(rs, in, new(kept))
		var ef, ep *Error
		if errFull == nil || !errors.As(errFull, &ef) || !errors.As(errProj, &ep) {
			t.Errorf("% x: full decode %v, projection %v: want two *Error", in, errFull, errProj)
			continue
		}
		for _, sentinel := range []error{ErrTruncated, ErrInvalid, ErrLimit} {
			if errors.Is(errFull, sentinel) != errors.Is(errProj, sentinel) {
				t.Errorf("% x: full decode %v, projection %v", in, errFull, errProj)
			}
		}
		// A block with a byte size is walked item by item as it is
		// decoded, so both name the same item.
		if ef.Offset != ep.Offset || ef.Path != ep.Path {
			t.Errorf("% x: full decode at %q offset %d, projection at %q offset %d", in, ef.Path, ef.Offset, ep.Path, ep.Offset)
		}
	}
}

// splice returns a copy of b with its n bytes at i replaced by with.
func splice(b []byte, i, n int, with []byte) []byte {
	c := append([]byte(nil), b[:i]...)
	c = append(c, with...)
	return append(c, b[i+n:]...)
}

func varintLen(v int64) int { return len(varint.AppendLong(nil, v)) }

// TestProjectionSkipArrayItems: arrays of ints, longs, doubles, floats,
// fixed and nulls are skipped by their own loops (varints by their
// lengths, fixed widths at once); every bad or cut-short array must fail
// as a full decode of the writer's schema fails, with the same sentinel,
// Path and offset, and a good one must leave the kept field right.
func TestProjectionSkipArrayItems(t *testing.T) {
	zz := func(v int64) []byte { return varint.AppendLong(nil, v) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	overlong := cat(bytes.Repeat([]byte{0xff}, 10), []byte{1})
	for _, items := range []string{`"int"`, `"long"`, `"float"`, `"double"`, `{"type":"fixed","name":"F","size":3}`, `"null"`} {
		w, rs := mustResolve(t, `{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"array","items":`+items+`}},{"name":"k","type":"long"}]}`,
			`{"type":"record","name":"R","fields":[{"name":"k","type":"long"}]}`)
		var inputs [][]byte
		for _, block := range [][]byte{
			cat(zz(3), zz(1), overlong, zz(2)),                         // an overlong varint
			cat(zz(3), zz(1), []byte{0x80, 0x80, 0x80, 0x80, 0x80, 1}), // a long past the int range
			cat(zz(2), zz(1), []byte{0xff, 0xff, 0xff, 0xff, 0x1f}),    // an int past 32 bits
			cat(zz(24), bytes.Repeat([]byte{0x81, 0x01}, 12)),          // two-byte varints
			cat(zz(-3), zz(12), bytes.Repeat([]byte{7}, 12)),           // a sized block
			cat(zz(30), bytes.Repeat([]byte{1}, 30)),
		} {
			full := cat(block, zz(0), zz(12345))
			for i := range full {
				inputs = append(inputs, full[:i])
			}
			inputs = append(inputs, full)
		}
		for _, in := range inputs {
			errFull := Unmarshal(w, in, new(any))
			var got struct {
				K int64 `avro:"k"`
			}
			errProj := Unmarshal(rs, in, &got)
			if errFull == nil {
				if errProj != nil || got.K != 12345 {
					t.Errorf("%s: % x: projection %+v, %v; want k 12345", items, in, got, errProj)
				}
				continue
			}
			var ef, ep *Error
			if !errors.As(errFull, &ef) || !errors.As(errProj, &ep) {
				t.Errorf("%s: % x: full decode %v, projection %v: want two *Error", items, in, errFull, errProj)
				continue
			}
			for _, sentinel := range []error{ErrTruncated, ErrInvalid, ErrLimit} {
				if errors.Is(errFull, sentinel) != errors.Is(errProj, sentinel) {
					t.Errorf("%s: % x: full decode %v, projection %v", items, in, errFull, errProj)
				}
			}
			if ef.Offset != ep.Offset || ef.Path != ep.Path {
				t.Errorf("%s: % x: full decode at %q offset %d, projection at %q offset %d", items, in, ef.Path, ef.Offset, ep.Path, ep.Offset)
			}
		}
	}
}
