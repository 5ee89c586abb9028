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

// wideMapRecordSchema has more fields than a map's first group holds:
// its maps are tables of groups.
var wideMapRecordSchema = schema.MustParse(`{"type":"record","name":"W","fields":[
 {"name":"a","type":"long"},{"name":"bb","type":"string"},{"name":"ccc","type":"double"},
 {"name":"dddd","type":"boolean"},{"name":"eeeee","type":"long"},{"name":"f","type":"string"},
 {"name":"gg","type":"int"},{"name":"hhh","type":"long","default":-1},{"name":"iiii","type":"string"},
 {"name":"jjjjj","type":"double"},{"name":"k","type":"long"},{"name":"ll","type":["null","long"],"default":null}]}`)

type wideMapRecord struct {
	A     int64   `avro:"a"`
	BB    string  `avro:"bb"`
	CCC   float64 `avro:"ccc"`
	DDDD  bool    `avro:"dddd"`
	EEEEE int64   `avro:"eeeee"`
	F     string  `avro:"f"`
	GG    int32   `avro:"gg"`
	HHH   int64   `avro:"hhh"`
	IIII  string  `avro:"iiii"`
	JJJJJ float64 `avro:"jjjjj"`
	K     int64   `avro:"k"`
	LL    *int64  `avro:"ll"`
}

// TestWideRecordMapsInAnyOrder is TestRecordMapsInAnyOrder for records
// of more fields than one group of a map holds, in maps of a few to many
// keys besides the fields.
func TestWideRecordMapsInAnyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 2000 {
		rec := wideMapRecord{
			A: r.Int64(), BB: strconv.Itoa(i), CCC: r.NormFloat64(), DDDD: r.IntN(2) == 0, EEEEE: r.Int64N(99),
			F: "f", GG: r.Int32(), HHH: -1, IIII: "i" + strconv.Itoa(r.IntN(50)), JJJJJ: r.ExpFloat64(), K: int64(i),
		}
		values := map[string]any{
			"a": rec.A, "bb": rec.BB, "ccc": rec.CCC, "dddd": rec.DDDD, "eeeee": rec.EEEEE, "f": rec.F,
			"gg": rec.GG, "iiii": rec.IIII, "jjjjj": rec.JJJJJ, "k": rec.K,
		}
		if r.IntN(2) == 0 {
			rec.HHH = r.Int64()
			values["hhh"] = rec.HHH
		}
		if r.IntN(2) == 0 {
			l := r.Int64()
			rec.LL = &l
			values["ll"] = l
		}
		m := map[string]any{}
		extra := []int{0, 1, 5, 30}[r.IntN(4)]
		for k := range extra {
			m["x"+strconv.Itoa(k)] = k
		}
		keys := make([]string, 0, len(values))
		for k := range values {
			keys = append(keys, k)
		}
		for _, j := range r.Perm(len(keys)) {
			m[keys[j]] = values[keys[j]]
		}
		for k := range extra / 2 {
			delete(m, "x"+strconv.Itoa(k))
		}
		wantBin, err := avro.Marshal(wideMapRecordSchema, &rec)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := avro.Marshal(wideMapRecordSchema, m); err != nil || !bytes.Equal(got, wantBin) {
			t.Fatalf("map %v: binary\n got % x (%v)\nwant % x", m, got, err, wantBin)
		}
		wantText, err := avrojson.Marshal(wideMapRecordSchema, &rec)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := avrojson.Marshal(wideMapRecordSchema, m); err != nil || !bytes.Equal(got, wantText) {
			t.Fatalf("map %v: JSON\n got %s (%v)\nwant %s", m, got, err, wantText)
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
