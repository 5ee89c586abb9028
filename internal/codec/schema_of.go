package codec

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/avrogo/avro/schema"
)

// SchemaOptions are the options of SchemaOf.
type SchemaOptions struct {
	// Namespace is the namespace of every named type of the schema that
	// is not named otherwise (by Register, or by a dotted name).
	Namespace string
	// Name names the root record (or fixed) instead of its Go type's
	// name; it may be a dotted full name.
	Name string
}

type schemaOfKey struct {
	t reflect.Type
	o SchemaOptions
}

// schemaOfCache holds the schemas SchemaOf derived, by type and options.
// Errors are not kept: a later Register may make a type expressible.
var schemaOfCache sync.Map // schemaOfKey -> *schema.Schema

// SchemaOf returns the schema of Go type t, by the mapping Marshal and
// Unmarshal use (see the package doc of avro).
func SchemaOf(t reflect.Type, o SchemaOptions) (*schema.Schema, error) {
	key := schemaOfKey{t, o}
	if s, ok := schemaOfCache.Load(key); ok {
		return s.(*schema.Schema), nil
	}
	d := newDeriver(o.Namespace)
	n, err := d.typeNode(t, &fieldTag{typeName: o.Name}, "")
	if err != nil {
		return nil, err
	}
	s, err := d.build(n, t)
	if err != nil {
		return nil, err
	}
	actual, _ := schemaOfCache.LoadOrStore(key, s)
	return actual.(*schema.Schema), nil
}

// fieldSchemaOf returns the schema SchemaOf gives a Go field on its own,
// to read its tag's default: an unsigned integer reads its default as a
// long, whose range Marshal checks, without asking for the long option.
func fieldSchemaOf(gf goField, path string) (*schema.Schema, error) {
	d := newDeriver("")
	d.unsignedAsLong = true
	n, err := d.typeNode(gf.typ, &gf.tag, path)
	if err != nil {
		return nil, err
	}
	return d.build(n, gf.typ)
}

// deriver derives the schema node of one Go type tree.
type deriver struct {
	ns string
	// defined holds the full name of each named type already defined in
	// the tree, by Go type and the name a tag asked for, so that later
	// uses, and recursive ones, refer to it by name.
	defined map[definedKey]string
	taken   map[string]bool
	// zeros are the fields tagged omitzero without a default, whose
	// default is the encoding of their Go zero value, computed once the
	// schema is built.
	zeros []zeroField
	// registered maps registered Go types to their full names.
	registered map[reflect.Type]string
	// unsignedAsLong maps the unsigned integers that a long does not hold
	// to long without the long option.
	unsignedAsLong bool
}

type definedKey struct {
	t    reflect.Type
	name string
}

type zeroField struct {
	record string // full name of the record
	field  *schema.FieldNode
	t      reflect.Type
	path   string
}

func newDeriver(ns string) *deriver {
	d := &deriver{ns: ns, defined: map[definedKey]string{}, taken: map[string]bool{}, registered: map[reflect.Type]string{}}
	rangeRegistered(func(name string, t reflect.Type) {
		if old, ok := d.registered[t]; !ok || name < old {
			d.registered[t] = name
		}
	})
	return d
}

// build parses the schema of n, filling in the zero-value defaults of
// omitzero fields first.
func (d *deriver) build(n schema.Node, t reflect.Type) (*schema.Schema, error) {
	s, err := n.Schema()
	if err != nil {
		return nil, &TypeError{GoType: t.String(), Detail: "its schema does not parse: " + err.Error()}
	}
	if len(d.zeros) == 0 {
		return s, nil
	}
	named := map[string]*schema.Schema{}
	for _, n := range s.NamedTypes() {
		named[n.FullName()] = n
	}
	for _, z := range d.zeros {
		f := named[z.record].Field(z.field.Name)
		text, err := zeroDefault(f.Type(), z.t, z.path)
		if err != nil {
			return nil, err
		}
		z.field.Default, z.field.HasDefault = json.RawMessage(text), true
	}
	d.zeros = nil
	return d.build(n, t)
}

var (
	binaryMarshaler = reflect.TypeFor[encoding.BinaryMarshaler]()
	binaryUnmarshal = reflect.TypeFor[encoding.BinaryUnmarshaler]()
)

// noSchema is the error for a Go type that has no Avro type.
func noSchema(path string, t reflect.Type, detail string) error {
	return &TypeError{Path: path, GoType: t.String(), Detail: detail}
}

func prim(name string) schema.Node { return schema.Node{Type: name} }

// typeNode returns the schema node of Go type t, with the options of the
// tag of the field that holds it.
func (d *deriver) typeNode(t reflect.Type, tag *fieldTag, path string) (schema.Node, error) {
	if n, ok, err := d.customNode(t, tag, path); ok || err != nil {
		return n, err
	}
	if tag.logical != schema.NoLogical {
		return d.logicalNode(t, tag, path)
	}
	if tag.long {
		return d.longNode(t, tag, path)
	}
	switch {
	case t == anyType:
		return schema.Node{}, noSchema(path, t, "an empty interface holds values of any schema, so it has none: use a concrete type, or an interface whose types are registered with avro.Register")
	case isValueType(t):
		return schema.Node{}, noSchema(path, t, "a generic value holds values of any schema, so it has none")
	case t == timeType:
		return schema.Node{Type: "long", Logical: "timestamp-micros"}, nil
	case t == timeDurationType:
		return schema.Node{Type: "long", Logical: "time-micros"}, nil
	case t == ratType:
		return schema.Node{Type: "bytes", Logical: "big-decimal"}, nil
	case t == durationType:
		return d.named(t, tag, path, func(name string) (schema.Node, error) {
			return schema.Node{Type: "fixed", Name: name, Size: 12, Logical: "duration"}, nil
		})
	case isUUIDType(t):
		return schema.Node{Type: "string", Logical: "uuid"}, nil
	case t.Kind() == reflect.Pointer:
		return d.pointerNode(t, tag, path)
	case t.Kind() == reflect.Interface:
		return d.interfaceNode(t, path)
	case t.Kind() != reflect.String && implementsBoth(t, textMarshaler, textUnmarshaler):
		return prim("string"), nil
	case !isByteSeq(t) && implementsBoth(t, binaryMarshaler, binaryUnmarshal):
		return prim("bytes"), nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return prim("boolean"), nil
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		return prim("int"), nil
	case reflect.Int, reflect.Int64, reflect.Uint32:
		return prim("long"), nil
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		// A uint and a uintptr are refused on 32-bit platforms too, so
		// that a type has the same schema on every platform.
		if d.unsignedAsLong {
			return prim("long"), nil
		}
		return schema.Node{}, noSchema(path, t, unsignedAdvice(t, path))
	case reflect.Float32:
		return prim("float"), nil
	case reflect.Float64:
		return prim("double"), nil
	case reflect.String:
		return prim("string"), nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return prim("bytes"), nil
		}
		return d.arrayNode(t, tag, path)
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return d.named(t, tag, path, func(name string) (schema.Node, error) {
				return schema.Node{Type: "fixed", Name: name, Size: t.Len()}, nil
			})
		}
		return d.arrayNode(t, tag, path)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return schema.Node{}, noSchema(path, t, "an Avro map has string keys")
		}
		v, err := d.typeNode(t.Elem(), &fieldTag{}, joinPath(path, "[]"))
		if err != nil {
			return schema.Node{}, err
		}
		return schema.Node{Type: "map", Values: &v}, nil
	case reflect.Struct:
		return d.named(t, tag, path, func(name string) (schema.Node, error) { return d.recordNode(t, name, path) })
	}
	return schema.Node{}, noSchema(path, t, "no Avro type holds a "+t.Kind().String())
}

func implementsBoth(t, m, u reflect.Type) bool {
	return (t.Implements(m) || reflect.PointerTo(t).Implements(m)) && reflect.PointerTo(t).Implements(u)
}

// isUUIDType reports whether t is a 16-byte array type whose name ends in
// UUID, as
// the common uuid packages define it.
func isUUIDType(t reflect.Type) bool {
	return t.Kind() == reflect.Array && t.Len() == 16 && t.Elem().Kind() == reflect.Uint8 && strings.HasSuffix(strings.ToLower(t.Name()), "uuid")
}

func (d *deriver) arrayNode(t reflect.Type, tag *fieldTag, path string) (schema.Node, error) {
	items, err := d.typeNode(t.Elem(), &fieldTag{long: tag.long}, joinPath(path, "[]"))
	if err != nil {
		return schema.Node{}, err
	}
	return schema.Node{Type: "array", Items: &items}, nil
}

// pointerNode maps *T to ["null", T].
func (d *deriver) pointerNode(t reflect.Type, tag *fieldTag, path string) (schema.Node, error) {
	if t.Elem().Kind() == reflect.Pointer || t.Elem().Kind() == reflect.Interface {
		return schema.Node{}, noSchema(path, t, "a pointer to a pointer or an interface has no Avro type: use one pointer")
	}
	elem, err := d.typeNode(t.Elem(), tag, path)
	if err != nil {
		return schema.Node{}, err
	}
	if elem.Type == "union" {
		return schema.Node{}, noSchema(path, t, "its element is a union, and a union cannot hold another")
	}
	return schema.Node{Type: "union", Branches: []schema.Node{prim("null"), elem}}, nil
}

// interfaceNode maps an interface to the union of null and the
// registered types that implement it.
func (d *deriver) interfaceNode(t reflect.Type, path string) (schema.Node, error) {
	var impls []reflect.Type
	for rt := range d.registered {
		if rt.Implements(t) {
			impls = append(impls, rt)
		}
	}
	if len(impls) == 0 {
		return schema.Node{}, noSchema(path, t, "no type registered with avro.Register implements the interface")
	}
	sort.Slice(impls, func(i, j int) bool { return d.registered[impls[i]] < d.registered[impls[j]] })
	branches := []schema.Node{prim("null")}
	for _, rt := range impls {
		base := rt
		if base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		n, err := d.typeNode(base, &fieldTag{}, path)
		if err != nil {
			return schema.Node{}, err
		}
		if !isNamedNode(n) {
			return schema.Node{}, noSchema(path, rt, "a registered type of a union must be a record or a fixed")
		}
		branches = append(branches, n)
	}
	return schema.Node{Type: "union", Branches: branches}, nil
}

func isNamedNode(n schema.Node) bool {
	switch n.Type {
	case "record", "error", "enum", "fixed":
		return true
	case "null", "boolean", "int", "long", "float", "double", "bytes", "string", "array", "map", "union":
		return false
	}
	return true // a reference
}

// named returns the node of a named type: a reference when the tree
// already defines it, else its definition, made by def with its full
// name. The name is the tag's typename=, else the name the type is
// registered under, else the Go type's name (made a valid Avro name),
// else the field's, in the deriver's namespace.
func (d *deriver) named(t reflect.Type, tag *fieldTag, path string, def func(name string) (schema.Node, error)) (schema.Node, error) {
	key := definedKey{t, tag.typeName}
	if full, ok := d.defined[key]; ok {
		return schema.Node{Type: full}, nil
	}
	full := d.nameFor(t, tag, path)
	d.defined[key] = full
	d.taken[full] = true
	return def(full)
}

func (d *deriver) nameFor(t reflect.Type, tag *fieldTag, path string) string {
	base := tag.typeName
	if base == "" {
		base = d.registered[t]
		if base == "" {
			base = d.registered[reflect.PointerTo(t)]
		}
	}
	if base == "" {
		base = avroName(t.Name())
		if base == "" && t.Kind() == reflect.Array {
			base = "fixed_" + strconv.Itoa(t.Len())
		}
		if base == "" {
			base = avroName(lastPathElem(path))
		}
		if base == "" {
			base = "Record"
		}
	}
	if !strings.Contains(base, ".") && d.ns != "" {
		base = d.ns + "." + base
	}
	full := base
	for i := 2; d.taken[full]; i++ {
		full = base + "_" + strconv.Itoa(i)
	}
	return full
}

func lastPathElem(path string) string {
	path = strings.TrimRight(path, "[]")
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	if path == "" {
		return ""
	}
	return strings.ToUpper(path[:1]) + path[1:]
}

// avroName makes a Go type name (which may hold type arguments, as in
// Pair[int,main.Point]) a valid Avro name: package paths are dropped and
// every run of other characters becomes one underscore.
func avroName(name string) string {
	name = pkgPath.ReplaceAllString(name, "")
	var b strings.Builder
	under := false
	for _, r := range name {
		switch {
		case r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || b.Len() > 0 && '0' <= r && r <= '9':
			b.WriteRune(r)
			under = r == '_'
		case b.Len() > 0 && !under:
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimRight(b.String(), "_")
}

var pkgPath = regexp.MustCompile(`[\w.-]*[/.]`)

// recordNode maps a struct to a record of its fields.
func (d *deriver) recordNode(t reflect.Type, full, path string) (schema.Node, error) {
	fields, terr := structFields(t)
	if terr != nil {
		return schema.Node{}, terr.typeError(path, t)
	}
	n := schema.Node{Type: "record", Name: full, Fields: make([]schema.FieldNode, 0, len(fields))}
	for _, gf := range fields {
		fpath := joinPath(path, gf.name)
		ft, err := d.typeNode(gf.typ, &gf.tag, fpath)
		if err != nil {
			return schema.Node{}, err
		}
		n.Fields = append(n.Fields, schema.FieldNode{Name: gf.name, Type: ft, Doc: gf.tag.doc, Aliases: gf.tag.aliases})
	}
	for i, gf := range fields {
		f := &n.Fields[i]
		switch {
		case gf.tag.hasDef:
			if err := checkTagDefault(gf, joinPath(path, gf.name)); err != nil {
				return schema.Node{}, err
			}
			f.Default, f.HasDefault = json.RawMessage(gf.tag.def), true
			// A union's default is a value of its first branch: a
			// pointer with a default other than null puts null last.
			if f.Type.Type == "union" && strings.TrimSpace(gf.tag.def) != "null" && len(f.Type.Branches) == 2 && f.Type.Branches[0].Type == "null" {
				f.Type.Branches[0], f.Type.Branches[1] = f.Type.Branches[1], f.Type.Branches[0]
			}
		case f.Type.Type == "union" && f.Type.Branches[0].Type == "null":
			f.Default, f.HasDefault = nil, true
		case gf.tag.omitzero:
			d.zeros = append(d.zeros, zeroField{record: full, field: f, t: gf.typ, path: joinPath(path, gf.name)})
		}
	}
	return n, nil
}

// unsignedAdvice says why a uint, uint64 or uintptr has no schema of its
// own, and how to choose one.
func unsignedAdvice(t reflect.Type, path string) string {
	where := "put it in a struct field tagged with the option long (`avro:\"name,long\"`)"
	if name := fieldOfPath(path); name != "" {
		where = fmt.Sprintf("tag the field `avro:\"%s,long\"`", name)
	}
	return fmt.Sprintf("an Avro long holds only half the values of a %s: %s to accept a long that Marshal range-checks "+
		"(ErrRange above 2^63-1), or write a schema that holds every value (a string, a decimal(20,0), a fixed of 8 bytes) "+
		"and a conversion to it", t.Kind(), where)
}

// fieldOfPath returns the Avro name of the field a path ends in (through
// the [] of its arrays and maps), or "" for a path with no field.
func fieldOfPath(path string) string {
	path = strings.TrimRight(path, "[]")
	if i := strings.LastIndexAny(path, ".]"); i >= 0 {
		path = path[i+1:]
	}
	return path
}

// longNode maps the integers a field tagged long holds, through pointers,
// slices, arrays and maps, to long.
func (d *deriver) longNode(t reflect.Type, tag *fieldTag, path string) (schema.Node, error) {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return prim("long"), nil
	case reflect.Pointer:
		return d.pointerNode(t, tag, path)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() != reflect.Uint8 {
			return d.arrayNode(t, tag, path)
		}
	case reflect.Map:
		if t.Key().Kind() == reflect.String {
			v, err := d.typeNode(t.Elem(), &fieldTag{long: true}, joinPath(path, "[]"))
			if err != nil {
				return schema.Node{}, err
			}
			return schema.Node{Type: "map", Values: &v}, nil
		}
	}
	return schema.Node{}, noSchema(path, t, "its tag asks for long, which is for integers (and pointers, slices, arrays and maps of them)")
}

// logicalNode maps a Go type to the logical type its tag names.
func (d *deriver) logicalNode(t reflect.Type, tag *fieldTag, path string) (schema.Node, error) {
	if t.Kind() == reflect.Pointer {
		return d.pointerNode(t, tag, path)
	}
	l := tag.logical
	bad := func() (schema.Node, error) {
		return schema.Node{}, noSchema(path, t, "its tag asks for the logical type "+tag.logicalText()+", which "+t.String()+" cannot hold")
	}
	k := t.Kind()
	isInt := k >= reflect.Int && k <= reflect.Uint64
	switch l {
	case schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
		schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
		if t == timeType || isInt && t != timeDurationType {
			return schema.Node{Type: "long", Logical: l.String()}, nil
		}
	case schema.Date:
		if t == timeType || isInt && t != timeDurationType {
			return schema.Node{Type: "int", Logical: l.String()}, nil
		}
	case schema.TimeMillis:
		if isInt {
			return schema.Node{Type: "int", Logical: l.String()}, nil
		}
	case schema.TimeMicros:
		if isInt {
			return schema.Node{Type: "long", Logical: l.String()}, nil
		}
	case schema.UUID:
		if k == reflect.String || k == reflect.Array && t.Len() == 16 && t.Elem().Kind() == reflect.Uint8 {
			return schema.Node{Type: "string", Logical: "uuid"}, nil
		}
	case schema.Decimal:
		switch {
		case t == ratType || k == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
			return schema.Node{Type: "bytes", Logical: "decimal", Precision: tag.precision, Scale: tag.scale}, nil
		case k == reflect.Array && t.Elem().Kind() == reflect.Uint8:
			if tag.precision > schema.MaxDecimalPrecision(t.Len()) {
				return schema.Node{}, noSchema(path, t, fmt.Sprintf("a fixed of %d bytes holds at most %d decimal digits, not %s", t.Len(), schema.MaxDecimalPrecision(t.Len()), tag.logicalText()))
			}
			return d.named(t, tag, path, func(name string) (schema.Node, error) {
				return schema.Node{Type: "fixed", Name: name, Size: t.Len(), Logical: "decimal", Precision: tag.precision, Scale: tag.scale}, nil
			})
		}
	case schema.BigDecimal:
		if t == ratType || k == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return schema.Node{Type: "bytes", Logical: "big-decimal"}, nil
		}
	}
	return bad()
}

// checkTagDefault checks a tag's default against the field's own schema,
// so that a default of the wrong type is an error at the field's path
// rather than one about the whole schema. A pointer with a default other
// than null puts null last, so the default is a value of its element.
func checkTagDefault(gf goField, path string) error {
	s, err := fieldSchemaOf(gf, path)
	if err != nil {
		return err
	}
	if b := nonNullBranch(s); s.Kind() == schema.Union && b != nil && strings.TrimSpace(gf.tag.def) != "null" {
		s = b
	}
	if _, err := s.EncodeDefault(gf.tag.def); err != nil {
		return noSchema(path, gf.typ, "avro tag of Go field "+gf.goName+": its default="+gf.tag.def+" is not a value of the field: "+err.Error())
	}
	return nil
}

// zeroDefault returns the JSON default that encodes the zero value of Go
// type t as a value of s.
func zeroDefault(s *schema.Schema, t reflect.Type, path string) (string, error) {
	enc, err := newCompiler().encoderFor(s, t, path)
	if err != nil {
		return "", err
	}
	zero := reflect.New(t)
	e := newEncodeState(&EncodeOptions{}, nil)
	defer e.release()
	enc.encode(pointerOfValue(zero), e)
	if e.Err != nil {
		return "", noSchema(path, t, fmt.Sprintf("omitzero: its zero value cannot be written as the default: %v", e.Err))
	}
	text, err := defaultJSON(s, e.Buf)
	if err != nil {
		return "", noSchema(path, t, "omitzero: "+err.Error())
	}
	return text, nil
}

// customNode returns the node of a Go type with a registered conversion
// that SchemaOf may use: one with a schema of its own, or one that serves
// every schema (the schema of its A). The first registered wins.
func (d *deriver) customNode(t reflect.Type, tag *fieldTag, path string) (schema.Node, bool, error) {
	if tag.logical != schema.NoLogical {
		if n, ok := d.taggedConversionNode(t, tag, path); ok {
			return n, true, nil
		}
	}
	for _, c := range conversionsOf(t) {
		switch {
		case c.Schema != nil:
			return schema.NodeOf(c.Schema), true, nil
		case c.specificity() == 0:
			a := c.A
			if a.Kind() == reflect.Pointer {
				a = a.Elem()
			}
			n, err := d.typeNode(a, tag, path)
			return n, true, err
		}
	}
	return schema.Node{}, false, nil
}

// taggedConversionNode returns, for a field whose tag names a logical
// type, the node the tag gives the A of a conversion restricted to such
// schemas: the most specific conversion that serves the node, the first
// registered of those, as Marshal picks the conversion of the schema
// SchemaOf returns. Conversions with a schema of their own or with no
// restriction are left to customNode's other rules.
func (d *deriver) taggedConversionNode(t reflect.Type, tag *fieldTag, path string) (schema.Node, bool) {
	var best *Conversion
	var node schema.Node
	var chosen deriver
	for _, c := range conversionsOf(t) {
		if c.Schema != nil || c.specificity() == 0 || best != nil && c.specificity() <= best.specificity() {
			continue
		}
		a := c.A
		if a.Kind() == reflect.Pointer {
			a = a.Elem()
		}
		// Each trial on a copy, so that only the chosen one defines names.
		trial := *d
		trial.defined, trial.taken = maps.Clone(d.defined), maps.Clone(d.taken)
		trial.zeros = append([]zeroField(nil), d.zeros...)
		n, err := trial.typeNode(a, tag, path)
		if err != nil || !c.matchesNode(n) {
			continue
		}
		best, node, chosen = c, n, trial
	}
	if best == nil {
		return schema.Node{}, false
	}
	*d = chosen
	return node, true
}

// isByteSeq reports whether t is a byte slice or array, which maps to
// bytes or fixed by its kind, before any binary methods.
func isByteSeq(t reflect.Type) bool {
	return (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && t.Elem().Kind() == reflect.Uint8
}
