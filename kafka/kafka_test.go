package kafka

import (
	"context"
	"encoding/hex"
	"errors"
	"math/big"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	"github.com/google/go-cmp/cmp"
)

var (
	v1 = schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"id","type":"int"},{"name":"sku","type":"string"},{"name":"qty","type":"int"}]}`)
	v2 = schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[
		{"name":"id","type":"long"},{"name":"sku","type":"string"},
		{"name":"note","type":["null","string"],"default":null}]}`)
)

type orderV1 struct {
	ID  int32  `avro:"id"`
	SKU string `avro:"sku"`
	Qty int32  `avro:"qty"`
}

type orderV2 struct {
	ID   int64   `avro:"id"`
	SKU  string  `avro:"sku"`
	Note *string `avro:"note"`
}

// countingRegistry counts lookups, to check that ids are cached.
type countingRegistry struct {
	MemoryRegistry
	n atomic.Int32
}

func (r *countingRegistry) SchemaByID(ctx context.Context, id int) (*schema.Schema, error) {
	r.n.Add(1)
	return r.MemoryRegistry.SchemaByID(ctx, id)
}

func TestRoundTripAndEvolution(t *testing.T) {
	reg := &countingRegistry{}
	reg.Register(1, v1)
	reg.Register(2, v2)
	s1, err := NewSerializer(1, v1)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := s1.Marshal(&orderV1{ID: 7, SKU: "ab", Qty: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(msg[:6]); got != "00000000010e" {
		t.Fatalf("header %s", got)
	}
	ds := NewDeserializer(reg, v2)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		var o orderV2
		if err := ds.Unmarshal(ctx, msg, &o); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(orderV2{ID: 7, SKU: "ab"}, o); diff != "" {
			t.Fatal(diff)
		}
	}
	if reg.n.Load() != 1 {
		t.Fatalf("%d registry lookups, want 1", reg.n.Load())
	}
	// The reader's own id: no resolution.
	s2, _ := NewSerializer(2, v2)
	note := "n"
	msg2, _ := s2.Marshal(&orderV2{ID: 1 << 40, SKU: "z", Note: &note})
	var o orderV2
	if err := ds.Unmarshal(ctx, msg2, &o); err != nil || o.ID != 1<<40 || *o.Note != "n" {
		t.Fatalf("%+v %v", o, err)
	}
	if s, _ := ds.SchemaFor(ctx, 2); s != v2 {
		t.Fatal("same schema was resolved")
	}
	// No reader: the writer's schema.
	var g any
	if err := NewDeserializer(reg, nil).Unmarshal(ctx, msg, &g); err != nil || g.(map[string]any)["qty"] != int32(3) {
		t.Fatalf("%v %v", g, err)
	}
	// Decoding a warm id does not allocate beyond the value.
	allocs := testing.AllocsPerRun(100, func() { o = orderV2{}; _ = ds.Unmarshal(ctx, msg, &o) })
	if allocs > 3 {
		t.Errorf("%v allocs per message", allocs)
	}
}

func TestErrors(t *testing.T) {
	reg := &MemoryRegistry{}
	reg.Register(1, v1)
	ds := NewDeserializer(reg, v2)
	ctx := context.Background()
	var o orderV2
	var fe *FormatError
	for _, m := range [][]byte{nil, {0}, {0, 0, 0, 1}, {1, 0, 0, 0, 1, 2}} {
		if err := ds.Unmarshal(ctx, m, &o); !errors.As(err, &fe) {
			t.Errorf("% x: %v", m, err)
		}
	}
	if err := ds.Unmarshal(ctx, []byte{2, 0, 0, 0, 1}, &o); err == nil || err.Error() != "kafka: bad magic byte 0x02 (want 0x00 or 0x01)" {
		t.Errorf("magic: %v", err)
	}
	// Magic byte 1 names the schema by a 16-byte GUID.
	if err := ds.Unmarshal(ctx, []byte{1, 0, 0, 0, 1}, &o); !errors.As(err, &fe) || !strings.Contains(err.Error(), "GUID") {
		t.Errorf("a short GUID message: %v", err)
	}
	// ParseHeader reads ids only, and says so of a whole GUID message.
	guidMsg := append([]byte{MagicGUID}, make([]byte, GUIDSize+1)...)
	if _, _, err := ParseHeader(guidMsg); !errors.As(err, &fe) || !strings.Contains(err.Error(), "ParseSchemaID") {
		t.Errorf("ParseHeader of a GUID message: %v", err)
	}
	var ue *UnknownIDError
	var le *LookupError
	err := ds.Unmarshal(ctx, []byte{0, 0, 0, 0, 9, 2}, &o)
	if !errors.As(err, &ue) || ue.ID != 9 || !errors.As(err, &le) || le.ID != 9 {
		t.Errorf("unknown id: %v", err)
	}
	// A writer the reader cannot read.
	reg.Register(3, schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"sku","type":"int"}]}`))
	var ce *schema.CompatibilityError
	if err := ds.Unmarshal(ctx, []byte{0, 0, 0, 0, 3, 2}, &o); !errors.As(err, &ce) {
		t.Errorf("incompatible: %v", err)
	}
	// Header helpers.
	b, err := AppendHeader(nil, -1)
	if err != nil || hex.EncodeToString(b) != "00ffffffff" {
		t.Errorf("%x %v", b, err)
	}
	if id, _, err := ParseHeader(b); err != nil || id != -1 {
		t.Errorf("%d %v", id, err)
	}
	// Where an int holds 41 bits (on 32-bit platforms no id can be out of
	// range this way).
	if big := int64(1) << 40; int64(int(big)) == big {
		if _, err := NewSerializer(int(big), v1); err == nil {
			t.Error("id of 41 bits accepted")
		}
	}
}

func BenchmarkDeserializeResolved(b *testing.B) {
	reg := &MemoryRegistry{}
	reg.Register(1, v1)
	s1, _ := NewSerializer(1, v1)
	msg, _ := s1.Marshal(&orderV1{ID: 7, SKU: "abcdef", Qty: 3})
	ds := NewDeserializer(reg, v2)
	ctx := context.Background()
	b.ReportAllocs()
	var o orderV2
	for b.Loop() {
		if err := ds.Unmarshal(ctx, msg, &o); err != nil {
			b.Fatal(err)
		}
	}
}

// The same fingerprint is not the same data: the canonical form leaves
// logical types out, so a writer with decimal(10,2) and a reader with
// decimal(10,4) share one. The Deserializer read such a writer's messages
// directly, 12.34 as 0.1234; now only the same text is read directly, and
// this pair is resolved, which refuses it.
func TestDeserializerSameFingerprintOtherLogicalType(t *testing.T) {
	dec := func(scale string) *schema.Schema {
		return schema.MustParse(`{"type":"record","name":"P","fields":[{"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":` + scale + `}}]}`)
	}
	w, r := dec("2"), dec("4")
	if w.Fingerprint() != r.Fingerprint() {
		t.Fatal("the test needs schemas of one fingerprint")
	}
	reg := &MemoryRegistry{}
	reg.Register(7, w)
	sr, err := NewSerializer(7, w)
	if err != nil {
		t.Fatal(err)
	}
	type P struct {
		Price *big.Rat `avro:"price"`
	}
	msg, err := sr.Append(nil, &P{big.NewRat(1234, 100)})
	if err != nil {
		t.Fatal(err)
	}
	var out P
	if err := NewDeserializer(reg, r).Unmarshal(context.Background(), msg, &out); err == nil {
		t.Errorf("decimal(10,2) read as decimal(10,4): %v, want an error", out.Price)
	}
	// The same text, parsed again, is read directly.
	reg.Register(8, dec("4"))
	sr8, _ := NewSerializer(8, dec("4"))
	msg, _ = sr8.Append(nil, &P{big.NewRat(1234, 100)})
	if err := NewDeserializer(reg, r).Unmarshal(context.Background(), msg, &out); err != nil || out.Price.Cmp(big.NewRat(1234, 100)) != 0 {
		t.Errorf("the same schema: %v, %v", out.Price, err)
	}
}

// A message of empty records, read through a reader that gives each a
// 64 KiB default, costs what one datum may: ErrLimit once the defaults
// pass the message's allocation budget (avro.DecodeOptions.MaxAlloc).
func TestDeserializerReaderDefaultsBounded(t *testing.T) {
	writer := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[]}}`)
	reader := schema.MustParse(`{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"pad","type":"bytes","default":"` + strings.Repeat("p", 64<<10) + `"}]}}`)
	reg := &MemoryRegistry{}
	reg.Register(3, writer)
	msg, err := AppendHeader(nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	// 2^20 items in one block, within the zero-size budget.
	msg = append(msg, 0x80, 0x80, 0x80, 0x01, 0)
	ds := NewDeserializer(reg, reader)
	for name, v := range map[string]any{
		"struct":      new([]struct{ Pad []byte }),
		"value.Value": new(value.Value),
		"any":         new(any),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := ds.Unmarshal(context.Background(), msg, v)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, avro.ErrLimit) {
			t.Errorf("%s: err = %v, want ErrLimit", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
			t.Errorf("%s: %d MiB allocated for a %d-byte message", name, alloc>>20, len(msg))
		}
	}
}

// A writer schema that the reader cannot read is reported with its
// registry id, so that the offending schema version can be found.
func TestResolveErrorNamesWriterID(t *testing.T) {
	reg := &MemoryRegistry{}
	reg.Register(42, schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"sku","type":"int"}]}`))
	ds := NewDeserializer(reg, v2)
	for range 2 { // the first message resolves, the second hits the cache
		var o orderV2
		err := ds.Unmarshal(context.Background(), []byte{0, 0, 0, 0, 42, 2}, &o)
		var re *ResolveError
		var ce *schema.CompatibilityError
		if !errors.As(err, &re) || re.ID != 42 || !errors.As(err, &ce) || len(ce.Items) == 0 {
			t.Fatalf("error %v, want a *ResolveError for id 42 wrapping a *schema.CompatibilityError", err)
		}
		const want = "kafka: writer schema id 42 cannot be read as the reader schema: schema: incompatible schemas"
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("message %q\nwant the prefix %q", err, want)
		}
	}
	if _, err := ds.SchemaFor(context.Background(), 42); err == nil || !strings.Contains(err.Error(), "id 42") {
		t.Errorf("SchemaFor: %v", err)
	}
}

// Ids that share a slot of the Deserializer's cache of recent ids (ids
// equal modulo the slot count, negative ids among them) must each be read
// with their own schema, and a cached failure must stay a failure.
func TestDeserializerRecentIDs(t *testing.T) {
	reg := &countingRegistry{}
	ids := []int{1, 1 + recentSlots, 1 + 2*recentSlots, -1, -1 - recentSlots, 1<<31 - 1}
	for i, id := range ids {
		if i%2 == 0 {
			reg.Register(id, v1)
		} else {
			reg.Register(id, v2)
		}
	}
	bad := 1 + 3*recentSlots
	reg.Register(bad, schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"sku","type":"int"}]}`))
	ds := NewDeserializer(reg, v2)
	ctx := context.Background()
	msgs := make([][]byte, len(ids))
	for i, id := range ids {
		var err error
		if i%2 == 0 {
			msgs[i], err = AppendHeader(nil, id)
			if err == nil {
				msgs[i], err = avro.Append(msgs[i], v1, &orderV1{ID: int32(i), SKU: "v1", Qty: 1})
			}
		} else {
			msgs[i], err = AppendHeader(nil, id)
			if err == nil {
				msgs[i], err = avro.Append(msgs[i], v2, &orderV2{ID: int64(i), SKU: "v2"})
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	badMsg, _ := AppendHeader(nil, bad)
	badMsg = append(badMsg, 2, 'x')
	for round := range 3 {
		for i := range ids {
			var o orderV2
			if err := ds.Unmarshal(ctx, msgs[i], &o); err != nil {
				t.Fatalf("round %d, id %d: %v", round, ids[i], err)
			}
			want := map[bool]string{true: "v1", false: "v2"}[i%2 == 0]
			if o.ID != int64(i) || o.SKU != want {
				t.Fatalf("round %d, id %d read as %+v, want id %d sku %s", round, ids[i], o, i, want)
			}
			var re *ResolveError
			if err := ds.Unmarshal(ctx, badMsg, &o); !errors.As(err, &re) || re.ID != bad {
				t.Fatalf("round %d: id %d: %v, want a *ResolveError", round, bad, err)
			}
		}
	}
	if n := reg.n.Load(); n != int32(len(ids)+1) {
		t.Errorf("%d registry lookups, want one per id (%d)", n, len(ids)+1)
	}
}

// A Deserializer for a topic names it in every error, and shares what
// the Deserializer it came from looked up.
func TestErrorsNameTheTopic(t *testing.T) {
	reg := &countingRegistry{}
	reg.Register(1, v1)
	reg.Register(3, schema.MustParse(`{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"sku","type":"int"}]}`))
	ds := NewDeserializer(reg, v2)
	orders := ds.ForTopic("orders")
	ctx := context.Background()
	good, err := AppendHeader(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	good, _ = avro.Append(good, v1, &orderV1{ID: 1, SKU: "a", Qty: 2})
	var o orderV2
	if err := ds.Unmarshal(ctx, good, &o); err != nil {
		t.Fatal(err)
	}
	var fe *FormatError
	var le *LookupError
	var re *ResolveError
	var de *DatumError
	for _, c := range []struct {
		msg  []byte
		ok   func(error) bool
		want string
	}{
		{[]byte{7}, func(err error) bool { return errors.As(err, &fe) && fe.Topic == "orders" }, "kafka: topic orders: bad magic byte 0x07"},
		{[]byte{0, 0, 0, 0, 9, 2}, func(err error) bool { return errors.As(err, &le) && le.Topic == "orders" && le.ID == 9 }, "kafka: topic orders: looking up schema id 9"},
		{[]byte{0, 0, 0, 0, 3, 2}, func(err error) bool { return errors.As(err, &re) && re.Topic == "orders" && re.ID == 3 }, "kafka: topic orders: writer schema id 3 cannot be read"},
		{good[:len(good)-1], func(err error) bool { return errors.As(err, &de) && de.Topic == "orders" && de.ID.ID == 1 }, "kafka: topic orders: schema id 1: avro: "},
	} {
		for round := range 2 { // the lookup, then the caches
			err := orders.Unmarshal(ctx, c.msg, &o)
			if !c.ok(err) || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("% x, round %d: %v, want %q", c.msg, round, err, c.want)
			}
		}
	}
	if err := orders.UnmarshalRecord(ctx, []Header{{Key: ValueSchemaIDHeader, Value: []byte{9}}}, false, nil, &o); err == nil || !strings.HasPrefix(err.Error(), "kafka: topic orders: header __value_schema_id: ") {
		t.Errorf("a bad header: %v", err)
	}
	// The errors of the Deserializer without a topic name none.
	if err := ds.Unmarshal(ctx, []byte{0, 0, 0, 0, 3, 2}, &o); !errors.As(err, &re) || re.Topic != "" || strings.Contains(err.Error(), "topic") {
		t.Errorf("without a topic: %v", err)
	}
	// Ids 1, 3 and 9 were looked up once each (9, unknown, every time).
	if n := reg.n.Load(); n != 4 {
		t.Errorf("%d lookups, want 4: the topic's Deserializer shares the caches", n)
	}
}
