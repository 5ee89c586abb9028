package gen

import (
	"errors"
	"fmt"
	"go/token"
	"strings"

	"github.com/avrogo/avro/schema"
)

// ErrGoType is wrapped by the error for a Go type, given by a schema's
// go.type property or by a flag, that is not the name of a Go type.
var ErrGoType = errors.New("not a Go type")

// goType is the Go type of a schema node.
type goType struct {
	expr string // the type expression, packages as the file imports them
	zero string // its zero value, as an expression
	// byKind is set when the library maps the type by its kind, so that
	// a defined type over it (type B T) maps the same; otherwise (a
	// time.Time, a *big.Rat, a type of the user's) a defined type needs
	// a conversion to map.
	byKind bool
	// nilable is set when nil is its zero value (a pointer, slice or
	// map), which stands for null in a union with null.
	nilable bool
}

func (t goType) pointer() goType {
	return goType{expr: "*" + t.expr, zero: "nil", byKind: t.byKind, nilable: true}
}

// nullable is the type of ["null", T]: T itself when nil stands for null,
// else a pointer to T.
func (t goType) nullable() goType {
	if t.nilable {
		return t
	}
	return t.pointer()
}

var builtins = map[schema.Kind]goType{
	schema.Boolean: {expr: "bool", zero: "false", byKind: true},
	schema.Int:     {expr: "int32", zero: "0", byKind: true},
	schema.Long:    {expr: "int64", zero: "0", byKind: true},
	schema.Float:   {expr: "float32", zero: "0", byKind: true},
	schema.Double:  {expr: "float64", zero: "0", byKind: true},
	schema.String:  {expr: "string", zero: `""`, byKind: true},
	schema.Bytes:   {expr: "[]byte", zero: "nil", byKind: true, nilable: true},
	schema.Null:    {expr: "struct{}", zero: "struct{}{}", byKind: true},
}

// typeOf returns the Go type of s; ctx names the union types it defines.
func (g *generator) typeOf(s *schema.Schema, ctx string) (goType, error) {
	if t, ok, err := g.customType(s); ok || err != nil {
		return t, err
	}
	if t, ok, err := g.logicalType(s); ok || err != nil {
		return t, err
	}
	if t, ok := builtins[s.Kind()]; ok {
		return t, nil
	}
	switch s.Kind() {
	case schema.Record, schema.Enum, schema.Fixed:
		nt := g.byNode[s]
		if nt == nil || nt.goName == "" {
			return goType{}, fmt.Errorf("internal error: %s has no Go type", s.FullName())
		}
		t := goType{expr: nt.goName, zero: nt.goName + "{}", byKind: true}
		if s.Kind() == schema.Enum {
			t.zero = nt.goName + `("")`
		}
		return t, nil
	case schema.Array:
		items, err := g.typeOf(s.Items(), ctx+"Item")
		if err != nil {
			return goType{}, err
		}
		return goType{expr: "[]" + items.expr, zero: "nil", byKind: true, nilable: true}, nil
	case schema.Map:
		values, err := g.typeOf(s.Values(), ctx+"Value")
		if err != nil {
			return goType{}, err
		}
		return goType{expr: "map[string]" + values.expr, zero: "nil", byKind: true, nilable: true}, nil
	case schema.Union:
		return g.unionOf(s, ctx, "")
	}
	return goType{}, fmt.Errorf("internal error: no Go type for %s", s.Kind())
}

// customType is the Go type a go.type property or the -type flag gives s.
func (g *generator) customType(s *schema.Schema) (goType, bool, error) {
	spec, from := "", "the go.type property"
	if v, ok := s.Prop("go.type"); ok {
		str, isStr := v.(string)
		if !isStr || str == "" {
			return goType{}, false, fmt.Errorf("%s: the go.type property %v is %w (it must be a Go type's name)", describe(s), v, ErrGoType)
		}
		spec = str
	}
	if s.Kind().IsNamed() {
		if t, ok := g.cfg.Types[s.FullName()]; ok {
			spec, from = t, "-type "+s.FullName()
		}
	}
	if spec == "" {
		return goType{}, false, nil
	}
	t, err := g.parseGoType(spec)
	if err != nil {
		return goType{}, false, fmt.Errorf("%s: %s: %w", describe(s), from, err)
	}
	return t, true, nil
}

func describe(s *schema.Schema) string {
	if s.Kind().IsNamed() {
		return s.FullName()
	}
	return "a " + s.Kind().String()
}

// parseGoType reads a Go type given on the command line or in a schema:
// a predeclared type or array of bytes ("int64", "[16]byte"), or a
// package path and a type name ("github.com/google/uuid.UUID"), either
// after a "*".
func (g *generator) parseGoType(spec string) (goType, error) {
	ptr := strings.HasPrefix(spec, "*")
	name := strings.TrimPrefix(spec, "*")
	dot := strings.LastIndexByte(name, '.')
	var t goType
	switch {
	case dot < 0:
		if !predeclared[name] && !isByteArray(name) {
			return goType{}, fmt.Errorf("%q is %w (write a package path and a type name: example.com/pkg.Type)", spec, ErrGoType)
		}
		t = goType{expr: name, zero: zeroOf(name), byKind: true}
	default:
		path, typ := name[:dot], name[dot+1:]
		if !isImportPath(path) || !IsIdentifier(typ) || !token.IsExported(typ) {
			return goType{}, fmt.Errorf("%q is %w (write a package path and a type name: example.com/pkg.Type)", spec, ErrGoType)
		}
		t = goType{expr: g.use(path) + "." + typ, zero: "*new(" + g.use(path) + "." + typ + ")"}
	}
	if ptr {
		return goType{expr: "*" + t.expr, zero: "nil", nilable: true}, nil
	}
	return t, nil
}

var predeclared = map[string]bool{
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true,
	"int64": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "byte": true, "rune": true, "[]byte": true,
}

// isImportPath reports whether path can be imported: elements of letters,
// digits and "-._~+", none of them empty or starting or ending with a dot.
func isImportPath(path string) bool {
	for _, elem := range strings.Split(path, "/") {
		if elem == "" || elem[0] == '.' || elem[len(elem)-1] == '.' {
			return false
		}
		for _, r := range elem {
			ok := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-._~+", r)
			if !ok {
				return false
			}
		}
	}
	return true
}

func isByteArray(s string) bool {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]byte") {
		return false
	}
	n := s[1 : len(s)-len("]byte")]
	if n == "" {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// IsIdentifier reports whether s is an ASCII Go identifier.
func IsIdentifier(s string) bool {
	for i, r := range s {
		letter := r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

func zeroOf(expr string) string {
	switch {
	case expr == "bool":
		return "false"
	case expr == "string":
		return `""`
	case expr == "[]byte":
		return "nil"
	case isByteArray(expr):
		return expr + "{}"
	}
	return "0"
}

// logicalType is the Go type of a logical type: the one the library maps
// it to, or what -logical chose.
func (g *generator) logicalType(s *schema.Schema) (goType, bool, error) {
	l := s.Logical()
	if l == schema.NoLogical {
		return goType{}, false, nil
	}
	if spec, ok := g.cfg.Logical[l.String()]; ok {
		t, err := g.parseGoType(spec)
		if err != nil {
			return goType{}, false, fmt.Errorf("-logical %s: %w", l, err)
		}
		return t, true, nil
	}
	switch l {
	case schema.Date, schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
		schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
		tm := g.use("time")
		return goType{expr: tm + ".Time", zero: tm + ".Time{}"}, true, nil
	case schema.TimeMillis, schema.TimeMicros:
		return goType{expr: g.use("time") + ".Duration", zero: "0"}, true, nil
	case schema.Decimal, schema.BigDecimal:
		return goType{expr: "*" + g.use("math/big") + ".Rat", zero: "nil", nilable: true}, true, nil
	case schema.Duration:
		av := g.use(avroPath)
		return goType{expr: av + ".Duration", zero: av + ".Duration{}"}, true, nil
	}
	// uuid: a string, or the fixed's own type
	return goType{}, false, nil
}

const (
	avroPath   = "github.com/avrogo/avro"
	schemaPath = "github.com/avrogo/avro/schema"
)

// unionType is a union of several branches: a sealed interface, with a Go
// type for each branch.
type unionType struct {
	s        *schema.Schema
	goName   string
	hasNull  bool
	branches []*branch
	root     *rootType
}

// branch is how one branch of a union is held in its interface.
type branch struct {
	s *schema.Schema
	// named is set when the branch is a generated type, which implements
	// the interface itself; otherwise goName is a type defined for the
	// branch over typ.
	named  *namedType
	goName string
	typ    goType
}

// implementer is the Go type stored in the interface for the branch.
func (b *branch) implementer() string {
	if b.named != nil && b.s.Kind() == schema.Record {
		return "*" + b.named.goName
	}
	if b.named != nil {
		return b.named.goName
	}
	return b.goName
}

// unionOf returns the Go type of a union: its branch for a union of one,
// a pointer (or nil) for a union with null and one other branch, and an
// interface otherwise, named ctx or, for a root, name.
func (g *generator) unionOf(s *schema.Schema, ctx, name string) (goType, error) {
	branches := s.Branches()
	var nonNull []*schema.Schema
	for _, b := range branches {
		if b.Kind() != schema.Null {
			nonNull = append(nonNull, b)
		}
	}
	switch {
	case len(nonNull) == 0:
		// The library writes a union's null branch from a nil value.
		return builtins[schema.Null].pointer(), nil
	case len(branches) == 1:
		return g.typeOf(branches[0], ctx)
	case len(branches) == 2 && len(nonNull) == 1:
		t, err := g.typeOf(nonNull[0], ctx)
		return t.nullable(), err
	}
	if name == "" {
		name = g.names.take(ctx)
	}
	u := &unionType{s: s, goName: name, hasNull: len(nonNull) < len(branches)}
	g.unions = append(g.unions, u)
	for _, b := range nonNull {
		br := &branch{s: b}
		if nt := g.byNode[b]; nt != nil && nt.custom == nil && !nt.skip && !g.logicalOverride(b) {
			br.named = nt
			nt.markers = append(nt.markers, u)
		} else {
			br.goName = g.names.take(u.goName + g.branchSuffix(b))
			t, err := g.typeOf(b, br.goName)
			if err != nil {
				return goType{}, err
			}
			br.typ = t
		}
		u.branches = append(u.branches, br)
	}
	return goType{expr: u.goName, zero: "nil", nilable: true}, nil
}

func (g *generator) logicalOverride(s *schema.Schema) bool {
	_, ok := g.cfg.Logical[s.Logical().String()]
	return s.Logical() != schema.NoLogical && ok
}

// branchSuffix names a branch type after its interface: by logical type,
// by name, or by Avro type.
func (g *generator) branchSuffix(s *schema.Schema) string {
	switch {
	case s.Logical() != schema.NoLogical:
		return g.exported(s.Logical().String())
	case s.Kind().IsNamed():
		return g.exported(s.Name())
	}
	return g.exported(s.Kind().String())
}

// rootTypeOf is the Go type a root that is not a named type gets.
func (g *generator) rootTypeOf(r *rootType) (goType, error) {
	if r.s.Kind() == schema.Union {
		t, err := g.unionOf(r.s, r.goName, r.goName)
		if err != nil {
			return goType{}, err
		}
		if u := g.unionNamed(r.goName); u != nil {
			r.union = u
			u.root = r
		}
		return t, nil
	}
	return g.typeOf(r.s, r.goName)
}

func (g *generator) unionNamed(name string) *unionType {
	for _, u := range g.unions {
		if u.goName == name {
			return u
		}
	}
	return nil
}
