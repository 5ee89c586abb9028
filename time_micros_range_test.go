package avro_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
)

// A time-micros past what a time.Duration holds decodes into an int64,
// and into a time.Duration or an any is ErrRange, never wrapped.
func TestTimeMicrosBeyondDuration(t *testing.T) {
	s := schema.MustParse(`{"type":"long","logicalType":"time-micros"}`)
	edge := int64(math.MaxInt64 / 1000)
	for _, c := range []struct {
		v  int64
		ok bool
	}{{edge, true}, {-edge, true}, {edge + 1, false}, {-edge - 1, false}, {math.MaxInt64, false}, {math.MinInt64, false}} {
		bin, err := avro.Marshal(s, c.v)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		if err := avro.Unmarshal(s, bin, &n); err != nil || n != c.v {
			t.Errorf("%d into int64: %d, %v", c.v, n, err)
		}
		var d time.Duration
		var a any
		for _, err := range []error{avro.Unmarshal(s, bin, &d), avro.Unmarshal(s, bin, &a)} {
			if c.ok != (err == nil) || !c.ok && !errors.Is(err, avro.ErrRange) {
				t.Errorf("%d: %v, want ok %v", c.v, err, c.ok)
			}
		}
		if c.ok && (d != time.Duration(c.v)*time.Microsecond || a != d) {
			t.Errorf("%d: %v, %v", c.v, d, a)
		}
	}
}
