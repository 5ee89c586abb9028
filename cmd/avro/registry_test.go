package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
)

// The registry commands talk to the fake registry of internal/fixture
// over HTTP, as they would to a real one.

const (
	pointV1 = `{"type":"record","name":"Point","namespace":"geo","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"}]}`
	// pointV2 adds a field with a default: backward compatible with v1.
	pointV2 = `{"type":"record","name":"Point","namespace":"geo","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"},{"name":"label","type":["null","string"],"default":null}]}`
	// pointBad adds a field without a default: v1's data lacks it.
	pointBad = `{"type":"record","name":"Point","namespace":"geo","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"},{"name":"z","type":"int"}]}`
)

// runAvroEnv is runAvro with environment variables.
func runAvroEnv(vars map[string]string, args []string, stdin []byte) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	e := &env{stdin: bytes.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }}
	code = run(context.Background(), e, args)
	return out.String(), errb.String(), code
}

// indented is a schema's JSON as the registry commands print it: the
// text the registry holds, indented by two spaces.
func indented(t *testing.T, text string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(schema.MustParse(text).String()), "", "  "); err != nil {
		t.Fatal(err)
	}
	return b.String() + "\n"
}

func newFakeRegistry(t *testing.T) (*fixture.Registry, string) {
	f, srv := fixture.NewRegistryServer(t)
	f.Add("points-value", fixture.Schema{Schema: schema.MustParse(pointV1).String()})
	f.Add("points-value", fixture.Schema{Schema: schema.MustParse(pointV2).String()})
	f.Add("alpha-value", fixture.Schema{Schema: `"string"`})
	return f, srv.URL
}

func TestRegistryCommands(t *testing.T) {
	_, url := newFakeRegistry(t)
	for _, tc := range []struct {
		name       string
		args       []string
		stdin      string
		code       int
		out        string
		errContent string
	}{
		{name: "subjects", args: []string{"registry", "--url", url, "subjects"}, out: "alpha-value\npoints-value\n"},
		{name: "versions", args: []string{"registry", "--url", url, "versions", "points-value"}, out: "1\n2\n"},
		{name: "versions-unknown", args: []string{"registry", "--url", url, "versions", "nope"}, code: exitFail, errContent: "404 (40401)"},
		{name: "get-id", args: []string{"registry", "--url", url, "get", "1"}, out: indented(t, pointV1)},
		{name: "get-latest", args: []string{"registry", "--url", url, "get", "points-value"}, out: indented(t, pointV2),
			errContent: "points-value version 2, id 2\n"},
		{name: "get-@latest", args: []string{"registry", "get", "points-value@latest", "--url", url}, out: indented(t, pointV2),
			errContent: "points-value version 2, id 2\n"},
		{name: "get-version", args: []string{"registry", "--url", url, "get", "points-value@1"}, out: indented(t, pointV1),
			errContent: "points-value version 1, id 1\n"},
		{name: "get-unknown-id", args: []string{"registry", "--url", url, "get", "99"}, code: exitFail, errContent: "404 (40403): Schema 99 not found"},
		{name: "get-unknown-version", args: []string{"registry", "--url", url, "get", "points-value@7"}, code: exitFail, errContent: "404 (40402): Version 7"},
		{name: "get-bad-version", args: []string{"registry", "--url", url, "get", "points-value@x"}, code: exitUsage, errContent: `version "x"`},
		{name: "check-compatible", args: []string{"registry", "--url", url, "check", "points-value", pointV2}, out: "compatible with points-value\n"},
		{name: "check-incompatible", args: []string{"registry", "--url", url, "check", "points-value", pointBad}, code: exitFail,
			out: "not compatible with points-value:\n  /fields/2: reader field \"z\" has no default and the writer record geo.Point has no such field\n"},
		{name: "check-all-incompatible", args: []string{"registry", "--url", url, "check", "--all", "points-value", pointBad}, code: exitFail,
			// Against version 1 and version 2.
			out: "not compatible with points-value:\n  /fields/2: reader field \"z\" has no default and the writer record geo.Point has no such field\n  /fields/2: reader field \"z\" has no default and the writer record geo.Point has no such field\n"},
		{name: "check-stdin", args: []string{"registry", "--url", url, "check", "points-value", "-"}, stdin: pointV1,
			out: "compatible with points-value\n"},
		{name: "no-url", args: []string{"registry", "subjects"}, code: exitUsage, errContent: "AVRO_REGISTRY_URL"},
		{name: "unknown-action", args: []string{"registry", "--url", url, "list"}, code: exitUsage, errContent: `unknown action "list"`},
		{name: "wrong-arity", args: []string{"registry", "--url", url, "get"}, code: exitUsage, errContent: "get wants 1 arguments, got 0"},
		{name: "all-not-check", args: []string{"registry", "--url", url, "--all", "subjects"}, code: exitUsage, errContent: "--all is for check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errb, code := runAvroEnv(nil, tc.args, []byte(tc.stdin))
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stdout %q, stderr %q", code, tc.code, out, errb)
			}
			if out != tc.out {
				t.Errorf("stdout %q, want %q", out, tc.out)
			}
			if !strings.Contains(errb, tc.errContent) {
				t.Errorf("stderr %q, want it to hold %q", errb, tc.errContent)
			}
			if tc.code == exitOK && tc.errContent == "" && errb != "" {
				t.Errorf("stderr %q, want nothing", errb)
			}
		})
	}
}

// register adds a version and prints its id and version; registering the
// same schema again gives the same ones, and the registry then holds it.
func TestRegistryRegister(t *testing.T) {
	f, url := newFakeRegistry(t)
	point3 := `{"type":"record","name":"Point","namespace":"geo","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"},{"name":"t","type":"long","default":0}]}`
	for range 2 {
		out, errb, code := runAvroEnv(nil, []string{"registry", "--url", url, "register", "points-value", point3}, nil)
		if code != exitOK || out != "id 4, version 3 of points-value\n" || errb != "" {
			t.Errorf("register: exit %d, stdout %q, stderr %q", code, out, errb)
		}
	}
	if id, v := f.Add("points-value", fixture.Schema{Schema: schema.MustParse(point3).String()}); id != 4 || v != 3 {
		t.Errorf("the registry holds the schema as id %d version %d, want 4 and 3", id, v)
	}
	out, _, code := runAvroEnv(nil, []string{"registry", "--url", url, "register", "points-value", `{"type":"nope"}`}, nil)
	if code != exitFail || out != "" {
		t.Errorf("registering a bad schema: exit %d, stdout %q", code, out)
	}
}

// The URL and credentials come from the environment when flags do not
// give them, and flags take precedence.
func TestRegistryEnvironment(t *testing.T) {
	f, url := newFakeRegistry(t)
	var mu sync.Mutex
	var auth []string
	f.Seen = func(r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("ann:secret"))
	for _, tc := range []struct {
		vars map[string]string
		args []string
		want string
	}{
		{map[string]string{"AVRO_REGISTRY_URL": url, "AVRO_REGISTRY_USER": "ann", "AVRO_REGISTRY_PASSWORD": "secret"},
			[]string{"registry", "subjects"}, basic},
		{map[string]string{"AVRO_REGISTRY_URL": url, "AVRO_REGISTRY_TOKEN": "tok"}, []string{"registry", "subjects"}, "Bearer tok"},
		{map[string]string{"AVRO_REGISTRY_URL": "http://127.0.0.1:1", "AVRO_REGISTRY_TOKEN": "tok"},
			[]string{"registry", "--url", url, "--token", "flag", "subjects"}, "Bearer flag"},
		{map[string]string{"AVRO_REGISTRY_URL": url}, []string{"registry", "subjects"}, ""},
	} {
		mu.Lock()
		auth = nil
		mu.Unlock()
		out, errb, code := runAvroEnv(tc.vars, tc.args, nil)
		if code != exitOK || out != "alpha-value\npoints-value\n" {
			t.Errorf("%v %v: exit %d, stdout %q, stderr %q", tc.vars, tc.args, code, out, errb)
			continue
		}
		mu.Lock()
		if len(auth) != 1 || auth[0] != tc.want {
			t.Errorf("%v %v: Authorization %q, want %q", tc.vars, tc.args, auth, tc.want)
		}
		mu.Unlock()
	}
}

// frame is a message in the Confluent wire format: magic 0 and the id, or
// with guid magic 1 and the id's GUID.
func frame(t *testing.T, id int, guid bool, datum []byte) []byte {
	t.Helper()
	if !guid {
		return append(binary.BigEndian.AppendUint32([]byte{0}, uint32(id)), datum...)
	}
	g, err := hex.DecodeString(strings.ReplaceAll(fixture.GUID(id), "-", ""))
	if err != nil {
		t.Fatal(err)
	}
	return append(append([]byte{1}, g...), datum...)
}

func TestDecodeRegistry(t *testing.T) {
	f, url := newFakeRegistry(t)
	v1, v2 := schema.MustParse(pointV1), schema.MustParse(pointV2)
	d1, err := avro.Marshal(v1, map[string]any{"x": 3, "y": -4})
	if err != nil {
		t.Fatal(err)
	}
	d2, err := avro.Marshal(v2, map[string]any{"x": 1, "y": 2, "label": "home"})
	if err != nil {
		t.Fatal(err)
	}
	d3, err := avro.Marshal(v2, map[string]any{"x": 5, "y": 6, "label": nil})
	if err != nil {
		t.Fatal(err)
	}
	msgs := [][]byte{frame(t, 1, false, d1), frame(t, 2, false, d2), frame(t, 2, true, d3), frame(t, 1, true, d1)}
	spec := `{"x":3,"y":-4}` + "\n" + `{"x":1,"y":2,"label":{"string":"home"}}` + "\n" +
		`{"x":5,"y":6,"label":null}` + "\n" + `{"x":3,"y":-4}` + "\n"
	plain := `{"x":3,"y":-4}` + "\n" + `{"x":1,"y":2,"label":"home"}` + "\n" +
		`{"x":5,"y":6,"label":null}` + "\n" + `{"x":3,"y":-4}` + "\n"

	// Each message twice: the second time, its schema is known.
	spec, plain = spec+spec, plain+plain
	var hexIn, b64In strings.Builder
	for _, m := range append(msgs, msgs...) {
		hexIn.WriteString(hex.EncodeToString(m) + "\n\n")
		b64In.WriteString(base64.StdEncoding.EncodeToString(m) + "\n")
	}
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"hex", []string{"decode", "--registry", url}, hexIn.String(), spec},
		{"base64", []string{"decode", "--registry", url, "--format", "base64", "-"}, b64In.String(), spec},
		{"plain", []string{"decode", "--plain", "--registry", url}, hexIn.String(), plain},
		{"raw", []string{"decode", "--registry", url, "--format", "raw"}, string(msgs[1]), `{"x":1,"y":2,"label":{"string":"home"}}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.Requests.Load()
			out, errb, code := runAvroEnv(nil, tc.args, []byte(tc.stdin))
			if code != exitOK || out != tc.want || errb != "" {
				t.Errorf("exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errb, out, tc.want)
			}
			// Each writer schema is fetched once by id and once by GUID
			// at most.
			if n := f.Requests.Load() - before; n > 4 {
				t.Errorf("%d requests to the registry for 8 messages of 2 schemas", n)
			}
		})
	}
}

// A bad line is reported with its number, the good ones are still
// printed, and the exit status is 1.
func TestDecodeRegistryBadLines(t *testing.T) {
	_, url := newFakeRegistry(t)
	d1, err := avro.Marshal(schema.MustParse(pointV1), map[string]any{"x": 3, "y": -4})
	if err != nil {
		t.Fatal(err)
	}
	in := hex.EncodeToString(frame(t, 1, false, d1)) + "\n" +
		"zz\n" + // not hex
		hex.EncodeToString(frame(t, 77, false, d1)) + "\n" + // no schema 77
		hex.EncodeToString([]byte{9, 0, 0, 0, 1, 6, 7}) + "\n" + // no magic byte
		hex.EncodeToString(frame(t, 1, false, d1[:1])) + "\n" + // datum cut
		hex.EncodeToString(frame(t, 1, false, d1)) + "\n"
	out, errb, code := runAvroEnv(nil, []string{"decode", "--registry", url}, []byte(in))
	if code != exitFail || out != "{\"x\":3,\"y\":-4}\n{\"x\":3,\"y\":-4}\n" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	for _, line := range []string{"line 2:", "line 3:", "line 4:", "line 5:"} {
		if !strings.Contains(errb, "avro decode: stdin, "+line) {
			t.Errorf("stderr does not report %s\n%s", line, errb)
		}
	}
	if strings.Contains(errb, "line 1:") || strings.Contains(errb, "line 6:") {
		t.Errorf("stderr reports a good line:\n%s", errb)
	}
	if _, errb, code := runAvroEnv(nil, []string{"decode", "--registry", url, "--format", "bin"}, nil); code != exitUsage || !strings.Contains(errb, "--format") {
		t.Errorf("--format bin: exit %d, stderr %q", code, errb)
	}
}
