package idl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var toolsIDL = filepath.Join(upstream, "tools/src/test/idl")

// TestUpstreamTools runs the IDL files of Java's avro-tools tests: a
// protocol with its .avpr, and a file in the schema syntax with its .avsc.
func TestUpstreamTools(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(toolsIDL, "protocol.avpr"))
	if err != nil {
		t.Fatal(err)
	}
	checkProtocol(t, filepath.Join(toolsIDL, "protocol.avdl"), want)

	f, err := ParseFile(filepath.Join(toolsIDL, "schema.avdl"))
	if err != nil {
		t.Fatal(err)
	}
	if f.ProtocolJSON() != nil {
		t.Errorf("a schema file has protocol JSON %s", f.ProtocolJSON())
	}
	want, err = os.ReadFile(filepath.Join(toolsIDL, "schema.avsc"))
	if err != nil {
		t.Fatal(err)
	}
	if d := sameJSONText(f.SchemaJSON(), want); d != "" {
		t.Errorf("%s\n%s", d, f.SchemaJSON())
	}
	if s := f.Schema(); s == nil || s.FullName() != "org.apache.avro.test.TestRecord" {
		t.Fatalf("main schema %v", s)
	}
	var names []string
	for _, s := range f.Types() {
		names = append(names, s.FullName())
	}
	if got, want := strings.Join(names, " "), "org.apache.avro.test.TestRecord org.apache.avro.test.Kind org.apache.avro.test.MD5"; got != want {
		t.Errorf("types %s, want %s", got, want)
	}
	if f.Schema() != f.Types()[0] {
		t.Error("the main schema is not the node of its named type")
	}
}

// TestUpstreamWorkSpace reads imports from a directory whose name has a
// space, each import relative to the file that has it.
func TestUpstreamWorkSpace(t *testing.T) {
	dir := filepath.Join(compilerIDL, "work space")
	want, err := os.ReadFile(filepath.Join(dir, "root.avpr"))
	if err != nil {
		t.Fatal(err)
	}
	checkProtocol(t, filepath.Join(dir, "root.avdl"), want)
}

// TestUpstreamClasspathRelative reads the classpath file on its own: its
// imports go to a subdirectory and back up ("folder/relativePath.avdl"
// imports "../nestedtypes.avdl"), and the imported types come first.
func TestUpstreamClasspathRelative(t *testing.T) {
	f, err := ParseFile(filepath.Join(classpath, "OnTheClasspath.avdl"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range f.Types() {
		names = append(names, s.FullName())
	}
	if got, want := strings.Join(names, " "), "org.on.the.classpath.NestedType org.on.the.classpath.FromAfar"; got != want {
		t.Errorf("types %s, want %s", got, want)
	}
}

// TestUpstreamImportNeedsSearchPath checks that import.avdl, whose imports
// are on Java's classpath, fails without the search path, naming the
// missing file.
func TestUpstreamImportNeedsSearchPath(t *testing.T) {
	_, err := ParseFile(filepath.Join(compilerIDL, "input", "import.avdl"))
	var ie *Error
	if !errors.As(err, &ie) || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(ie.Msg, "OnTheClasspath.avdl") {
		t.Fatalf("got %v, want a missing OnTheClasspath.avdl", err)
	}
	if ie.Line != 25 || ie.Column != 14 {
		t.Errorf("at %d:%d, want 25:14", ie.Line, ie.Column)
	}
}

// TestUpstreamAnnotationOnTypeReference: Java refuses properties on a
// reference to a named type.
func TestUpstreamAnnotationOnTypeReference(t *testing.T) {
	_, err := ParseFile(filepath.Join(compilerIDL, "AnnotationOnTypeReference.avdl"))
	var ie *Error
	if !errors.As(err, &ie) || !strings.Contains(ie.Msg, "type references may not be annotated") {
		t.Fatalf("got %v", err)
	}
	if ie.Line != 29 || ie.Column != 17 {
		t.Errorf("at %d:%d, want 29:17", ie.Line, ie.Column)
	}
}

// TestUpstreamLogicalTypes checks the logical types of Java's
// logicalTypes.avdl, as Java's TestLogicalTypes does: keywords and
// @logicalType give the same types, and a decimal whose precision does not
// fit is plain bytes.
func TestUpstreamLogicalTypes(t *testing.T) {
	f, err := ParseFile(filepath.Join(compilerIDL, "logicalTypes.avdl"))
	if err != nil {
		t.Fatal(err)
	}
	rec := f.Types()[0]
	for name, want := range map[string]string{
		"aDate": "date", "aTime": "time-millis", "aTimestamp": "timestamp-millis",
		"aLocalTimestamp": "local-timestamp-millis", "pocketMoney": "decimal",
		"identifier": "uuid", "anotherTimestamp": "timestamp-micros", "allowance": "decimal",
	} {
		fl := rec.Field(name)
		if fl == nil {
			t.Fatalf("no field %s", name)
		}
		if got := fl.Type().Logical().String(); got != want {
			t.Errorf("%s: logical type %s, want %s", name, got, want)
		}
	}
	for _, name := range []string{"pocketMoney", "allowance"} {
		if ty := rec.Field(name).Type(); ty.Precision() != 6 || ty.Scale() != 2 {
			t.Errorf("%s: decimal(%d,%d), want decimal(6,2)", name, ty.Precision(), ty.Scale())
		}
	}
	if l := rec.Field("byteArray").Type().Logical().String(); l == "decimal" {
		t.Errorf("byteArray: a precision of 3000000000 gives logical type %s", l)
	}
}

// TestUpstreamCycle checks that the records of Java's cycle.avdl, which
// reference each other before their declaration, are one cycle of nodes.
func TestUpstreamCycle(t *testing.T) {
	f, err := ParseFile(filepath.Join(compilerIDL, "cycle.avdl"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, s := range f.Types() {
		byName[s.Name()] = i
	}
	ts := f.Types()
	r1, r2, r3 := ts[byName["Record1"]], ts[byName["Record2"]], ts[byName["Record3"]]
	if r1.Field("rec3").Type() != r3 || r3.Field("rec2").Type() != r2 || r2.Field("fRec1").Type().Branches()[1] != r1 {
		t.Error("the records do not reference each other's nodes")
	}
}
