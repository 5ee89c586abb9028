package idl

// prop is one property of a schema, field, message or protocol.
type prop struct {
	key string
	val *jvalue
}

// propList collects properties; a later property of the same name replaces
// the earlier one in place, as in the LinkedHashMap Java collects them in.
type propList struct {
	list []prop
	idx  map[string]int
}

func (pl *propList) set(key string, val *jvalue) {
	if i, ok := pl.idx[key]; ok {
		pl.list[i].val = val
		return
	}
	if pl.idx == nil {
		pl.idx = map[string]int{}
	}
	pl.idx[key] = len(pl.list)
	pl.list = append(pl.list, prop{key, val})
}

// node is one schema of the file's model. A reference (kind "ref") names a
// named type, resolved when the whole file has been read.
type node struct {
	kind        string // primitive name, record, error, enum, fixed, array, map, union, ref
	name, space string // named types; space "" is the null namespace
	doc         *string
	props       []prop
	aliases     []string // full names
	fields      []*field
	symbols     []string
	enumDefault *string
	size        int
	items       *node // array items, map values
	branches    []*node
	ref         string // full name a reference names
	refShort    string // the name as written, tried in the null namespace
	target      *node
	optional    bool // a union from "type?", ordered once the default is known
	line, col   int
	file        string
}

func (n *node) named() bool {
	return n.kind == "record" || n.kind == "error" || n.kind == "enum" || n.kind == "fixed"
}

func (n *node) fullName() string {
	if n.space == "" {
		return n.name
	}
	return n.space + "." + n.name
}

// deref follows a resolved reference.
func (n *node) deref() *node {
	if n.kind == "ref" && n.target != nil {
		return n.target
	}
	return n
}

type field struct {
	name      string
	typ       *node
	doc       *string
	def       *jvalue
	order     string // "" for ascending
	aliases   []string
	props     []prop
	line, col int
	file      string
}

type message struct {
	name     string
	doc      *string
	props    []prop
	request  []*field
	response *node
	errors   []*node
	oneway   bool
}

var primitives = map[string]bool{
	"null": true, "boolean": true, "int": true, "long": true,
	"float": true, "double": true, "bytes": true, "string": true,
}
