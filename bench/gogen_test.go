package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/actgardner/gogen-avro/v10/compiler"
	gogengeneric "github.com/actgardner/gogen-avro/v10/generic"
	"github.com/actgardner/gogen-avro/v10/vm"
	"github.com/actgardner/gogen-avro/v10/vm/types"
	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"

	gogendeep "github.com/avrogo/avro/bench/gogen/deep"
	gogenrec10 "github.com/avrogo/avro/bench/gogen/rec10"
	gogenrec10evolved "github.com/avrogo/avro/bench/gogen/rec10evolved"
	gogenstrs "github.com/avrogo/avro/bench/gogen/strs"
	gogentelemetry "github.com/avrogo/avro/bench/gogen/telemetry"
	gogenwide "github.com/avrogo/avro/bench/gogen/wide"
	gogenwideproject "github.com/avrogo/avro/bench/gogen/wideproject"
)

// gogen-avro generates a struct per record and code to encode it; it
// decodes through a program compiled from the writer's and reader's
// schemas, run by its VM. Its generated DeserializeX compiles that program
// on every call, so the rows compile it once, as a program that cares
// about speed would, and run it with vm.Eval.

// gogenRecord is what gogen-avro generates for a record (its pointer).
type gogenRecord interface {
	types.Field
	Serialize(w io.Writer) error
	Schema() string
}

// gogenBinding is gogen-avro's code for one workload.
type gogenBinding struct {
	program *vm.Program
	fresh   func() gogenRecord // a new record, as the generated NewX makes it
	recs    []gogenRecord      // the workload's pool, decoded by gogen from our bytes
}

// newGogenBinding compiles the program for the generated type's schema,
// which must be the workload's, and decodes the workload's pool with it.
func newGogenBinding[T any](tb testing.TB, w *workload[T], fresh func() gogenRecord) *gogenBinding {
	g := newGogenResolved(tb, w.name, fresh().Schema(), w.ours, fresh)
	g.recs = make([]gogenRecord, len(w.enc))
	for i, data := range w.enc {
		var err error
		if g.recs[i], err = g.decode(data); err != nil {
			tb.Fatalf("%s: rec %d: gogen decode: %v", w.name, i, err)
		}
		if err := shareMemory(reflect.ValueOf(g.recs[i]).Elem(), reflect.ValueOf(&w.recs[i]).Elem(), w.name); err != nil {
			tb.Fatalf("%s: rec %d: %v", w.name, i, err)
		}
	}
	return g
}

// shareMemory points the strings, byte and scalar slices and maps of dst,
// a record gogen decoded, at those of src, the same record in the pool of
// the other libraries, so that gogen's encode rows read the same memory
// as theirs. Where the memory lies moves a copy's speed (gogen's freshly
// decoded 1 KB strings appended a third faster than the pool's generated
// ones), which would put a difference of the data into the comparison.
// The fields correspond in order; a union pointer of gogen holds its
// branch in its second field; timestamps stay gogen's own int64.
func shareMemory(dst, src reflect.Value, path string) error {
	switch {
	case src.Type() == reflect.TypeFor[time.Time]():
		return nil
	case src.Kind() == reflect.Pointer:
		if src.IsNil() != dst.IsNil() {
			return fmt.Errorf("%s: null in one record only", path)
		}
		if src.IsNil() {
			return nil
		}
		branch := dst.Elem()
		if branch.Kind() != reflect.Struct || branch.NumField() != 3 {
			return fmt.Errorf("%s: %s is not a union of gogen", path, dst.Type())
		}
		return shareMemory(branch.Field(1), src.Elem(), path)
	case src.Kind() == reflect.Struct:
		if src.NumField() != dst.NumField() {
			return fmt.Errorf("%s: %d fields against gogen's %d", path, src.NumField(), dst.NumField())
		}
		for i := range src.NumField() {
			if err := shareMemory(dst.Field(i), src.Field(i), path+"."+src.Type().Field(i).Name); err != nil {
				return err
			}
		}
		return nil
	case src.Kind() == reflect.Slice && src.Type().Elem().Kind() == reflect.Struct:
		if src.Len() != dst.Len() {
			return fmt.Errorf("%s: %d items against gogen's %d", path, src.Len(), dst.Len())
		}
		for i := range src.Len() {
			if err := shareMemory(dst.Index(i), src.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	same := src.Convert(dst.Type())
	if !reflect.DeepEqual(dst.Interface(), same.Interface()) && !(isEmpty(dst) && isEmpty(same)) {
		return fmt.Errorf("%s: gogen decoded %v, want %v", path, dst.Interface(), src.Interface())
	}
	dst.Set(same)
	return nil
}

// isEmpty reports whether v is a string, slice or map of no items (a nil
// slice and an empty one are the same value in Avro).
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String, reflect.Slice, reflect.Map:
		return v.Len() == 0
	}
	return false
}

// decode decodes one record into a new generated struct.
func (g *gogenBinding) decode(data []byte) (gogenRecord, error) {
	r := bytes.NewReader(data)
	v := g.fresh()
	if err := vm.Eval(r, g.program, v); err != nil {
		return nil, err
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%d bytes left", r.Len())
	}
	return v, nil
}

// gogenDecodeGeneric decodes data, which it must use up, with gogen's
// generic decoder.
func gogenDecodeGeneric(c *gogengeneric.Codec, data []byte) (any, error) {
	r := bytes.NewReader(data)
	x, err := c.Deserialize(r)
	if err == nil && r.Len() != 0 {
		err = fmt.Errorf("%d bytes left", r.Len())
	}
	return x, err
}

// encode encodes a generated struct into new bytes.
func (g *gogenBinding) encode(v gogenRecord) ([]byte, error) {
	var buf bytes.Buffer
	err := v.Serialize(&buf)
	return buf.Bytes(), err
}

// gogenRecordRows runs gogen's rows of benchRecords. It has no
// decode-reuse row: its API decodes into a new struct (vm.Eval into a used
// one appends to its arrays and maps).
func gogenRecordRows(run func(op, lib string, f func(b *testing.B)), g *gogenBinding, enc [][]byte) {
	const mask = poolSize - 1
	run("append", libGogen, func(b *testing.B) {
		var buf bytes.Buffer
		buf.Grow(64 << 10)
		for i := 0; i < b.N; i++ {
			buf.Reset()
			if err := g.recs[i&mask].Serialize(&buf); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf.Bytes()
	})
	run("marshal", libGogen, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var buf bytes.Buffer
			if err := g.recs[i&mask].Serialize(&buf); err != nil {
				b.Fatal(err)
			}
			sinkBytes = buf.Bytes()
		}
	})
	run("decode-new", libGogen, func(b *testing.B) { benchGogenDecodeNew(b, g, enc) })
}

// benchGogenDecodeNew decodes the records of enc in turn, each into a new
// struct.
func benchGogenDecodeNew(b *testing.B, g *gogenBinding, enc [][]byte) {
	const mask = poolSize - 1
	r := bytes.NewReader(nil)
	for i := 0; i < b.N; i++ {
		r.Reset(enc[i&mask])
		v := g.fresh()
		if err := vm.Eval(r, g.program, v); err != nil {
			b.Fatal(err)
		}
		sinkAny = v
	}
}

// newGogenResolved compiles gogen's program from writer bytes to the
// struct fresh makes, whose schema must be reader.
func newGogenResolved(tb testing.TB, name, writerText string, reader *schema.Schema, fresh func() gogenRecord) *gogenBinding {
	text := fresh().Schema()
	if s, err := schema.Parse(text); err != nil || s.Canonical() != reader.Canonical() {
		tb.Fatalf("%s: gogen's schema is not the suite's (regenerate bench/gogen): %v", name, err)
	}
	prog, err := compiler.CompileSchemaBytes([]byte(writerText), []byte(text))
	if err != nil {
		tb.Fatalf("%s: gogen compile: %v", name, err)
	}
	return &gogenBinding{program: prog, fresh: fresh}
}

// The generated types of each workload.
func gogenRec10() gogenRecord     { v := gogenrec10.NewRec10(); return &v }
func gogenWide() gogenRecord      { v := gogenwide.NewWide(); return &v }
func gogenDeep() gogenRecord      { v := gogendeep.NewOrder(); return &v }
func gogenTelemetry() gogenRecord { v := gogentelemetry.NewSample(); return &v }
func gogenRec10Evolved() gogenRecord {
	v := gogenrec10evolved.NewRec10()
	return &v
}
func gogenWideProject() gogenRecord { v := gogenwideproject.NewWide(); return &v }
func gogenStrs() gogenRecord        { v := gogenstrs.NewStrs(); return &v }

// checkGogenDecodes checks that gogen decodes every library's bytes to the
// record: its struct is its own type, so what it decoded is encoded again
// by gogen and compared after our decode. (That every library decodes
// gogen's bytes of the pool, the input of its encode rows, is checked with
// the other encoders.)
func checkGogenDecodes[T any](t *testing.T, w *workload[T], encs map[string]func(int) ([]byte, error)) {
	t.Helper()
	for i := 0; i < parityN; i++ {
		for elib, enc := range encs {
			data, err := enc(i)
			if err != nil {
				t.Fatalf("rec %d: %s encode: %v", i, elib, err)
			}
			v, err := w.gogen.decode(data)
			if err != nil {
				t.Fatalf("rec %d: gogen decoding %s's bytes: %v", i, elib, err)
			}
			again, err := w.gogen.encode(v)
			if err != nil {
				t.Fatalf("rec %d: gogen encoding what it decoded of %s's bytes: %v", i, elib, err)
			}
			got := new(T)
			if err := avro.Unmarshal(w.ours, again, got); err != nil {
				t.Fatalf("rec %d: gogen's record of %s's bytes: %v", i, elib, err)
			}
			if d := diff(w.recs[i], *got); d != "" {
				t.Fatalf("rec %d: gogen decoding %s's bytes (-want +got):\n%s", i, elib, d)
			}
		}
	}
}

// TestGogenSchemasMatch checks that the schema each generated package was
// made from is the workload's, so that a change to a workload's schema
// cannot leave gogen's code behind (regenerate with go generate
// ./gogen/...).
func TestGogenSchemasMatch(t *testing.T) {
	for _, c := range []struct {
		pkg, text string
		fresh     func() gogenRecord
	}{
		{"rec10", rec10Schema, gogenRec10},
		{"wide", wideSchema, gogenWide},
		{"deep", deepSchema, gogenDeep},
		{"telemetry", telemetrySchema, gogenTelemetry},
		{"strs", strSchema, gogenStrs},
		{"rec10evolved", rec10EvolvedSchema, gogenRec10Evolved},
		{"wideproject", wideProjectSchema, gogenWideProject},
	} {
		want := schema.MustParse(c.text).Canonical()
		file, err := os.ReadFile("gogen/" + c.pkg + "/schema.avsc")
		if err != nil {
			t.Fatal(err)
		}
		for from, text := range map[string]string{"schema.avsc": string(file), "the generated Schema()": c.fresh().Schema()} {
			s, err := schema.Parse(text)
			if err != nil {
				t.Fatalf("gogen/%s: %s: %v", c.pkg, from, err)
			}
			if got := s.Canonical(); got != want {
				t.Errorf("gogen/%s: %s is not the workload's schema:\n got %s\nwant %s", c.pkg, from, got, want)
			}
		}
	}
}

// TestGogenSharesMemory checks that gogen's pool reads the memory of the
// other libraries' pool (see shareMemory).
func TestGogenSharesMemory(t *testing.T) {
	sameString := func(what, a, b string) {
		t.Helper()
		if len(a) != 0 && unsafe.StringData(a) != unsafe.StringData(b) {
			t.Errorf("%s: gogen's string is a copy", what)
		}
	}
	w := wlRec10(t)
	notes := 0
	for i := range w.recs {
		g, o := w.gogen.recs[i].(*gogenrec10.Rec10), &w.recs[i]
		sameString("rec10.Name", o.Name, g.Name)
		sameString("rec10.Inner.Label", o.Inner.Label, g.Inner.Label)
		if reflect.ValueOf(g.Attrs).UnsafePointer() != reflect.ValueOf(o.Attrs).UnsafePointer() {
			t.Fatal("rec10.Attrs: gogen's map is a copy")
		}
		if len(o.Digest) > 0 && &g.Digest[0] != &o.Digest[0] {
			t.Fatal("rec10.Digest: gogen's bytes are a copy")
		}
		if o.Note != nil {
			notes++
			sameString("rec10.Note", *o.Note, g.Note.String)
		}
	}
	if notes == 0 {
		t.Fatal("no rec10 record has a note")
	}
	d := wlDeep(t)
	for i := range d.recs {
		g, o := d.gogen.recs[i].(*gogendeep.Order), &d.recs[i]
		sameString("deep.Customer.Address.City", o.Customer.Address.City, g.Customer.Address.City)
		for j := range o.Lines {
			sameString("deep.Lines[].Sku", o.Lines[j].SKU, g.Lines[j].Sku)
		}
		if o.Shipping != nil {
			sameString("deep.Shipping.Street", o.Shipping.Street, g.Shipping.Address.Street)
		}
	}
}
