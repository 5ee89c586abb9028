package schema

import "errors"

// ErrLimit is wrapped by the *Error of a schema that exceeds one of the
// limits of ParseOptions: errors.Is(err, schema.ErrLimit) tells a schema
// too large to accept from one that is wrong.
var ErrLimit = errors.New("schema: limit exceeded")

// Default limits of ParseOptions, used for a zero field and by Parse,
// MustParse, NewParser and ParseFiles.
const (
	// DefaultMaxSize is the default MaxSize: 64 MiB of text.
	DefaultMaxSize = 64 << 20
	// DefaultMaxDefaultSize and DefaultDefaultSizePerByte make the
	// default MaxDefaultSize: 4 MiB, or 8 per byte of the text when
	// that is more.
	DefaultMaxDefaultSize     = 4 << 20
	DefaultDefaultSizePerByte = 8
	// DefaultMaxDefaultSteps is the default MaxDefaultSteps: 2^20.
	DefaultMaxDefaultSteps = 1 << 20
)

// ParseOptions configures parsing. The zero value uses the defaults; a
// zero field means "the default", so ParseOptions{MaxSize: 1 << 20}
// changes only the size. Parse, MustParse, NewParser, ParseFiles and
// ParseProtocol use ParseOptions{}.
//
// Schema text often comes from peers (container file headers, schema
// registries), so every limit is on by default, and a schema that exceeds
// one is an *Error wrapping ErrLimit, found before the work or memory it
// would cost. Parsing a text takes time and memory in proportion to its
// length: under 20 bytes of memory a byte of text, for schemas as people
// write them and for JSON built to cost the most (properties holding
// many one-item arrays, deep nesting, many small unions), so a process
// that parses schemas from untrusted sources bounds what they can cost
// with MaxSize.
type ParseOptions struct {
	// MaxSize bounds the length of the text in bytes (default 64 MiB,
	// which admits schemas of a million fields).
	MaxSize int
	// MaxDefaultSize bounds what the field defaults of one text add up
	// to, each counted as it expands: the length of its Avro binary
	// encoding plus one for every value in it. A record default that
	// leaves fields out takes their defaults, which may do the same, so
	// a few kilobytes of text could otherwise define a default of
	// gigabytes that every reader of the schema would fill in. The
	// default is 4 MiB, or 8 per byte of the text when that is more,
	// which no default written out in the text can reach.
	MaxDefaultSize int64
	// MaxDefaultSteps bounds the work of checking the defaults of one
	// text, a step being the check of one value against one type. A
	// default is checked in at most two steps for each byte of the text;
	// MaxDefaultSteps (default 2^20) more are allowed for the union
	// branches a default is tried against before the one it matches,
	// which unions of records whose fields are such unions again could
	// otherwise make exponential in their depth.
	MaxDefaultSteps int
	// UnicodeNames admits names, field names, enum symbols and namespace
	// components made of letters and digits of any script (and
	// underscores), as Java's parser and its IDL compiler do: "Структура".
	// The specification allows only [A-Za-z_][A-Za-z0-9_]*, which is
	// the rule when UnicodeNames is false; other implementations
	// (Python, C) refuse such schemas.
	UnicodeNames bool
}

func (o *ParseOptions) maxSize() int {
	if o.MaxSize > 0 {
		return o.MaxSize
	}
	return DefaultMaxSize
}

func (o *ParseOptions) maxDefaultSize(textLen int) int64 {
	if o.MaxDefaultSize > 0 {
		return o.MaxDefaultSize
	}
	return max(DefaultMaxDefaultSize, DefaultDefaultSizePerByte*int64(textLen))
}

func (o *ParseOptions) maxDefaultSteps(textLen int) int64 {
	steps := int64(DefaultMaxDefaultSteps)
	if o.MaxDefaultSteps > 0 {
		steps = int64(o.MaxDefaultSteps)
	}
	return steps + 2*int64(textLen)
}

// Parse parses one schema text with these options. See the package-level
// Parse.
func (o ParseOptions) Parse(text string) (*Schema, error) {
	s, _, err := parseTextState(&o, text, nil)
	return s, err
}

// NewParser returns a Parser that parses with these options and knows no
// named types yet.
func (o ParseOptions) NewParser() *Parser {
	return &Parser{names: map[string]*Schema{}, opts: o}
}

// ParseFiles parses schema files with these options, as the package-level
// ParseFiles does.
func (o ParseOptions) ParseFiles(paths ...string) (*Schema, error) {
	return parseFiles(o.NewParser(), paths)
}
