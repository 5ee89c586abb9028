package avro

import (
	"io"

	"github.com/avrogo/avro/internal/codec"
	"github.com/avrogo/avro/schema"
)

// Default limits, used for a zero field of DecodeOptions and
// EncodeOptions and by the package-level functions. They are generous for
// real data and small enough that no input of a few bytes can make a
// decode allocate more than a few MiB.
const (
	// DefaultMaxDepth is the default MaxDepth (decoding and encoding).
	DefaultMaxDepth = 128
	// CeilingMaxDepth is the most that a MaxDepth counts for, deep enough
	// for any real data and shallow enough that the recursion of decoding
	// and encoding stays well within a goroutine's stack.
	CeilingMaxDepth = 10_000
	// DefaultMaxLength is the default MaxLength: 1 GiB.
	DefaultMaxLength = 1 << 30
	// DefaultMaxItems is the default MaxItems: 2^30 items.
	DefaultMaxItems = 1 << 30
	// DefaultMaxZeroSizeItems is the default MaxZeroSizeItems: 2^20.
	DefaultMaxZeroSizeItems = 1 << 20
	// DefaultAllocPerByte and DefaultAllocFloor make the default
	// MaxAlloc: 64 bytes per input byte plus 4 MiB.
	DefaultAllocPerByte = 64
	DefaultAllocFloor   = 4 << 20
	// DefaultMaxDecimalScale is the default MaxDecimalScale (decoding and
	// encoding).
	DefaultMaxDecimalScale = 2048
)

// The engine's defaults are these: a constant index out of range does not
// compile.
var (
	_ = [1]struct{}{}[DefaultMaxDepth-codec.DefaultMaxDepth]
	_ = [1]struct{}{}[CeilingMaxDepth-codec.CeilingMaxDepth]
	_ = [1]struct{}{}[DefaultMaxLength-codec.DefaultMaxLength]
	_ = [1]struct{}{}[DefaultMaxItems-codec.DefaultMaxItems]
	_ = [1]struct{}{}[DefaultMaxZeroSizeItems-codec.DefaultMaxZeroSizeItems]
	_ = [1]struct{}{}[DefaultAllocPerByte-codec.DefaultAllocPerByte]
	_ = [1]struct{}{}[DefaultAllocFloor-codec.DefaultAllocFloor]
	_ = [1]struct{}{}[DefaultMaxDecimalScale-codec.DefaultMaxDecimalScale]
)

// DecodeOptions configures decoding. The zero value uses the defaults; a
// zero field means "the default", so DecodeOptions{MaxDepth: 32} changes
// only the depth. The package-level Unmarshal and NewDecoder use
// DecodeOptions{}.
//
// Limits never reject valid data that is smaller than them, and every
// count and length read from the input is also bounded by the bytes left
// (an item takes at least its schema's minimum encoded size), computed in
// 64 bits with overflow and sign checked: an array that declares 2^20
// items in 5 bytes is ErrTruncated and one that declares 2^40 is ErrLimit,
// both before anything is allocated. The limits apply on every decoding
// path: Unmarshal, UnmarshalNext and the Decoder, into structs, any and
// value.Value, through a resolved schema (schema.Resolve), when skipping
// fields the Go type lacks, and in UnmarshalSingleObject, package kafka
// and package ocf (which adds its own block and header limits).
//
// A limit that is exceeded is an *Error wrapping ErrLimit; bad data is
// ErrInvalid or ErrTruncated.
type DecodeOptions struct {
	// MaxDepth bounds the nesting of records, arrays and maps (default
	// 128; unions do not count, as a union cannot directly hold another).
	// A recursive structure nested through an array field takes two levels
	// a step, through a nullable union one. Deeper data is ErrLimit, never
	// a stack overflow: a MaxDepth above CeilingMaxDepth counts as that.
	MaxDepth int
	// MaxLength bounds the length of one string or bytes value, map keys
	// included (default 1 GiB); a longer declared length is ErrLimit, a
	// negative one ErrInvalid. It also bounds the datum a Decoder buffers.
	// (A fixed is bounded by its schema's size and by the input.)
	MaxLength int64
	// MaxItems bounds the items of one array or map, over all its blocks
	// (default 2^30). A block count of MinInt64, or a negative block
	// size, is ErrInvalid.
	MaxItems int64
	// MaxZeroSizeItems is the budget of items that take no bytes on the
	// wire (null, empty records, fixed(0), records of those) that one
	// datum may produce (default 2^20). Such items cannot be bounded by
	// the input size. An array item that is a record of such fields
	// counts once for itself and once for each value it holds, nested
	// records included, as decoding it takes a step for each. The datums of one Decoder, and the records of one
	// container file, also share a budget over the stream: MaxZeroSizeItems
	// plus 64 (or MaxZeroSizeItems/16384 when that is more) per byte read.
	MaxZeroSizeItems int64
	// MaxAlloc bounds the bytes that one decode allocates for slices, maps,
	// strings, bytes and decimals, the values behind pointers and
	// interfaces, and records decoded into maps. A resolved schema read
	// into a Go type other than a struct first rewrites the datum in the
	// reader's encoding, in a scratch buffer that the decode does not keep
	// and that MaxAlloc bounds on its own (reader defaults can make it
	// larger than the input). The default is 64 times the input size plus
	// 4 MiB.
	//
	// The reader defaults that a resolved schema fills in for fields the
	// writer lacks (the bytes of their binary encoding) have a budget of
	// their own, as the input cannot bound them: a record of no bytes may
	// take a default of any size. One datum may fill in MaxAlloc of them.
	// The datums of one Decoder, and the records of one container file,
	// also share a budget over the stream: MaxAlloc for an input of no
	// bytes (4 MiB by default) plus 64 a byte read, so that a stream of
	// empty records that each take a 64 KiB default is ErrLimit after some
	// 64 of them, not 64 KiB per record.
	MaxAlloc int64
	// ZeroCopy lets decoded []byte values (not strings) alias the input
	// instead of being copied. The caller must then keep the input alive
	// and unmodified while it uses them. Off by default.
	ZeroCopy bool
	// MaxDecimalScale bounds the scale of a decimal (the scale declared
	// by a decimal schema, or the scale a big-decimal value carries, in
	// either direction) that decoding accepts (default 2048, which covers
	// every exact binary64 value). A scale of n costs a power of ten of n
	// digits, so without a bound a five-byte big-decimal, or a schema that
	// declares a scale of two billion, could demand a number of two
	// billion digits. Beyond it is ErrLimit.
	MaxDecimalScale int
	// ValidateUTF8 makes decoding a string that is not valid UTF-8 an
	// ErrInvalid. By default strings are passed through byte for byte, as
	// Go strings may hold any bytes and Avro writers in other languages do
	// not all validate. Strings that are skipped (fields the Go type or
	// the reader schema lacks) are not decoded, and not checked.
	ValidateUTF8 bool
}

// EncodeOptions configures encoding. The zero value uses the defaults.
type EncodeOptions struct {
	// MaxDepth bounds the nesting of the value being encoded (default
	// 128, at most CeilingMaxDepth). A value that contains itself (a cyclic pointer graph) reaches
	// it and is an ErrLimit error, not a stack overflow: this holds for
	// pointer cycles, maps and slices that contain themselves, and
	// value.Record values that contain themselves.
	MaxDepth int
	// MaxDecimalScale bounds the scale of a decimal schema that encoding
	// accepts (default 2048, as for decoding): encoding with a larger
	// scale is ErrLimit rather than the computation of a power of ten of
	// that many digits. It bounds a json.Number written as a decimal or
	// big-decimal too: an exponent past it, or more digits than it and
	// the decimal's precision, is ErrLimit, as the value of the text
	// would take a power of ten that large, or time quadratic in its
	// digits, to compute.
	MaxDecimalScale int
}

// Unmarshal decodes one datum of schema s from data into v, with these
// options. See the package-level Unmarshal.
func (o DecodeOptions) Unmarshal(s *schema.Schema, data []byte, v any) error {
	return publicError(codec.DecodeOptions(o).Unmarshal(s, data, v))
}

// UnmarshalNext decodes one datum at the start of data with these options
// and returns the bytes after it. See the package-level UnmarshalNext.
func (o DecodeOptions) UnmarshalNext(s *schema.Schema, data []byte, v any) (rest []byte, err error) {
	rest, err = codec.DecodeOptions(o).UnmarshalNext(s, data, v)
	return rest, publicError(err)
}

// NewDecoder returns a Decoder that uses these options.
func (o DecodeOptions) NewDecoder(r io.Reader, s *schema.Schema) *Decoder {
	return &Decoder{d: codec.DecodeOptions(o).NewDecoder(r, s)}
}

// Marshal encodes v with these options. See the package-level Marshal.
func (o EncodeOptions) Marshal(s *schema.Schema, v any) ([]byte, error) {
	out, err := codec.EncodeOptions(o).Marshal(s, v)
	return out, publicError(err)
}

// Append encodes v after dst with these options. See the package-level
// Append.
func (o EncodeOptions) Append(dst []byte, s *schema.Schema, v any) ([]byte, error) {
	out, err := codec.EncodeOptions(o).Append(dst, s, v)
	return out, publicError(err)
}

// NewEncoder returns an Encoder that uses these options.
func (o EncodeOptions) NewEncoder(w io.Writer, s *schema.Schema) *Encoder {
	return &Encoder{e: codec.EncodeOptions(o).NewEncoder(w, s)}
}
