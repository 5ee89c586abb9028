package avro_test

import (
	"bytes"
	"errors"
	"io"
	"math/big"
	"testing"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
)

// A decimal schema may declare a precision and scale of two billion.
// Compiling its codec computed 10^scale and 10^precision up front: a hang
// (and gigabytes) before the first byte was read; a regression runs into
// go test's timeout.
func TestDecimalHugeSchemaScale(t *testing.T) {
	huge := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":2000000000,"scale":1000000000}`)
	{
		var r big.Rat
		if err := avro.Unmarshal(huge, []byte{2, 1}, &r); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("decode: %v, want ErrLimit", err)
		}
		var a any
		if err := avro.Unmarshal(huge, []byte{2, 1}, &a); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("decode into any: %v, want ErrLimit", err)
		}
		if _, err := avro.Marshal(huge, big.NewRat(1, 1)); !errors.Is(err, avro.ErrLimit) {
			t.Errorf("encode: %v, want ErrLimit", err)
		}
		// value.Value keeps the raw bytes: no scale is applied.
		var v value.Value
		if err := avro.Unmarshal(huge, []byte{2, 1}, &v); err != nil {
			t.Errorf("decode into value.Value: %v", err)
		}
	}
	// A huge precision with a small scale costs nothing.
	wide := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":2000000000,"scale":2}`)
	{
		want := big.NewRat(-1234567, 100)
		data, err := avro.Marshal(wide, want)
		if err != nil {
			t.Fatal(err)
		}
		var got big.Rat
		if err := avro.Unmarshal(wide, data, &got); err != nil || got.Cmp(want) != 0 {
			t.Errorf("round trip: %s, %v", got.RatString(), err)
		}
	}
	// The scale limit is an option, in both directions.
	s3000 := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":4000,"scale":3000}`)
	if _, err := avro.Marshal(s3000, big.NewRat(1, 2)); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("scale 3000, default limit: %v, want ErrLimit", err)
	}
	data, err := avro.EncodeOptions{MaxDecimalScale: 3000}.Marshal(s3000, big.NewRat(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	var r big.Rat
	if err := avro.Unmarshal(s3000, data, &r); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("scale 3000, default limit: %v, want ErrLimit", err)
	}
	if err := (avro.DecodeOptions{MaxDecimalScale: 3000}).Unmarshal(s3000, data, &r); err != nil || r.Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("scale 3000 with MaxDecimalScale 3000: %s, %v", r.RatString(), err)
	}
	// big-decimal carries its scale in the data: the same option bounds it.
	bd := schema.MustParse(`{"type":"bytes","logicalType":"big-decimal"}`)
	payload := []byte{0x02, 0x01, 0xf0, 0x2e} // unscaled 1, scale 3000 (zig-zag 6000)
	datum := append([]byte{byte(len(payload) << 1)}, payload...)
	if err := avro.Unmarshal(bd, datum, &r); !errors.Is(err, avro.ErrLimit) {
		t.Errorf("big-decimal scale 3000: %v, want ErrLimit", err)
	}
	if err := (avro.DecodeOptions{MaxDecimalScale: 3000}).Unmarshal(bd, datum, &r); err != nil || r.Cmp(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(3000), nil))) != 0 {
		t.Errorf("big-decimal scale 3000 with MaxDecimalScale 3000: %v", err)
	}
	if avro.DefaultMaxDecimalScale != 2048 {
		t.Errorf("DefaultMaxDecimalScale %d, want 2048", avro.DefaultMaxDecimalScale)
	}
}

// The precision check compares bit lengths rather than computing
// 10^precision, and compares exactly only near the bound: it must give the
// exact bound on both sides, for many precisions.
func TestDecimalPrecisionBound(t *testing.T) {
	ten := big.NewInt(10)
	for p := 1; p <= 120; p++ {
		s := schema.MustParse(`{"type":"bytes","logicalType":"decimal","precision":` + itoa(p) + `}`)
		limit := new(big.Int).Exp(ten, big.NewInt(int64(p)), nil)
		below := new(big.Int).Sub(limit, big.NewInt(1))
		for _, sign := range []int64{1, -1} {
			ok := new(big.Rat).SetInt(new(big.Int).Mul(below, big.NewInt(sign)))
			if _, err := avro.Marshal(s, ok); err != nil {
				t.Errorf("precision %d: %s: %v", p, ok.RatString(), err)
			}
			bad := new(big.Rat).SetInt(new(big.Int).Mul(limit, big.NewInt(sign)))
			if _, err := avro.Marshal(s, bad); !errors.Is(err, avro.ErrRange) {
				t.Errorf("precision %d: %s: %v, want ErrRange", p, bad.RatString(), err)
			}
		}
	}
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// A big-decimal whose inner parts ran past its (complete) payload was
// ErrTruncated, so a streaming Decoder kept reading the rest of the stream
// (up to MaxLength) before it failed.
func TestBigDecimalBadPayloadInStream(t *testing.T) {
	s := schema.MustParse(`{"type":"bytes","logicalType":"big-decimal"}`)
	good, err := avro.Marshal(s, big.NewRat(5, 2))
	if err != nil {
		t.Fatal(err)
	}
	stream := append([]byte{0x04, 0x06, 0x01}, bytes.Repeat(good, 1<<20)...)
	cr := &countingReader{r: bytes.NewReader(stream)}
	dec := avro.NewDecoder(cr, s)
	var r big.Rat
	if err := dec.Decode(&r); !errors.Is(err, avro.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	if cr.n > 1<<20 {
		t.Errorf("read %d bytes of the stream to reject a 3-byte datum", cr.n)
	}
}
