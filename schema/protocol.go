package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A Protocol is an Avro protocol (a .avpr file): a name, named types and
// messages. Its types are parsed as one Parser parses texts, in order,
// each referring to the types before it, in the protocol's namespace
// unless they name their own. A Protocol is immutable and safe for
// concurrent use.
type Protocol struct {
	name, namespace, doc string
	props                []Prop
	types                []*Schema // every named type, nested ones too, in definition order
	messages             []*Message
	listed               map[*Schema]bool // the types listed, while parsing
}

// A Message is one message of a protocol: its parameters (the fields of
// its request), its response, the errors it may throw, and whether it is
// one-way.
type Message struct {
	name, doc string
	props     []Prop
	request   *Schema // a record holding the parameters as fields
	response  *Schema
	errors    []*Schema
	oneWay    bool
}

// The JSON names of a protocol's and a message's own attributes; any other
// is a property.
var (
	protocolKeys = map[string]bool{"protocol": true, "namespace": true, "doc": true, "types": true, "messages": true}
	messageKeys  = map[string]bool{"doc": true, "request": true, "response": true, "errors": true, "one-way": true}
)

// ParseProtocol parses an Avro protocol from its JSON text, as Java's
// Protocol.parse reads it: "protocol" (the name, required; a dotted name
// is a full name, as a named type's), "namespace", "doc",
// "types" (named types only, each defined before it is used) and
// "messages" (each with "request", a list of fields; "response", a
// schema; "errors", names of error records; and "one-way", which requires
// the response null and no errors). Other attributes are kept as
// properties. A rejected protocol is an *Error whose Path locates the
// problem ("messages.send.request[1].type"). The limits are those of
// ParseOptions' defaults.
func ParseProtocol(text string) (*Protocol, error) {
	return parseProtocol(&ParseOptions{}, text)
}

// ParseProtocol is the package's ParseProtocol under these options' limits.
func (o ParseOptions) ParseProtocol(text string) (*Protocol, error) {
	return parseProtocol(&o, text)
}

func parseProtocol(o *ParseOptions, text string) (*Protocol, error) {
	if len(text) > o.maxSize() {
		return nil, &Error{Msg: fmt.Sprintf("protocol text of %d bytes exceeds the limit of %d (ParseOptions.MaxSize)", len(text), o.maxSize()), Err: ErrLimit}
	}
	v, _, err := decodeJSON(text)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*object)
	if !ok {
		return nil, &Error{Msg: fmt.Sprintf("a protocol must be an object, not %s", jsonKind(v))}
	}
	pr := &Protocol{}
	str := func(key string, required bool) (string, error) {
		v, ok := obj.get(key)
		if !ok || v == nil && !required {
			// Java writes a null namespace and doc as null.
			if required {
				return "", &Error{Msg: fmt.Sprintf("protocol without %q", key)}
			}
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", &Error{Path: key, Msg: fmt.Sprintf("must be a string, not %s", jsonKind(v))}
		}
		return s, nil
	}
	if pr.name, err = str("protocol", true); err != nil {
		return nil, err
	}
	if pr.namespace, err = str("namespace", false); err != nil {
		return nil, err
	}
	if pr.doc, err = str("doc", false); err != nil {
		return nil, err
	}
	// Java 1.12 reads a dotted protocol name as a full name, as a named
	// type's, which a namespace attribute does not change (Java 1.8 kept
	// it whole, its types in the null namespace).
	if i := lastDot(pr.name); i > 0 {
		pr.namespace, pr.name = pr.name[:i], pr.name[i+1:]
	}
	names := &parseState{unicodeNames: o.UnicodeNames}
	if !names.validName(pr.name) {
		return nil, &Error{Path: "protocol", Msg: fmt.Sprintf("invalid name %q", pr.name)}
	}
	if !names.validNamespace(pr.namespace) {
		return nil, &Error{Path: "namespace", Msg: fmt.Sprintf("invalid namespace %q", pr.namespace)}
	}
	if pr.props, err = propsOf(obj, protocolKeys, ""); err != nil {
		return nil, err
	}

	types := map[string]*Schema{}
	var typeList []any
	if tv, ok := obj.get("types"); ok {
		if typeList, ok = tv.([]any); !ok {
			return nil, &Error{Path: "types", Msg: fmt.Sprintf("must be an array, not %s", jsonKind(tv))}
		}
	}
	for i, t := range typeList {
		at := "types[" + strconv.Itoa(i) + "]"
		to, ok := t.(*object)
		kind, _ := objectType(to)
		if !ok || (kind != "record" && kind != "error" && kind != "enum" && kind != "fixed") {
			return nil, &Error{Path: at, Msg: "a protocol's types must be named types (record, error, enum or fixed), not " + jsonText(t)}
		}
		s, err := pr.parseIn(o, appendJSON(nil, t), types, at, "", "")
		if err != nil {
			return nil, err
		}
		pr.addTypes(s)
	}

	if mv, ok := obj.get("messages"); ok {
		mo, ok := mv.(*object)
		if !ok {
			return nil, &Error{Path: "messages", Msg: fmt.Sprintf("must be an object, not %s", jsonKind(mv))}
		}
		for _, m := range mo.members {
			msg, err := pr.message(o, m.key, m.val, types, names)
			if err != nil {
				return nil, err
			}
			pr.messages = append(pr.messages, msg)
		}
	}
	pr.listed = nil
	return pr, nil
}

func objectType(o *object) (string, bool) {
	if o == nil {
		return "", false
	}
	t, ok := o.get("type")
	s, _ := t.(string)
	return s, ok
}

// parseIn parses one schema JSON in the protocol's namespace against the
// named types so far, and adds the named types it defines but hidden to
// names. Errors are given the path at, in front of the path inside the
// text once its first skip bytes are taken off.
func (pr *Protocol) parseIn(o *ParseOptions, js []byte, names map[string]*Schema, at, skip, hidden string) (*Schema, error) {
	// The protocol's namespace encloses the text: a record around it
	// gives it that namespace, and the text is its field's type.
	var b bytes.Buffer
	b.WriteString(`{"type":"record","name":"avrogoProtocolScope",`)
	if pr.namespace != "" {
		b.WriteString(`"namespace":`)
		b.WriteString(strconv.Quote(pr.namespace))
		b.WriteString(`,`)
	}
	b.WriteString(`"fields":[{"name":"t","type":`)
	b.Write(js)
	b.WriteString(`}]}`)
	scope := qualify("avrogoProtocolScope", pr.namespace)
	if names[scope] != nil {
		return nil, &Error{Path: at, Msg: fmt.Sprintf("the name %s is taken by the protocol's parser", scope)}
	}
	root, st, err := parseTextState(o, b.String(), names)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Path = strings.TrimPrefix(strings.TrimPrefix(e.Path, "fields[0].type"), ".")
			e.Path = strings.TrimPrefix(e.Path, skip)
			e.Path = joinPath(at, e.Path)
		}
		return nil, err
	}
	for _, name := range st.added {
		if name != scope && name != hidden {
			names[name] = st.local[name]
		}
	}
	return root.Fields()[0].Type(), nil
}

func joinPath(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	case strings.HasPrefix(b, "["):
		return a + b
	}
	return a + "." + b
}

// addTypes adds the named types s defines that the protocol does not list
// yet, in definition order.
func (pr *Protocol) addTypes(s *Schema) {
	if pr.listed == nil {
		pr.listed = map[*Schema]bool{}
	}
	for _, n := range s.NamedTypes() {
		if !pr.listed[n] && !strings.HasSuffix(n.FullName(), "avrogoProtocolScope") && !strings.HasSuffix(n.FullName(), "avrogoMessageRequest") {
			pr.listed[n] = true
			pr.types = append(pr.types, n)
		}
	}
}

// message parses one message.
func (pr *Protocol) message(o *ParseOptions, name string, v any, names map[string]*Schema, rules *parseState) (*Message, error) {
	at := "messages." + name
	if !rules.validName(name) {
		return nil, &Error{Path: "messages", Msg: fmt.Sprintf("invalid message name %q", name)}
	}
	mo, ok := v.(*object)
	if !ok {
		return nil, &Error{Path: at, Msg: fmt.Sprintf("a message must be an object, not %s", jsonKind(v))}
	}
	m := &Message{name: name}
	if dv, ok := mo.get("doc"); ok {
		if m.doc, ok = dv.(string); !ok {
			return nil, &Error{Path: at + ".doc", Msg: fmt.Sprintf("must be a string, not %s", jsonKind(dv))}
		}
	}
	var err error
	if m.props, err = propsOf(mo, messageKeys, at); err != nil {
		return nil, err
	}
	rv, ok := mo.get("request")
	if !ok {
		return nil, &Error{Path: at, Msg: `message without "request"`}
	}
	if _, ok := rv.([]any); !ok {
		return nil, &Error{Path: at + ".request", Msg: fmt.Sprintf("must be an array of fields, not %s", jsonKind(rv))}
	}
	req := append([]byte(`{"type":"record","name":"avrogoMessageRequest","fields":`), appendJSON(nil, rv)...)
	req = append(req, '}')
	hidden := qualify("avrogoMessageRequest", pr.namespace)
	if m.request, err = pr.parseIn(o, req, names, at+".request", "fields", hidden); err != nil {
		return nil, err
	}
	pr.addTypes(m.request)

	resp, ok := mo.get("response")
	if !ok {
		return nil, &Error{Path: at, Msg: `message without "response"`}
	}
	if m.response, err = pr.parseIn(o, appendJSON(nil, resp), names, at+".response", "", ""); err != nil {
		return nil, err
	}
	pr.addTypes(m.response)

	if ov, ok := mo.get("one-way"); ok {
		b, isBool := ov.(bool)
		if !isBool {
			return nil, &Error{Path: at + ".one-way", Msg: fmt.Sprintf("must be a boolean, not %s", jsonKind(ov))}
		}
		m.oneWay = b
	}
	if ev, ok := mo.get("errors"); ok {
		list, isList := ev.([]any)
		if !isList {
			return nil, &Error{Path: at + ".errors", Msg: fmt.Sprintf("must be an array of error names, not %s", jsonKind(ev))}
		}
		for i, e := range list {
			ep := at + ".errors[" + strconv.Itoa(i) + "]"
			s, err := pr.parseIn(o, appendJSON(nil, e), names, ep, "", "")
			if err != nil {
				return nil, err
			}
			if s.Kind() != Record || !s.IsError() {
				return nil, &Error{Path: ep, Msg: "not an error: " + jsonText(e)}
			}
			pr.addTypes(s)
			m.errors = append(m.errors, s)
		}
	}
	if m.oneWay && (m.response.Kind() != Null || len(m.errors) > 0) {
		return nil, &Error{Path: at, Msg: "a one-way message must have the response null and no errors"}
	}
	return m, nil
}

// propsOf returns the attributes of o that are not in own, as Props.
func propsOf(o *object, own map[string]bool, at string) ([]Prop, error) {
	var props []Prop
	for _, m := range o.members {
		if own[m.key] {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(appendJSON(nil, m.val)))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return nil, &Error{Path: joinPath(at, m.key), Msg: err.Error()}
		}
		props = append(props, Prop{Name: m.key, Value: v})
	}
	return props, nil
}

// Name returns the protocol's name, without its namespace.
func (pr *Protocol) Name() string { return pr.name }

// Namespace returns the protocol's namespace, the default of its types.
func (pr *Protocol) Namespace() string { return pr.namespace }

// FullName returns the namespace and the name, dotted.
func (pr *Protocol) FullName() string { return qualify(pr.name, pr.namespace) }

// Doc returns the protocol's doc attribute.
func (pr *Protocol) Doc() string { return pr.doc }

// Props returns the protocol's attributes that Avro does not define.
func (pr *Protocol) Props() []Prop { return pr.props }

// Prop returns the value of a property of the protocol, and whether it
// has it.
func (pr *Protocol) Prop(name string) (any, bool) { return findProp(pr.props, name) }

// Types returns the protocol's named types, the ones nested in others
// and in messages included, in definition order.
func (pr *Protocol) Types() []*Schema { return pr.types }

// Type returns the named type of the given full name, or nil.
func (pr *Protocol) Type(fullName string) *Schema {
	for _, t := range pr.types {
		if t.FullName() == fullName {
			return t
		}
	}
	return nil
}

// Messages returns the protocol's messages, in the order of its text.
func (pr *Protocol) Messages() []*Message { return pr.messages }

// Message returns the message of that name, or nil.
func (pr *Protocol) Message(name string) *Message {
	for _, m := range pr.messages {
		if m.name == name {
			return m
		}
	}
	return nil
}

// Name returns the message's name.
func (m *Message) Name() string { return m.name }

// Doc returns the message's doc attribute.
func (m *Message) Doc() string { return m.doc }

// Props returns the message's attributes that Avro does not define.
func (m *Message) Props() []Prop { return m.props }

// Prop returns the value of a property of the message, and whether it has
// it.
func (m *Message) Prop(name string) (any, bool) { return findProp(m.props, name) }

// Params returns the message's parameters: the fields of its request, with
// their types, defaults and attributes as a record's fields have them.
func (m *Message) Params() []*Field { return m.request.Fields() }

// Response returns the schema of the message's response ("null" for a
// message that returns nothing).
func (m *Message) Response() *Schema { return m.response }

// Errors returns the error records the message declares it may throw
// (Avro adds a string error to every message, which is not listed).
func (m *Message) Errors() []*Schema { return m.errors }

// OneWay reports whether the message is one-way: no response, no errors.
func (m *Message) OneWay() bool { return m.oneWay }

func findProp(props []Prop, name string) (any, bool) {
	for _, p := range props {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// String returns the protocol as JSON, in the layout Java writes:
// "protocol", "namespace", "doc", the properties, "types" (each type
// defined once, at its first use, and referred to by name after) and
// "messages". ParseProtocol of the text gives an equal protocol.
func (pr *Protocol) String() string {
	var b bytes.Buffer
	b.WriteString(`{"protocol":`)
	b.WriteString(strconv.Quote(pr.name))
	if pr.namespace != "" {
		b.WriteString(`,"namespace":`)
		b.WriteString(strconv.Quote(pr.namespace))
	}
	if pr.doc != "" {
		b.WriteString(`,"doc":`)
		writeJSONString(&b, pr.doc)
	}
	writeProps(&b, pr.props)
	b.WriteString(`,"types":[`)
	// One writer for every type: each is defined once, where it is first
	// written, and named after.
	tw := stringWriter{seen: map[*Schema]bool{}, names: map[string]bool{}, elsewhere: map[string]bool{}}
	for _, t := range pr.types {
		if tw.seen[t] {
			continue
		}
		if len(tw.b) > 0 {
			tw.b = append(tw.b, ',')
		}
		tw.write(t, "")
	}
	b.Write(tw.b)
	written := make(map[string]bool, len(pr.types))
	for _, t := range pr.types {
		written[t.FullName()] = true
	}
	b.WriteString(`],"messages":{`)
	for i, m := range pr.messages {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, m.name)
		b.WriteString(`:{`)
		if m.doc != "" {
			b.WriteString(`"doc":`)
			writeJSONString(&b, m.doc)
			b.WriteByte(',')
		}
		for _, p := range m.props {
			writeJSONString(&b, p.Name)
			b.WriteByte(':')
			writeJSONValue(&b, p.Value)
			b.WriteByte(',')
		}
		b.WriteString(`"request":`)
		b.Write(fieldsJSON(m.request, written))
		b.WriteString(`,"response":`)
		b.WriteString(referring(m.response, written))
		if len(m.errors) > 0 {
			b.WriteString(`,"errors":[`)
			for j, e := range m.errors {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Quote(e.FullName()))
			}
			b.WriteByte(']')
		}
		if m.oneWay {
			b.WriteString(`,"one-way":true`)
		}
		b.WriteByte('}')
	}
	b.WriteString(`}}`)
	return b.String()
}

// MarshalJSON returns String's JSON.
func (pr *Protocol) MarshalJSON() ([]byte, error) { return []byte(pr.String()), nil }

// fieldsJSON returns the "fields" array of a message's request record.
func fieldsJSON(req *Schema, written map[string]bool) []byte {
	var rec struct {
		Fields json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal([]byte(referring(req, written)), &rec); err != nil || rec.Fields == nil {
		return []byte("[]")
	}
	return rec.Fields
}

// referring writes s with the named types in written referred to by name,
// as StringReferring does (s itself by name too when it is one of them).
func referring(s *Schema, written map[string]bool) string {
	w := stringWriter{seen: map[*Schema]bool{}, names: map[string]bool{}, elsewhere: written}
	w.write(s, "")
	return string(w.b)
}

func writeJSONString(b *bytes.Buffer, s string) {
	data, _ := json.Marshal(s)
	b.Write(data)
}

// writeProps writes ,"name":value for each property.
func writeProps(b *bytes.Buffer, props []Prop) {
	for _, p := range props {
		b.WriteByte(',')
		writeJSONString(b, p.Name)
		b.WriteByte(':')
		writeJSONValue(b, p.Value)
	}
}

func writeJSONValue(b *bytes.Buffer, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte("null")
	}
	b.Write(data)
}
