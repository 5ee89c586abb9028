package avro

import (
	"sync"
	"testing"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/schema"
)

// A store may parse its schema again at every lookup. Writers of the
// reader's fingerprint were kept by writer schema, one entry per message
// for the life of the reader (25 MB per 20,000 messages); at most
// sameFingerprintKept are kept now, and the rest are still read right.
func TestSingleObjectSameFingerprintKeptBounded(t *testing.T) {
	text := `{"type":"record","name":"R","fields":[{"name":"a","type":"long"}]}`
	reader := schema.MustParse(text)
	msg, err := MarshalSingleObject(reader, map[string]any{"a": int64(5)})
	if err != nil {
		t.Fatal(err)
	}
	fresh := storeFunc(func(uint64) (*schema.Schema, error) { return schema.MustParse(text), nil })
	for i := range 3 * sameFingerprintKept {
		var v struct {
			A int64 `avro:"a"`
		}
		if err := UnmarshalSingleObject(fresh, reader, msg, &v); err != nil || v.A != 5 {
			t.Fatalf("message %d: %v, %v", i, v, err)
		}
	}
	kept := 0
	readerCache[writerCache](reader, codec.FamilyResolvedSameFingerprint).m.Range(func(any, any) bool { kept++; return true })
	if kept > sameFingerprintKept {
		t.Errorf("%d writers kept, want at most %d", kept, sameFingerprintKept)
	}
}

type storeFunc func(uint64) (*schema.Schema, error)

func (f storeFunc) SchemaByFingerprint(fp uint64) (*schema.Schema, error) { return f(fp) }

func TestSingleObjectResolve(t *testing.T) {
	w := schema.MustParse(fixture.EvolvedV1Schema)
	r := schema.MustParse(fixture.EvolvedV2Schema)
	store := NewMemoryStore(w)
	msg, err := MarshalSingleObject(w, &fixture.EvolvedV1{ID: 3, Name: "n", Kind: "GUEST"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				var v fixture.EvolvedV2
				if err := UnmarshalSingleObject(store, r, msg, &v); err != nil || v.ID != 3 || v.Renamed != "n" || v.Kind != "GUEST" {
					t.Errorf("%+v %v", v, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	// Resolved once per (fingerprint, reader); the store is asked every
	// time, since it decides which writers are read.
	lookups := 0
	lookup := func() (*schema.Schema, error) { lookups++; return w, nil }
	s1, _ := readerSchemaFor(r, w.Fingerprint(), lookup)
	s2, _ := readerSchemaFor(r, w.Fingerprint(), lookup)
	if s1 != s2 || s1.Writer() != w {
		t.Fatal("resolution not cached")
	}
	if lookups != 2 {
		t.Fatalf("the store was asked %d times for two messages", lookups)
	}
	// Decoding does not allocate beyond the value once warm.
	var v fixture.EvolvedV2
	allocs := testing.AllocsPerRun(100, func() {
		v = fixture.EvolvedV2{}
		_ = UnmarshalSingleObject(store, r, msg, &v)
	})
	if allocs > 6 {
		t.Errorf("%v allocations per message", allocs)
	}
	// A nil reader reads with the writer schema.
	var g any
	if err := UnmarshalSingleObject(store, nil, msg, &g); err != nil || g.(map[string]any)["name"] != "n" {
		t.Fatalf("nil reader: %v %v", g, err)
	}
}
