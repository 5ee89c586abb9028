package resolve

import (
	"fmt"

	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/schema"
)

// Compiler compiles the steps of a resolution graph (schema.Action) into
// transcoders, sharing the nodes of the steps they have in common.
type Compiler struct {
	// Skippers are the skippers of the writer's values, which the
	// codecs that read writer data directly share.
	Skippers skip.Memo
	nodes    map[*schema.Action]xnode
	identity map[*schema.Action]bool
}

// NewCompiler returns a Compiler of the graph whose root is root.
func NewCompiler(root *schema.Action) *Compiler {
	return &Compiler{
		Skippers: skip.Memo{},
		nodes:    map[*schema.Action]xnode{},
		identity: identities(root),
	}
}

// Identity reports whether the writer's value of step a is the reader's
// value as it is encoded, so that it is copied.
func (xc *Compiler) Identity(a *schema.Action) bool { return xc.identity[a] }

// Program returns the transcoder of step a.
func (xc *Compiler) Program(a *schema.Action) *Program { return &Program{xc.node(a)} }

func (xc *Compiler) node(a *schema.Action) xnode {
	if n, ok := xc.nodes[a]; ok {
		return n
	}
	if xc.identity[a] {
		n := &xcopy{steps: []skip.Step{xc.Skippers.Step(a.Writer(), "")}}
		xc.nodes[a] = n
		return n
	}
	switch a.Kind() {
	case schema.ActionPromote:
		n := &xpromote{from: a.Writer().Kind(), to: a.Reader().Kind()}
		xc.nodes[a] = n
		return n
	case schema.ActionEnum:
		n := &xenum{w: a.Writer(), r: a.Reader(), m: a.SymbolMap()}
		xc.nodes[a] = n
		return n
	case schema.ActionArray, schema.ActionMap:
		n := &xarray{isMap: a.Kind() == schema.ActionMap}
		if n.isMap {
			n.minSize = a.Writer().Values().MinEncodedSize() + 1
		} else {
			n.minSize = skip.ItemSize(a.Writer().Items())
		}
		xc.nodes[a] = n
		n.elem = xc.node(a.Elem())
		return n
	case schema.ActionWriterUnion:
		n := &xwunion{w: a.Writer(), branches: make([]xnode, len(a.Branches()))}
		xc.nodes[a] = n
		for i, b := range a.Branches() {
			n.branches[i] = xc.node(b)
		}
		return n
	case schema.ActionReaderUnion:
		n := &xrunion{index: a.ReaderBranch()}
		xc.nodes[a] = n
		n.elem = xc.node(a.Elem())
		return n
	case schema.ActionRecord:
		return xc.record(a)
	}
	// ActionError, and ActionSame, which is always an identity.
	n := &xerror{err: a.Err()}
	if n.err == nil {
		n.err = fmt.Errorf("cannot read writer %s as %s", a.Writer().Kind(), a.Reader().Kind())
	}
	xc.nodes[a] = n
	return n
}

func (xc *Compiler) record(a *schema.Action) xnode {
	fields := a.WriterFields()
	reader := a.Reader()
	inOrder := true
	last := -1
	for _, f := range fields {
		if f.Reader != nil {
			if f.Reader.Index() < last {
				inOrder = false
			}
			last = f.Reader.Index()
		}
	}
	if !inOrder {
		n := &xreorder{defaults: make([][]byte, len(reader.Fields())), names: make([]string, len(reader.Fields()))}
		xc.nodes[a] = n
		for _, d := range a.Defaults() {
			n.defaults[d.Index()] = nonNil(d.DefaultBinary())
			n.names[d.Index()] = d.Name()
		}
		for _, f := range fields {
			xf := xfield{name: f.Writer.Name()}
			if f.Reader == nil {
				xf.skip = []skip.Step{xc.Skippers.Step(f.Writer.Type(), f.Writer.Name())}
			} else {
				xf.name = f.Reader.Name()
				xf.target = f.Reader.Index()
				xf.node = xc.node(f.Action)
			}
			n.fields = append(n.fields, xf)
		}
		return n
	}
	n := &xrecord{}
	xc.nodes[a] = n
	isDefault := make([]bool, len(reader.Fields()))
	for _, d := range a.Defaults() {
		isDefault[d.Index()] = true
	}
	next := 0 // the next reader field to write
	var run xnode
	add := func(st xnode, name string) {
		run = nil
		n.steps = append(n.steps, st)
		n.names = append(n.names, name)
	}
	defaultsUpTo := func(j int) {
		for ; next < j; next++ {
			if !isDefault[next] {
				continue
			}
			def := reader.Fields()[next].DefaultBinary()
			if b, ok := run.(*xbytes); ok {
				b.b = append(b.b, def...)
				continue
			}
			// A run of defaults is charged at once, under the first
			// field's name.
			add(&xbytes{b: append([]byte(nil), def...)}, reader.Fields()[next].Name())
			run = n.steps[len(n.steps)-1]
		}
	}
	for _, f := range fields {
		switch {
		case f.Reader == nil:
			st := xc.Skippers.Step(f.Writer.Type(), f.Writer.Name())
			if s, ok := run.(*xskip); ok {
				s.steps = append(s.steps, st)
				continue
			}
			add(&xskip{steps: []skip.Step{st}}, "")
			run = n.steps[len(n.steps)-1]
		case xc.identity[f.Action]:
			defaultsUpTo(f.Reader.Index())
			next = f.Reader.Index() + 1
			st := xc.Skippers.Step(f.Writer.Type(), f.Reader.Name())
			if c, ok := run.(*xcopy); ok {
				c.steps = append(c.steps, st)
				continue
			}
			add(&xcopy{steps: []skip.Step{st}}, "")
			run = n.steps[len(n.steps)-1]
		default:
			defaultsUpTo(f.Reader.Index())
			next = f.Reader.Index() + 1
			add(xc.node(f.Action), f.Reader.Name())
		}
	}
	defaultsUpTo(len(reader.Fields()))
	return n
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// identities computes which actions leave the encoding unchanged, so that
// the transcoder copies them. On a cyclic graph the answer is the greatest
// fixed point: every action starts as an identity if its own step is, and
// loses that while a child is not.
func identities(root *schema.Action) map[*schema.Action]bool {
	id := map[*schema.Action]bool{}
	var all []*schema.Action
	var walk func(a *schema.Action)
	walk = func(a *schema.Action) {
		if a == nil {
			return
		}
		if _, ok := id[a]; ok {
			return
		}
		id[a] = localIdentity(a)
		all = append(all, a)
		for _, c := range children(a) {
			walk(c)
		}
	}
	walk(root)
	for changed := true; changed; {
		changed = false
		for _, a := range all {
			if !id[a] {
				continue
			}
			for _, c := range identityChildren(a) {
				if c == nil || !id[c] {
					id[a] = false
					changed = true
					break
				}
			}
		}
	}
	return id
}

func children(a *schema.Action) []*schema.Action {
	var cs []*schema.Action
	if a.Elem() != nil {
		cs = append(cs, a.Elem())
	}
	cs = append(cs, a.Branches()...)
	for _, f := range a.WriterFields() {
		if f.Action != nil {
			cs = append(cs, f.Action)
		}
	}
	return cs
}

// identityChildren lists the actions that must be identities for a to be
// one. A writer union maps to itself through reader-union steps, whose
// own step (writing an index) is not an identity: their values count.
func identityChildren(a *schema.Action) []*schema.Action {
	switch a.Kind() {
	case schema.ActionArray, schema.ActionMap:
		return []*schema.Action{a.Elem()}
	case schema.ActionRecord:
		var cs []*schema.Action
		for _, f := range a.WriterFields() {
			cs = append(cs, f.Action)
		}
		return cs
	case schema.ActionWriterUnion:
		var cs []*schema.Action
		for _, b := range a.Branches() {
			cs = append(cs, b.Elem())
		}
		return cs
	}
	return nil
}

// localIdentity reports whether a's own step leaves the encoding unchanged.
func localIdentity(a *schema.Action) bool {
	switch a.Kind() {
	case schema.ActionSame, schema.ActionArray, schema.ActionMap:
		return true
	case schema.ActionPromote:
		// int read as long shares its encoding, but the reader's decoder
		// would accept a long the writer cannot have written: xpromote
		// checks the int and copies it.
		w := a.Writer().Kind()
		return w == schema.String || w == schema.Bytes
	case schema.ActionEnum:
		// A reader with more symbols would accept indexes the writer
		// cannot have written: the transcoder must check them.
		if len(a.Reader().Symbols()) != len(a.Writer().Symbols()) {
			return false
		}
		for i, j := range a.SymbolMap() {
			if i != j {
				return false
			}
		}
		return true
	case schema.ActionRecord:
		if len(a.Defaults()) > 0 || len(a.WriterFields()) != len(a.Reader().Fields()) {
			return false
		}
		for i, f := range a.WriterFields() {
			if f.Reader == nil || f.Reader.Index() != i || f.Action == nil {
				return false
			}
		}
		return true
	case schema.ActionWriterUnion:
		// A reader with more branches would accept indexes the writer
		// cannot have written: the transcoder must check them.
		if a.Reader().Kind() != schema.Union || len(a.Reader().Branches()) != len(a.Writer().Branches()) {
			return false
		}
		for i, b := range a.Branches() {
			if b.Kind() != schema.ActionReaderUnion || b.ReaderBranch() != i {
				return false
			}
		}
		return true
	}
	return false
}
