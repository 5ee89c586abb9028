package schema

import (
	"sync/atomic"
	"unsafe"

	"github.com/avrogo/avro/internal/cache"
)

// Kind is the Avro type of a schema node.
type Kind uint8

// The Avro types. Error records (the "error" keyword of protocols) are
// Record nodes whose IsError reports true.
const (
	Null Kind = iota
	Boolean
	Int
	Long
	Float
	Double
	Bytes
	String
	Record
	Enum
	Array
	Map
	Union
	Fixed
)

var kindNames = [...]string{
	Null: "null", Boolean: "boolean", Int: "int", Long: "long", Float: "float",
	Double: "double", Bytes: "bytes", String: "string", Record: "record",
	Enum: "enum", Array: "array", Map: "map", Union: "union", Fixed: "fixed",
}

// String returns the Avro name of the kind ("int", "record", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// IsNamed reports whether the kind is a named type (record, enum, fixed).
func (k Kind) IsNamed() bool { return k == Record || k == Enum || k == Fixed }

// Logical is the logical type attached to a node, or NoLogical. A logical
// type never changes the binary encoding; it tells codecs which Go types
// (time.Time, *big.Rat, ...) the node maps to.
type Logical uint8

// The logical types of Avro 1.12. A logicalType attribute that is unknown
// or invalid for its node is ignored (the node keeps NoLogical and the
// attribute is kept as a property), as the specification requires.
const (
	NoLogical Logical = iota
	Decimal
	BigDecimal
	UUID
	Date
	TimeMillis
	TimeMicros
	TimestampMillis
	TimestampMicros
	TimestampNanos
	LocalTimestampMillis
	LocalTimestampMicros
	LocalTimestampNanos
	Duration
)

var logicalNames = [...]string{
	NoLogical: "", Decimal: "decimal", BigDecimal: "big-decimal", UUID: "uuid",
	Date: "date", TimeMillis: "time-millis", TimeMicros: "time-micros",
	TimestampMillis: "timestamp-millis", TimestampMicros: "timestamp-micros",
	TimestampNanos: "timestamp-nanos", LocalTimestampMillis: "local-timestamp-millis",
	LocalTimestampMicros: "local-timestamp-micros", LocalTimestampNanos: "local-timestamp-nanos",
	Duration: "duration",
}

// String returns the logicalType attribute value ("timestamp-millis", ...),
// or "" for NoLogical.
func (l Logical) String() string {
	if int(l) < len(logicalNames) {
		return logicalNames[l]
	}
	return "invalid"
}

// Order is the sort order of a record field.
type Order uint8

// Field sort orders; Ascending is the default.
const (
	Ascending Order = iota
	Descending
	Ignore
)

// String returns the order's JSON spelling.
func (o Order) String() string {
	switch o {
	case Descending:
		return "descending"
	case Ignore:
		return "ignore"
	}
	return "ascending"
}

// Schema is one node of a parsed Avro schema. Schemas are immutable after
// parsing and safe for concurrent use.
//
// Named types (record, enum, fixed) are shared by pointer: every reference
// to a named type points at the node that defines it, so a recursive schema
// is a cycle of pointers, not an endless tree. Code that walks a schema must
// therefore remember the named nodes it has visited.
type Schema struct {
	// codecs caches what the codec packages compile for this node. It is
	// the first field: see cache.Of.
	codecs cache.Cache

	kind    Kind
	logical Logical
	isError bool

	// published is set once parsing of the text that made this node has
	// finished; from then on the node is only read, except for the
	// fields below that are set once, atomically.
	published bool

	// minSize is the least number of bytes an encoded value of this node
	// takes; decoders bound allocations with it. It never exceeds
	// math.MaxInt32 (see record).
	minSize int32

	// Array items, map values.
	elem *Schema

	// Union.
	branches []*Schema

	// named holds what a record, an enum or a fixed has (names, fields,
	// symbols, size), nil for other nodes; extra holds what few nodes
	// have (doc, props, decimal parameters). A schema is mostly unnamed
	// nodes without attributes, which then do not pay for either: a node
	// is 128 bytes, not 384.
	named *namedParts
	extra *nodeExtra

	// canonical is the Parsing Canonical Form of this node, set at parse
	// time for the root and the nodes whose form is a substring of the
	// root's; the others compute theirs on first use, into lazyCanon.
	// fingerprint is its CRC-64-AVRO, 0 until computed on first use (a
	// form whose fingerprint is 0 computes it on every call), and digests
	// its MD5 and SHA-256.
	canonical   string
	lazyCanon   atomic.Pointer[string]
	fingerprint atomic.Uint64
	digests     atomic.Pointer[digests]
}

// namedParts are the parts of a named type.
type namedParts struct {
	name      string // unqualified name
	namespace string // "" for the null namespace
	fullName  string
	aliases   []string // full names

	// Record.
	fields     []*Field
	fieldTable *fieldTable

	// enum holds the parts of an enum, nil for records and fixed types.
	enum *enumParts

	// Fixed.
	size int
}

// enumParts are the parts of an enum.
type enumParts struct {
	symbols        []string
	symbolIndex    map[string]int
	enumDefault    string
	hasEnumDefault bool
}

// namedSchema is a named node and its parts, allocated together, and
// enumSchema an enum's.
type namedSchema struct {
	Schema
	parts namedParts
}

type enumSchema struct {
	namedSchema
	enum enumParts
}

// nodeExtra are the parts that few nodes have.
type nodeExtra struct {
	doc string

	// Decimal.
	precision, scale int32

	// props are the attributes that are not part of the schema grammar,
	// in the order they were written.
	props propList

	// writer and resolution are set on the root that Resolve returns (a
	// copy of the reader schema): the schema the data was written with,
	// and how to read it (see resolve.go). Both are nil elsewhere.
	writer     *Schema
	resolution *Action
}

// noNamed, noEnum and noExtra are what nodes without named parts or extra parts
// read: never written.
var (
	noNamed namedParts
	noEnum  enumParts
	noExtra nodeExtra
)

// nm returns the named parts of s, empty for an unnamed node.
func (s *Schema) nm() *namedParts {
	if s.named != nil {
		return s.named
	}
	return &noNamed
}

// en returns the enum parts of s, empty for other nodes.
func (s *Schema) en() *enumParts {
	if s.named != nil && s.named.enum != nil {
		return s.named.enum
	}
	return &noEnum
}

// ex returns the extra parts of s, empty when it has none.
func (s *Schema) ex() *nodeExtra {
	if s.extra != nil {
		return s.extra
	}
	return &noExtra
}

// more returns the extra parts of s, making them on first use; only
// while s is being built.
func (s *Schema) more() *nodeExtra {
	if s.extra == nil {
		s.extra = &nodeExtra{}
	}
	return s.extra
}

// The codec packages reach a node's cache through cache.Of, which takes it
// to be the node's first field: this fails to compile if it is not.
var _ [0]struct{} = [unsafe.Offsetof(Schema{}.codecs)]struct{}{}

// Prop is an attribute of a schema or field that Avro does not define,
// kept as metadata. Value is what encoding/json decodes the attribute to
// (with UseNumber, so numbers are json.Number).
type Prop struct {
	Name  string
	Value any
}

// Field is one field of a record.
type Field struct {
	name  string
	typ   *Schema
	index int32
	// pending is 1 + the index of the default in the queue of the text
	// being parsed, 0 once parsed (see parseState.fieldDefault).
	pending int32
	order   Order
	// dflt is the default, nil when the field has none.
	dflt *fieldDefault
	// extra holds what most fields do not have, so that they do not pay
	// for it: a record of a million fields is a million of these.
	extra *fieldExtra
}

// fieldDefault is a field's default, in every form a codec or String
// needs. Fields of the same shared type (a primitive, a union of
// primitives) with the same null, boolean or one-character default share
// one: a record of a million nullable fields has one default.
type fieldDefault struct {
	// json is the default as written, for String.
	json any
	// value is the default in the generic Go model (see Default).
	value any
	// binary is the default's Avro binary encoding.
	binary []byte
	// values counts the values of the default as it expands (see
	// ParseOptions.MaxDefaultSize).
	values int64
	// branch is the union branch the default matched, or -1.
	branch int32
	// checked is set once the default is checked and its forms set.
	checked bool
}

// fieldExtra is the doc, aliases and props of a field that has any.
type fieldExtra struct {
	aliases []string
	doc     string
	props   propList
}

// Kind returns the node's Avro type.
func (s *Schema) Kind() Kind { return s.kind }

// Logical returns the node's logical type, or NoLogical.
func (s *Schema) Logical() Logical { return s.logical }

// Name returns the unqualified name of a named type, or the kind's name
// ("int", "array", ...) for other nodes.
func (s *Schema) Name() string {
	if s.kind.IsNamed() {
		return s.named.name
	}
	return s.kind.String()
}

// Namespace returns the namespace of a named type ("" for the null
// namespace and for unnamed nodes).
func (s *Schema) Namespace() string { return s.nm().namespace }

// FullName returns the full name of a named type, or the kind's name for
// other nodes. In a union, this is the name that identifies the branch.
func (s *Schema) FullName() string {
	if s.kind.IsNamed() {
		return s.named.fullName
	}
	return s.kind.String()
}

// Aliases returns the full names of the aliases of a named type.
func (s *Schema) Aliases() []string { return s.nm().aliases }

// Doc returns the doc attribute.
func (s *Schema) Doc() string { return s.ex().doc }

// IsError reports whether a record was declared with the "error" keyword.
func (s *Schema) IsError() bool { return s.isError }

// Fields returns the fields of a record, in schema order.
func (s *Schema) Fields() []*Field { return s.nm().fields }

// Field returns the record field with the given name, or nil.
func (s *Schema) Field(name string) *Field {
	if i := s.fieldIndex(name); i >= 0 {
		return s.named.fields[i]
	}
	return nil
}

// Symbols returns the symbols of an enum.
func (s *Schema) Symbols() []string { return s.en().symbols }

// SymbolIndex returns the index of an enum symbol, or -1.
func (s *Schema) SymbolIndex(symbol string) int {
	return s.symbolPos(symbol)
}

// EnumDefault returns the default symbol of an enum, used by readers for
// writer symbols they do not know.
func (s *Schema) EnumDefault() (string, bool) {
	n := s.en()
	return n.enumDefault, n.hasEnumDefault
}

// Items returns the item schema of an array.
func (s *Schema) Items() *Schema {
	if s.kind == Array {
		return s.elem
	}
	return nil
}

// Values returns the value schema of a map.
func (s *Schema) Values() *Schema {
	if s.kind == Map {
		return s.elem
	}
	return nil
}

// Branches returns the branches of a union.
func (s *Schema) Branches() []*Schema { return s.branches }

// Size returns the size in bytes of a fixed.
func (s *Schema) Size() int { return s.nm().size }

// Precision returns the precision of a decimal.
func (s *Schema) Precision() int { return int(s.ex().precision) }

// Scale returns the scale of a decimal.
func (s *Schema) Scale() int { return int(s.ex().scale) }

// Props returns the attributes Avro does not define, in the order written.
func (s *Schema) Props() []Prop { return s.ex().props.list() }

// Prop returns the value of the attribute name, one that Avro does not
// define, and whether the schema has it.
func (s *Schema) Prop(name string) (any, bool) { return s.ex().props.get(name) }

// MinEncodedSize returns the least number of bytes that an encoded value of
// this schema takes (0 for null, an empty record or fixed(0)). Decoders use
// it to bound what a declared count may allocate.
func (s *Schema) MinEncodedSize() int { return int(s.minSize) }

// Name returns the field's name.
func (f *Field) Name() string { return f.name }

// Aliases returns the field's aliases.
func (f *Field) Aliases() []string {
	if f.extra == nil {
		return nil
	}
	return f.extra.aliases
}

// Doc returns the field's doc attribute.
func (f *Field) Doc() string {
	if f.extra == nil {
		return ""
	}
	return f.extra.doc
}

// Type returns the field's schema.
func (f *Field) Type() *Schema { return f.typ }

// Index returns the field's position in its record.
func (f *Field) Index() int { return int(f.index) }

// Order returns the field's sort order.
func (f *Field) Order() Order { return f.order }

// HasDefault reports whether the field declares a default.
func (f *Field) HasDefault() bool { return f.dflt != nil }

// Default returns the field's default in the generic Go model: nil for
// null, bool, int32 for int, int64 for long, float32, float64, []byte for
// bytes and fixed, string for string and enum symbols, []any for arrays,
// map[string]any for maps and records; for a union, the value of the
// branch it matched (see DefaultBranch). The returned value is shared:
// callers must not modify it.
func (f *Field) Default() (any, bool) {
	if f.dflt == nil {
		return nil, false
	}
	return f.dflt.value, true
}

// DefaultBranch returns the index of the union branch the default matched
// (the first branch that matches, as Avro 1.12 says; readers older than
// 1.12 expect the first branch), or -1 when the field is not a union.
func (f *Field) DefaultBranch() int {
	if f.dflt == nil {
		return -1
	}
	return int(f.dflt.branch)
}

// DefaultBinary returns the Avro binary encoding of the default, which
// codecs write or decode in place of a missing value. Callers must not
// modify it.
func (f *Field) DefaultBinary() []byte {
	if f.dflt == nil {
		return nil
	}
	return f.dflt.binary
}

// Props returns the field's attributes that Avro does not define.
func (f *Field) Props() []Prop {
	if f.extra == nil {
		return nil
	}
	return f.extra.props.list()
}

// Prop returns the value of the field attribute name, one that Avro does
// not define, and whether the field has it.
func (f *Field) Prop(name string) (any, bool) {
	if f.extra == nil {
		return nil, false
	}
	return f.extra.props.get(name)
}
