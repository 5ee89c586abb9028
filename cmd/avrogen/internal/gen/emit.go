package gen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/avrogo/avro/schema"
)

// writer writes the declarations of one file.
type writer struct {
	g *generator
	b *bytes.Buffer
}

func (w *writer) p(format string, args ...any) {
	fmt.Fprintf(w.b, format, args...)
	w.b.WriteByte('\n')
}

// doc writes a comment: the first line, then the schema's doc as a
// paragraph of its own.
func (w *writer) doc(first, doc string) {
	if first != "" {
		w.p("// %s", first)
	}
	doc = strings.TrimSpace(doc)
	if doc == "" {
		return
	}
	if first != "" {
		w.p("//")
	}
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			w.p("//")
			continue
		}
		w.p("// %s", line)
	}
}

func (w *writer) schemaPkg() string { return w.g.use(schemaPath) }

func (w *writer) record(nt *namedType) {
	kind := "record"
	if nt.s.IsError() {
		kind = "error"
	}
	w.doc(fmt.Sprintf("%s is the Avro %s %s.", nt.goName, kind, nt.s.FullName()), nt.s.Doc())
	w.p("type %s struct {", nt.goName)
	taken := make([]map[string]bool, len(w.g.cfg.Tags))
	for i := range taken {
		taken[i] = map[string]bool{}
	}
	for _, fd := range nt.fields {
		w.doc("", fd.f.Doc())
		w.p("\t%s %s %s", fd.goName, fd.typ.expr, w.tags(fd.f.Name(), taken))
	}
	w.p("}")
	w.p("")
	w.p("// Schema returns the schema of %s.", nt.s.FullName())
	w.p("func (*%s) Schema() *%s.Schema { return avroSchemas()[%d] }", nt.goName, w.schemaPkg(), nt.index)
	w.p("")
	if w.g.cfg.Encoders {
		av := w.g.use(avroPath)
		w.p("// MarshalAvro returns the Avro binary encoding of x.")
		w.p("func (x *%s) MarshalAvro() ([]byte, error) { return %s.Marshal(x.Schema(), x) }", nt.goName, av)
		w.p("")
		w.p("// UnmarshalAvro decodes data, the Avro binary encoding of a %s, into x.", nt.goName)
		w.p("func (x *%s) UnmarshalAvro(data []byte) error { return %s.Unmarshal(x.Schema(), data, x) }", nt.goName, av)
		w.p("")
	}
}

// tags writes a field's struct tags. A name that a tag's style gives two
// fields (user_id and userId in snake case) is written as the Avro name
// for the second, with a number if that is taken too, as encoding/json
// would otherwise drop both fields.
func (w *writer) tags(name string, taken []map[string]bool) string {
	var b strings.Builder
	b.WriteString("`avro:")
	b.WriteString(strconv.Quote(name))
	for i, t := range w.g.cfg.Tags {
		v := tagName(name, t.Style)
		if taken[i][v] {
			v = name
		}
		for n := 2; taken[i][v]; n++ {
			v = name + itoa(n)
		}
		taken[i][v] = true
		fmt.Fprintf(&b, " %s:%s", t.Key, strconv.Quote(v))
	}
	b.WriteString("`")
	return b.String()
}

func (w *writer) enum(nt *namedType) {
	w.doc(fmt.Sprintf("%s is the Avro enum %s: one of its symbols.", nt.goName, nt.s.FullName()), nt.s.Doc())
	w.p("type %s string", nt.goName)
	w.p("")
	consts := make([]string, len(nt.s.Symbols()))
	w.p("// The symbols of %s.", nt.goName)
	w.p("const (")
	for i, sym := range nt.s.Symbols() {
		consts[i] = w.g.names.take(nt.goName + w.g.exported(sym))
		w.p("\t%s %s = %q", consts[i], nt.goName, sym)
	}
	w.p(")")
	w.p("")
	if def, ok := nt.s.EnumDefault(); ok {
		name := w.g.names.take(nt.goName + "Default")
		w.p("// %s is the enum's default: the symbol a reader of a newer", name)
		w.p("// writer's data reads for a symbol it does not know.")
		w.p("const %s = %s", name, consts[nt.s.SymbolIndex(def)])
		w.p("")
	}
	w.p("// IsValid reports whether x is one of the symbols of %s.", nt.goName)
	w.p("func (x %s) IsValid() bool {", nt.goName)
	if len(consts) > 0 {
		w.p("\tswitch x {")
		w.p("\tcase %s:", strings.Join(consts, ", "))
		w.p("\t\treturn true")
		w.p("\t}")
	}
	w.p("\treturn false")
	w.p("}")
	w.p("")
	w.p("// Schema returns the schema of %s.", nt.s.FullName())
	w.p("func (%s) Schema() *%s.Schema { return avroSchemas()[%d] }", nt.goName, w.schemaPkg(), nt.index)
	w.p("")
}

func (w *writer) fixed(nt *namedType) {
	w.doc(fmt.Sprintf("%s is the Avro fixed %s, of %d bytes.", nt.goName, nt.s.FullName(), nt.s.Size()), nt.s.Doc())
	w.p("type %s [%d]byte", nt.goName, nt.s.Size())
	w.p("")
	w.p("// Schema returns the schema of %s.", nt.s.FullName())
	w.p("func (%s) Schema() *%s.Schema { return avroSchemas()[%d] }", nt.goName, w.schemaPkg(), nt.index)
	w.p("")
}

// methods reports whether the root's Go type is a defined type, which
// has a Schema method, rather than an alias.
func (r *rootType) methods() bool {
	return r.union == nil && r.typ.byKind && !strings.HasPrefix(r.typ.expr, "*")
}

func (w *writer) root(r *rootType) {
	if r.union != nil {
		w.p("// %sSchema returns the schema of %s.", r.goName, r.goName)
		w.p("func %sSchema() *%s.Schema { return avroSchemas()[%d] }", r.goName, w.schemaPkg(), r.index)
		w.p("")
		return
	}
	if r.methods() {
		w.p("// %s is the Avro %s of a schema file.", r.goName, r.s.Kind())
		w.p("type %s %s", r.goName, r.typ.expr)
		w.p("")
		w.p("// Schema returns the schema of %s.", r.goName)
		w.p("func (%s) Schema() *%s.Schema { return avroSchemas()[%d] }", r.goName, w.schemaPkg(), r.index)
		w.p("")
		return
	}
	w.p("// %s is the Go type of the Avro %s of a schema file.", r.goName, r.s.Kind())
	w.p("type %s = %s", r.goName, r.typ.expr)
	w.p("")
	w.p("// %sSchema returns the schema of %s.", r.goName, r.goName)
	w.p("func %sSchema() *%s.Schema { return avroSchemas()[%d] }", r.goName, w.schemaPkg(), r.index)
	w.p("")
}

func (w *writer) union(u *unionType) {
	var held []string
	for _, b := range u.branches {
		held = append(held, b.implementer())
	}
	if u.hasNull {
		held = append(held, "nil for null")
	}
	w.p("// %s is an Avro union, one of: %s.", u.goName, strings.Join(held, ", "))
	w.p("type %s interface {", u.goName)
	w.p("\tis%s()", u.goName)
	w.p("}")
	w.p("")
	for _, b := range u.branches {
		if b.named != nil {
			continue
		}
		w.p("// %s is the %s branch of %s.", b.goName, branchLabel(b.s), u.goName)
		if b.typ.byKind {
			w.p("type %s %s", b.goName, b.typ.expr)
		} else {
			w.p("type %s struct{ %s }", b.goName, b.typ.expr)
		}
		w.p("")
	}
	for _, b := range u.branches {
		recv := b.implementer()
		w.p("func (%s) is%s() {}", recv, u.goName)
	}
	w.p("")
	w.p("var (")
	for _, b := range u.branches {
		w.p("\t_ %s = %s", u.goName, zeroOfBranch(b))
	}
	w.p(")")
	w.p("")
}

func branchLabel(s *schema.Schema) string {
	switch {
	case s.Logical() != schema.NoLogical:
		return s.Logical().String()
	case s.Kind().IsNamed():
		return s.FullName()
	}
	return s.Kind().String()
}

// zeroOfBranch is the zero value of the type a branch stores in its
// interface.
func zeroOfBranch(b *branch) string {
	impl := b.implementer()
	if strings.HasPrefix(impl, "*") {
		return "(" + impl + ")(nil)"
	}
	if b.named != nil {
		if b.s.Kind() == schema.Enum {
			return impl + `("")`
		}
		return impl + "{}"
	}
	if !b.typ.byKind {
		return impl + "{}"
	}
	switch z := b.typ.zero; {
	case z == "0" || z == `""` || z == "false" || z == "nil":
		return impl + "(" + z + ")"
	case strings.HasPrefix(z, "*new("):
		return "*new(" + impl + ")"
	}
	return impl + "{}"
}

// registrations writes the init function that tells the library which Go
// type holds each union branch.
func (w *writer) registrations() {
	if len(w.g.unions) == 0 {
		return
	}
	av := w.g.use(avroPath)
	w.p("func init() {")
	type reg struct{ name, impl string }
	seen := map[reg]bool{}
	for _, u := range w.g.unions {
		for _, b := range u.branches {
			r := reg{b.s.FullName(), b.implementer()}
			if seen[r] {
				continue
			}
			seen[r] = true
			w.p("\t%s.Register(%q, %s)", av, r.name, zeroOfBranch(b))
		}
	}
	for _, u := range w.g.unions {
		for _, b := range u.branches {
			if b.named != nil || b.typ.byKind {
				continue
			}
			embedded := b.typ.expr[strings.LastIndexAny(b.typ.expr, ".*")+1:]
			decode := "v"
			if name, ok := w.g.imports["math/big"]; ok && b.typ.expr == "*"+name+".Rat" {
				// the library reuses the *big.Rat it decodes into
				decode = "new(" + name + ".Rat).Set(v)"
			}
			w.p("\t%s.RegisterConversion(%s.Conversion[%s, %s]{", av, av, b.goName, b.typ.expr)
			w.p("\t\tEncode: func(v %s) (%s, error) { return v.%s, nil },", b.goName, b.typ.expr, embedded)
			w.p("\t\tDecode: func(v %s) (%s, error) { return %s{%s}, nil },", b.typ.expr, b.goName, b.goName, decode)
			w.p("\t})")
		}
	}
	w.p("}")
	w.p("")
}

// schemaTable writes avroSchemas, which parses the schemas once.
func (w *writer) schemaTable() {
	g := w.g
	if len(g.schemas) == 0 {
		return
	}
	sp := w.schemaPkg()
	sync := g.use("sync")
	usesRoots := false
	for _, ref := range g.schemas {
		if ref.fullName == "" {
			usesRoots = true
		}
	}
	w.p("// avroSchemas returns the schemas of the generated types, parsed once, when")
	w.p("// the first is asked for.")
	w.p("var avroSchemas = %s.OnceValue(func() *[%d]*%s.Schema {", sync, len(g.schemas), sp)
	if nonASCII(g.texts) {
		// names of other scripts, as Java takes them
		w.p("\tp := %s.ParseOptions{UnicodeNames: true}.NewParser()", sp)
	} else {
		w.p("\tp := %s.NewParser()", sp)
	}
	if usesRoots {
		w.p("\tvar roots [%d]*%s.Schema", len(g.texts), sp)
	}
	w.p("\tfor i, text := range [...]string{")
	for _, t := range g.texts {
		w.p("\t\t%s,", literal(t))
	}
	w.p("\t} {")
	if usesRoots {
		w.p("\t\ts, err := p.Parse(text)")
	} else {
		w.p("\t\t_, err := p.Parse(text)")
	}
	w.p("\t\tif err != nil {")
	w.p("\t\t\tpanic(\"avrogen: schema \" + %s.Itoa(i) + \" does not parse: \" + err.Error())", g.use("strconv"))
	w.p("\t\t}")
	if usesRoots {
		w.p("\t\troots[i] = s")
	}
	w.p("\t}")
	w.p("\treturn &[%d]*%s.Schema{", len(g.schemas), sp)
	for _, ref := range g.schemas {
		if ref.fullName != "" {
			w.p("\t\tp.Lookup(%q),", ref.fullName)
		} else {
			w.p("\t\troots[%d],", ref.text)
		}
	}
	w.p("\t}")
	w.p("})")
}

func nonASCII(texts []string) bool {
	for _, t := range texts {
		for i := 0; i < len(t); i++ {
			if t[i] >= 0x80 {
				return true
			}
		}
	}
	return false
}

// literal writes s as a raw string when it can be one.
func literal(s string) string {
	if strings.ContainsAny(s, "`\r") {
		return strconv.Quote(s)
	}
	return "`" + s + "`"
}
