package schema

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every protocol file of the upstream data parses, prints, and parses
// again to the same protocol.
func TestProtocolFilesRoundTrip(t *testing.T) {
	var files []string
	for _, pat := range []string{
		"share/test/schemas/*.avpr",
		"lang/java/compiler/src/test/idl/output/*.avpr",
		"lang/java/compiler/src/test/idl/input/*.avpr",
		"lang/java/compiler/src/test/idl/putOnClassPath/*.avpr",
		"lang/java/tools/src/test/idl/*.avpr",
	} {
		m, err := filepath.Glob(testdata + pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d protocol files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(f, testdata)
		// unicode.avpr has names of other scripts, which Java accepts.
		opts := ParseOptions{UnicodeNames: strings.HasSuffix(name, "unicode.avpr")}
		p, err := opts.ParseProtocol(string(data))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		text := p.String()
		q, err := opts.ParseProtocol(text)
		if err != nil {
			t.Errorf("%s: the printed protocol does not parse: %v\n%s", name, err, text)
			continue
		}
		if q.String() != text {
			t.Errorf("%s: printed twice:\n%s\n%s", name, text, q.String())
		}
		if q.FullName() != p.FullName() || q.Doc() != p.Doc() || len(q.Types()) != len(p.Types()) || len(q.Messages()) != len(p.Messages()) {
			t.Errorf("%s: reparsed as %s (%d types, %d messages); want %s (%d, %d)", name, q.FullName(), len(q.Types()), len(q.Messages()), p.FullName(), len(p.Types()), len(p.Messages()))
			continue
		}
		for i, ty := range p.Types() {
			if q.Types()[i].String() != ty.String() {
				t.Errorf("%s: type %d: %s; want %s", name, i, q.Types()[i], ty)
			}
		}
	}
}

func TestProtocolParts(t *testing.T) {
	p, err := ParseProtocol(`{"protocol":"Mail","namespace":"org.mail","doc":"Sends mail.","version":2,
	  "types":[
	    {"type":"record","name":"Message","fields":[{"name":"to","type":"string"},
	      {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B"]}}]},
	    {"type":"error","name":"Bounce","namespace":"org.errors","fields":[{"name":"why","type":"string"}]}],
	  "messages":{
	    "send":{"doc":"Sends one.","idempotent":true,"request":[{"name":"message","type":"Message"},{"name":"copies","type":"int","default":1}],
	            "response":"string","errors":["org.errors.Bounce"]},
	    "ping":{"request":[],"response":"null","one-way":true},
	    "batch":{"request":[{"name":"all","type":{"type":"array","items":"Message"}}],"response":{"type":"map","values":"Kind"}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "Mail" || p.Namespace() != "org.mail" || p.FullName() != "org.mail.Mail" || p.Doc() != "Sends mail." {
		t.Errorf("protocol %s %s %q", p.Name(), p.Namespace(), p.Doc())
	}
	if v, ok := p.Prop("version"); !ok || v.(interface{ String() string }).String() != "2" {
		t.Errorf("Prop(version) = %v, %v", v, ok)
	}
	var names []string
	for _, ty := range p.Types() {
		names = append(names, ty.FullName())
	}
	if got := strings.Join(names, " "); got != "org.mail.Message org.mail.Kind org.errors.Bounce" {
		t.Errorf("Types = %s", got)
	}
	send := p.Message("send")
	if send == nil || send.Doc() != "Sends one." || len(send.Params()) != 2 || send.Params()[1].Name() != "copies" ||
		send.Params()[0].Type() != p.Type("org.mail.Message") || send.Response().Kind() != String ||
		len(send.Errors()) != 1 || send.Errors()[0] != p.Type("org.errors.Bounce") || send.OneWay() {
		t.Fatalf("send = %+v", send)
	}
	if v, ok := send.Prop("idempotent"); !ok || v != true {
		t.Errorf("send.Prop(idempotent) = %v, %v", v, ok)
	}
	if d, ok := send.Params()[1].Default(); !ok || d.(int32) != 1 {
		t.Errorf("copies default = %v, %v", d, ok)
	}
	if ping := p.Message("ping"); ping == nil || !ping.OneWay() || ping.Response().Kind() != Null {
		t.Errorf("ping = %+v", ping)
	}
	batch := p.Message("batch")
	if batch.Params()[0].Type().Items() != p.Type("org.mail.Message") || batch.Response().Values() != p.Type("org.mail.Kind") {
		t.Errorf("batch refers to other nodes than the types")
	}
	if got, want := len(p.Messages()), 3; got != want {
		t.Errorf("%d messages", got)
	}
	want := `{"protocol":"Mail","namespace":"org.mail","doc":"Sends mail.","version":2,"types":[` +
		`{"type":"record","name":"Message","namespace":"org.mail","fields":[{"name":"to","type":"string"},{"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B"]}}]},` +
		`{"type":"error","name":"Bounce","namespace":"org.errors","fields":[{"name":"why","type":"string"}]}],"messages":{` +
		`"send":{"doc":"Sends one.","idempotent":true,"request":[{"name":"message","type":"Message"},{"name":"copies","type":"int","default":1}],"response":"string","errors":["org.errors.Bounce"]},` +
		`"ping":{"request":[],"response":"null","one-way":true},` +
		`"batch":{"request":[{"name":"all","type":{"type":"array","items":"Message"}}],"response":{"type":"map","values":"org.mail.Kind"}}}}`
	if got := p.String(); got != want {
		t.Errorf("String =\n%s\nwant\n%s", got, want)
	}
}

// What Java's Protocol.parse refuses is refused, with the path.
func TestProtocolErrors(t *testing.T) {
	for _, c := range []struct{ text, path, msg string }{
		{`[]`, "", "must be an object"},
		{`{"namespace":"a"}`, "", `without "protocol"`},
		{`{"protocol":1}`, "protocol", "must be a string"},
		{`{"protocol":"a-b"}`, "protocol", "invalid name"},
		{`{"protocol":"P","types":{}}`, "types", "must be an array"},
		{`{"protocol":"P","types":["int"]}`, "types[0]", "must be named types"},
		{`{"protocol":"P","types":[{"type":"array","items":"int"}]}`, "types[0]", "must be named types"},
		{`{"protocol":"P","types":[{"type":"record","name":"A","fields":[{"name":"b","type":"B"}]}]}`, "types[0].fields[0].type", "unknown type"},
		{`{"protocol":"P","types":[{"type":"enum","name":"E","symbols":["X"]},{"type":"fixed","name":"E","size":1}]}`, "types[1].name", "already defined"},
		{`{"protocol":"P","messages":[]}`, "messages", "must be an object"},
		{`{"protocol":"P","messages":{"m":{"response":"null"}}}`, "messages.m", `without "request"`},
		{`{"protocol":"P","messages":{"m":{"request":[]}}}`, "messages.m", `without "response"`},
		{`{"protocol":"P","messages":{"m":{"request":{},"response":"null"}}}`, "messages.m.request", "array of fields"},
		{`{"protocol":"P","messages":{"m":{"request":[{"name":"x","type":"Nope"}],"response":"null"}}}`, "messages.m.request[0].type", "unknown type"},
		{`{"protocol":"P","messages":{"m":{"request":[],"response":"Nope"}}}`, "messages.m.response", "unknown type"},
		{`{"protocol":"P","messages":{"m":{"request":[],"response":"int","one-way":true}}}`, "messages.m", "one-way"},
		{`{"protocol":"P","types":[{"type":"record","name":"R","fields":[]}],"messages":{"m":{"request":[],"response":"null","errors":["R"]}}}`, "messages.m.errors[0]", "not an error"},
		{`{"protocol":"P","types":[{"type":"error","name":"E","fields":[]}],"messages":{"m":{"request":[],"response":"null","one-way":true,"errors":["E"]}}}`, "messages.m", "one-way"},
		{`{"protocol":"P","messages":{"m":{"request":[],"response":"null","one-way":"yes"}}}`, "messages.m.one-way", "boolean"},
		{`{"protocol":"P","messages":{"m-n":{"request":[],"response":"null"}}}`, "messages", "invalid message name"},
	} {
		_, err := ParseProtocol(c.text)
		var e *Error
		if !errors.As(err, &e) || e.Path != c.path || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: %v (path %q); want an *Error at %q with %q", c.text, err, pathOf(e), c.path, c.msg)
		}
	}
	big := `{"protocol":"P","doc":"` + strings.Repeat("x", 100) + `"}`
	if _, err := (ParseOptions{MaxSize: 50}).ParseProtocol(big); !errors.Is(err, ErrLimit) {
		t.Errorf("a protocol over MaxSize: %v; want ErrLimit", err)
	}
}

func pathOf(e *Error) string {
	if e == nil {
		return ""
	}
	return e.Path
}

// JSON has no number for NaN and the infinities; Java writes a float's or
// double's default of one of them as the string, and reads it back.
func TestNonFiniteDefaults(t *testing.T) {
	s, err := Parse(`{"type":"record","name":"R","fields":[
		{"name":"a","type":"double","default":"NaN"},
		{"name":"b","type":"float","default":"-Infinity"},
		{"name":"c","type":"double","default":"Infinity"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.Field("a").Default()
	b, _ := s.Field("b").Default()
	c, _ := s.Field("c").Default()
	if x, ok := a.(float64); !ok || x == x {
		t.Errorf("a's default = %v; want NaN", a)
	}
	if x, ok := b.(float32); !ok || !math.IsInf(float64(x), -1) {
		t.Errorf("b's default = %v; want -Inf", b)
	}
	if x, ok := c.(float64); !ok || !math.IsInf(x, 1) {
		t.Errorf("c's default = %v; want +Inf", c)
	}
	if again, err := Parse(s.String()); err != nil || again.String() != s.String() {
		t.Errorf("reparse: %v", err)
	}
	for _, bad := range []string{`"nan"`, `"Inf"`, `"1.5"`} {
		if _, err := Parse(`{"type":"record","name":"R","fields":[{"name":"a","type":"double","default":` + bad + `}]}`); err == nil {
			t.Errorf("default %s parsed; want an error", bad)
		}
	}
}

// The specification's names are ASCII; Java's parser takes letters of
// any script, and ParseOptions.UnicodeNames does too.
func TestUnicodeNames(t *testing.T) {
	text := `{"protocol":"Протоколы","types":[{"type":"record","name":"Структура","namespace":"пространство","fields":[{"name":"文字列","type":"string"}]}]}`
	if _, err := ParseProtocol(text); err == nil {
		t.Error("Unicode names parsed under the specification's rule")
	}
	p, err := (ParseOptions{UnicodeNames: true}).ParseProtocol(text)
	if err != nil {
		t.Fatal(err)
	}
	if p.Types()[0].FullName() != "пространство.Структура" || p.Types()[0].Fields()[0].Name() != "文字列" {
		t.Errorf("types %v", p.Types())
	}
	for _, bad := range []string{`"1a"`, `"a-b"`, `"a b"`} {
		if _, err := (ParseOptions{UnicodeNames: true}).Parse(`{"type":"record","name":` + bad + `,"fields":[]}`); err == nil {
			t.Errorf("name %s parsed; want an error", bad)
		}
	}
}

// A dotted protocol name is a full name, as Java 1.12 reads it, and a
// null namespace is no namespace, as Java writes it.
func TestProtocolDottedName(t *testing.T) {
	for _, c := range []struct{ text, ns, typ string }{
		{`{"protocol":"org.foo.Bar","types":[{"type":"enum","name":"E","symbols":["A"]}]}`, "org.foo", "org.foo.E"},
		{`{"protocol":"org.foo.Bar","namespace":null,"types":[{"type":"enum","name":"E","symbols":["A"]}]}`, "org.foo", "org.foo.E"},
		{`{"protocol":"org.foo.Bar","namespace":"x","types":[{"type":"enum","name":"E","symbols":["A"]}]}`, "org.foo", "org.foo.E"},
		{`{"protocol":"Bar","namespace":null,"doc":null,"types":[{"type":"enum","name":"E","symbols":["A"]}]}`, "", "E"},
	} {
		p, err := ParseProtocol(c.text)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if p.Namespace() != c.ns || p.Name() != "Bar" || p.Types()[0].FullName() != c.typ {
			t.Errorf("%s: namespace %q, name %q, type %s; want %q, Bar, %s", c.text, p.Namespace(), p.Name(), p.Types()[0].FullName(), c.ns, c.typ)
		}
	}
}
