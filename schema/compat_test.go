package schema

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompatibilityPython runs the 174 reader/writer pairs recorded from
// the Apache Python checker (which mirrors Java's SchemaCompatibility).
func TestCompatibilityPython(t *testing.T) {
	var file struct {
		Cases []struct {
			Test       string          `json:"test"`
			Reader     json.RawMessage `json:"reader"`
			Writer     json.RawMessage `json:"writer"`
			Compatible bool            `json:"compatible"`
			Locations  []string        `json:"python_locations"`
		} `json:"cases"`
	}
	readJSON(t, "derived/py-compatibility.json", &file)
	if len(file.Cases) != 174 {
		t.Fatalf("%d cases, want 174", len(file.Cases))
	}
	for i, c := range file.Cases {
		r, err := Parse(string(c.Reader))
		if err != nil {
			t.Errorf("case %d: reader: %v", i, err)
			continue
		}
		w, err := Parse(string(c.Writer))
		if err != nil {
			t.Errorf("case %d: writer: %v", i, err)
			continue
		}
		err = CheckCompatibility(r, w)
		if (err == nil) != c.Compatible {
			t.Errorf("case %d (%s): compatible=%v, got %v\nreader %s\nwriter %s", i, c.Test, c.Compatible, err, c.Reader, c.Writer)
			continue
		}
		if err != nil {
			var ce *CompatibilityError
			if !errors.As(err, &ce) || len(ce.Items) == 0 {
				t.Errorf("case %d: error %T %v is not a *CompatibilityError with items", i, err, err)
			}
		}
		// Resolve agrees whenever the checker accepts the pair.
		if c.Compatible {
			if _, err := Resolve(w, r); err != nil {
				t.Errorf("case %d: compatible, but Resolve: %v", i, err)
			}
		}
	}
}

// TestCompatibilityListsEverything: every incompatibility is listed, the
// ones Resolve rejects and the ones only some data would hit.
func TestCompatibilityListsEverything(t *testing.T) {
	w := MustParse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":"string"},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B","C"]}},
		{"name":"u","type":["null","int","boolean"]},
		{"name":"n","type":{"type":"record","name":"N","fields":[{"name":"x","type":"float"}]}}]}`)
	r := MustParse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":"int"},
		{"name":"e","type":{"type":"enum","name":"E","symbols":["A"]}},
		{"name":"u","type":["null","long"]},
		{"name":"n","type":{"type":"record","name":"N","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"}]}},
		{"name":"missing","type":"int"}]}`)
	err := CheckCompatibility(r, w)
	var ce *CompatibilityError
	if !errors.As(err, &ce) {
		t.Fatalf("%v", err)
	}
	var paths []string
	for _, it := range ce.Items {
		paths = append(paths, it.Path)
	}
	want := []string{"/fields/0/type", "/fields/3/type/fields/0/type", "/fields/3/type/fields/1", "/fields/4", "/fields/1/type/symbols", "/fields/2/type"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Fatalf("paths (-want +got):\n%s\n%v", diff, err)
	}
	// Resolve only fails on those every datum hits; a compatible pair
	// with only decode-time problems resolves.
	if _, err := Resolve(MustParse(`{"type":"enum","name":"E","symbols":["A","B"]}`), MustParse(`{"type":"enum","name":"E","symbols":["A"]}`)); err != nil {
		t.Fatal(err)
	}
	if err := CheckCompatibility(MustParse(`{"type":"enum","name":"E","symbols":["A"],"default":"A"}`), MustParse(`{"type":"enum","name":"E","symbols":["A","B"]}`)); err != nil {
		t.Fatalf("enum default: %v", err)
	}
}

func TestCheckMode(t *testing.T) {
	v1 := MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`)
	// v2 adds a field with a default: backward and forward compatible.
	v2 := MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":""}]}`)
	// v3 drops a and adds c with no default: not backward compatible
	// with anything, forward compatible only with v2... neither: v2
	// reads v3 data only if a has a default.
	v3 := MustParse(`{"type":"record","name":"R","fields":[{"name":"b","type":"string","default":""},{"name":"c","type":"long"}]}`)
	// v4 promotes a to long: backward compatible, not forward.
	v4 := MustParse(`{"type":"record","name":"R","fields":[{"name":"a","type":"long"},{"name":"b","type":"string","default":""}]}`)
	for _, c := range []struct {
		mode Mode
		cand *Schema
		prev []*Schema
		fail int // failed checks
	}{
		{Backward, v2, []*Schema{v1}, 0},
		{Forward, v2, []*Schema{v1}, 0},
		{Full, v2, []*Schema{v1}, 0},
		{Backward, v4, []*Schema{v1, v2}, 0},
		{Forward, v4, []*Schema{v1, v2}, 1},
		{Full, v4, []*Schema{v1, v2}, 1},
		{Backward, v3, []*Schema{v1, v2}, 1},
		{BackwardTransitive, v3, []*Schema{v1, v2}, 2},
		{FullTransitive, v3, []*Schema{v1, v2}, 4},
		{ForwardTransitive, v4, []*Schema{v1, v2}, 2},
		{BackwardTransitive, v4, []*Schema{v1, v2}, 0},
		{FullTransitive, v1, nil, 0},
	} {
		err := CheckMode(c.mode, c.cand, c.prev...)
		var me *ModeError
		switch {
		case c.fail == 0 && err != nil:
			t.Errorf("%v: %v", c.mode, err)
		case c.fail > 0 && (!errors.As(err, &me) || len(me.Failures) != c.fail):
			t.Errorf("%v: %v, want %d failures", c.mode, err, c.fail)
		}
		if c.fail > 0 {
			var ce *CompatibilityError
			if !errors.As(err, &ce) {
				t.Errorf("%v: ModeError does not unwrap to *CompatibilityError", c.mode)
			}
		}
	}
	if err := CheckMode(Mode(99), v1); err == nil {
		t.Error("unknown mode accepted")
	}
	if Backward.String() != "BACKWARD" || FullTransitive.String() != "FULL_TRANSITIVE" {
		t.Error("Mode.String")
	}
}
