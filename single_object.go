package avro

import (
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// Single-object encoding (spec "Single-object encoding"): the two marker
// bytes C3 01, the 8-byte little-endian CRC-64-AVRO fingerprint of the
// writer schema's canonical form, then the Avro binary datum. A reader
// finds the writer schema by its fingerprint and resolves it against its
// own.

// SingleObjectHeaderSize is the length of the single-object header: the
// marker and the fingerprint.
const SingleObjectHeaderSize = 10

// AppendSingleObject appends the single-object encoding of v with schema s
// to dst: the header, then the datum as Append writes it. On error dst is
// returned unchanged in length.
func AppendSingleObject(dst []byte, s *schema.Schema, v any) ([]byte, error) {
	if s == nil {
		return dst, codec.ErrNilSchema
	}
	n := len(dst)
	dst = append(dst, 0xC3, 0x01)
	dst = binary.LittleEndian.AppendUint64(dst, s.Fingerprint())
	out, err := Append(dst, s, v)
	if err != nil {
		return dst[:n], err
	}
	return out, nil
}

// MarshalSingleObject returns the single-object encoding of v with schema s.
func MarshalSingleObject(s *schema.Schema, v any) ([]byte, error) {
	return AppendSingleObject(nil, s, v)
}

// SchemaStore finds writer schemas by the CRC-64-AVRO fingerprint
// (schema.Fingerprint) of their canonical form, for UnmarshalSingleObject,
// which asks for the writer of every message. Implementations must be safe
// for concurrent use and fast (a remote registry's client should cache),
// and should return an error wrapping *UnknownSchemaError for a
// fingerprint they do not know.
type SchemaStore interface {
	SchemaByFingerprint(fp uint64) (*schema.Schema, error)
}

// UnknownSchemaError reports a fingerprint that a SchemaStore does not know.
type UnknownSchemaError struct {
	Fingerprint uint64
}

// Error names the fingerprint.
func (e *UnknownSchemaError) Error() string {
	return fmt.Sprintf("avro: no schema with fingerprint %016x", e.Fingerprint)
}

// NotSingleObjectError reports data that does not start with the
// single-object marker C3 01, or is shorter than the header.
type NotSingleObjectError struct {
	// Prefix holds the first bytes of the data (at most 10).
	Prefix []byte
}

// Error says whether the marker was wrong or the header cut short.
func (e *NotSingleObjectError) Error() string {
	if len(e.Prefix) >= 2 && e.Prefix[0] == 0xC3 && e.Prefix[1] == 0x01 {
		return fmt.Sprintf("avro: single-object header cut short (%d of %d bytes)", len(e.Prefix), SingleObjectHeaderSize)
	}
	return fmt.Sprintf("avro: not single-object encoded: starts with % x, not c3 01", e.Prefix)
}

// MemoryStore is an in-memory SchemaStore, safe for concurrent use. The
// zero value is an empty store.
type MemoryStore struct {
	mu sync.RWMutex
	m  map[uint64]*schema.Schema
}

// NewMemoryStore returns a store holding the given schemas.
func NewMemoryStore(schemas ...*schema.Schema) *MemoryStore {
	st := &MemoryStore{}
	for _, s := range schemas {
		st.Add(s)
	}
	return st
}

// Add stores s under its fingerprint, replacing any schema stored under
// the same one (whose canonical form, and so encoding, is the same), and
// returns the fingerprint.
func (st *MemoryStore) Add(s *schema.Schema) uint64 {
	fp := s.Fingerprint()
	st.mu.Lock()
	if st.m == nil {
		st.m = map[uint64]*schema.Schema{}
	}
	st.m[fp] = s
	st.mu.Unlock()
	return fp
}

// SchemaByFingerprint returns the schema stored under fp, or an
// *UnknownSchemaError.
func (st *MemoryStore) SchemaByFingerprint(fp uint64) (*schema.Schema, error) {
	st.mu.RLock()
	s, ok := st.m[fp]
	st.mu.RUnlock()
	if !ok {
		return nil, &UnknownSchemaError{Fingerprint: fp}
	}
	return s, nil
}

// SingleObjectFingerprint returns the writer fingerprint in the header of
// single-object data, or a *NotSingleObjectError.
func SingleObjectFingerprint(data []byte) (uint64, error) {
	if len(data) < SingleObjectHeaderSize || data[0] != 0xC3 || data[1] != 0x01 {
		prefix := data[:min(len(data), SingleObjectHeaderSize)]
		return 0, &NotSingleObjectError{Prefix: append([]byte(nil), prefix...)}
	}
	return binary.LittleEndian.Uint64(data[2:]), nil
}

// UnmarshalSingleObject decodes single-object data into the value v points
// at. It checks the marker (a *NotSingleObjectError if absent), finds the
// writer schema in store by fingerprint, and reads the datum as reader:
// the writer schema is resolved against reader (schema.Resolve) once per
// (fingerprint, reader) pair and the result kept with the reader, so no
// message is resolved or compiled twice. The store is asked for the
// writer of every message, so it decides which writers are read (a store
// over a remote registry should cache). A writer with reader's
// fingerprint is read directly when the store does not hold it or holds
// a schema of the same text; when it holds another one (the fingerprint
// leaves logical types out: decimal(10,2) and decimal(10,4) share one),
// the two are resolved, as for any other writer. With a nil reader,
// every datum is read with its writer schema from the store.
// Errors of the store are returned wrapped; errors of the datum are those
// of Unmarshal, with offsets counted from the start of the datum.
func UnmarshalSingleObject(store SchemaStore, reader *schema.Schema, data []byte, v any) error {
	return DecodeOptions{}.UnmarshalSingleObject(store, reader, data, v)
}

// UnmarshalSingleObject decodes single-object data with these options. See
// the package-level UnmarshalSingleObject.
func (o DecodeOptions) UnmarshalSingleObject(store SchemaStore, reader *schema.Schema, data []byte, v any) error {
	fp, err := SingleObjectFingerprint(data)
	if err != nil {
		return err
	}
	s, err := readerSchemaFor(reader, fp, func() (*schema.Schema, error) { return store.SchemaByFingerprint(fp) })
	if err != nil {
		return err
	}
	return o.Unmarshal(s, data[SingleObjectHeaderSize:], v)
}

type resolvedEntry struct {
	s   *schema.Schema
	err error
}

// readerSchemaFor returns the schema that reads data written with the
// writer schema whose fingerprint is fp as values of reader: reader itself
// when fp is its fingerprint, else the resolution of the writer against
// reader. lookup (the store) is asked for every other writer, every time:
// it alone decides which writers are known. The resolution is computed
// once per fingerprint and kept in reader's cache, which every store
// shares (found in review: when the cache was consulted first, a store
// that did not hold a writer still read its messages once another store
// had). A failure to resolve is cached too; a lookup error is not. With a
// nil reader it returns the writer schema.
func readerSchemaFor(reader *schema.Schema, fp uint64, lookup func() (*schema.Schema, error)) (*schema.Schema, error) {
	sameFingerprint := reader != nil && fp == reader.Fingerprint()
	w, err := lookup()
	if sameFingerprint && (err != nil || w == nil || w == reader) {
		return reader, nil
	}
	if err != nil {
		return nil, fmt.Errorf("avro: writer schema %016x: %w", fp, err)
	}
	if w == nil {
		return nil, &UnknownSchemaError{Fingerprint: fp}
	}
	if reader == nil {
		return w, nil
	}
	if sameFingerprint {
		return sameFingerprintReader(reader, w)
	}
	m := readerCache[sync.Map](reader, codec.FamilyResolvedByFingerprint)
	if e, ok := m.Load(fp); ok {
		r := e.(*resolvedEntry)
		return r.s, r.err
	}
	s, err := schema.Resolve(w, reader)
	e, _ := m.LoadOrStore(fp, &resolvedEntry{s, err})
	r := e.(*resolvedEntry)
	return r.s, r.err
}

// sameFingerprintReader returns the schema that reads data of writer w,
// which has reader's fingerprint: reader when w is the same text, else
// their resolution. The answer is kept by writer (two stores may hold
// different schemas of one fingerprint), for at most sameFingerprintKept
// writers of a reader: a store that parses its schema again at every
// lookup would otherwise keep one entry per message for the life of the
// reader.
func sameFingerprintReader(reader, w *schema.Schema) (*schema.Schema, error) {
	wc := readerCache[writerCache](reader, codec.FamilyResolvedSameFingerprint)
	if e, ok := wc.m.Load(w); ok {
		r := e.(*resolvedEntry)
		return r.s, r.err
	}
	r := &resolvedEntry{s: reader}
	if w.String() != reader.String() {
		r.s, r.err = schema.Resolve(w, reader)
	}
	if wc.n.Add(1) <= sameFingerprintKept {
		wc.m.Store(w, r)
	}
	return r.s, r.err
}

// writerCache holds sameFingerprintReader's answers for one reader, and
// their number.
type writerCache struct {
	m sync.Map // *schema.Schema -> *resolvedEntry
	n atomic.Int64
}

// sameFingerprintKept bounds the writers sameFingerprintReader keeps for
// one reader.
const sameFingerprintKept = 64

// readerCache returns the *T kept in reader's cache under family, made
// on first use.
func readerCache[T any](reader *schema.Schema, f codec.Family) *T {
	return codec.Cached(reader, f, func() T { var zero T; return zero })
}
