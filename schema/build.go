package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
)

// A Node describes a schema to build in code, as its JSON text would:
// Schema writes the JSON and parses it, so a Node is validated exactly as
// Parse validates text, and the schema's String parses back to an equal
// schema. NodeOf goes the other way, so that a parsed schema can be
// edited and rebuilt.
//
//	s, err := schema.Node{Type: "record", Name: "com.example.User", Fields: []schema.FieldNode{
//		{Name: "name", Type: schema.Node{Type: "string"}},
//		{Name: "email", Type: schema.Node{Type: "union", Branches: []schema.Node{{Type: "null"}, {Type: "string"}}}, HasDefault: true},
//	}}.Schema()
type Node struct {
	// Type is a primitive type name ("null", "boolean", "int", "long",
	// "float", "double", "bytes", "string"), a complex one ("record",
	// "error", "enum", "array", "map", "fixed", "union"), or the full
	// name of a named type defined earlier in the tree: a reference,
	// which is how recursive types are built.
	Type string
	// Name, Namespace and Aliases name a record, enum or fixed; Name may
	// be a dotted full name.
	Name      string
	Namespace string
	Aliases   []string
	Doc       string
	// Fields are a record's.
	Fields []FieldNode
	// Symbols and EnumDefault ("" for none) are an enum's.
	Symbols     []string
	EnumDefault string
	// Items is an array's item type, Values a map's value type.
	Items  *Node
	Values *Node
	// Branches are a union's types.
	Branches []Node
	// Size is a fixed's size.
	Size int
	// Logical is the logicalType attribute; Precision and Scale are a
	// decimal's.
	Logical   string
	Precision int
	Scale     int
	// Props are other attributes, written in the order of their names.
	Props map[string]any
}

// A FieldNode describes a record field.
type FieldNode struct {
	Name    string
	Type    Node
	Doc     string
	Aliases []string
	// Default is the field's default as a Go value, written as
	// encoding/json writes it, except that a []byte or byte array is a
	// string of code points U+0000 to U+00FF (Avro's JSON for bytes and
	// fixed) and a json.RawMessage is written as it is. A field has a
	// default when HasDefault is set or Default is not nil; a null
	// default is a nil Default with HasDefault set.
	Default    any
	HasDefault bool
	// Order is "ascending" (when empty), "descending" or "ignore".
	Order string
	Props map[string]any
}

// Schema builds the schema n describes: it parses n's JSON text with
// Parse, so errors are *Error values as from Parse.
func (n Node) Schema() (*Schema, error) { return n.SchemaWith(ParseOptions{}) }

// SchemaWith is Schema with the options (and limits) of o.
func (n Node) SchemaWith(o ParseOptions) (*Schema, error) {
	text, err := n.MarshalJSON()
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	return o.Parse(string(text))
}

// MustSchema is Schema for nodes known to be valid: it panics on error.
func (n Node) MustSchema() *Schema {
	s, err := n.Schema()
	if err != nil {
		panic(err)
	}
	return s
}

// MarshalJSON returns the JSON text of the schema n describes. The
// attributes are written in a fixed order, so that the text is the same
// for equal nodes.
func (n Node) MarshalJSON() ([]byte, error) {
	var w nodeWriter
	w.node(&n)
	return w.b.Bytes(), w.err
}

type nodeWriter struct {
	b   bytes.Buffer
	err error
}

func (w *nodeWriter) str(s string) {
	b, _ := json.Marshal(s)
	w.b.Write(b)
}

func (w *nodeWriter) key(k string) {
	w.b.WriteByte(',')
	w.str(k)
	w.b.WriteByte(':')
}

func (w *nodeWriter) strs(ss []string) {
	w.b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.str(s)
	}
	w.b.WriteByte(']')
}

func (w *nodeWriter) value(v any) {
	b, err := defaultJSONOf(v)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.b.Write(b)
}

func (w *nodeWriter) props(props map[string]any) {
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		w.key(k)
		w.value(props[k])
	}
}

func (w *nodeWriter) node(n *Node) {
	if n.Type == "union" {
		w.b.WriteByte('[')
		for i := range n.Branches {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.node(&n.Branches[i])
		}
		w.b.WriteByte(']')
		return
	}
	if n.isBare() {
		w.str(n.Type)
		return
	}
	w.b.WriteString(`{"type":`)
	w.str(n.Type)
	if n.Name != "" {
		w.key("name")
		w.str(n.Name)
	}
	if n.Namespace != "" {
		w.key("namespace")
		w.str(n.Namespace)
	}
	if len(n.Aliases) > 0 {
		w.key("aliases")
		w.strs(n.Aliases)
	}
	if n.Doc != "" {
		w.key("doc")
		w.str(n.Doc)
	}
	switch n.Type {
	case "record", "error":
		w.key("fields")
		w.b.WriteByte('[')
		for i := range n.Fields {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.field(&n.Fields[i])
		}
		w.b.WriteByte(']')
	case "enum":
		w.key("symbols")
		w.strs(n.Symbols)
		if n.EnumDefault != "" {
			w.key("default")
			w.str(n.EnumDefault)
		}
	case "array":
		w.key("items")
		w.child(n.Items, "array")
	case "map":
		w.key("values")
		w.child(n.Values, "map")
	case "fixed":
		w.key("size")
		w.b.WriteString(strconv.Itoa(n.Size))
	}
	if n.Logical != "" {
		w.key("logicalType")
		w.str(n.Logical)
		if n.Logical == "decimal" {
			w.key("precision")
			w.b.WriteString(strconv.Itoa(n.Precision))
			w.key("scale")
			w.b.WriteString(strconv.Itoa(n.Scale))
		}
	}
	w.props(n.Props)
	w.b.WriteByte('}')
}

func (w *nodeWriter) child(n *Node, kind string) {
	if n == nil {
		if w.err == nil {
			w.err = fmt.Errorf("schema: an %s node needs its element type", kind)
		}
		w.b.WriteString("null")
		return
	}
	w.node(n)
}

func (w *nodeWriter) field(f *FieldNode) {
	w.b.WriteString(`{"name":`)
	w.str(f.Name)
	w.key("type")
	w.node(&f.Type)
	if f.Doc != "" {
		w.key("doc")
		w.str(f.Doc)
	}
	if len(f.Aliases) > 0 {
		w.key("aliases")
		w.strs(f.Aliases)
	}
	if f.HasDefault || f.Default != nil {
		w.key("default")
		w.value(f.Default)
	}
	if f.Order != "" {
		w.key("order")
		w.str(f.Order)
	}
	w.props(f.Props)
	w.b.WriteByte('}')
}

// isBare reports whether n is written as its type name alone.
func (n *Node) isBare() bool {
	switch n.Type {
	case "record", "error", "enum", "array", "map", "fixed":
		return false
	}
	return n.Logical == "" && len(n.Props) == 0 && n.Name == "" && n.Doc == ""
}

// defaultJSONOf writes a Go value as JSON, with byte slices and arrays as
// strings of code points.
func defaultJSONOf(v any) ([]byte, error) {
	return json.Marshal(codePoints(v))
}

// codePoints replaces the byte slices and arrays in v (also inside maps and
// slices of any) by their code point strings.
func codePoints(v any) any {
	switch x := v.(type) {
	case nil, json.RawMessage, string, bool, float64, json.Number:
		return v
	case []byte:
		r := make([]rune, len(x))
		for i, c := range x {
			r[i] = rune(c)
		}
		return string(r)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = codePoints(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = codePoints(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Array && rv.Type().Elem().Kind() == reflect.Uint8 {
		b := make([]byte, rv.Len())
		reflect.Copy(reflect.ValueOf(b), rv)
		return codePoints(b)
	}
	return v
}
