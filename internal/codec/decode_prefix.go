package codec

import (
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
	dec, p, err := topDecoder(s, &v)
	if err != nil {
		return data, err
	}
	d := newDecodeState(o, data)
	dec.decode(p, d)
	n := d.Pos
	err = d.toError()
	d.release()
	if err != nil {
		return data, err
	}
	return data[n:], nil
}
