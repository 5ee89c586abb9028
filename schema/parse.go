package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// MaxFixedSize is the largest size a fixed type may declare. A fixed value
// is held in memory whole, and decoders allocate its size up front, so a
// schema that declares a fixed of 2^40 bytes is rejected here rather than
// left for a decoder to die on.
const MaxFixedSize = math.MaxInt32

// Parse parses an Avro schema from its JSON text: a type name ("int", or a
// named type defined earlier in the same text), an object
// ({"type": ...}), or an array (a union). See the package documentation
// for the rules it enforces. A rejected schema yields an *Error that
// locates the problem. Parse uses the default limits of ParseOptions.
func Parse(text string) (*Schema, error) {
	s, _, err := parseTextState(&ParseOptions{}, text, nil)
	return s, err
}

// MustParse is like Parse but panics if the schema is invalid. It is meant
// for schemas that are constants of the program.
func MustParse(text string) *Schema {
	s, err := Parse(text)
	if err != nil {
		panic("schema.MustParse: " + err.Error())
	}
	return s
}

// parseState is the state of parsing one schema text.
type parseState struct {
	// global holds the named types of earlier texts (Parser), read-only.
	global map[string]*Schema
	// local holds the named types defined so far in this text.
	local map[string]*Schema
	// defined records the full names defined in this text that are not
	// in local, being definitions that resolved to an identical earlier
	// one (Parser), so that a second definition in the same text is
	// still an error.
	defined map[string]bool
	// added lists the names in local in definition order, for a Parser
	// (global is not nil) to commit.
	added []string
	// steps counts default-validation work, up to maxSteps (see
	// ParseOptions.MaxDefaultSteps).
	steps, maxSteps int64
	// defSize is what the defaults checked so far add up to, up to
	// maxDefSize (see ParseOptions.MaxDefaultSize); values counts the
	// values of the default being checked.
	defSize, maxDefSize int64
	values              int64
	// paths is the chunk the paths handed down the recursion come from
	// (see key).
	paths []path
	// defaults are the field defaults still to check, in the order of
	// the text: they are checked once every type is complete, since a
	// default may hold a value of the record it belongs to. A field's
	// pending indexes them, for a record default that leaves a field out
	// and so takes that field's default, which may not be checked yet.
	defaults []pendingDefault
	// defPaths and checking are the paths of the defaults being checked
	// (see checkDefault) and how many checks are under way.
	defPaths []*[2]path
	checking int
	// nodes and namedNodes count the nodes made for this text and the named
	// among them, for finish to size its tables once.
	nodes, namedNodes int
	// namedHint is about the number of named types the text defines, as
	// the decoder counted them, to size local once.
	namedHint int
	// dfltSlab is the chunk new defaults are cut from, and dfltLeft
	// bounds the defaults still to come (see newDefault).
	dfltSlab []fieldDefault
	dfltLeft int
	// buf is scratch space for the text of props (see propList.add).
	buf []byte
	// sharedDefaults are the defaults that fields share (see
	// sharedDefault).
	sharedDefaults map[defaultKey]*fieldDefault
	// unions holds the unions of this text whose branches are all plain
	// primitives, by their branch kinds (see primitiveUnion).
	unions map[uint64]*Schema
	// unicodeNames admits names of Unicode letters and digits
	// (ParseOptions.UnicodeNames).
	unicodeNames bool
}

// pendingDefault is a field's default, kept until the text is parsed.
type pendingDefault struct {
	// f is the field; the default is its copy of the JSON (defJSON).
	f *Field
	// fields is the path of the field's record's "fields": the path of
	// the default, fields[i].default, is built from it when the default
	// is checked, so that a field costs no path of its own.
	fields *path
	state  defaultState
}

type defaultState uint8

const (
	defaultPending defaultState = iota
	defaultChecking
	defaultChecked
)

// queueDefault keeps field f's default v to check once the text is
// parsed. The JSON is set now: String, which compares a repeated
// definition with the earlier one (Parser), must see it.
func (st *parseState) queueDefault(f *Field, v any, fields *path) {
	f.dflt = st.sharedDefault(f.typ, v)
	if f.dflt == nil {
		f.dflt = st.newDefault(cloneJSON(v))
	}
	st.defaults = append(st.defaults, pendingDefault{f: f, fields: fields})
	f.pending = int32(len(st.defaults))
}

// newDefault returns a new default whose JSON is v. Defaults are cut
// from chunks, no longer than the number of "default" members the
// decoder counted and that are not taken yet, so that a text of many
// defaults makes few allocations for them and a text of few no waste.
func (st *parseState) newDefault(v any) *fieldDefault {
	if len(st.dfltSlab) == cap(st.dfltSlab) {
		st.dfltSlab = make([]fieldDefault, 0, max(1, min(slabChunk(cap(st.dfltSlab), 1), st.dfltLeft)))
	}
	st.dfltLeft--
	st.dfltSlab = append(st.dfltSlab, fieldDefault{json: v})
	return &st.dfltSlab[len(st.dfltSlab)-1]
}

// defaultKey identifies a default that fields can share: its type, a
// node that is itself shared (published before this text ends), and its
// JSON value, a scalar from a small set.
type defaultKey struct {
	typ *Schema
	v   any
}

// sharedDefault returns the default v of type typ that fields share, or
// nil when v is not one that is shared. Only types shared already and a
// few values are shared, so that the table stays small: at most a dozen
// entries for each such type.
func (st *parseState) sharedDefault(typ *Schema, v any) *fieldDefault {
	if !typ.published {
		return nil
	}
	switch x := v.(type) {
	case nil, bool:
	case json.Number:
		if len(x) != 1 {
			return nil
		}
	case string:
		if x != "" {
			return nil
		}
	default:
		return nil
	}
	k := defaultKey{typ, v}
	if d := st.sharedDefaults[k]; d != nil {
		return d
	}
	if st.sharedDefaults == nil {
		st.sharedDefaults = map[defaultKey]*fieldDefault{}
	}
	d := st.newDefault(v)
	st.sharedDefaults[k] = d
	return d
}

// checkDefault checks default i and sets the field's value and encoding,
// once.
func (st *parseState) checkDefault(i int) error {
	d := &st.defaults[i]
	switch d.state {
	case defaultChecked:
		return nil
	case defaultChecking:
		fp := d.fields.elem(int(d.f.index))
		dp := fp.key("default")
		return dp.errorf("the default needs itself: a record default in it leaves this field out")
	}
	if d.f.dflt.checked {
		// A shared default, checked for another field: this one adds
		// its expansion to the text's all the same.
		d.state = defaultChecked
		fd := d.f.dflt
		if size := fd.values + int64(len(fd.binary)); size <= st.maxDefSize-st.defSize {
			st.defSize += size
			return nil
		}
		fp := d.fields.elem(int(d.f.index))
		dp := fp.key("default")
		return st.tooLarge(&dp)
	}
	d.state = defaultChecking
	// The paths of the defaults being checked, one pair for each level
	// of checks within checks, serve every default checked at that level:
	// a path is read only to report an error, at once.
	if st.checking == len(st.defPaths) {
		st.defPaths = append(st.defPaths, new([2]path))
	}
	pp := st.defPaths[st.checking]
	pp[0] = d.fields.elem(int(d.f.index))
	pp[1] = pp[0].key("default")
	st.checking++
	err := st.setDefault(d.f, d.f.dflt.json, &pp[1])
	st.checking--
	d.state = defaultChecked
	return err
}

// fieldDefault makes sure field f's default is checked (it is pending
// when f belongs to this text).
func (st *parseState) fieldDefault(f *Field) error {
	if f.pending > 0 {
		return st.checkDefault(int(f.pending) - 1)
	}
	return nil
}

// key returns the path of attribute name under p, and elem that of item i.
// A path handed down the recursive parser must be on the heap (the escape
// analysis cannot keep a linked list that grows through recursion on the
// stack), so these come from chunks allocated a few at a time, instead of
// one allocation per attribute parsed. Paths that only name an error stay
// p.key and p.elem, on the stack.
func (st *parseState) key(p *path, name string) *path {
	return st.newPath(path{up: p, name: name})
}

func (st *parseState) elem(p *path, index int) *path {
	return st.newPath(path{up: p, index: index})
}

func (st *parseState) newPath(q path) *path {
	if len(st.paths) == cap(st.paths) {
		// A new chunk, not a grown one: the paths handed out keep
		// pointing into the old.
		st.paths = make([]path, 0, slabChunk(cap(st.paths), 1))
	}
	st.paths = append(st.paths, q)
	return &st.paths[len(st.paths)-1]
}

// parseTextState parses one text; global holds the named types that
// earlier texts of a Parser defined. The names defined by the text are in
// the returned state's local map, which the caller merges on success.
func parseTextState(o *ParseOptions, text string, global map[string]*Schema) (*Schema, *parseState, error) {
	if len(text) > o.maxSize() {
		return nil, nil, &Error{Msg: fmt.Sprintf("schema text of %d bytes exceeds the limit of %d (ParseOptions.MaxSize)", len(text), o.maxSize()), Err: ErrLimit}
	}
	v, counts, err := decodeJSON(text)
	if err != nil {
		return nil, nil, err
	}
	st := &parseState{
		global: global, paths: make([]path, 0, min(counts.nests+2, maxSlabChunk)),
		defaults:  make([]pendingDefault, 0, counts.defaults),
		dfltLeft:  counts.defaults,
		namedHint: counts.named,
		maxSteps:  o.maxDefaultSteps(len(text)), maxDefSize: o.maxDefaultSize(len(text)),
		unicodeNames: o.UnicodeNames,
	}
	s, err := st.parse(v, "", st.key(nil, ""))
	if err != nil {
		return nil, nil, err
	}
	for i := range st.defaults {
		if err := st.checkDefault(i); err != nil {
			return nil, nil, err
		}
	}
	// The index means nothing to the texts a Parser parses next.
	for i := range st.defaults {
		st.defaults[i].f.pending = 0
	}
	finish(s, len(text), st.nodes, st.namedNodes)
	return s, st, nil
}

func (st *parseState) lookup(full string) *Schema {
	if s, ok := st.local[full]; ok {
		return s
	}
	return st.global[full]
}

// parse parses one schema value; ns is the enclosing namespace.
func (st *parseState) parse(v any, ns string, p *path) (*Schema, error) {
	switch v := v.(type) {
	case string:
		return st.reference(v, ns, p)
	case []any:
		return st.union(v, ns, p)
	case *object:
		return st.object(v, ns, p)
	}
	return nil, p.errorf(fmt.Sprintf("a schema must be a type name, an object or an array (union), not %s", jsonKind(v)))
}

// reference resolves a type name: a primitive, or a named type defined
// earlier. An undotted name is looked up in the enclosing namespace first
// and then in the null namespace, as the Java implementation does, so
// that a type of the null namespace stays reachable from inside a
// namespace.
func (st *parseState) reference(name string, ns string, p *path) (*Schema, error) {
	if k, ok := primitiveKinds[name]; ok {
		return primitives[k], nil
	}
	full := qualify(name, ns)
	if s := st.lookup(full); s != nil {
		return s, nil
	}
	if full != name {
		if s := st.lookup(name); s != nil {
			return s, nil
		}
	}
	return nil, &Error{Path: p.String(), Msg: st.unknownTypeMsg(name, ns), undefined: full}
}

// unionScanMax is the number of branches up to which a union's
// duplicates are found by comparing each branch with those before it;
// past it, by a set (a header with 80,000 branches took seconds).
const unionScanMax = 16

// branchKey identifies a union branch for the duplicate check: its kind
// and FullName (the kind's name for unnamed types).
type branchKey struct {
	kind     Kind
	fullName string
}

// primitiveUnion returns the key of a union whose branches are distinct
// primitive type names, or false. Such a union has nothing of its own (no
// attributes, no named types), so one node serves every use of it in a
// text, as one node serves every plain primitive: a million nullable
// fields are then a million fields, not a million unions too.
func primitiveUnion(arr []any) (uint64, bool) {
	if len(arr) == 0 || len(arr) > len(primitiveMinSize) {
		return 0, false
	}
	var key uint64
	var kinds uint16
	for _, bv := range arr {
		name, ok := bv.(string)
		if !ok {
			return 0, false
		}
		k, ok := primitiveKinds[name]
		if !ok || kinds&(1<<k) != 0 {
			return 0, false // duplicates get the error of the slow path
		}
		kinds |= 1 << k
		key = key<<4 | uint64(k+1)
	}
	return key, true
}

// sharedUnion returns the node of v when v is a union of primitives that
// this text has already used (see primitiveUnion), else nil.
func (st *parseState) sharedUnion(v any) *Schema {
	arr, ok := v.([]any)
	if !ok || st.unions == nil {
		return nil
	}
	if key, ok := primitiveUnion(arr); ok {
		return st.unions[key]
	}
	return nil
}

func (st *parseState) union(arr []any, ns string, p *path) (*Schema, error) {
	key, shared := primitiveUnion(arr)
	if shared {
		if s := st.unions[key]; s != nil {
			return s, nil
		}
	}
	var s *Schema
	if len(arr) == 2 {
		// The common union, ["null", T]: node and branches in one
		// allocation.
		u := &union2{Schema: Schema{kind: Union, minSize: 1}}
		s = &u.Schema
		s.branches = u.branches[:0:2]
	} else {
		s = &Schema{kind: Union, minSize: 1, branches: make([]*Schema, 0, len(arr))}
	}
	st.nodes++
	if shared {
		for _, bv := range arr {
			s.branches = append(s.branches, primitives[primitiveKinds[bv.(string)]])
		}
		// Its form is known now; published, it gets no span of the
		// canonical text per use.
		w := canonWriter{lazy: true}
		w.body(s)
		s.canonical, s.published = w.b.String(), true
		if st.unions == nil {
			st.unions = map[uint64]*Schema{}
		}
		st.unions[key] = s
		return s, nil
	}
	var seen map[branchKey]bool
	for i, bv := range arr {
		var b *Schema
		var err error
		if name, ok := bv.(string); ok {
			// A type name needs its path only for an error: it stays
			// on the stack.
			bp := p.elem(i)
			b, err = st.reference(name, ns, &bp)
		} else {
			b, err = st.parse(bv, ns, st.elem(p, i))
		}
		if err != nil {
			return nil, err
		}
		if b.kind == Union {
			bp := p.elem(i)
			return nil, bp.errorf("a union may not directly contain a union")
		}
		if seen == nil && len(s.branches) >= unionScanMax {
			seen = make(map[branchKey]bool, len(arr))
			for _, prev := range s.branches {
				seen[branchKey{prev.kind, prev.FullName()}] = true
			}
		}
		dup := false
		if seen != nil {
			k := branchKey{b.kind, b.FullName()}
			dup, seen[k] = seen[k], true
		} else {
			for _, prev := range s.branches {
				dup = dup || prev.kind == b.kind && prev.FullName() == b.FullName()
			}
		}
		if dup {
			bp := p.elem(i)
			return nil, bp.errorf(fmt.Sprintf("duplicate union branch %q", b.FullName()))
		}
		s.branches = append(s.branches, b)
	}
	return s, nil
}

// union2 is a union of two branches and its list of them.
type union2 struct {
	Schema
	branches [2]*Schema
}

// Attributes that the grammar defines; all others become props.
var (
	namedAttrs  = map[string]bool{"type": true, "doc": true, "name": true, "namespace": true, "aliases": true}
	recordAttrs = map[string]bool{"fields": true}
	enumAttrs   = map[string]bool{"symbols": true, "default": true}
	fixedAttrs  = map[string]bool{"size": true}
	fieldAttrs  = map[string]bool{"name": true, "type": true, "doc": true, "default": true, "order": true, "aliases": true}
)

func (st *parseState) object(o *object, ns string, p *path) (*Schema, error) {
	tv, ok := o.get("type")
	if !ok {
		return nil, p.errorf(`missing "type"`)
	}
	t, ok := tv.(string)
	if !ok {
		tp := p.key("type")
		return nil, tp.errorf(fmt.Sprintf("must be a type name string, not %s", jsonKind(tv)))
	}
	var s *Schema
	var kindAttrs map[string]bool
	switch t {
	case "record", "error", "enum", "fixed":
		return st.named(o, t, ns, p)
	case "array", "map":
		key := "items"
		s = &Schema{kind: Array, minSize: 1}
		st.nodes++
		if t == "map" {
			key, s.kind = "values", Map
		}
		ev, ok := o.get(key)
		if !ok {
			return nil, p.errorf(fmt.Sprintf("%s without %q", t, key))
		}
		var elem *Schema
		var err error
		if name, ok := ev.(string); ok {
			ep := p.key(key) // on the stack, as in union
			elem, err = st.reference(name, ns, &ep)
		} else {
			elem, err = st.parse(ev, ns, st.key(p, key))
		}
		if err != nil {
			return nil, err
		}
		s.elem = elem
		kindAttrs = map[string]bool{key: true}
	default:
		k, ok := primitiveKinds[t]
		if !ok {
			// {"type": "Name"} refers to a named type, as Java and
			// Python accept; the node is shared, so other attributes
			// cannot be attached to it and are ignored, except a
			// "namespace" to resolve the name in (String writes
			// {"type":"Name","namespace":""} to reach a type of the null
			// namespace that a type of the enclosing one shadows).
			tp := p.key("type")
			if nsv, ok := o.get("namespace"); ok {
				if nss, ok := nsv.(string); ok {
					ns = nss
				}
			}
			return st.reference(t, ns, &tp)
		}
		if len(o.members) == 1 {
			return primitives[k], nil
		}
		s = &Schema{kind: k, minSize: int32(primitiveMinSize[k])}
		st.nodes++
	}
	if err := st.attributes(s, o, kindAttrs, p); err != nil {
		return nil, err
	}
	return s, nil
}

// attributes sets doc, the logical type and the props of s from the
// attributes of o that are not in the type's grammar (known).
func (st *parseState) attributes(s *Schema, o *object, known map[string]bool, p *path) error {
	if dv, ok := o.get("doc"); ok {
		d, ok := dv.(string)
		if !ok {
			dp := p.key("doc")
			return dp.errorf(fmt.Sprintf("must be a string, not %s", jsonKind(dv)))
		}
		if d != "" {
			s.more().doc = d
		}
	}
	consumed := setLogical(s, o)
	isProp := func(k string) bool { return k != "type" && k != "doc" && !known[k] && !consumed[k] }
	n := 0
	for _, m := range o.members {
		if isProp(m.key) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	x := s.more()
	x.props.raw = make([]rawProp, 0, n)
	for _, m := range o.members {
		if isProp(m.key) {
			x.props.add(&st.buf, m.key, m.val)
		}
	}
	return nil
}

// named parses a record, error, enum or fixed definition.
func (st *parseState) named(o *object, t string, enclosing string, p *path) (*Schema, error) {
	nv, ok := o.get("name")
	if !ok {
		return nil, p.errorf(fmt.Sprintf("%s without \"name\"", t))
	}
	np := p.key("name")
	name, ok := nv.(string)
	if !ok {
		return nil, np.errorf(fmt.Sprintf("must be a string, not %s", jsonKind(nv)))
	}
	var ns, short string
	if dot := lastDot(name); dot >= 0 {
		// A dotted name is the full name; "namespace" is ignored (N3).
		ns, short = splitFullName(name)
		if !st.validNamespace(ns) || !st.validName(short) {
			return nil, np.errorf(fmt.Sprintf("invalid name %q", name))
		}
	} else {
		short, ns = name, enclosing
		if nsv, ok := o.get("namespace"); ok && nsv != nil {
			nsp := p.key("namespace")
			nss, ok := nsv.(string)
			if !ok {
				return nil, nsp.errorf(fmt.Sprintf("must be a string, not %s", jsonKind(nsv)))
			}
			if !st.validNamespace(nss) {
				return nil, nsp.errorf(fmt.Sprintf("invalid namespace %q", nss))
			}
			ns = nss
		}
		if !st.validName(short) {
			return nil, np.errorf(fmt.Sprintf("invalid name %q", name))
		}
	}
	full := qualify(short, ns)
	if _, ok := primitiveKinds[full]; ok {
		return nil, np.errorf(fmt.Sprintf("cannot redefine primitive type %q", full))
	}
	if st.local[full] != nil || st.defined[full] {
		return nil, np.errorf(fmt.Sprintf("duplicate definition of %q", full))
	}
	var s *Schema
	if t == "enum" {
		es := &enumSchema{namedSchema: namedSchema{parts: namedParts{name: short, namespace: ns, fullName: full}}}
		es.parts.enum = &es.enum
		s = &es.Schema
		s.named = &es.parts
	} else {
		n := &namedSchema{parts: namedParts{name: short, namespace: ns, fullName: full}}
		s = &n.Schema
		s.named = &n.parts
	}
	st.nodes++
	st.namedNodes++
	if st.local == nil {
		st.local = make(map[string]*Schema, st.namedHint)
	}
	// Register before the body so that the body can refer to the type
	// (recursion): the reference gets this very node, making a cycle.
	st.local[full] = s
	mark := len(st.added)
	if st.global != nil {
		st.added = append(st.added, full)
	}

	if av, ok := o.get("aliases"); ok {
		ap := p.key("aliases")
		aliases, err := stringList(av, &ap)
		if err != nil {
			return nil, err
		}
		for i, a := range aliases {
			if a == "" {
				ep := ap.elem(i)
				return nil, ep.errorf("empty alias")
			}
			// Relative aliases are in the namespace of the type (A2).
			// The list is new: it takes the full names in place.
			aliases[i] = qualify(a, ns)
		}
		s.named.aliases = aliases
	}
	var err error
	switch t {
	case "record", "error":
		s.kind, s.isError = Record, t == "error"
		err = st.record(s, o, p)
	case "enum":
		s.kind, s.minSize = Enum, 1
		err = st.enum(s, o, p)
	case "fixed":
		s.kind = Fixed
		err = st.fixed(s, o, p)
	}
	if err != nil {
		return nil, err
	}
	if err := st.attributes(s, o, namedGrammar[t], p); err != nil {
		return nil, err
	}

	// A Parser accepts a definition of a name that an earlier text defined
	// when both are the same (one .avsc per type often repeats the types it
	// uses); the earlier node is used, so all texts share one node.
	if old := st.global[full]; old != nil {
		if old.String() != s.String() {
			return nil, np.errorf(fmt.Sprintf("%q is already defined differently", full))
		}
		if st.defined == nil {
			st.defined = make(map[string]bool)
		}
		for _, n := range st.added[mark:] {
			delete(st.local, n)
			st.defined[n] = true
		}
		st.added = st.added[:mark]
		return old, nil
	}
	return s, nil
}

// namedGrammar is the full set of grammar attributes for each named kind.
var namedGrammar = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for t, extra := range map[string]map[string]bool{"record": recordAttrs, "error": recordAttrs, "enum": enumAttrs, "fixed": fixedAttrs} {
		set := map[string]bool{}
		for k := range namedAttrs {
			set[k] = true
		}
		for k := range extra {
			set[k] = true
		}
		m[t] = set
	}
	return m
}()

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

func (st *parseState) record(s *Schema, o *object, p *path) error {
	fv, ok := o.get("fields")
	if !ok {
		return p.errorf(`record without "fields"`)
	}
	fp := st.key(p, "fields")
	list, ok := fv.([]any)
	if !ok {
		return fp.errorf(fmt.Sprintf("must be an array, not %s", jsonKind(fv)))
	}
	s.named.fields = make([]*Field, 0, len(list))
	s.named.fieldTable = newFieldTable(len(list))
	// The sum is kept aside until the end: a field that refers back to
	// the record must see 0, not a partial sum (MinEncodedSize is a lower
	// bound).
	minSize := 0
	// The fields are cut from one slab: a record of a million fields is
	// one allocation for them, not a million.
	slab := make([]Field, len(list))
	for i, v := range list {
		f, err := st.field(s, &slab[i], v, i, fp)
		if err != nil {
			return err
		}
		s.named.fields = append(s.named.fields, f)
		s.addField()
		// Clamped so that it cannot overflow an int on 32-bit platforms
		// (a record of many huge fixed types); still a lower bound.
		minSize = min(minSize+int(f.typ.minSize), math.MaxInt32)
	}
	s.minSize = int32(minSize)
	return nil
}

// field parses item index of a record's fields, whose path is fields,
// into f. The
// field's own path stays on the stack unless its type needs it on the heap.
func (st *parseState) field(rec *Schema, f *Field, v any, index int, fields *path) (*Field, error) {
	fp := fields.elem(index)
	p := &fp
	o, ok := v.(*object)
	if !ok {
		return nil, p.errorf(fmt.Sprintf("a field must be an object, not %s", jsonKind(v)))
	}
	nv, ok := o.get("name")
	if !ok {
		return nil, p.errorf(`field without "name"`)
	}
	np := p.key("name")
	name, ok := nv.(string)
	if !ok {
		return nil, np.errorf(fmt.Sprintf("must be a string, not %s", jsonKind(nv)))
	}
	if !st.validName(name) {
		return nil, np.errorf(fmt.Sprintf("invalid field name %q", name))
	}
	if rec.fieldIndex(name) >= 0 {
		return nil, np.errorf(fmt.Sprintf("duplicate field name %q", name))
	}
	tv, ok := o.get("type")
	if !ok {
		return nil, p.errorf(fmt.Sprintf("field %q without \"type\"", name))
	}
	var typ *Schema
	var err error
	if tname, ok := tv.(string); ok {
		tp := p.key("type") // on the stack, as in union
		typ, err = st.reference(tname, rec.nm().namespace, &tp)
	} else if shared := st.sharedUnion(tv); shared != nil {
		typ = shared // it needs no path
	} else {
		typ, err = st.parse(tv, rec.nm().namespace, st.key(st.newPath(fp), "type"))
	}
	if err != nil {
		return nil, err
	}
	*f = Field{name: name, typ: typ, index: int32(index)}
	if dv, ok := o.get("doc"); ok {
		dp := p.key("doc")
		doc, ok := dv.(string)
		if !ok {
			return nil, dp.errorf(fmt.Sprintf("must be a string, not %s", jsonKind(dv)))
		}
		if doc != "" {
			f.more().doc = doc
		}
	}
	if ov, ok := o.get("order"); ok {
		op := p.key("order")
		switch ov {
		case "ascending":
			f.order = Ascending
		case "descending":
			f.order = Descending
		case "ignore":
			f.order = Ignore
		default:
			return nil, op.errorf(fmt.Sprintf(`must be "ascending", "descending" or "ignore", not %s`, jsonText(ov)))
		}
	}
	if av, ok := o.get("aliases"); ok {
		ap := p.key("aliases")
		aliases, err := stringList(av, &ap)
		if err != nil {
			return nil, err
		}
		if aliases != nil {
			f.more().aliases = aliases
		}
	}
	if dv, ok := o.get("default"); ok {
		st.queueDefault(f, dv, fields)
	}
	n := 0
	for _, m := range o.members {
		if !fieldAttrs[m.key] {
			n++
		}
	}
	if n > 0 {
		x := f.more()
		x.props.raw = make([]rawProp, 0, n)
		for _, m := range o.members {
			if !fieldAttrs[m.key] {
				x.props.add(&st.buf, m.key, m.val)
			}
		}
	}
	return f, nil
}

// more returns the field's extra attributes, making them on first use.
func (f *Field) more() *fieldExtra {
	if f.extra == nil {
		f.extra = &fieldExtra{}
	}
	return f.extra
}

func (st *parseState) enum(s *Schema, o *object, p *path) error {
	sv, ok := o.get("symbols")
	if !ok {
		return p.errorf(`enum without "symbols"`)
	}
	sp := p.key("symbols")
	symbols, err := stringList(sv, &sp)
	if err != nil {
		return err
	}
	if len(symbols) > scanSymbols {
		s.named.enum.symbolIndex = make(map[string]int, len(symbols))
	}
	for i, sym := range symbols {
		ip := sp.elem(i)
		if !st.validName(sym) {
			return ip.errorf(fmt.Sprintf("invalid enum symbol %q", sym))
		}
		s.named.enum.symbols = symbols[:i]
		if s.symbolPos(sym) >= 0 {
			return ip.errorf(fmt.Sprintf("duplicate enum symbol %q", sym))
		}
		if s.en().symbolIndex != nil {
			s.named.enum.symbolIndex[sym] = i
		}
	}
	s.named.enum.symbols = symbols
	if dv, ok := o.get("default"); ok {
		dp := p.key("default")
		d, ok := dv.(string)
		if !ok {
			return dp.errorf(fmt.Sprintf("must be a string, not %s", jsonKind(dv)))
		}
		if s.symbolPos(d) < 0 {
			return dp.errorf(fmt.Sprintf("enum default %q is not a symbol", d))
		}
		s.named.enum.enumDefault, s.named.enum.hasEnumDefault = d, true
	}
	return nil
}

func (st *parseState) fixed(s *Schema, o *object, p *path) error {
	sv, ok := o.get("size")
	if !ok {
		return p.errorf(`fixed without "size"`)
	}
	sp := p.key("size")
	n, ok := sv.(json.Number)
	if !ok {
		return sp.errorf(fmt.Sprintf("must be an integer, not %s", jsonKind(sv)))
	}
	size, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || size < 0 || size > MaxFixedSize {
		return sp.errorf(fmt.Sprintf("must be an integer from 0 to %d, not %s", MaxFixedSize, n))
	}
	s.named.size = int(size)
	s.minSize = int32(s.named.size)
	return nil
}

// stringList decodes a JSON array of strings.
func stringList(v any, p *path) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, p.errorf(fmt.Sprintf("must be an array of strings, not %s", jsonKind(v)))
	}
	if len(arr) == 0 {
		return nil, nil
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			ep := p.elem(i)
			return nil, ep.errorf(fmt.Sprintf("must be a string, not %s", jsonKind(e)))
		}
		out[i] = s
	}
	return out, nil
}

// jsonKind names the JSON type of a decoded value, for messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case *object:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// jsonText renders a decoded value for a message, shortened.
func jsonText(v any) string {
	b := appendJSON(nil, v)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// primitives are the shared nodes of the plain primitive types: "int" and
// {"type":"int"} with no other attribute parse to the same immutable node,
// which saves an allocation (and a canonical form) per use.
var primitives [Fixed + 1]*Schema

var primitiveMinSize = [...]int{Null: 0, Boolean: 1, Int: 1, Long: 1, Float: 4, Double: 8, Bytes: 1, String: 1}

func init() {
	for name, k := range primitiveKinds {
		s := &Schema{kind: k, minSize: int32(primitiveMinSize[k])}
		s.canonical = `"` + name + `"`
		s.published = true
		s.Fingerprint()
		primitives[k] = s
	}
}
