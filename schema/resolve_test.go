package schema

import (
	"errors"
	"strings"
	"testing"
)

func mustResolveSchemas(t *testing.T, w, r string) *Schema {
	t.Helper()
	s, err := Resolve(MustParse(w), MustParse(r))
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	return s
}

func TestResolveActions(t *testing.T) {
	w := MustParse(`{"type":"record","name":"a.R","fields":[
		{"name":"x","type":"int"},{"name":"gone","type":"string"},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B","C"]}},
		{"name":"u","type":["null","int"]}]}`)
	r := MustParse(`{"type":"record","name":"b.S","aliases":["a.R"],"fields":[
		{"name":"u","type":["long","null"]},
		{"name":"y","aliases":["x"],"type":"double"},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["C","A"]}},
		{"name":"d","type":"int","default":3}]}`)
	s, err := Resolve(w, r)
	if err != nil {
		t.Fatal(err)
	}
	if s.Writer() != w || r.Writer() != nil || r.Resolution() != nil {
		t.Fatal("Writer/Resolution")
	}
	if s.String() != r.String() || s.Canonical() != r.Canonical() || s.Fingerprint() != r.Fingerprint() {
		t.Fatal("resolved schema is not the reader's shape")
	}
	a := s.Resolution()
	if a.Kind() != ActionRecord || a.Writer() != w || a.Reader() != s {
		t.Fatalf("root %v", a.Kind())
	}
	fs := a.WriterFields()
	if len(fs) != 4 || fs[0].Reader.Name() != "y" || fs[0].Action.Kind() != ActionPromote ||
		fs[1].Reader != nil || fs[1].Action != nil ||
		fs[2].Action.Kind() != ActionEnum || fs[3].Reader.Name() != "u" {
		t.Fatalf("fields %+v", fs)
	}
	if got := fs[2].Action.SymbolMap(); len(got) != 3 || got[0] != 1 || got[1] != -1 || got[2] != 0 {
		t.Fatalf("symbol map %v", got)
	}
	u := fs[3].Action
	if u.Kind() != ActionWriterUnion || len(u.Branches()) != 2 {
		t.Fatalf("union %v", u.Kind())
	}
	if b := u.Branches()[0]; b.Kind() != ActionReaderUnion || b.ReaderBranch() != 1 || b.Elem().Kind() != ActionSame {
		t.Fatalf("null branch %v %d", b.Kind(), b.ReaderBranch())
	}
	if b := u.Branches()[1]; b.ReaderBranch() != 0 || b.Elem().Kind() != ActionPromote {
		t.Fatalf("int branch %v", b.Kind())
	}
	if d := a.Defaults(); len(d) != 1 || d[0].Name() != "d" || string(d[0].DefaultBinary()) != "\x06" {
		t.Fatalf("defaults %v", d)
	}
}

func TestResolveRecursive(t *testing.T) {
	s := mustResolveSchemas(t,
		`{"type":"record","name":"Node","fields":[{"name":"v","type":"int"},{"name":"kids","type":{"type":"array","items":"Node"}},{"name":"next","type":["null","Node"]}]}`,
		`{"type":"record","name":"Node","fields":[{"name":"v","type":"long"},{"name":"kids","type":{"type":"array","items":"Node"}},{"name":"next","type":["null","Node"]}]}`)
	a := s.Resolution()
	// The cycle closes on the root action.
	if a.WriterFields()[1].Action.Elem() != a {
		t.Fatal("array items do not point back at the record")
	}
	if a.WriterFields()[2].Action.Branches()[1].Elem() != a {
		t.Fatal("union branch does not point back at the record")
	}
	// The copy is recursive too: it prints as the reader.
	if !strings.Contains(s.String(), `"items":"Node"`) {
		t.Fatal(s.String())
	}
	// A recursive pair that fails fails Resolve.
	_, err := Resolve(
		MustParse(`{"type":"record","name":"Node","fields":[{"name":"next","type":["null","Node"]}]}`),
		MustParse(`{"type":"record","name":"Node","fields":[{"name":"next","type":["null","Node"]},{"name":"x","type":"int"}]}`))
	var ce *CompatibilityError
	if !errors.As(err, &ce) || ce.Items[0].Path != "/fields/1" {
		t.Fatalf("%v", err)
	}
}

func TestResolveDecisions(t *testing.T) {
	cases := []struct {
		w, r string
		ok   bool
		path string // of the first error
	}{
		{`"int"`, `"long"`, true, ""},
		{`"long"`, `"int"`, false, "/"},
		{`"string"`, `"bytes"`, true, ""},
		{`"bytes"`, `"string"`, true, ""},
		{`"float"`, `"long"`, false, "/"},
		{`{"type":"fixed","name":"F","size":4}`, `{"type":"fixed","name":"F","size":5}`, false, "/"},
		{`{"type":"fixed","name":"F","size":4}`, `{"type":"fixed","name":"G","size":4}`, false, "/"},
		{`{"type":"fixed","name":"a.F","size":4}`, `{"type":"fixed","name":"b.F","size":4}`, true, ""},
		{`{"type":"enum","name":"E","symbols":["A"]}`, `{"type":"enum","name":"X","symbols":["A"]}`, false, "/"},
		{`{"type":"enum","name":"E","symbols":["A","Z"]}`, `{"type":"enum","name":"E","symbols":["A"]}`, true, ""},
		{`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`, `{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`, true, ""},
		{`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`, `{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}`, false, "/"},
		{`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`, `"bytes"`, true, ""},
		{`{"type":"array","items":"int"}`, `{"type":"array","items":"string"}`, false, "/items"},
		{`{"type":"map","values":"int"}`, `{"type":"map","values":"double"}`, true, ""},
		{`["null","string"]`, `"string"`, true, ""},    // null fails at decode time
		{`["null","boolean"]`, `"string"`, false, "/"}, // no branch readable
		{`"int"`, `["null","string"]`, false, "/"},
		{`"int"`, `["null","float","long"]`, true, ""},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`, `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"}]}`, false, "/fields/1"},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`, `{"type":"record","name":"R","fields":[{"name":"b","type":{"type":"array","items":"int"}}]}`, false, "/fields/0"},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`, `{"type":"record","name":"Q","fields":[]}`, false, "/"},
		{`{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`, `{"type":"record","name":"Q","aliases":["R"],"fields":[]}`, true, ""},
	}
	for _, c := range cases {
		_, err := Resolve(MustParse(c.w), MustParse(c.r))
		if (err == nil) != c.ok {
			t.Errorf("%s -> %s: %v", c.w, c.r, err)
			continue
		}
		if err != nil {
			var ce *CompatibilityError
			if !errors.As(err, &ce) || ce.Items[0].Path != c.path {
				t.Errorf("%s -> %s: %v, want path %s", c.w, c.r, err, c.path)
			}
		}
	}
}

// TestResolveUnionChoice: a reader union takes the branch of the same type
// before a promotion, and a record by full name before one by alias.
func TestResolveUnionChoice(t *testing.T) {
	for _, c := range []struct {
		w, r string
		want int
	}{
		{`"int"`, `["long","int"]`, 1},
		{`"int"`, `["null","float","double"]`, 1},
		{`"string"`, `["bytes","null"]`, 0},
		{`{"type":"record","name":"a.R","fields":[]}`, `[{"type":"record","name":"b.R","fields":[]},{"type":"record","name":"a.R","fields":[]}]`, 1},
		{`{"type":"record","name":"R","fields":[{"name":"x","type":"int"}]}`,
			`[{"type":"record","name":"x.R","fields":[{"name":"y","type":"int"}]},{"type":"record","name":"y.R","fields":[{"name":"x","type":"long"}]}]`, 1},
	} {
		s, err := Resolve(MustParse(c.w), MustParse(c.r))
		if err != nil {
			t.Errorf("%s -> %s: %v", c.w, c.r, err)
			continue
		}
		if got := s.Resolution().ReaderBranch(); got != c.want {
			t.Errorf("%s -> %s: branch %d, want %d", c.w, c.r, got, c.want)
		}
	}
}

func TestResolveErrorAction(t *testing.T) {
	s := mustResolveSchemas(t, `["null","boolean","int"]`, `"long"`)
	bs := s.Resolution().Branches()
	if bs[0].Kind() != ActionError || bs[1].Kind() != ActionError || bs[2].Kind() != ActionPromote {
		t.Fatalf("%v %v %v", bs[0].Kind(), bs[1].Kind(), bs[2].Kind())
	}
	var inc *Incompatibility
	if !errors.As(bs[1].Err(), &inc) || !strings.Contains(inc.Reason, "boolean cannot be read as long") {
		t.Fatalf("%v", bs[1].Err())
	}
	if bs[2].Err() != nil {
		t.Fatal("Err of a non-error action")
	}
	if _, err := Resolve(nil, s); err == nil {
		t.Fatal("nil writer")
	}
}
