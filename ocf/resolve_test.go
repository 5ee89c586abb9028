package ocf

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/avrogo/avro/schema"
)

// Reading upstream weather files (written by Java) into an evolved reader
// schema: station dropped, temp promoted int→long, a field added with a
// default, the record renamed with an alias.
func TestReaderSchemaResolvesUpstreamFiles(t *testing.T) {
	reader := schema.MustParse(`{"type":"record","name":"Reading","namespace":"v2","aliases":["test.Weather"],"fields":[
		{"name":"when","aliases":["time"],"type":"long"},
		{"name":"temp","type":"long"},
		{"name":"unit","type":"string","default":"decicelsius"}]}`)
	type Reading struct {
		When int64  `avro:"when"`
		Temp int64  `avro:"temp"`
		Unit string `avro:"unit"`
	}
	want := []Reading{
		{-619524000000, 0, "decicelsius"},
		{-619506000000, 22, "decicelsius"},
		{-619484400000, -11, "decicelsius"},
		{-655531200000, 111, "decicelsius"},
		{-655509600000, 78, "decicelsius"},
	}
	for _, name := range []string{"weather.avro", "weather-deflate.avro", "weather-snappy.avro", "weather-zstd.avro"} {
		t.Run(name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(readUpstream(t, "share/test/data/"+name)), WithReaderSchema(reader))
			if err != nil {
				t.Fatal(err)
			}
			if r.Schema().FullName() != "test.Weather" {
				t.Errorf("Schema() = %s, want the writer's test.Weather", r.Schema().FullName())
			}
			var got []Reading
			for {
				var rec Reading
				err := r.Decode(&rec)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, rec)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReaderSchemaIncompatible(t *testing.T) {
	reader := schema.MustParse(`{"type":"record","name":"test.Weather","fields":[
		{"name":"station","type":"int"}]}`)
	_, err := NewReader(bytes.NewReader(readUpstream(t, "share/test/data/weather.avro")), WithReaderSchema(reader))
	var ce *schema.CompatibilityError
	if !errors.As(err, &ce) {
		t.Fatalf("NewReader with an incompatible reader schema: %v, want a *schema.CompatibilityError", err)
	}
}
