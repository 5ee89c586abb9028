package kafka

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/registry"
)

func guidOf(t *testing.T, id int) [GUIDSize]byte {
	b, err := hex.DecodeString(strings.ReplaceAll(fixture.GUID(id), "-", ""))
	if err != nil || len(b) != GUIDSize {
		t.Fatal(err)
	}
	return [GUIDSize]byte(b)
}

// Messages name their writer by id or GUID, in the payload or in a
// record header.
func TestSchemaIDForms(t *testing.T) {
	_, srv := fixture.NewRegistryServer(t)
	c, err := registry.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sr, err := NewRegistrySerializer(ctx, c, "orders", regOrderV1, SerializerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	datum, err := avro.Marshal(regOrderV1, &regOrder{ID: 5})
	if err != nil {
		t.Fatal(err)
	}
	guid := guidOf(t, sr.ID())
	byGUID := append(append([]byte{MagicGUID}, guid[:]...), datum...)
	byID, _ := sr.Marshal(&regOrder{ID: 5})
	idHeader, _ := AppendHeader(nil, sr.ID())
	guidHeader := append([]byte{MagicGUID}, guid[:]...)

	d := NewDeserializer(c, regOrderV2)
	cases := []struct {
		name    string
		headers []Header
		key     bool
		msg     []byte
	}{
		{"id in the payload", nil, false, byID},
		{"GUID in the payload", nil, false, byGUID},
		{"id in a header", []Header{{"other", []byte("x")}, {ValueSchemaIDHeader, idHeader}}, false, datum},
		{"GUID in a header", []Header{{ValueSchemaIDHeader, guidHeader}}, false, datum},
		{"key header", []Header{{KeySchemaIDHeader, guidHeader}, {ValueSchemaIDHeader, []byte{9}}}, true, datum},
		{"no header: the payload", []Header{{KeySchemaIDHeader, idHeader}}, false, byID},
	}
	for _, tc := range cases {
		var got regOrder
		if err := d.UnmarshalRecord(ctx, tc.headers, tc.key, tc.msg, &got); err != nil || got.ID != 5 {
			t.Errorf("%s: %+v, %v", tc.name, got, err)
		}
	}
	// A bad header is an error naming it; a registry without GUIDs is a
	// *LookupError.
	var fe *FormatError
	if err := d.UnmarshalRecord(ctx, []Header{{ValueSchemaIDHeader, []byte{1, 2}}}, false, datum, &regOrder{}); !errors.As(err, &fe) || !strings.Contains(err.Error(), ValueSchemaIDHeader) {
		t.Errorf("a short GUID header: %v", err)
	}
	if err := d.UnmarshalRecord(ctx, []Header{{ValueSchemaIDHeader, append(idHeader, 0)}}, false, datum, &regOrder{}); err == nil {
		t.Error("a header with a trailing byte was accepted")
	}
	var le *LookupError
	mem := NewDeserializer(&MemoryRegistry{}, regOrderV2)
	if err := mem.Unmarshal(ctx, byGUID, &regOrder{}); !errors.As(err, &le) || le.GUID != fixture.GUID(sr.ID()) {
		t.Errorf("a GUID with a registry that has none: %v", err)
	}
	unknown := append([]byte{MagicGUID}, make([]byte, GUIDSize)...)
	if err := d.Unmarshal(ctx, unknown, &regOrder{}); !errors.As(err, &le) || !errors.Is(err, registry.ErrSchemaNotFound) {
		t.Errorf("an unknown GUID: %v", err)
	}
}
