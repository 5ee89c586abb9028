package kafka

import (
	"context"
	"encoding/hex"
	"fmt"

	"github.com/avrogo/avro/schema"
)

// MagicGUID is the first byte of a message, or of a schema id header,
// that names its writer schema by its 16-byte GUID rather than its id.
const MagicGUID = 0x01

// GUIDSize is the length of a GUID.
const GUIDSize = 16

// SchemaID names a writer schema: by registry id, or by GUID when ByGUID.
type SchemaID struct {
	// ID is the registry id, when not ByGUID.
	ID int
	// GUID is the schema's GUID, when ByGUID.
	GUID   [GUIDSize]byte
	ByGUID bool
}

// String formats the id, or the GUID as RFC 4122 text.
func (id SchemaID) String() string {
	if !id.ByGUID {
		return fmt.Sprint(id.ID)
	}
	return guidText(id.GUID)
}

func guidText(g [GUIDSize]byte) string {
	h := hex.EncodeToString(g[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// ParseSchemaID reads the schema id that starts b, in either form: the
// magic byte 0 and a 4-byte id, or MagicGUID and a 16-byte GUID. It
// returns the bytes after it, or a *FormatError.
func ParseSchemaID(b []byte) (SchemaID, []byte, error) {
	if len(b) > 0 && b[0] == MagicGUID {
		if len(b) < 1+GUIDSize {
			return SchemaID{}, nil, &FormatError{Len: len(b), Magic: MagicGUID}
		}
		var id SchemaID
		id.ByGUID = true
		copy(id.GUID[:], b[1:1+GUIDSize])
		return id, b[1+GUIDSize:], nil
	}
	n, rest, err := ParseHeader(b)
	return SchemaID{ID: n}, rest, err
}

// GUIDRegistry is a Registry that also finds schemas by GUID, as
// *registry.Client does.
type GUIDRegistry interface {
	Registry
	SchemaByGUID(ctx context.Context, guid [GUIDSize]byte) (*schema.Schema, error)
}

// A Header is a Kafka record header.
type Header struct {
	Key   string
	Value []byte
}

// The record headers that carry the schema id of a record's value and key,
// in either form of ParseSchemaID, when the payload holds the datum alone.
const (
	ValueSchemaIDHeader = "__value_schema_id"
	KeySchemaIDHeader   = "__key_schema_id"
)

// UnmarshalRecord decodes the value (or, with key, the key) msg of a record
// with the given headers: the writer schema is named by the schema id
// header when there is one, the payload then being the datum alone, else
// by the payload's prefix, as Unmarshal reads it.
func (ds *Deserializer) UnmarshalRecord(ctx context.Context, headers []Header, key bool, msg []byte, v any) error {
	name := ValueSchemaIDHeader
	if key {
		name = KeySchemaIDHeader
	}
	for i := len(headers) - 1; i >= 0; i-- {
		if headers[i].Key != name {
			continue
		}
		id, rest, err := ParseSchemaID(headers[i].Value)
		if err != nil {
			return fmt.Errorf("%sheader %s: %w", prefix(ds.topic), name, err)
		}
		if len(rest) != 0 {
			return fmt.Errorf("%sheader %s: %d bytes after the schema id", prefix(ds.topic), name, len(rest))
		}
		return ds.unmarshalID(ctx, id, msg, v)
	}
	return ds.Unmarshal(ctx, msg, v)
}

func (ds *Deserializer) unmarshalID(ctx context.Context, id SchemaID, datum []byte, v any) error {
	var s *schema.Schema
	var err error
	if id.ByGUID {
		s, err = ds.SchemaForGUID(ctx, id.GUID)
	} else {
		s, err = ds.SchemaFor(ctx, id.ID)
	}
	if err != nil {
		return err
	}
	if err := ds.opts.Unmarshal(s, datum, v); err != nil {
		return &DatumError{Topic: ds.topic, ID: id, Err: err}
	}
	return nil
}

// SchemaForGUID is SchemaFor for a writer schema named by GUID. The
// Registry must be a GUIDRegistry.
func (ds *Deserializer) SchemaForGUID(ctx context.Context, guid [GUIDSize]byte) (*schema.Schema, error) {
	s, err := ds.schemaForGUID(ctx, guid)
	if err != nil {
		return nil, ds.named(err)
	}
	return s, nil
}

func (ds *Deserializer) schemaForGUID(ctx context.Context, guid [GUIDSize]byte) (*schema.Schema, error) {
	if e, ok := ds.c.byGUID.Load(guid); ok {
		en := e.(*entry)
		return en.s, en.err
	}
	gr, ok := ds.reg.(GUIDRegistry)
	if !ok {
		return nil, &LookupError{GUID: guidText(guid), Err: fmt.Errorf("the registry finds no schemas by GUID")}
	}
	w, err := gr.SchemaByGUID(ctx, guid)
	if err == nil && w == nil {
		err = fmt.Errorf("no schema")
	}
	if err != nil {
		return nil, &LookupError{GUID: guidText(guid), Err: err}
	}
	en := ds.resolved(w, 0)
	e, _ := ds.c.byGUID.LoadOrStore(guid, en)
	en = e.(*entry)
	return en.s, en.err
}
