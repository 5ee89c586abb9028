// Package kafka reads and writes Avro datums in the Confluent wire format
// used with Kafka and schema registries: a 0x00 magic byte, the writer
// schema's registry id as a 4-byte big-endian integer, then the Avro
// binary datum.
//
// A Serializer writes with one schema under its registry id, which
// NewRegistrySerializer gets from a registry (a SchemaRegistrar such as
// *registry.Client: registering the schema under its subject, after a
// compatibility check if asked, or taking the subject's latest version);
// it can name the
// schema by its GUID instead (magic byte 1), or write the datum alone with
// the id in a record header (AppendDatum, IDHeader). A Deserializer
// looks the writer schema up by id (or GUID, or the id in a header)
// through a Registry (a *registry.Client, a cache, a test map), resolves
// it against the reader schema once per id (schema.Resolve) and keeps
// the result, so that a message costs about what avro.Unmarshal of its
// datum does; the codecs for each Go type are compiled once and cached by
// the avro package.
package kafka

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// MagicByte is the first byte of every message in the wire format.
const MagicByte = 0x00

// HeaderSize is the length of the header: the magic byte and the id.
const HeaderSize = 5

// Registry finds schemas by their registry id. Implementations must be
// safe for concurrent use, and should return an error wrapping
// *UnknownIDError for an id they do not know.
//
// The lookup takes a context because real registries are reached over the
// network: the caller can bound or cancel the first lookup of an id (every
// later message with that id is served from the Deserializer's cache). Ids
// are ints as in the registry's API; on the wire they are 32-bit.
type Registry interface {
	SchemaByID(ctx context.Context, id int) (*schema.Schema, error)
}

// UnknownIDError reports a schema id that the registry does not know.
type UnknownIDError struct {
	ID int
}

// Error names the id.
func (e *UnknownIDError) Error() string { return fmt.Sprintf("kafka: unknown schema id %d", e.ID) }

// FormatError reports a message that is not in the wire format: shorter
// than its header, or with a first byte other than MagicByte and
// MagicGUID. ParseHeader, which reads schema ids only, reports a message
// with a GUID header as a FormatError too.
type FormatError struct {
	// Topic is the Deserializer's topic (see ForTopic), or "".
	Topic string
	// Len is the length of the message.
	Len int
	// Magic is the first byte, when Len > 0.
	Magic byte
}

// Error says whether the magic byte was wrong or the message too short.
func (e *FormatError) Error() string {
	switch {
	case e.Len >= 1+GUIDSize && e.Magic == MagicGUID:
		return fmt.Sprintf("%smessage names its schema by GUID (magic byte 0x01), not by id: read it with ParseSchemaID", prefix(e.Topic))
	case e.Len > 0 && e.Magic == MagicGUID:
		return fmt.Sprintf("%smessage of %d bytes is shorter than the %d-byte GUID header", prefix(e.Topic), e.Len, 1+GUIDSize)
	case e.Len > 0 && e.Magic != MagicByte:
		return fmt.Sprintf("%sbad magic byte 0x%02x (want 0x00 or 0x01)", prefix(e.Topic), e.Magic)
	}
	return fmt.Sprintf("%smessage of %d bytes is shorter than the %d-byte header", prefix(e.Topic), e.Len, HeaderSize)
}

// prefix starts an error's message: the package, and the topic when
// there is one.
func prefix(topic string) string {
	if topic == "" {
		return "kafka: "
	}
	return "kafka: topic " + topic + ": "
}

// LookupError wraps an error of the Registry, with the id looked up (or
// the GUID, when the schema was named by one).
type LookupError struct {
	// Topic is the Deserializer's topic (see ForTopic), or "".
	Topic string
	ID    int
	GUID  string
	Err   error
}

// Error names the topic, the id and the registry's error.
func (e *LookupError) Error() string {
	if e.GUID != "" {
		return fmt.Sprintf("%slooking up schema GUID %s: %v", prefix(e.Topic), e.GUID, e.Err)
	}
	return fmt.Sprintf("%slooking up schema id %d: %v", prefix(e.Topic), e.ID, e.Err)
}

// Unwrap returns the registry's error.
func (e *LookupError) Unwrap() error { return e.Err }

// ResolveError reports that the writer schema registered under ID cannot
// be read as the Deserializer's reader schema. Err is the
// *schema.CompatibilityError of schema.Resolve.
type ResolveError struct {
	// Topic is the Deserializer's topic (see ForTopic), or "".
	Topic string
	ID    int
	Err   error
}

// Error names the topic, the writer's id and lists the
// incompatibilities.
func (e *ResolveError) Error() string {
	return fmt.Sprintf("%swriter schema id %d cannot be read as the reader schema: %v", prefix(e.Topic), e.ID, e.Err)
}

// Unwrap returns the error of schema.Resolve.
func (e *ResolveError) Unwrap() error { return e.Err }

// DatumError reports a value the Serializer could not encode with its
// schema, or a datum the Deserializer could not decode with the writer
// schema its message names. Err is the avro package's error, with the
// path to the value and, for a datum, the byte offset from the start of
// the datum.
type DatumError struct {
	// Topic is the Serializer's topic, when NewRegistrySerializer made
	// it, or the Deserializer's (see ForTopic); "" otherwise.
	Topic string
	// ID names the schema.
	ID  SchemaID
	Err error
}

// Error names the topic, the schema id or GUID, and the avro error.
func (e *DatumError) Error() string {
	kind := "id"
	if e.ID.ByGUID {
		kind = "GUID"
	}
	return fmt.Sprintf("%sschema %s %v: %v", prefix(e.Topic), kind, e.ID, e.Err)
}

// Unwrap returns the avro error.
func (e *DatumError) Unwrap() error { return e.Err }

// AppendHeader appends the wire-format header for schema id to dst.
func AppendHeader(dst []byte, id int) ([]byte, error) {
	if id < math.MinInt32 || id > math.MaxInt32 {
		return dst, fmt.Errorf("kafka: schema id %d does not fit 32 bits", id)
	}
	dst = append(dst, MagicByte)
	return binary.BigEndian.AppendUint32(dst, uint32(int32(id))), nil
}

// ParseHeader returns the schema id of a message in the wire format with
// an id (magic byte 0) and its datum, or a *FormatError. ParseSchemaID
// reads GUID headers (magic byte 1) too.
func ParseHeader(msg []byte) (id int, datum []byte, err error) {
	if len(msg) < HeaderSize || msg[0] != MagicByte {
		e := &FormatError{Len: len(msg)}
		if len(msg) > 0 {
			e.Magic = msg[0]
		}
		return 0, nil, e
	}
	// Java writes the id with ByteBuffer.putInt: a signed 32-bit value.
	return int(int32(binary.BigEndian.Uint32(msg[1:]))), msg[HeaderSize:], nil
}

// Serializer writes messages with one schema and its registry id (or
// GUID). It is safe for concurrent use.
type Serializer struct {
	id     SchemaID
	s      *schema.Schema
	header [1 + GUIDSize]byte
	hlen   int
	opts   avro.EncodeOptions
	topic  string // for errors, when known
}

// NewSerializer returns a Serializer for schema s registered under id,
// which must not be negative. NewRegistrySerializer gets the id from a
// registry.
func NewSerializer(id int, s *schema.Schema) (*Serializer, error) {
	if s == nil {
		return nil, errors.New("kafka: nil schema")
	}
	if id < 0 {
		// A registry's ids are not negative: -1 is an "unknown" that
		// would be written as ff ff ff ff.
		return nil, fmt.Errorf("kafka: schema id %d is negative", id)
	}
	sr := &Serializer{id: SchemaID{ID: id}, s: s, hlen: HeaderSize}
	if _, err := AppendHeader(sr.header[:0], id); err != nil {
		return nil, err
	}
	return sr, nil
}

// NewGUIDSerializer returns a Serializer for schema s whose messages name
// it by its registry GUID: MagicGUID and the 16 bytes of guid.
func NewGUIDSerializer(guid [GUIDSize]byte, s *schema.Schema) (*Serializer, error) {
	if s == nil {
		return nil, errors.New("kafka: nil schema")
	}
	if guid == ([GUIDSize]byte{}) {
		return nil, errors.New("kafka: zero schema GUID")
	}
	sr := &Serializer{id: SchemaID{GUID: guid, ByGUID: true}, s: s, hlen: 1 + GUIDSize}
	sr.header[0] = MagicGUID
	copy(sr.header[1:], guid[:])
	return sr, nil
}

// WithOptions returns a copy of the Serializer that encodes with opts.
func (sr *Serializer) WithOptions(opts avro.EncodeOptions) *Serializer {
	c := *sr
	c.opts = opts
	return &c
}

// ID returns the schema id the Serializer writes (0 when it writes a
// GUID).
func (sr *Serializer) ID() int { return sr.id.ID }

// SchemaID returns the id or GUID the Serializer writes.
func (sr *Serializer) SchemaID() SchemaID { return sr.id }

// Schema returns the schema the Serializer writes with.
func (sr *Serializer) Schema() *schema.Schema { return sr.s }

// Append appends the message for v to dst: the header, then the datum as
// avro.Append writes it. On error dst is returned unchanged in length.
func (sr *Serializer) Append(dst []byte, v any) ([]byte, error) {
	n := len(dst)
	dst = append(dst, sr.header[:sr.hlen]...)
	out, err := sr.opts.Append(dst, sr.s, v)
	if err != nil {
		return dst[:n], &DatumError{Topic: sr.topic, ID: sr.id, Err: err}
	}
	return out, nil
}

// Marshal returns the message for v.
func (sr *Serializer) Marshal(v any) ([]byte, error) { return sr.Append(nil, v) }

// AppendDatum appends the datum of v alone, without the schema id, to
// dst: the payload of a record whose schema id travels in a header
// (IDHeader).
func (sr *Serializer) AppendDatum(dst []byte, v any) ([]byte, error) {
	out, err := sr.opts.Append(dst, sr.s, v)
	if err != nil {
		return dst, &DatumError{Topic: sr.topic, ID: sr.id, Err: err}
	}
	return out, nil
}

// IDHeader returns the record header that carries the Serializer's
// schema id (or GUID) for a payload written by AppendDatum: named
// ValueSchemaIDHeader, or KeySchemaIDHeader for a key. Its Value is
// shared by every call and must not be modified.
func (sr *Serializer) IDHeader(key bool) Header {
	name := ValueSchemaIDHeader
	if key {
		name = KeySchemaIDHeader
	}
	return Header{Key: name, Value: sr.header[:sr.hlen:sr.hlen]}
}

// Deserializer reads messages written with any schema of a Registry as
// values of one reader schema. It is safe for concurrent use.
type Deserializer struct {
	reg    Registry
	reader *schema.Schema
	opts   avro.DecodeOptions
	topic  string
	c      *deserializerCache
}

// deserializerCache is what a Deserializer keeps, shared by the
// Deserializers ForTopic returns.
type deserializerCache struct {
	// byID holds, per writer id, the schema that reads its messages: the
	// writer resolved against the reader (or the writer itself when
	// there is no reader). Resolution failures are kept; registry errors
	// are not, so that a transient failure is retried.
	byID   sync.Map // int -> *entry
	byGUID sync.Map // [GUIDSize]byte -> *entry
	// recent holds the entries of recently read ids, slotted by id: a
	// topic's messages come with a handful of ids, and an atomic load
	// and compare costs a tenth of a sync.Map lookup, which would
	// otherwise be most of the serde's cost on a small record.
	recent [recentSlots]atomic.Pointer[entry]
}

const recentSlots = 16

type entry struct {
	id  int
	s   *schema.Schema
	err error
}

// NewDeserializer returns a Deserializer that reads values of reader. A
// nil reader reads each message with its writer's schema (into any or
// value.Value, typically).
func NewDeserializer(reg Registry, reader *schema.Schema) *Deserializer {
	return &Deserializer{reg: reg, reader: reader, c: new(deserializerCache)}
}

// NewDeserializerWithOptions is NewDeserializer with decode limits.
func NewDeserializerWithOptions(reg Registry, reader *schema.Schema, opts avro.DecodeOptions) *Deserializer {
	return &Deserializer{reg: reg, reader: reader, opts: opts, c: new(deserializerCache)}
}

// ForTopic returns a Deserializer that reads as ds does, sharing what ds
// has looked up and resolved, whose errors name topic.
func (ds *Deserializer) ForTopic(topic string) *Deserializer {
	c := *ds
	c.topic = topic
	return &c
}

// Unmarshal decodes a message into the value v points at; its writer
// schema is named by id (magic byte 0) or GUID (MagicGUID), as
// ParseSchemaID reads them. A message that is not in the wire format is a
// *FormatError; an id the registry fails to give is a *LookupError
// (wrapping *UnknownIDError for an unknown id); a writer schema that the
// reader cannot read is a *ResolveError wrapping the
// *schema.CompatibilityError; errors of the datum are those of
// avro.Unmarshal, with offsets counted from the start of the datum,
// wrapped in a *DatumError that names the id. Each names the topic when
// ds came from ForTopic.
func (ds *Deserializer) Unmarshal(ctx context.Context, msg []byte, v any) error {
	if len(msg) >= HeaderSize && msg[0] == MagicByte {
		// The common case, inlined: an id read recently.
		id := int(int32(binary.BigEndian.Uint32(msg[1:])))
		if en := ds.c.recent[uint(id)%recentSlots].Load(); en != nil && en.id == id {
			if en.err != nil {
				return ds.named(en.err)
			}
			if err := ds.opts.Unmarshal(en.s, msg[HeaderSize:], v); err != nil {
				return &DatumError{Topic: ds.topic, ID: SchemaID{ID: id}, Err: err}
			}
			return nil
		}
	}
	id, datum, err := ParseSchemaID(msg)
	if err != nil {
		return ds.named(err)
	}
	return ds.unmarshalID(ctx, id, datum, v)
}

// named returns err, one of the package's errors, naming ds's topic.
func (ds *Deserializer) named(err error) error {
	if ds.topic == "" {
		return err
	}
	switch e := err.(type) {
	case *FormatError:
		c := *e
		c.Topic = ds.topic
		return &c
	case *LookupError:
		c := *e
		c.Topic = ds.topic
		return &c
	case *ResolveError:
		c := *e
		c.Topic = ds.topic
		return &c
	}
	return err
}

// SchemaFor returns the schema that reads the messages of writer id: the
// writer schema resolved against the reader. It is computed on the first
// message of the id and cached. Its errors are those of Unmarshal.
func (ds *Deserializer) SchemaFor(ctx context.Context, id int) (*schema.Schema, error) {
	s, err := ds.schemaFor(ctx, id)
	if err != nil {
		return nil, ds.named(err)
	}
	return s, nil
}

func (ds *Deserializer) schemaFor(ctx context.Context, id int) (*schema.Schema, error) {
	slot := &ds.c.recent[uint(id)%recentSlots]
	if en := slot.Load(); en != nil && en.id == id {
		return en.s, en.err
	}
	if e, ok := ds.c.byID.Load(id); ok {
		en := e.(*entry)
		slot.Store(en)
		return en.s, en.err
	}
	w, err := ds.reg.SchemaByID(ctx, id)
	if err == nil && w == nil {
		err = &UnknownIDError{ID: id}
	}
	if err != nil {
		return nil, &LookupError{ID: id, Err: err}
	}
	en := ds.resolved(w, id)
	e, _ := ds.c.byID.LoadOrStore(id, en)
	en = e.(*entry)
	slot.Store(en)
	return en.s, en.err
}

// resolved returns the entry of writer schema w (registered under id):
// w resolved against the reader.
func (ds *Deserializer) resolved(w *schema.Schema, id int) *entry {
	en := &entry{id: id, s: w}
	if ds.reader != nil {
		// The same text is the same data. The same fingerprint is only
		// the same encoding: the canonical form leaves logical types out,
		// and decimal(10,2) read as decimal(10,4) is a hundred times off,
		// which Resolve refuses.
		if w == ds.reader || w.String() == ds.reader.String() {
			en.s = ds.reader
		} else {
			var err error
			if en.s, err = schema.Resolve(w, ds.reader); err != nil {
				en.err = &ResolveError{ID: id, Err: err}
			}
		}
	}
	return en
}

// MemoryRegistry is an in-memory Registry, safe for concurrent use; the
// zero value is empty. It suits tests and fixed deployments.
type MemoryRegistry struct {
	mu sync.RWMutex
	m  map[int]*schema.Schema
}

// Register stores s under id, replacing any schema there.
func (r *MemoryRegistry) Register(id int, s *schema.Schema) {
	r.mu.Lock()
	if r.m == nil {
		r.m = map[int]*schema.Schema{}
	}
	r.m[id] = s
	r.mu.Unlock()
}

// SchemaByID returns the schema registered under id, or an
// *UnknownIDError.
func (r *MemoryRegistry) SchemaByID(_ context.Context, id int) (*schema.Schema, error) {
	r.mu.RLock()
	s, ok := r.m[id]
	r.mu.RUnlock()
	if !ok {
		return nil, &UnknownIDError{ID: id}
	}
	return s, nil
}
