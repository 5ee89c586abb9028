package schema

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testdata is the upstream Apache Avro test material shared by the project.
const testdata = "../../shared/testdata/apache-avro/"

func readFile(t testing.TB, rel string) string {
	t.Helper()
	data, err := os.ReadFile(testdata + rel)
	if err != nil {
		t.Fatalf("test data missing: %v", err)
	}
	return string(data)
}

func readJSON(t testing.TB, rel string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(readFile(t, rel)), v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

type schemaTestCase struct {
	id          string
	input       string
	canonical   string
	fingerprint string
}

// readSchemaTests parses share/test/data/schema-tests.txt, the CaseFinder
// heredoc format of the Java suite: "<<LABEL text" on one line, or
// "<<LABEL" followed by lines up to a line equal to LABEL. Other lines are
// comments.
func readSchemaTests(t testing.TB) []schemaTestCase {
	lines := strings.Split(readFile(t, "share/test/data/schema-tests.txt"), "\n")
	var cases []schemaTestCase
	lastComment := ""
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		if strings.HasPrefix(line, "// ") {
			lastComment = strings.TrimPrefix(line, "// ")
		}
		if !strings.HasPrefix(line, "<<") {
			continue
		}
		label, text, single := strings.Cut(line[2:], " ")
		if !single {
			var body []string
			for i++; i < len(lines) && strings.TrimRight(lines[i], "\r") != label; i++ {
				body = append(body, lines[i])
			}
			text = strings.Join(body, "\n")
		}
		switch label {
		case "INPUT":
			cases = append(cases, schemaTestCase{id: lastComment, input: text})
		case "canonical":
			cases[len(cases)-1].canonical = text
		case "fingerprint":
			cases[len(cases)-1].fingerprint = text
		default:
			t.Fatalf("schema-tests.txt: unknown label %q", label)
		}
	}
	return cases
}

func TestSchemaTestsTxt(t *testing.T) {
	cases := readSchemaTests(t)
	if len(cases) != 34 {
		t.Fatalf("found %d cases in schema-tests.txt, want 34", len(cases))
	}
	withFP := 0
	for _, c := range cases {
		s, err := Parse(c.input)
		if err != nil {
			t.Errorf("case %s: Parse(%s): %v", c.id, c.input, err)
			continue
		}
		if got := s.Canonical(); got != c.canonical {
			t.Errorf("case %s: Canonical() = %s, want %s", c.id, got, c.canonical)
		}
		if c.fingerprint == "" {
			continue
		}
		withFP++
		want, err := strconv.ParseInt(c.fingerprint, 10, 64)
		if err != nil {
			t.Fatalf("case %s: bad fingerprint %q", c.id, c.fingerprint)
		}
		if got := s.Fingerprint(); got != uint64(want) {
			t.Errorf("case %s: Fingerprint() = %#x, want %#x", c.id, got, uint64(want))
		}
	}
	if withFP != 26 {
		t.Errorf("checked %d fingerprints, want 26", withFP)
	}
}

// TestSchemaTestsJSON checks the derived copy of schema-tests.txt, which
// adds MD5 and SHA-256 for every case.
func TestSchemaTestsJSON(t *testing.T) {
	var file struct {
		Cases []struct {
			ID, Input, Canonical string
			Computed             struct {
				Crc64Signed int64 `json:"crc64_signed"`
				MD5         string
				SHA256      string
			}
		}
	}
	readJSON(t, "derived/schema-tests.json", &file)
	if len(file.Cases) != 34 {
		t.Fatalf("%d cases, want 34", len(file.Cases))
	}
	for _, c := range file.Cases {
		s, err := Parse(c.Input)
		if err != nil {
			t.Errorf("case %s: %v", c.ID, err)
			continue
		}
		checkFingerprints(t, "case "+c.ID, s, c.Canonical, uint64(c.Computed.Crc64Signed), c.Computed.MD5, c.Computed.SHA256)
	}
}

func checkFingerprints(t *testing.T, name string, s *Schema, canonical string, crc uint64, md5hex, sha256hex string) {
	t.Helper()
	if got := s.Canonical(); got != canonical {
		t.Errorf("%s: Canonical() = %s, want %s", name, got, canonical)
	}
	if got := s.Fingerprint(); got != crc {
		t.Errorf("%s: Fingerprint() = %#x, want %#x", name, got, crc)
	}
	if md5 := s.FingerprintMD5(); hex.EncodeToString(md5[:]) != md5hex {
		t.Errorf("%s: FingerprintMD5() = %x, want %s", name, md5, md5hex)
	}
	if sha := s.FingerprintSHA256(); hex.EncodeToString(sha[:]) != sha256hex {
		t.Errorf("%s: FingerprintSHA256() = %x, want %s", name, sha, sha256hex)
	}
}

func TestPyFingerprints(t *testing.T) {
	var file struct {
		Cases []struct {
			Schema              string
			PythonCanonicalForm string `json:"python_canonical_form"`
			CRC64LE             string `json:"crc64_le_bytes"`
			MD5                 string
			SHA256              string
		}
	}
	readJSON(t, "derived/py-fingerprints.json", &file)
	if len(file.Cases) != 33 {
		t.Fatalf("%d cases, want 33", len(file.Cases))
	}
	deviations := 0
	for i, c := range file.Cases {
		s, err := Parse(c.Schema)
		if err != nil {
			t.Errorf("case %d: %v", i, err)
			continue
		}
		le, err := hex.DecodeString(c.CRC64LE)
		if err != nil || len(le) != 8 {
			t.Fatalf("case %d: bad crc64_le_bytes %q", i, c.CRC64LE)
		}
		var crc uint64
		for j := 7; j >= 0; j-- {
			crc = crc<<8 | uint64(le[j])
		}
		if want, ok := pythonDeviations[c.PythonCanonicalForm]; ok {
			// Python's fingerprints are of its own form; ours follow the
			// spec and Java, so only the form is checked.
			deviations++
			if got := s.Canonical(); got != want {
				t.Errorf("case %d: Canonical() = %s, want %s", i, got, want)
			}
			continue
		}
		checkFingerprints(t, fmt.Sprintf("case %d", i), s, c.PythonCanonicalForm, crc, c.MD5, c.SHA256)
	}
	if deviations != 1 {
		t.Errorf("%d cases where Python deviates, want 1", deviations)
	}
}

// handshakeRequestCanonical is the canonical form of HandshakeRequest by
// the spec and Java: the MD5 fixed in full at its first use and by name at
// the second. The Python implementation writes it in full twice.
const handshakeRequestCanonical = `{"name":"org.apache.avro.ipc.HandshakeRequest","type":"record","fields":[{"name":"clientHash","type":{"name":"org.apache.avro.ipc.MD5","type":"fixed","size":16}},{"name":"clientProtocol","type":["null","string"]},{"name":"serverHash","type":"org.apache.avro.ipc.MD5"},{"name":"meta","type":["null",{"type":"map","values":"bytes"}]}]}`

// pythonDeviations maps the canonical forms of the Python implementation
// that do not follow the spec (and Java, the reference for fingerprints)
// to the spec's form.
var pythonDeviations = map[string]string{
	// P8: a named type in full at its first use only.
	`{"name":"org.apache.avro.ipc.HandshakeRequest","type":"record","fields":[{"name":"clientHash","type":{"name":"org.apache.avro.ipc.MD5","type":"fixed","size":16}},{"name":"clientProtocol","type":["null","string"]},{"name":"serverHash","type":{"name":"org.apache.avro.ipc.MD5","type":"fixed","size":16}},{"name":"meta","type":["null",{"type":"map","values":"bytes"}]}]}`: handshakeRequestCanonical,
	// N5: "int" always names the primitive, even inside a record ns.int
	// (Python resolves it to the record).
	`{"name":"ns.int","type":"record","fields":[{"name":"value","type":"ns.int"},{"name":"next","type":["null","ns.int"]}]}`: `{"name":"ns.int","type":"record","fields":[{"name":"value","type":"int"},{"name":"next","type":["null","ns.int"]}]}`,
	// Java writes an error record with type "record".
	`{"name":"Test","type":"error","fields":[{"name":"f","type":"long"}]}`: `{"name":"Test","type":"record","fields":[{"name":"f","type":"long"}]}`,
}

// pythonCanonical returns the spec's canonical form for a form written by
// the Python implementation.
func pythonCanonical(py string) string {
	if want, ok := pythonDeviations[py]; ok {
		return want
	}
	// P1: Python keeps {"type":"int"} for a primitive that had other
	// attributes (a logical type); the spec reduces it to "int".
	var obj map[string]any
	if json.Unmarshal([]byte(py), &obj) == nil && len(obj) == 1 {
		if t, ok := obj["type"].(string); ok {
			if _, prim := primitiveKinds[t]; prim {
				return strconv.Quote(t)
			}
		}
	}
	return py
}

func TestPyCanonicalForm(t *testing.T) {
	var file struct {
		Cases []struct {
			Test              string
			Input             string
			ExpectedCanonical string `json:"expected_canonical"`
		}
	}
	readJSON(t, "derived/py-canonical-form.json", &file)
	if len(file.Cases) != 29 {
		t.Fatalf("%d cases, want 29", len(file.Cases))
	}
	for _, c := range file.Cases {
		s, err := Parse(c.Input)
		if err != nil {
			t.Errorf("%s: %v", c.Test, err)
			continue
		}
		if got := s.Canonical(); got != pythonCanonical(c.ExpectedCanonical) {
			t.Errorf("%s: Canonical() = %s\nwant %s", c.Test, got, c.ExpectedCanonical)
		}
	}
}

func listDir(t testing.TB, rel string) []string {
	t.Helper()
	entries, err := os.ReadDir(testdata + rel)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, rel+"/"+e.Name())
		}
	}
	sort.Strings(out)
	return out
}

func TestCSchemaTests(t *testing.T) {
	pass := listDir(t, "lang/c/tests/schema_tests/pass")
	fail := listDir(t, "lang/c/tests/schema_tests/fail")
	if len(pass) != 28 || len(fail) != 12 {
		t.Fatalf("%d pass and %d fail files, want 28 and 12", len(pass), len(fail))
	}
	for _, f := range pass {
		if _, err := Parse(readFile(t, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, f := range fail {
		wantError(t, f, readFile(t, f))
	}
}

// expectError checks that text is rejected with an *Error.
// wantError is expectError for a caller that needs no more than the
// checks.
func wantError(t *testing.T, name, text string) {
	t.Helper()
	_ = expectError(t, name, text)
}

func expectError(t *testing.T, name, text string) *Error {
	t.Helper()
	s, err := Parse(text)
	if err == nil {
		t.Errorf("%s: Parse accepted %s as %s", name, text, s)
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v is a %T, not *Error", name, err, err)
	}
	return e
}

type pyExample struct {
	Group               string
	Schema              string
	Valid               bool
	PythonCanonicalForm string `json:"python_canonical_form"`
}

func readPyExamples(t testing.TB) []pyExample {
	var file struct{ Examples []pyExample }
	readJSON(t, "derived/py-schema-examples.json", &file)
	if len(file.Examples) != 99 {
		t.Fatalf("%d examples, want 99", len(file.Examples))
	}
	return file.Examples
}

func TestPySchemaExamples(t *testing.T) {
	invalid, ignored := 0, 0
	for _, ex := range readPyExamples(t) {
		if !ex.Valid {
			invalid++
			wantError(t, ex.Group, ex.Schema)
			continue
		}
		s, err := Parse(ex.Schema)
		if err != nil {
			t.Errorf("%s: Parse(%s): %v", ex.Group, ex.Schema, err)
			continue
		}
		if ex.Group == "IGNORED_LOGICAL_TYPE" {
			ignored++
			if s.Logical() != NoLogical {
				t.Errorf("%s: %s has logical type %v, want none", ex.Group, ex.Schema, s.Logical())
			}
			if _, ok := s.Prop("logicalType"); !ok {
				t.Errorf("%s: %s lost its logicalType prop", ex.Group, ex.Schema)
			}
		}
		if strings.HasSuffix(ex.Group, "_LOGICAL_TYPE") && ex.Group != "IGNORED_LOGICAL_TYPE" && s.Logical() == NoLogical {
			t.Errorf("%s: %s has no logical type", ex.Group, ex.Schema)
		}
		// Python orders "name" after "type" for some named types, so
		// compare the JSON values, after mapping Python's deviations.
		if ex.PythonCanonicalForm != "" && !sameJSON(t, s.Canonical(), pythonCanonical(ex.PythonCanonicalForm)) {
			t.Errorf("%s: Canonical() = %s, Python has %s", ex.Group, s.Canonical(), ex.PythonCanonicalForm)
		}
	}
	if invalid != 22 || ignored != 21 {
		t.Errorf("checked %d invalid and %d ignored-logical examples, want 22 and 21", invalid, ignored)
	}
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t testing.TB, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return cmp.Equal(va, vb)
}

// cppSkip lists the C++ code-generator schemas that are not schemas.
// verboseint is not JSON at all (unquoted keys, an object without a
// value); the C++ generator tests do not parse it either. nested.error
// refers to an undefined name and is meant to fail.
var cppNotJSON = map[string]bool{"lang/c++/jsonschemas/verboseint": true}

func TestCppJSONSchemas(t *testing.T) {
	files := listDir(t, "lang/c++/jsonschemas")
	if len(files) != 35 {
		t.Fatalf("%d files, want 35", len(files))
	}
	for _, f := range files {
		text := readFile(t, f)
		switch {
		case strings.HasSuffix(f, "nested.error"):
			e := expectError(t, f, text)
			if e != nil && !strings.Contains(e.Error(), `unknown type "LongLister"`) {
				t.Errorf("%s: error %q does not name the undefined type", f, e)
			}
		case cppNotJSON[f]:
			e := expectError(t, f, text)
			var syn *json.SyntaxError
			if e != nil && !errors.As(e, &syn) {
				t.Errorf("%s: error %v does not wrap a *json.SyntaxError", f, e)
			}
		default:
			if _, err := Parse(text); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
}

type cppCases struct {
	BasicSchemas          []string
	BasicSchemaErrors     []string
	RoundTripSchemas      []string
	MalformedLogicalTypes []string
}

func readCppCases(t testing.TB) cppCases {
	var c cppCases
	readJSON(t, "derived/cpp-schema-cases.json", &c)
	if len(c.BasicSchemas) != 47 || len(c.BasicSchemaErrors) != 13 || len(c.RoundTripSchemas) != 45 || len(c.MalformedLogicalTypes) != 21 {
		t.Fatalf("unexpected case counts %d %d %d %d", len(c.BasicSchemas), len(c.BasicSchemaErrors), len(c.RoundTripSchemas), len(c.MalformedLogicalTypes))
	}
	return c
}

func TestCppSchemaCases(t *testing.T) {
	c := readCppCases(t)
	for _, text := range c.BasicSchemas {
		if _, err := Parse(text); err != nil {
			t.Errorf("basic %s: %v", text, err)
		}
	}
	for _, text := range c.BasicSchemaErrors {
		wantError(t, "basicSchemaErrors", text)
	}
	for _, text := range c.RoundTripSchemas {
		s, err := Parse(text)
		if err != nil {
			t.Errorf("round trip %s: %v", text, err)
			continue
		}
		// The C++ suite expects the compact JSON back with the attributes
		// as written; we write our own attribute order, so compare the
		// JSON values.
		if !sameJSON(t, s.String(), text) {
			t.Errorf("round trip: String() = %s\nwant the value of %s", s, text)
		}
	}
	for _, text := range c.MalformedLogicalTypes {
		s, err := Parse(text)
		if err != nil {
			t.Errorf("malformed logical type %s: %v", text, err)
			continue
		}
		if s.Logical() != NoLogical {
			t.Errorf("malformed logical type %s: Logical() = %v, want none", text, s.Logical())
		}
		if !sameJSON(t, s.String(), text) {
			t.Errorf("malformed logical type: String() = %s\nwant the value of %s", s, text)
		}
	}
}

// allSchemaTexts gathers every valid schema text of the test data.
func allSchemaTexts(t testing.TB) map[string]string {
	out := map[string]string{}
	for _, c := range readSchemaTests(t) {
		out["schema-tests "+c.id] = c.input
	}
	for i, ex := range readPyExamples(t) {
		if ex.Valid {
			out[fmt.Sprintf("py-example %d", i)] = ex.Schema
		}
	}
	var fps struct{ Cases []struct{ Schema string } }
	readJSON(t, "derived/py-fingerprints.json", &fps)
	for i, c := range fps.Cases {
		out[fmt.Sprintf("py-fingerprints %d", i)] = c.Schema
	}
	var canon struct {
		Cases []struct{ Test, Input string }
	}
	readJSON(t, "derived/py-canonical-form.json", &canon)
	for _, c := range canon.Cases {
		out["py-canonical "+c.Test] = c.Input
	}
	cpp := readCppCases(t)
	for name, list := range map[string][]string{"basic": cpp.BasicSchemas, "roundtrip": cpp.RoundTripSchemas, "malformed-logical": cpp.MalformedLogicalTypes} {
		for i, text := range list {
			out[fmt.Sprintf("cpp %s %d", name, i)] = text
		}
	}
	files := append(listDir(t, "lang/c/tests/schema_tests/pass"), listDir(t, "lang/c++/jsonschemas")...)
	files = append(files, schemaFiles...)
	for _, f := range files {
		if strings.HasSuffix(f, "nested.error") || cppNotJSON[f] {
			continue
		}
		out[f] = readFile(t, f)
	}
	return out
}

// schemaFiles are the stand-alone .avsc files of the test data.
var schemaFiles = []string{
	"lang/java/avro/src/test/resources/SchemaBuilder.avsc",
	"lang/java/avro/src/test/resources/TestRecordWithLogicalTypes.avsc",
	"lang/java/avro/src/test/resources/TestRecordWithMapsAndArrays.avsc",
	"lang/java/avro/src/test/resources/TestUnionRecord.avsc",
	"lang/java/avro/src/test/resources/multipleFile/DocumentInfo.avsc",
	"lang/java/avro/src/test/resources/multipleFile/MyResponse.avsc",
	"lang/java/trevni/avro/src/test/cases/dremel/input.avsc",
	"lang/java/trevni/avro/src/test/cases/dremel/sub1/sub.avsc",
	"lang/java/trevni/avro/src/test/cases/enum/input.avsc",
	"lang/js/test/dat/Id.avsc",
	"lang/js/test/dat/Person.avsc",
	"share/schemas/org/apache/avro/data/Json.avsc",
	"share/schemas/org/apache/avro/ipc/HandshakeRequest.avsc",
	"share/schemas/org/apache/avro/ipc/HandshakeResponse.avsc",
	"share/test/data/messageV1/test_schema.avsc",
	"share/test/data/schemas/simple/schema.json",
	"share/test/data/schemas/withUnion/schema.json",
	"share/test/schemas/FooBarSpecificRecord.avsc",
	"share/test/schemas/RecordWithRequiredFields.avsc",
	"share/test/schemas/fooBar.avsc",
	"share/test/schemas/interop.avsc",
	"share/test/schemas/reserved.avsc",
	"share/test/schemas/weather.avsc",
}

// TestRoundTripAll checks, for every valid schema of the test data, that
// String parses back to an equal schema.
func TestRoundTripAll(t *testing.T) {
	texts := allSchemaTexts(t)
	if len(texts) < 250 {
		t.Fatalf("only %d schemas gathered", len(texts))
	}
	names := make([]string, 0, len(texts))
	for name := range texts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s, err := Parse(texts[name])
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checkRoundTrip(t, name, s)
	}
}

// checkRoundTrip parses s.String() and compares the result with s: same
// String, same Canonical, and the same tree node by node.
func checkRoundTrip(t testing.TB, name string, s *Schema) {
	t.Helper()
	text := s.String()
	s2, err := Parse(text)
	if err != nil {
		t.Errorf("%s: Parse(String()) failed: %v\n%s", name, err, text)
		return
	}
	if got := s2.String(); got != text {
		t.Errorf("%s: String() changed in a round trip:\n%s\n%s", name, text, got)
	}
	if s2.Canonical() != s.Canonical() || s2.Fingerprint() != s.Fingerprint() {
		t.Errorf("%s: canonical form changed in a round trip:\n%s\n%s", name, s.Canonical(), s2.Canonical())
	}
	if diff := diffSchemas(s, s2); diff != "" {
		t.Errorf("%s: round trip differs: %s", name, diff)
	}
}

// nodeView is what diffSchemas compares for one node: everything the
// accessors return, with child nodes replaced by their position so that
// cycles are compared as cycles.
type nodeView struct {
	Kind                      Kind
	Logical                   Logical
	Name, Namespace, FullName string
	Aliases                   []string
	Doc                       string
	IsError                   bool
	Symbols                   []string
	EnumDefault               string
	HasEnumDefault            bool
	Size, Precision, Scale    int
	MinSize                   int
	Props                     []Prop
	Canonical                 string
	Fields                    []fieldView
	Children                  []string
}

type fieldView struct {
	Name, Doc  string
	Aliases    []string
	Index      int
	Order      Order
	HasDefault bool
	Default    any
	Branch     int
	Binary     []byte
	Props      []Prop
}

// diffSchemas walks two schemas in parallel and describes the first
// difference, or returns "".
func diffSchemas(a, b *Schema) string {
	type pair struct{ a, b *Schema }
	seen := map[pair]bool{}
	var rec func(a, b *Schema, at string) string
	rec = func(a, b *Schema, at string) string {
		if a.kind.IsNamed() {
			if seen[pair{a, b}] {
				return ""
			}
			seen[pair{a, b}] = true
		}
		va, vb := view(a), view(b)
		if d := cmp.Diff(va, vb); d != "" {
			return at + ":\n" + d
		}
		ca, cb := children(a), children(b)
		for i := range ca {
			if d := rec(ca[i], cb[i], at+"/"+va.Children[i]); d != "" {
				return d
			}
		}
		return ""
	}
	return rec(a, b, "")
}

func children(s *Schema) []*Schema {
	switch s.Kind() {
	case Record:
		var out []*Schema
		for _, f := range s.Fields() {
			out = append(out, f.Type())
		}
		return out
	case Array:
		return []*Schema{s.Items()}
	case Map:
		return []*Schema{s.Values()}
	case Union:
		return s.Branches()
	}
	return nil
}

func view(s *Schema) nodeView {
	d, hasD := s.EnumDefault()
	v := nodeView{
		Kind: s.Kind(), Logical: s.Logical(), Name: s.Name(), Namespace: s.Namespace(),
		FullName: s.FullName(), Aliases: s.Aliases(), Doc: s.Doc(), IsError: s.IsError(),
		Symbols: s.Symbols(), EnumDefault: d, HasEnumDefault: hasD, Size: s.Size(),
		Precision: s.Precision(), Scale: s.Scale(), MinSize: s.MinEncodedSize(),
		Props: s.Props(), Canonical: s.Canonical(),
	}
	for i, f := range s.Fields() {
		def, has := f.Default()
		v.Fields = append(v.Fields, fieldView{
			Name: f.Name(), Doc: f.Doc(), Aliases: f.Aliases(), Index: f.Index(), Order: f.Order(),
			HasDefault: has, Default: def, Branch: f.DefaultBranch(), Binary: f.DefaultBinary(), Props: f.Props(),
		})
		if s.Field(f.Name()) != f || f.Index() != i {
			v.Fields[i].Name += " (Field lookup or Index broken)"
		}
	}
	for i, c := range children(s) {
		v.Children = append(v.Children, fmt.Sprintf("%d:%s", i, c.FullName()))
	}
	for i, sym := range s.Symbols() {
		if s.SymbolIndex(sym) != i {
			v.Symbols = append(v.Symbols, "(SymbolIndex broken)")
		}
	}
	return v
}

// TestParserMultipleFile parses the Java multipleFile directory, whose
// ApplicationEvent refers to DocumentInfo and defines MyResponse, which
// MyResponse.avsc defines again (identically).
func TestParserMultipleFile(t *testing.T) {
	dir := testdata + "lang/java/avro/src/test/resources/multipleFile/"
	p := NewParser()
	docInfo, err := p.ParseFile(dir + "DocumentInfo.avsc")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := p.ParseFile(dir + "ApplicationEvent.avsc")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.ParseFile(dir + "MyResponse.avsc")
	if err != nil {
		t.Fatal(err)
	}
	if got := ev.Field("documents").Type().Branches()[1].Items(); got != docInfo {
		t.Errorf("documents items = %v, want the DocumentInfo node", got)
	}
	if ev.Field("response").Type() != resp {
		t.Errorf("MyResponse.avsc did not resolve to the node ApplicationEvent defined")
	}
	for _, name := range []string{"model.DocumentInfo", "model.ApplicationEvent", "model.MyResponse"} {
		if p.Lookup(name) == nil {
			t.Errorf("Lookup(%q) = nil", name)
		}
	}
	if p.Lookup("DocumentInfo") != nil {
		t.Errorf("Lookup by short name should fail")
	}
	checkRoundTrip(t, "ApplicationEvent", ev)

	// ParseFiles takes the files in any order.
	s, err := ParseFiles(dir+"ApplicationEvent.avsc", dir+"MyResponse.avsc", dir+"DocumentInfo.avsc")
	if err != nil {
		t.Fatal(err)
	}
	if s.FullName() != "model.DocumentInfo" {
		t.Errorf("ParseFiles returned %s, want the last file's schema", s.FullName())
	}

	// Alone, ApplicationEvent.avsc lacks DocumentInfo; the error names the
	// file and the path.
	_, err = ParseFiles(dir + "ApplicationEvent.avsc")
	var e *Error
	if !errors.As(err, &e) || e.File != dir+"ApplicationEvent.avsc" || e.Path != "fields[2].type[1].items" {
		t.Errorf("ParseFiles(ApplicationEvent) error = %v (%#v)", err, e)
	}
	if _, err := ParseFiles(filepath.Join(dir, "missing.avsc")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
