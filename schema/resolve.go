package schema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Schema resolution (spec "Schema Resolution", M1-M7): reading data written
// with one schema (the writer's) as values of another (the reader's).
//
// Resolve walks the two schemas once and records, for every pair of writer
// and reader nodes it meets, an Action that says how a writer value becomes
// a reader value. Codec packages compile that graph into whatever they run
// (the avro package turns it into a transcoder from writer bytes to reader
// bytes); they never compare schemas themselves.
//
// Mismatches are of two sorts. Those that every datum would hit (a reader
// field with no default that the writer lacks, an int read as a string)
// make Resolve fail. Those that depend on the datum (a writer enum symbol
// the reader does not know and cannot default, a writer union branch the
// reader cannot read) become ActionError steps and fail the decode that
// reaches them, as the specification says: data that never uses them reads
// fine. CheckCompatibility reports both sorts.

// ActionKind says how one resolution step reads the writer's value.
type ActionKind uint8

// The kinds of Action.
const (
	// ActionSame: writer and reader have the same primitive or fixed type;
	// the value is read as written.
	ActionSame ActionKind = iota
	// ActionPromote: a primitive promotion: int to long, float or
	// double; long to float or double; float to double; string to bytes
	// and bytes to string. Writer().Kind() and Reader().Kind() say which.
	ActionPromote
	// ActionRecord: records matched by name or alias; see WriterFields
	// and Defaults.
	ActionRecord
	// ActionEnum: enums matched by name; see SymbolMap.
	ActionEnum
	// ActionArray: arrays; Elem resolves the items.
	ActionArray
	// ActionMap: maps; Elem resolves the values.
	ActionMap
	// ActionWriterUnion: the writer is a union. The value is a branch
	// index followed by the branch's value, which Branches()[index]
	// resolves (against the reader union, if the reader is one too).
	ActionWriterUnion
	// ActionReaderUnion: the reader is a union and the writer is not. The
	// value is read as the reader branch ReaderBranch, which Elem
	// resolves.
	ActionReaderUnion
	// ActionError: the writer's value cannot be read; a decode that
	// reaches this step fails with Err.
	ActionError
)

var actionNames = [...]string{
	ActionSame: "same", ActionPromote: "promote", ActionRecord: "record",
	ActionEnum: "enum", ActionArray: "array", ActionMap: "map",
	ActionWriterUnion: "writer-union", ActionReaderUnion: "reader-union",
	ActionError: "error",
}

// String returns a short name of the kind ("promote", "writer-union", ...).
func (k ActionKind) String() string {
	if int(k) < len(actionNames) {
		return actionNames[k]
	}
	return "invalid"
}

// Action is one step of a resolution: how a value written with the writer
// node Writer() is read as a value of the reader node Reader(). Actions
// form a graph that mirrors the schemas, and that has cycles where the
// schemas are recursive; walkers must remember the actions they visited.
// An Action is immutable and safe for concurrent use.
type Action struct {
	kind     ActionKind
	writer   *Schema
	reader   *Schema
	elem     *Action       // Array, Map: items or values; ReaderUnion: the chosen branch
	branch   int           // ReaderUnion: index of the chosen reader branch
	branches []*Action     // WriterUnion: one per writer branch
	fields   []FieldAction // Record: one per writer field, in writer order
	defaults []*Field      // Record: reader fields filled from their default
	symbols  []int         // Enum: writer index -> reader index, or -1
	missing  *Incompatibility
	errs     []*Incompatibility // Error: why; a failed record keeps its fields
}

// FieldAction resolves one field of a writer record.
type FieldAction struct {
	// Writer is the writer's field.
	Writer *Field
	// Reader is the reader field that the value fills, or nil when the
	// reader has no such field: the value is then skipped.
	Reader *Field
	// Action reads the value; nil when the value is skipped.
	Action *Action
}

// Kind returns what the step does.
func (a *Action) Kind() ActionKind { return a.kind }

// Writer returns the writer's schema node.
func (a *Action) Writer() *Schema { return a.writer }

// Reader returns the reader's schema node. For an ActionWriterUnion whose
// reader is not a union, and for an ActionError, it is the node the value
// was to be read as.
func (a *Action) Reader() *Schema { return a.reader }

// Elem returns the resolution of the items of an ActionArray, the values
// of an ActionMap, or the chosen branch of an ActionReaderUnion; nil for
// other kinds.
func (a *Action) Elem() *Action { return a.elem }

// ReaderBranch returns, for an ActionReaderUnion, the index of the reader
// union's branch that the writer's value is read as; -1 for other kinds.
func (a *Action) ReaderBranch() int {
	if a.kind == ActionReaderUnion {
		return a.branch
	}
	return -1
}

// Branches returns, for an ActionWriterUnion, the resolution of each
// writer branch, in writer order; a branch the reader cannot read is an
// ActionError. The slice is shared and must not be modified.
func (a *Action) Branches() []*Action { return a.branches }

// WriterFields returns, for an ActionRecord, one entry per writer field in
// writer order: which reader field it fills and how, or that it is
// skipped. The slice is shared and must not be modified.
func (a *Action) WriterFields() []FieldAction { return a.fields }

// Defaults returns, for an ActionRecord, the reader fields that the writer
// does not have, in reader order: their value is the reader's default
// (Field.DefaultBinary gives its encoding). The slice is shared and must
// not be modified.
func (a *Action) Defaults() []*Field { return a.defaults }

// SymbolMap returns, for an ActionEnum, the reader symbol index of each
// writer symbol index: the same symbol, or else the reader's enum default,
// or -1 when the reader has neither (reading that symbol fails). The slice
// is shared and must not be modified.
func (a *Action) SymbolMap() []int { return a.symbols }

// Err returns, for an ActionError, why the value cannot be read: an
// *Incompatibility. It is nil for other kinds.
func (a *Action) Err() error {
	if a.kind != ActionError || len(a.errs) == 0 {
		return nil
	}
	return a.errs[0]
}

// Writer returns, for a schema returned by Resolve, the writer schema it
// resolves; nil for any other schema.
func (s *Schema) Writer() *Schema { return s.ex().writer }

// Resolution returns, for a schema returned by Resolve, the root Action of
// the resolution; nil for any other schema. Codec packages compile it.
func (s *Schema) Resolution() *Action { return s.ex().resolution }

// Incompatibility is one reason why data written with a writer schema
// cannot (always) be read with a reader schema.
type Incompatibility struct {
	// Path locates the reader node, as a JSON pointer into the reader
	// schema's JSON ("/fields/1/type/items"; "/" for the root), in the
	// manner of the Java and Python compatibility checkers.
	Path string
	// Reason describes the problem.
	Reason string
	// Writer and Reader are the schema nodes that do not match.
	Writer, Reader *Schema
}

// Error formats the incompatibility as "path: reason".
func (e *Incompatibility) Error() string { return "schema: " + e.Path + ": " + e.Reason }

// CompatibilityError lists why a reader schema cannot read the data of a
// writer schema. Resolve returns it for the mismatches that every datum
// would hit; CheckCompatibility lists every incompatibility.
type CompatibilityError struct {
	Items []Incompatibility
}

// Error lists the incompatibilities, one per line after the first.
func (e *CompatibilityError) Error() string {
	var b strings.Builder
	b.WriteString("schema: incompatible schemas")
	if len(e.Items) == 1 {
		b.WriteString(": ")
		b.WriteString(e.Items[0].Path)
		b.WriteString(": ")
		b.WriteString(e.Items[0].Reason)
		return b.String()
	}
	for _, it := range e.Items {
		b.WriteString("\n\t")
		b.WriteString(it.Path)
		b.WriteString(": ")
		b.WriteString(it.Reason)
	}
	return b.String()
}

// Resolve returns a schema that reads data written with writer as values
// of reader (spec "Schema Resolution"):
//
//   - Promotions: int to long, float or double; long to float or double;
//     float to double; string to bytes and back.
//   - Named types match by unqualified name, or when a reader alias names
//     the writer type (by full name, or by unqualified name). Fixed types
//     also need the same size, and decimals the same precision and scale.
//   - Record fields match by name or reader field alias, in any order.
//     Writer-only fields are skipped; reader-only fields take the reader's
//     default, and a reader-only field without one is an error.
//   - A writer enum symbol that the reader lacks reads as the reader's
//     enum default; without one, reading that symbol fails (Resolve
//     succeeds).
//   - Unions: a writer union resolves each branch against the reader, and
//     a branch that cannot be read fails the decodes that use it (Resolve
//     fails only if no branch can be read). A reader union reads a
//     non-union writer value as its best branch: the first of the same
//     type (and full name), then one matching by unqualified name or
//     alias, then the first promotion, as the Java reader does; a branch
//     is only chosen if it resolves.
//   - doc, order and other attributes are ignored.
//
// The result is a copy of the reader schema: its Kind, Fields, String,
// Canonical and Fingerprint are the reader's, so codecs compile against
// the reader's shape, and Writer and Resolution return the writer schema
// and the resolution. Passing it to avro.Unmarshal or avro.NewDecoder
// reads writer-encoded bytes. Resolve once per pair of schemas and keep
// the result: compiled codecs are cached in it.
//
// A failure is a *CompatibilityError listing each mismatch with its path
// in the reader schema.
func Resolve(writer, reader *Schema) (*Schema, error) {
	if writer == nil || reader == nil {
		return nil, errors.New("schema: Resolve of a nil schema")
	}
	root := copyGraph(reader)
	rs := resolver{memo: map[pairKey]*Action{}}
	a, errs := rs.resolve(writer, root, &rpath{})
	if len(errs) > 0 {
		return nil, newCompatibilityError(errs)
	}
	root.more().writer = writer
	root.more().resolution = a
	return root, nil
}

func newCompatibilityError(errs []*Incompatibility) *CompatibilityError {
	e := &CompatibilityError{Items: make([]Incompatibility, len(errs))}
	for i, it := range errs {
		e.Items[i] = *it
	}
	return e
}

// copyGraph copies every node reachable from root, so that the copy can
// carry a resolution without touching the reader schema (which stays
// immutable and shared) and still walks, prints and fingerprints as the
// reader: a recursive reader keeps its cycle inside the copy.
func copyGraph(root *Schema) *Schema {
	m := map[*Schema]*Schema{}
	var cp func(s *Schema) *Schema
	cp = func(s *Schema) *Schema {
		if c, ok := m[s]; ok {
			return c
		}
		c := &Schema{
			kind: s.kind, logical: s.logical, isError: s.isError,
			minSize: s.minSize, published: true,
		}
		if s.named != nil {
			parts := *s.named
			c.named = &parts
		}
		c.extra = s.extra // shared, but for the root's (below)
		m[s] = c
		if s.nm().fields != nil {
			c.named.fields = make([]*Field, len(s.named.fields))
			for i, f := range s.named.fields {
				nf := *f
				nf.typ = cp(f.typ)
				c.named.fields[i] = &nf
			}
		}
		if s.elem != nil {
			c.elem = cp(s.elem)
		}
		if s.branches != nil {
			c.branches = make([]*Schema, len(s.branches))
			for i, b := range s.branches {
				c.branches[i] = cp(b)
			}
		}
		return c
	}
	c := cp(root)
	// The root's extra parts are its own: Resolve sets the resolution in
	// them.
	if x := root.extra; x != nil {
		c.extra = &nodeExtra{doc: x.doc, precision: x.precision, scale: x.scale, props: propList{raw: x.props.raw}}
	}
	c.canonical = root.Canonical() // the root's is known; nested ones are computed on demand
	return c
}

// rpath is a location in the reader schema, kept as a linked list on the
// stack and rendered only when an incompatibility is reported.
type rpath struct {
	up  *rpath
	seg string
}

func (p *rpath) child(seg string) rpath { return rpath{up: p, seg: seg} }

// String renders the path as a JSON pointer ("/" for the root).
func (p *rpath) String() string {
	var segs []string
	for q := p; q != nil && q.up != nil; q = q.up {
		segs = append(segs, q.seg)
	}
	if len(segs) == 0 {
		return "/"
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(segs[i])
	}
	return b.String()
}

type pairKey struct{ w, r *Schema }

// resolver memoizes record pairs: a recursive pair that is met again while
// it is being resolved returns its (unfinished) action, which closes the
// cycle; a pair that failed keeps failing with the same errors.
type resolver struct {
	memo map[pairKey]*Action
	// unions holds the index of each reader union resolved so far.
	unions map[*Schema]*unionIndex
}

func incompat(p *rpath, w, r *Schema, format string, args ...any) []*Incompatibility {
	return []*Incompatibility{{Path: p.String(), Reason: fmt.Sprintf(format, args...), Writer: w, Reader: r}}
}

// describe names a node in messages: "int", "record a.B", "array".
func describe(s *Schema) string {
	d := s.kind.String()
	if s.kind.IsNamed() {
		d += " " + s.nm().fullName
	}
	if s.logical == Decimal {
		d += fmt.Sprintf(" (decimal(%d,%d))", s.ex().precision, s.ex().scale)
	}
	return d
}

func (rs *resolver) resolve(w, r *Schema, p *rpath) (*Action, []*Incompatibility) {
	if w.kind == Union {
		return rs.writerUnion(w, r, p)
	}
	if r.kind == Union {
		return rs.readerUnion(w, r, p)
	}
	if w.kind == r.kind {
		switch w.kind {
		case Record:
			return rs.record(w, r, p)
		case Enum:
			return rs.enum(w, r, p)
		case Fixed:
			if !namesMatch(w, r) {
				return nil, incompat(p, w, r, "writer %s and reader %s have different names", describe(w), describe(r))
			}
			if w.nm().size != r.nm().size {
				return nil, incompat(p, w, r, "writer %s has size %d, reader %s has size %d", describe(w), w.nm().size, describe(r), r.nm().size)
			}
		case Array, Map:
			seg := "items"
			kind := ActionArray
			if w.kind == Map {
				seg, kind = "values", ActionMap
			}
			ep := p.child(seg)
			ea, errs := rs.resolve(w.elem, r.elem, &ep)
			if len(errs) > 0 {
				return nil, errs
			}
			return &Action{kind: kind, writer: w, reader: r, elem: ea}, nil
		}
		if decimalMismatch(w, r) {
			return nil, incompat(p, w, r, "writer %s and reader %s differ in precision or scale", describe(w), describe(r))
		}
		return &Action{kind: ActionSame, writer: w, reader: r}, nil
	}
	if promotable(w.kind, r.kind) {
		return &Action{kind: ActionPromote, writer: w, reader: r}, nil
	}
	return nil, incompat(p, w, r, "writer type %s cannot be read as %s", describe(w), describe(r))
}

// decimalMismatch applies "Decimal schemas also need the same scale and
// precision" when both sides are decimals.
func decimalMismatch(w, r *Schema) bool {
	return w.logical == Decimal && r.logical == Decimal && (w.ex().precision != r.ex().precision || w.ex().scale != r.ex().scale)
}

// promotable reports whether the specification's promotions turn a
// writer kind into a reader kind.
func promotable(w, r Kind) bool {
	switch w {
	case Int:
		return r == Long || r == Float || r == Double
	case Long:
		return r == Float || r == Double
	case Float:
		return r == Double
	case String:
		return r == Bytes
	case Bytes:
		return r == String
	}
	return false
}

// namesMatch applies M1 and A1 to named types: the same unqualified name,
// or a reader alias naming the writer by full name (Java) or by
// unqualified name (Python compares aliases as written).
func namesMatch(w, r *Schema) bool {
	if w.nm().name == r.nm().name {
		return true
	}
	for _, a := range r.nm().aliases {
		if a == w.nm().fullName {
			return true
		}
		if _, n := splitFullName(a); n == w.nm().name {
			return true
		}
	}
	return false
}

func (rs *resolver) writerUnion(w, r *Schema, p *rpath) (*Action, []*Incompatibility) {
	a := &Action{kind: ActionWriterUnion, writer: w, reader: r, branches: make([]*Action, len(w.branches))}
	readable := 0
	var all []*Incompatibility
	for i, b := range w.branches {
		ba, errs := rs.resolve(b, r, p)
		if len(errs) > 0 {
			if ba == nil || ba.kind != ActionError {
				ba = &Action{kind: ActionError, writer: b, reader: r, errs: errs}
			}
			all = append(all, errs...)
		} else {
			readable++
		}
		a.branches[i] = ba
	}
	if readable == 0 && len(w.branches) > 0 {
		return a, all
	}
	return a, nil
}

func (rs *resolver) readerUnion(w, r *Schema, p *rpath) (*Action, []*Incompatibility) {
	try := func(j int) *Action {
		bp := p.child(strconv.Itoa(j))
		ba, errs := rs.resolve(w, r.branches[j], &bp)
		if len(errs) > 0 {
			return nil
		}
		return &Action{kind: ActionReaderUnion, writer: w, reader: r, branch: j, elem: ba}
	}
	ix := rs.unions[r]
	if ix == nil {
		ix = newUnionIndex(r)
		if rs.unions == nil {
			rs.unions = map[*Schema]*unionIndex{}
		}
		rs.unions[r] = ix
	}
	for _, j := range ix.candidates(w, r) {
		if a := try(j); a != nil {
			return a, nil
		}
	}
	return nil, incompat(p, w, r, "no branch of the reader union can read writer type %s", describe(w))
}

func (rs *resolver) record(w, r *Schema, p *rpath) (*Action, []*Incompatibility) {
	if !namesMatch(w, r) {
		return nil, incompat(p, w, r, "writer %s and reader %s have different names", describe(w), describe(r))
	}
	key := pairKey{w, r}
	if a, ok := rs.memo[key]; ok {
		return a, a.errs
	}
	a := &Action{kind: ActionRecord, writer: w, reader: r, fields: make([]FieldAction, len(w.nm().fields))}
	rs.memo[key] = a
	for i, wf := range w.nm().fields {
		a.fields[i].Writer = wf
	}
	var errs []*Incompatibility
	fp := p.child("fields")
	for j, rf := range r.nm().fields {
		rp := fp.child(strconv.Itoa(j))
		wf := writerField(w, rf)
		if wf != nil && a.fields[wf.Index()].Reader != nil {
			wf = nil // already read into an earlier reader field
		}
		if wf == nil {
			if rf.dflt != nil {
				a.defaults = append(a.defaults, rf)
			} else {
				errs = append(errs, incompat(&rp, w, r, "reader field %q has no default and the writer %s has no such field", rf.name, describe(w))...)
			}
			continue
		}
		tp := rp.child("type")
		fa, ferrs := rs.resolve(wf.typ, rf.typ, &tp)
		errs = append(errs, ferrs...)
		a.fields[wf.Index()].Reader = rf
		a.fields[wf.Index()].Action = fa
	}
	if len(errs) > 0 {
		// Actions that already closed a cycle through a point at this
		// one: they now fail when they reach it. The fields are kept so
		// that CheckCompatibility can list what lies below.
		a.kind = ActionError
		a.errs = errs
		return a, errs
	}
	return a, nil
}

// writerField finds the writer field that a reader field reads: the one
// with its name, else one named by a reader field alias (M3, A1).
func writerField(w *Schema, rf *Field) *Field {
	if f := w.Field(rf.name); f != nil {
		return f
	}
	for _, al := range rf.Aliases() {
		if f := w.Field(al); f != nil {
			return f
		}
	}
	return nil
}

func (rs *resolver) enum(w, r *Schema, p *rpath) (*Action, []*Incompatibility) {
	if !namesMatch(w, r) {
		return nil, incompat(p, w, r, "writer %s and reader %s have different names", describe(w), describe(r))
	}
	a := &Action{kind: ActionEnum, writer: w, reader: r, symbols: make([]int, len(w.en().symbols))}
	def := -1
	if r.en().hasEnumDefault {
		def = r.SymbolIndex(r.en().enumDefault)
	}
	var missing []string
	for i, sym := range w.en().symbols {
		j := r.SymbolIndex(sym)
		if j < 0 {
			j = def
			if j < 0 {
				missing = append(missing, strconv.Quote(sym))
			}
		}
		a.symbols[i] = j
	}
	if len(missing) > 0 {
		sp := p.child("symbols")
		a.missing = incompat(&sp, w, r, "writer symbols %s are not in reader %s, which has no default", strings.Join(missing, ", "), describe(r))[0]
	}
	return a, nil
}
