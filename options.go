package avro

import "github.com/avrogo/avro/schema"

// Default limits. They are generous for real data and small enough that no
// input of a few bytes can make a decode allocate more than a few MiB.
const (
	DefaultMaxDepth         = 128
	DefaultMaxLength        = 1 << 30
	DefaultMaxItems         = 1 << 30
	DefaultMaxZeroSizeItems = 1 << 20
	DefaultAllocPerByte     = 64
	DefaultAllocFloor       = 4 << 20
)

// DecodeOptions configures decoding. The zero value uses the defaults; a
// zero field means "the default", so DecodeOptions{MaxDepth: 32} changes
// only the depth. The package-level Unmarshal and NewDecoder use
// DecodeOptions{}.
//
// Limits never reject valid data that is smaller than them, and every
// count and length read from the input is also bounded by the bytes left:
// an array that declares 2^40 items in 5 bytes is ErrTruncated before
// anything is allocated.
type DecodeOptions struct {
	// MaxDepth bounds the nesting of records, arrays and maps (default
	// 128; unions do not count, as a union cannot directly hold another).
	// A recursive structure nested through an array field takes two levels
	// a step. Deeper data is ErrLimit, never a stack overflow.
	MaxDepth int
	// MaxLength bounds the length of one string, bytes value or fixed
	// (default 1 GiB).
	MaxLength int64
	// MaxItems bounds the items of one array or map, over all its blocks
	// (default 2^30).
	MaxItems int64
	// MaxZeroSizeItems is the budget of items that take no bytes on the
	// wire (null, empty records, fixed(0)) that one decode may produce
	// (default 2^20). Such items cannot be bounded by the input size.
	MaxZeroSizeItems int64
	// MaxAlloc bounds the bytes that one decode allocates for slices, maps,
	// strings and bytes. The default is 64 times the input size plus 4 MiB.
	MaxAlloc int64
	// ZeroCopy lets decoded []byte values (not strings) alias the input
	// instead of being copied. The caller must then keep the input alive
	// and unmodified while it uses them. Off by default.
	ZeroCopy bool
	// ValidateUTF8 makes decoding a string that is not valid UTF-8 an
	// ErrInvalid. By default strings are passed through byte for byte, as
	// Go strings may hold any bytes and Avro writers in other languages do
	// not all validate.
	ValidateUTF8 bool
}

// EncodeOptions configures encoding. The zero value uses the defaults.
type EncodeOptions struct {
	// MaxDepth bounds the nesting of the value being encoded (default
	// 128). A value that contains itself (a cyclic pointer graph) reaches
	// it and is an ErrLimit error, not a stack overflow.
	MaxDepth int
}

func (o *DecodeOptions) maxDepth() int {
	if o.MaxDepth > 0 {
		return o.MaxDepth
	}
	return DefaultMaxDepth
}

func (o *DecodeOptions) maxLength() int64 {
	if o.MaxLength > 0 {
		return o.MaxLength
	}
	return DefaultMaxLength
}

func (o *DecodeOptions) maxItems() int64 {
	if o.MaxItems > 0 {
		return o.MaxItems
	}
	return DefaultMaxItems
}

func (o *DecodeOptions) maxZeroSizeItems() int64 {
	if o.MaxZeroSizeItems > 0 {
		return o.MaxZeroSizeItems
	}
	return DefaultMaxZeroSizeItems
}

func (o *DecodeOptions) maxAlloc(inputLen int) int64 {
	if o.MaxAlloc > 0 {
		return o.MaxAlloc
	}
	return int64(inputLen)*DefaultAllocPerByte + DefaultAllocFloor
}

func (o *EncodeOptions) maxDepth() int {
	if o.MaxDepth > 0 {
		return o.MaxDepth
	}
	return DefaultMaxDepth
}

// Unmarshal decodes one datum of schema s from data into v, with these
// options. See the package-level Unmarshal.
func (o DecodeOptions) Unmarshal(s *schema.Schema, data []byte, v any) error {
	return unmarshal(&o, s, data, v)
}

// Marshal encodes v with these options. See the package-level Marshal.
func (o EncodeOptions) Marshal(s *schema.Schema, v any) ([]byte, error) {
	return appendValue(&o, nil, s, v)
}

// Append encodes v after dst with these options. See the package-level
// Append.
func (o EncodeOptions) Append(dst []byte, s *schema.Schema, v any) ([]byte, error) {
	return appendValue(&o, dst, s, v)
}

var (
	defaultDecodeOptions = DecodeOptions{}
	defaultEncodeOptions = EncodeOptions{}
)
