package avro

import (
	"github.com/avrogo/avro/internal/stream"
	"github.com/avrogo/avro/schema"
)

// UnmarshalNext decodes the datum of schema s at the start of data into the
// value v points at, and returns the bytes after it. Unlike Unmarshal,
// bytes left over are not an error: this is how a caller walks datums
// written back to back in a buffer it already holds (the records of an
// object container block, for example) without copying them. An empty
// data is ErrTruncated unless the schema encodes to zero bytes.
//
// Errors are those of Unmarshal; on error rest is data, unchanged. The
// default DecodeOptions limits apply to the datum, with the allocation
// limit computed from len(data).
func UnmarshalNext(s *schema.Schema, data []byte, v any) (rest []byte, err error) {
	return unmarshalNext(&defaultDecodeOptions, s, data, v)
}

// UnmarshalNext decodes one datum at the start of data with these options
// and returns the bytes after it. See the package-level UnmarshalNext.
func (o DecodeOptions) UnmarshalNext(s *schema.Schema, data []byte, v any) (rest []byte, err error) {
	return unmarshalNext(&o, s, data, v)
}

func unmarshalNext(o *DecodeOptions, s *schema.Schema, data []byte, v any) ([]byte, error) {
	rest, _, err := unmarshalNextBudget(o, s, data, v, o.maxZeroSizeItems())
	return rest, err
}

// unmarshalNextBudget is unmarshalNext with a budget of zero-size items
// (at most the option's); it also returns the zero-size items used. The
// container Reader calls it through stream.UnmarshalNext to share one
// budget among the records of a file.
func unmarshalNextBudget(o *DecodeOptions, s *schema.Schema, data []byte, v any, budget int64) ([]byte, int64, error) {
	dec, p, err := topDecoder(s, &v)
	if err != nil {
		return data, 0, err
	}
	d := newDecodeState(o, data)
	d.zeroLeft = min(d.zeroLeft, budget)
	start := d.zeroLeft
	dec.decode(p, d)
	n, used := d.pos, start-d.zeroLeft
	err = d.toError()
	d.release()
	if err != nil {
		return data, used, err
	}
	return data[n:], used, nil
}

func init() {
	stream.UnmarshalNext = func(o any, s *schema.Schema, data []byte, v any, budget int64) ([]byte, int64, error) {
		return unmarshalNextBudget(o.(*DecodeOptions), s, data, v, budget)
	}
}
