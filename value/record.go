package value

import (
	"github.com/avrogo/avro/schema"
)

// Record is an Avro record: its schema and one Value per field, in schema
// order. NewRecord allocates the header and the fields in one block.
//
// A *Record is a reference: Values made with RecordOf share it, and the Set
// methods change it for all of them. A Record is not safe for concurrent
// mutation; concurrent reads are safe.
type Record struct {
	// The layout is two Values' worth of words with pointers in words 0
	// and 2, so that NewRecord can place the header at the start of a
	// []Value allocation (whose GC bitmap has pointers exactly there).
	s *schema.Schema
	n int
	f *Value // first field; nil when n == 0
	_ uintptr
}

// NewRecord returns a record of schema s with the given field values, which
// are copied (fields may be nil: every field starts null). It panics if s
// is not a record schema or len(fields) is neither 0 nor the number of
// fields of s. A nil s makes a record without field names (its fields are
// reachable by position only), sized by fields.
//
// The header and the fields are one allocation.
func NewRecord(s *schema.Schema, fields []Value) *Record {
	n := recordSize(s, len(fields))
	r := placeRecord(make([]Value, 2+n), s, n)
	copy(r.Fields(), fields)
	return r
}

// recordSize returns the number of fields of a record of schema s built
// from given field values, or panics as NewRecord documents.
func recordSize(s *schema.Schema, given int) int {
	if s == nil {
		return given
	}
	if s.Kind() != schema.Record {
		panic("value: NewRecord: schema " + s.FullName() + " is not a record")
	}
	n := len(s.Fields())
	if given != 0 && given != n {
		panic("value: NewRecord: wrong number of fields for " + s.FullName())
	}
	return n
}

// placeRecord puts a record of n null fields in block, which must be 2+n
// fresh (null) Values: the header in the first two, the fields after.
func placeRecord(block []Value, s *schema.Schema, n int) *Record {
	r := as[Record](ptrTo(&block[0]))
	r.s, r.n = s, n
	if n > 0 {
		r.f = &block[2]
	}
	return r
}

// Schema returns the record's schema (nil for a record made without one).
func (r *Record) Schema() *schema.Schema { return r.s }

// NumField returns the number of fields.
func (r *Record) NumField() int { return r.n }

// Fields returns the field values in schema order. The slice is the
// record's own storage (cap == len): writing to it changes the record.
func (r *Record) Fields() []Value {
	if r.n == 0 {
		return nil
	}
	return sliceOf(r.f, r.n)
}

// FieldAt returns field i. It panics if i is out of range.
func (r *Record) FieldAt(i int) Value { return r.Fields()[i] }

// Field returns the field with the given name, or null when the record's
// schema has no such field (use Lookup to tell the two apart).
func (r *Record) Field(name string) Value {
	v, _ := r.Lookup(name)
	return v
}

// Lookup returns the field with the given name and whether it exists.
func (r *Record) Lookup(name string) (Value, bool) {
	if r.s == nil {
		return Value{}, false
	}
	f := r.s.Field(name)
	if f == nil {
		return Value{}, false
	}
	return r.Fields()[f.Index()], true
}

// SetAt sets field i. It panics if i is out of range.
func (r *Record) SetAt(i int, v Value) { r.Fields()[i] = v }

// Set sets the field with the given name. It panics if there is none.
func (r *Record) Set(name string, v Value) {
	var f *schema.Field
	if r.s != nil {
		f = r.s.Field(name)
	}
	if f == nil {
		panic("value: Record.Set: no field " + name)
	}
	r.Fields()[f.Index()] = v
}

// name returns the name of field i, or its index in decimal when the
// record has no schema.
func (r *Record) name(i int) string {
	if r.s == nil {
		return itoa(i)
	}
	return r.s.Fields()[i].Name()
}
