package e2e

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/schema"
)

// The avro command's registry and decode commands against srfake, run as
// a user runs them: the binary, built once, over HTTP.

var avroBinary struct {
	once sync.Once
	path string
	err  error
}

// TestMain removes the avro command built for the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if avroBinary.path != "" {
		_ = os.RemoveAll(filepath.Dir(avroBinary.path))
	}
	os.Exit(code)
}

// avroCommand builds the avro command once for the package's tests.
func avroCommand(t *testing.T) string {
	t.Helper()
	avroBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "avro-e2e-")
		if err != nil {
			avroBinary.err = err
			return
		}
		avroBinary.path = filepath.Join(dir, "avro")
		out, err := exec.Command("go", "build", "-o", avroBinary.path, "github.com/avrogo/avro/cmd/avro").CombinedOutput()
		if err != nil {
			avroBinary.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if avroBinary.err != nil {
		t.Fatal(avroBinary.err)
	}
	return avroBinary.path
}

// runCommand runs the avro command with args and stdin, with the
// registry's URL in the environment, and returns its output and exit code.
func runCommand(t *testing.T, url, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(avroCommand(t), args...)
	cmd.Env = append(os.Environ(), "AVRO_REGISTRY_URL="+url)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// indentedSchema is a schema as the registry commands print it.
func indentedSchema(t *testing.T, s *schema.Schema) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(s.String()), "", "  "); err != nil {
		t.Fatal(err)
	}
	return b.String() + "\n"
}

func TestCommandRegistry(t *testing.T) {
	reg, rc := newRegistry(t)
	url := reg.URL()
	ctx := context.Background()
	want := func(what, got, wantOut string, code int) {
		t.Helper()
		if code != 0 || got != wantOut {
			t.Errorf("%s: exit %d, stdout %q; want 0 and %q", what, code, got, wantOut)
		}
	}
	// Register two versions, then a third time the first: the registry
	// gives the same id again.
	out, _, code := runCommand(t, url, "", "registry", "register", "orders-value", OrderV1Schema.String())
	want("register v1", out, "id 1, version 1 of orders-value\n", code)
	out, _, code = runCommand(t, url, OrderV2Schema.String(), "registry", "register", "orders-value", "-")
	want("register v2 from stdin", out, "id 2, version 2 of orders-value\n", code)
	out, _, code = runCommand(t, url, "", "registry", "--url", url, "register", "orders-value", OrderV1Schema.String())
	want("register v1 again", out, "id 1, version 1 of orders-value\n", code)
	if ss, err := rc.SchemaByVersion(ctx, "orders-value", 2); err != nil || ss.ID != 2 {
		t.Errorf("the registry's orders-value version 2: %+v, %v; want id 2", ss, err)
	}
	out, _, code = runCommand(t, url, "", "registry", "register", "keys-value", `"string"`)
	want("register keys", out, "id 3, version 1 of keys-value\n", code)

	out, _, code = runCommand(t, url, "", "registry", "subjects")
	want("subjects", out, "keys-value\norders-value\n", code)
	out, _, code = runCommand(t, url, "", "registry", "versions", "orders-value")
	want("versions", out, "1\n2\n", code)
	out, _, code = runCommand(t, url, "", "registry", "get", "1")
	want("get 1", out, indentedSchema(t, OrderV1Schema), code)
	out, errb, code := runCommand(t, url, "", "registry", "get", "orders-value")
	want("get latest", out, indentedSchema(t, OrderV2Schema), code)
	if errb != "orders-value version 2, id 2\n" {
		t.Errorf("get latest: stderr %q", errb)
	}
	out, _, code = runCommand(t, url, "", "registry", "get", "orders-value@1")
	want("get @1", out, indentedSchema(t, OrderV1Schema), code)
	// srfake judges every schema compatible; the command reports what the
	// registry says.
	out, _, code = runCommand(t, url, "", "registry", "check", "orders-value", OrderV2Schema.String())
	want("check", out, "compatible with orders-value\n", code)

	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"registry", "versions", "nope-value"}, 1, "nope-value"},
		{[]string{"registry", "get", "99"}, 1, "99"},
		{[]string{"registry", "get", "orders-value@9"}, 1, "9"},
		{[]string{"registry", "register", "orders-value", `{"type":"nope"}`}, 1, "nope"},
		{[]string{"registry", "list"}, 2, `unknown action "list"`},
	} {
		out, errb, code := runCommand(t, url, "", c.args...)
		if code != c.code || out != "" || !strings.Contains(errb, c.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and an error naming %q", c.args, code, out, errb, c.code, c.err)
		}
	}
}

// TestCommandDecode: messages a producer writes through srfake, one a
// line in hex, decode to the JSON of their records, whichever version of
// the subject wrote them.
func TestCommandDecode(t *testing.T) {
	reg, rc := newRegistry(t)
	ctx := context.Background()
	s1, err := kafka.NewRegistrySerializer(ctx, rc, "orders", OrderV1Schema, kafka.SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := kafka.NewRegistrySerializer(ctx, rc, "orders", OrderV2Schema, kafka.SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var lines, want strings.Builder
	for i := range 50 {
		var msg []byte
		var text []byte
		if i%2 == 0 {
			v := OrderV1{ID: int32(i), Customer: fmt.Sprintf("c%d", i), Status: "PAID", Legacy: "l"}
			msg, err = s1.Marshal(&v)
			if err == nil {
				text, err = avrojson.Marshal(OrderV1Schema, &v)
			}
		} else {
			v := OrderV2{ID: int64(i) << 40, Customer: fmt.Sprintf("c%d", i), Status: "SHIPPED", Note: "n"}
			msg, err = s2.Marshal(&v)
			if err == nil {
				text, err = avrojson.Marshal(OrderV2Schema, &v)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		lines.WriteString(hex.EncodeToString(msg) + "\n")
		want.Write(append(text, '\n'))
	}
	out, errb, code := runCommand(t, reg.URL(), lines.String(), "decode")
	if code != 0 || out != want.String() {
		t.Errorf("decode: exit %d, stderr %q\nstdout:\n%s\nwant:\n%s", code, errb, out, want.String())
	}
	// A message whose id the registry does not hold is an error naming it.
	bad := hex.EncodeToString([]byte{0, 0, 0, 0, 42, 2})
	if out, errb, code := runCommand(t, reg.URL(), bad+"\n", "decode", "--registry", reg.URL()); code != 1 || out != "" || !strings.Contains(errb, "42") {
		t.Errorf("decode of an unknown id: exit %d, stdout %q, stderr %q", code, out, errb)
	}
}
