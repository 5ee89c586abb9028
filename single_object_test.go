package avro_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/google/go-cmp/cmp"
)

func TestSingleObjectHeader(t *testing.T) {
	s := schema.MustParse(`"int"`)
	b, err := avro.MarshalSingleObject(s, int32(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(b); got != "c3018f5c393f1ad5757202" {
		t.Fatalf("got %s", got)
	}
	// avro.Append keeps dst, and an encode error leaves it unchanged.
	dst := []byte{9}
	if out, err := avro.AppendSingleObject(dst, s, "x"); err == nil || len(out) != 1 {
		t.Fatalf("error case: %v %x", err, out)
	}
	out, err := avro.AppendSingleObject(dst, s, int32(1))
	if err != nil || !bytes.Equal(out, append([]byte{9}, b...)) {
		t.Fatalf("append: %x %v", out, err)
	}
}

// TestSingleObjectUpstream reads share/test/data/messageV1, the message
// of the Java interop test, with its schema.
func TestSingleObjectUpstream(t *testing.T) {
	const dir = "../shared/testdata/apache-avro/share/test/data/messageV1/"
	msg, err := os.ReadFile(dir + "test_message.bin")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(dir + "test_schema.avsc")
	if err != nil {
		t.Fatal(err)
	}
	s := schema.MustParse(string(text))
	store := avro.NewMemoryStore(s)
	var got any
	if err := avro.UnmarshalSingleObject(store, s, msg, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": int64(42), "name": "Bill", "tags": []any{"dog_lover", "cat_hater"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	// And the same bytes from our encoder.
	again, err := avro.MarshalSingleObject(s, &got)
	if err != nil || !bytes.Equal(again, msg) {
		t.Fatalf("re-encoded %x, want %x (%v)", again, msg, err)
	}
}

func TestSingleObjectErrors(t *testing.T) {
	s := schema.MustParse(`"int"`)
	store := avro.NewMemoryStore()
	var v int32
	for _, data := range [][]byte{nil, {0xC3}, {0xC3, 0x01, 1, 2}, {0xC3, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {'O', 'b', 'j', 1, 0, 0, 0, 0, 0, 0, 0}} {
		var e *avro.NotSingleObjectError
		if err := avro.UnmarshalSingleObject(store, s, data, &v); !errors.As(err, &e) {
			t.Errorf("% x: %v", data, err)
		}
	}
	msg, _ := avro.MarshalSingleObject(s, int32(5))
	var u *avro.UnknownSchemaError
	if err := avro.UnmarshalSingleObject(store, s, msg, &v); err != nil {
		t.Errorf("reader's own fingerprint needs no store: %v", err)
	}
	if err := avro.UnmarshalSingleObject(store, schema.MustParse(`"long"`), msg, &v); !errors.As(err, &u) || u.Fingerprint != s.Fingerprint() {
		t.Errorf("unknown: %v", err)
	}
	store.Add(s)
	var l int64
	if err := avro.UnmarshalSingleObject(store, schema.MustParse(`"long"`), msg, &l); err != nil || l != 5 {
		t.Errorf("int read as long: %v %v", l, err)
	}
	var ce *schema.CompatibilityError
	if err := avro.UnmarshalSingleObject(store, schema.MustParse(`"string"`), msg, new(string)); !errors.As(err, &ce) {
		t.Errorf("incompatible: %v", err)
	}
	if err := avro.UnmarshalSingleObject(store, s, msg[:10], &v); !errors.Is(err, avro.ErrTruncated) {
		t.Errorf("truncated: %v", err)
	}
}

// TestSingleObjectStoreDecides checks that the store passed to a call
// decides which writers it reads, whatever other stores taught the reader
// schema's cache before: a regression test for a resolution cached from
// one store serving a call with another store that lacks the writer.
func TestSingleObjectStoreDecides(t *testing.T) {
	writer := schema.MustParse(`{"type":"record","name":"StoreDecides","fields":[{"name":"a","type":"int"}]}`)
	reader := schema.MustParse(`{"type":"record","name":"StoreDecides","fields":[{"name":"a","type":"long"}]}`)
	msg, err := avro.MarshalSingleObject(writer, map[string]any{"a": int32(7)})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		A int64 `avro:"a"`
	}
	if err := avro.UnmarshalSingleObject(avro.NewMemoryStore(writer), reader, msg, &got); err != nil || got.A != 7 {
		t.Fatalf("with the writer in the store: %+v, %v", got, err)
	}
	var u *avro.UnknownSchemaError
	for _, r := range []*schema.Schema{reader, nil} {
		if err := avro.UnmarshalSingleObject(avro.NewMemoryStore(), r, msg, &got); !errors.As(err, &u) || u.Fingerprint != writer.Fingerprint() {
			t.Errorf("reader %v, a store without the writer: %v, want an *avro.UnknownSchemaError", r, err)
		}
	}
	// The reader's own writer needs no store.
	own, err := avro.MarshalSingleObject(reader, map[string]any{"a": int64(8)})
	if err != nil {
		t.Fatal(err)
	}
	if err := avro.UnmarshalSingleObject(avro.NewMemoryStore(), reader, own, &got); err != nil || got.A != 8 {
		t.Errorf("the reader's own writer: %+v, %v", got, err)
	}
}

// A writer of the reader's fingerprint was read as the reader without the
// store being asked; the fingerprint leaves logical types out, so a store
// that held decimal(10,2) had its messages read as decimal(10,4), 12.34
// as 0.1234. The store is asked now: another text of that fingerprint is
// resolved (and this pair refused), the same text or an unknown writer is
// read as the reader, as before.
func TestSingleObjectSameFingerprintOtherLogicalType(t *testing.T) {
	dec := func(scale string) *schema.Schema {
		return schema.MustParse(`{"type":"record","name":"P","fields":[{"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":` + scale + `}}]}`)
	}
	w, r := dec("2"), dec("4")
	type P struct {
		Price *big.Rat `avro:"price"`
	}
	msg, err := avro.MarshalSingleObject(w, &P{big.NewRat(1234, 100)})
	if err != nil {
		t.Fatal(err)
	}
	var out P
	if err := avro.UnmarshalSingleObject(avro.NewMemoryStore(w), r, msg, &out); err == nil {
		t.Errorf("decimal(10,2) read as decimal(10,4): %v, want an error", out.Price)
	}
	for name, store := range map[string]*avro.MemoryStore{"same text": avro.NewMemoryStore(dec("4")), "unknown writer": avro.NewMemoryStore()} {
		out = P{}
		if err := avro.UnmarshalSingleObject(store, r, msg, &out); err != nil || out.Price.Cmp(big.NewRat(1234, 10000)) != 0 {
			t.Errorf("%s: %v, %v; want the reader's reading, 0.1234", name, out.Price, err)
		}
	}
}

// A message of empty records, read through a reader that gives each a
// 64 KiB default, costs what one datum may: avro.ErrLimit once the defaults
// pass the allocation budget of the message (MaxAlloc), for every target.
func TestSingleObjectReaderDefaultsBounded(t *testing.T) {
	writer := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[]}}`)
	reader := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"pad","type":"bytes","default":"` + strings.Repeat("p", 64<<10) + `"}]}}`)
	msg, err := avro.AppendSingleObject(nil, writer, make([]map[string]any, 0))
	if err != nil {
		t.Fatal(err)
	}
	// 2^20 items in one block, within the zero-size budget.
	msg = append(append(msg[:len(msg)-1], 0x80, 0x80, 0x80, 0x01), 0)
	store := avro.NewMemoryStore(writer)
	for name, v := range map[string]any{
		"struct":      new([]struct{ Pad []byte }),
		"value.Value": new(value.Value),
		"any":         new(any),
	} {
		var err error
		alloc := allocDuring(func() { err = avro.UnmarshalSingleObject(store, reader, msg, v) })
		if !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: err = %v, want avro.ErrLimit", name, err)
		}
		if alloc > 32<<20 {
			t.Errorf("%s: %d MiB allocated for a %d-byte message", name, alloc>>20, len(msg))
		}
	}
}
