package codec

import (
	"errors"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro/schema"
)

// A struct field of ["null","string"] into *string is read inline by the
// struct decoder (fieldNullString); the same union anywhere else goes
// through unionDecoder. The two must agree on every input: values,
// pointee reuse, errors and their paths.

type nullStringRec struct {
	S *string `avro:"s"`
}

const nullStringRecSchema = `{"type":"record","name":"R","fields":[{"name":"s","type":["null","string"]}]}`

func TestNullStringFieldTakesInlineOp(t *testing.T) {
	s := schema.MustParse(nullStringRecSchema)
	dec, err := newCompiler().topDecoder(s, reflect.TypeOf(nullStringRec{}))
	if err != nil {
		t.Fatal(err)
	}
	sd, ok := dec.(*structDecoder)
	if !ok {
		t.Fatalf("decoder is %T, want *structDecoder", dec)
	}
	if got := sd.fields[0].op; got != fieldNullString {
		t.Fatalf("op = %d, want fieldNullString (%d)", got, fieldNullString)
	}

	// Not for the other order, nor for a named string type's own codec,
	// nor for other branches.
	for _, text := range []string{
		`{"type":"record","name":"R","fields":[{"name":"s","type":["string","null"]}]}`,
		`{"type":"record","name":"R","fields":[{"name":"s","type":["null","bytes"]}]}`,
		`{"type":"record","name":"R","fields":[{"name":"s","type":["null","string","int"]}]}`,
	} {
		dec, err := newCompiler().topDecoder(schema.MustParse(text), reflect.TypeOf(nullStringRec{}))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if op := dec.(*structDecoder).fields[0].op; op == fieldNullString {
			t.Errorf("%s: took the inline null-string op", text)
		}
	}
}

func TestNullStringFieldMatchesUnionDecoder(t *testing.T) {
	rec := schema.MustParse(nullStringRecSchema)
	union := schema.MustParse(`["null","string"]`)
	inputs := map[string][]byte{
		"null":             {0x00},
		"empty":            {0x02, 0x00},
		"abc":              {0x02, 0x06, 'a', 'b', 'c'},
		"invalid utf-8":    {0x02, 0x02, 0xff},
		"branch 2":         {0x04},
		"branch -1":        {0x01},
		"branch too long":  {0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
		"no branch":        {},
		"truncated string": {0x02, 0x06, 'a'},
		"negative length":  {0x02, 0x01},
	}
	wantErr := map[string]error{
		"branch 2": ErrInvalid, "branch -1": ErrInvalid, "branch too long": ErrInvalid,
		"no branch": ErrTruncated, "truncated string": ErrTruncated, "negative length": ErrInvalid,
	}
	opts := map[string]DecodeOptions{"default": {}, "validate": {ValidateUTF8: true}}
	for name, data := range inputs {
		for oname, o := range opts {
			// Into a nil pointer, and into one already pointing at a string.
			for _, prior := range []*string{nil, ptrTo("old")} {
				var viaStruct nullStringRec
				if prior != nil {
					viaStruct.S = ptrTo(*prior)
				}
				priorPointee := viaStruct.S
				errStruct := o.Unmarshal(rec, data, &viaStruct)

				var viaUnion *string
				if prior != nil {
					viaUnion = ptrTo(*prior)
				}
				unionPointee := viaUnion
				errUnion := o.Unmarshal(union, data, &viaUnion)

				where := name + "/" + oname
				if prior != nil {
					where += "/reused"
				}
				want := wantErr[name]
				if name == "invalid utf-8" && o.ValidateUTF8 {
					want = ErrInvalid
				}
				if want != nil && !errors.Is(errStruct, want) {
					t.Errorf("%s: struct err %v, want %v", where, errStruct, want)
				}
				if want == nil && errStruct != nil {
					t.Errorf("%s: struct err %v, want none", where, errStruct)
				}
				if (errStruct == nil) != (errUnion == nil) {
					t.Fatalf("%s: struct err %v, union err %v", where, errStruct, errUnion)
				}
				if errStruct != nil {
					for _, sentinel := range []error{ErrInvalid, ErrTruncated, ErrRange, ErrLimit} {
						if errors.Is(errStruct, sentinel) != errors.Is(errUnion, sentinel) {
							t.Errorf("%s: struct err %v, union err %v: differ on %v", where, errStruct, errUnion, sentinel)
						}
					}
					var e *Error
					if !errors.As(errStruct, &e) || e.Path != "s" {
						t.Errorf("%s: struct err %v: want an *Error at path s", where, errStruct)
					}
					continue
				}
				if d := cmp.Diff(viaUnion, viaStruct.S); d != "" {
					t.Errorf("%s: (-union +struct):\n%s", where, d)
				}
				// A non-null value is decoded into the pointee already there.
				if viaStruct.S != nil && priorPointee != nil && viaStruct.S != priorPointee {
					t.Errorf("%s: the struct decode replaced the pointee", where)
				}
				if viaUnion != nil && unionPointee != nil && viaUnion != unionPointee {
					t.Errorf("%s: the union decode replaced the pointee", where)
				}
			}
		}
	}
}

// Null overwrites a value a reused struct held.
func TestNullStringFieldNullClears(t *testing.T) {
	rec := schema.MustParse(nullStringRecSchema)
	v := nullStringRec{S: ptrTo("kept?")}
	if err := Unmarshal(rec, []byte{0x00}, &v); err != nil {
		t.Fatal(err)
	}
	if v.S != nil {
		t.Fatalf("S = %q, want nil", *v.S)
	}
}

func ptrTo[T any](v T) *T { return &v }

// The struct encoder writes the same field inline too: a *string of a
// union whose branches 0 and 1 are null and string. Every union into a
// *string writes what the union's own encoder writes.
func TestNullStringFieldEncodesAsUnionEncoder(t *testing.T) {
	long := string(make([]byte, 300))
	for _, c := range []struct {
		union  string
		inline bool
	}{
		{`["null","string"]`, true},
		{`["null","string","int"]`, true},
		{`["string","null"]`, false},
		{`["null","bytes"]`, false},
		{`["int","null","string"]`, false},
	} {
		rec := schema.MustParse(`{"type":"record","name":"R","fields":[{"name":"s","type":` + c.union + `}]}`)
		enc, err := newCompiler().encoderFor(rec, reflect.TypeOf(nullStringRec{}), "")
		if err != nil {
			t.Fatalf("%s: %v", c.union, err)
		}
		if inline := enc.(*structEncoder).fields[0].op == fieldNullString; inline != c.inline {
			t.Errorf("%s: inline = %v, want %v", c.union, inline, c.inline)
		}
		union := schema.MustParse(c.union)
		for _, v := range []*string{nil, ptrTo(""), ptrTo("abc"), ptrTo(long)} {
			viaStruct, err := Marshal(rec, &nullStringRec{S: v})
			if err != nil {
				t.Fatalf("%s: %v", c.union, err)
			}
			viaUnion, err := Marshal(union, &v)
			if err != nil {
				t.Fatalf("%s: %v", c.union, err)
			}
			if !reflect.DeepEqual(viaStruct, viaUnion) {
				t.Errorf("%s, %v: struct wrote %x, union %x", c.union, v, viaStruct, viaUnion)
			}
		}
	}
}
