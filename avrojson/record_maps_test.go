package avrojson_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
)

// mapRecordSchema has fewer fields than a map's first group holds, and
// one field with a default, which a map may leave out.
var mapRecordSchema = schema.MustParse(`{"type":"record","name":"M","fields":[
 {"name":"id","type":"long"},
 {"name":"name","type":"string"},
 {"name":"score","type":"double"},
 {"name":"ok","type":"boolean"},
 {"name":"at","type":{"type":"record","name":"At","fields":[
   {"name":"x","type":"int"},{"name":"y","type":"int"}]}},
 {"name":"note","type":["null","string"],"default":null}]}`)

type mapRecordAt struct {
	X int32 `avro:"x"`
	Y int32 `avro:"y"`
}

type mapRecord struct {
	ID    int64       `avro:"id"`
	Name  string      `avro:"name"`
	Score float64     `avro:"score"`
	OK    bool        `avro:"ok"`
	At    mapRecordAt `avro:"at"`
	Note  *string     `avro:"note"`
}

// TestRecordMapsInAnyOrder: a record held in a map[string]any is written
// in schema order whatever order its keys were set in, with keys that
// are no field, with fields left to their default, and after deletions
// that leave free slots between the entries; in binary and in JSON, the
// same bytes as the struct of the same values.
func TestRecordMapsInAnyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"id", "name", "score", "ok", "at", "note"}
	for i := range 2000 {
		rec := mapRecord{
			ID: r.Int64N(1 << 40), Name: "n" + strconv.Itoa(r.IntN(1000)), Score: r.NormFloat64(),
			OK: r.IntN(2) == 1, At: mapRecordAt{X: r.Int32N(100), Y: -r.Int32N(100)},
		}
		if r.IntN(3) == 0 {
			s := "note " + strconv.Itoa(i)
			rec.Note = &s
		}
		values := map[string]any{
			"id": rec.ID, "name": rec.Name, "score": rec.Score, "ok": rec.OK,
			"at": map[string]any{"x": rec.At.X, "y": rec.At.Y},
		}
		if rec.Note != nil {
			values["note"] = *rec.Note
		} else if r.IntN(2) == 0 {
			values["note"] = nil
		}
		m := map[string]any{}
		// Keys that are no field, set first, some deleted to leave holes.
		extra := r.IntN(3)
		for k := range extra {
			m["extra"+strconv.Itoa(k)] = k
		}
		for _, k := range r.Perm(len(names)) {
			if v, ok := values[names[k]]; ok {
				m[names[k]] = v
			}
		}
		if extra > 0 && r.IntN(2) == 0 {
			delete(m, "extra0")
		}
		wantBin, err := avro.Marshal(mapRecordSchema, &rec)
		if err != nil {
			t.Fatal(err)
		}
		gotBin, err := avro.Marshal(mapRecordSchema, m)
		if err != nil {
			t.Fatalf("map %v: %v", m, err)
		}
		if !bytes.Equal(gotBin, wantBin) {
			t.Fatalf("map %v: binary\n got % x\nwant % x", m, gotBin, wantBin)
		}
		wantText, err := avrojson.Marshal(mapRecordSchema, &rec)
		if err != nil {
			t.Fatal(err)
		}
		gotText, err := avrojson.Marshal(mapRecordSchema, m)
		if err != nil {
			t.Fatalf("map %v: %v", m, err)
		}
		if !bytes.Equal(gotText, wantText) {
			t.Fatalf("map %v: JSON\n got %s\nwant %s", m, gotText, wantText)
		}
	}
}

// TestDecodedRecordMapsEncodeAgain: the maps Unmarshal makes encode back
// to the bytes they were read from, in binary and in JSON, also after
// their fields were changed in place.
func TestDecodedRecordMapsEncodeAgain(t *testing.T) {
	note := "a note"
	rec := mapRecord{ID: 7, Name: "seven", Score: 0.5, OK: true, At: mapRecordAt{X: 1, Y: 2}, Note: &note}
	bin, err := avro.Marshal(mapRecordSchema, &rec)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := avro.Unmarshal(mapRecordSchema, bin, &x); err != nil {
		t.Fatal(err)
	}
	if got, err := avro.Marshal(mapRecordSchema, x); err != nil || !bytes.Equal(got, bin) {
		t.Fatalf("binary again: % x, %v; want % x", got, err, bin)
	}
	text, err := avrojson.Marshal(mapRecordSchema, &rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := avrojson.Marshal(mapRecordSchema, x); err != nil || !bytes.Equal(got, text) {
		t.Fatalf("JSON again: %s, %v; want %s", got, err, text)
	}
	m := x.(map[string]any)
	delete(m, "name")
	m["name"] = "eight"
	m["id"] = int64(8)
	rec.Name, rec.ID = "eight", 8
	want, err := avrojson.Marshal(mapRecordSchema, &rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := avrojson.Marshal(mapRecordSchema, m); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("JSON after changes: %s, %v; want %s", got, err, want)
	}
}
