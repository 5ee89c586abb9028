package ocf

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// upstream is the shared copy of Apache Avro's test data.
const upstream = "../../shared/testdata/apache-avro"

func upstreamPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(upstream, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("upstream test data missing: %v", err)
	}
	return p
}

func readUpstream(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(upstreamPath(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// indexEntry is one file of derived/ocf-index.json.
type indexEntry struct {
	Path            string            `json:"path"`
	Codec           string            `json:"codec"`
	CodecKeyPresent bool              `json:"codec_key_present"`
	SyncHex         string            `json:"sync_hex"`
	MagicHex        string            `json:"magic_hex"`
	OtherMeta       map[string]string `json:"other_meta"`
	Blocks          [][2]int64        `json:"blocks"`
	Trailing        string            `json:"trailing_bytes_hex"`
	Truncated       string            `json:"truncated"`
	Error           string            `json:"error"`
	PythonReader    string            `json:"python_reader"`
	PythonRecords   json.RawMessage   `json:"python_records"`
	Schema          json.RawMessage   `json:"schema"`
}

func loadIndex(t testing.TB) []indexEntry {
	t.Helper()
	var idx struct {
		Files []indexEntry `json:"files"`
	}
	if err := json.Unmarshal(readUpstream(t, "derived/ocf-index.json"), &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Files) < 20 {
		t.Fatalf("ocf-index.json lists only %d files", len(idx.Files))
	}
	return idx.Files
}

// toJSONModel turns a value decoded into any into the model of the derived
// JSON files: bytes as {"$bytes_hex": ...}, numbers as json.Number.
func toJSONModel(x any) any {
	switch v := x.(type) {
	case nil, bool, string:
		return v
	case []byte:
		return map[string]any{"$bytes_hex": hex.EncodeToString(v)}
	case int32:
		return json.Number(strconv.FormatInt(int64(v), 10))
	case int64:
		return json.Number(strconv.FormatInt(v, 10))
	case float32:
		return json.Number(strconv.FormatFloat(float64(v), 'g', -1, 32))
	case float64:
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64))
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toJSONModel(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = toJSONModel(e)
		}
		return out
	}
	panic("toJSONModel: unexpected type " + strconv.Quote(string(mustJSON(x))))
}

func mustJSON(x any) []byte {
	b, _ := json.Marshal(x)
	return b
}

// parseJSON decodes expected JSON with numbers kept as json.Number.
func parseJSON(t testing.TB, raw []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		t.Fatalf("bad expected JSON: %v", err)
	}
	return x
}

// numberEqual compares JSON numbers by value: integers exactly, floats as
// float64, or as float32 when one side was written from a float.
var numberEqual = cmp.Comparer(func(a, b json.Number) bool {
	if ai, err := strconv.ParseInt(string(a), 10, 64); err == nil {
		if bi, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return ai == bi
		}
	}
	af, _, err1 := big.ParseFloat(string(a), 10, 64, big.ToNearestEven)
	bf, _, err2 := big.ParseFloat(string(b), 10, 64, big.ToNearestEven)
	if err1 != nil || err2 != nil {
		return false
	}
	x, _ := af.Float64()
	y, _ := bf.Float64()
	return x == y || float32(x) == float32(y) || (math.IsNaN(x) && math.IsNaN(y))
})
